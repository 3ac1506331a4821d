import Foundation
import Export
import CSpawn

/// Turns SIGINT, SIGTERM and SIGHUP into a cancelled `CancellationToken` while a command
/// writes output, so the export stops cleanly: ffmpeg is ended (SIGTERM, then SIGKILL
/// after half a second), temporary files are removed and the command exits 128 + the
/// signal's number (130, 143, 129) saying so.
///
/// Whatever happens to that clean stop, the process is gone within `deadline` seconds of
/// the first signal: then, or at once on a second signal, it SIGKILLs its children,
/// removes every temporary output still registered (`EmergencyCleanup`) and exits with
/// the same code. ffmpeg also dies if chartreel is SIGKILLed (PR_SET_PDEATHSIG, CSpawn).
///
/// ffmpeg runs in its own process group, so Ctrl-C at a terminal reaches only chartreel,
/// and chartreel decides how ffmpeg ends.
///
/// The signals themselves are read by `SignalRouter`'s thread; a trap only says, while it
/// lives, that they cancel its token rather than end the process.
final class SignalTrap: @unchecked Sendable {
    /// Cancelled by the first signal.
    let token = CancellationToken()
    /// How long the clean stop may take before the process exits regardless.
    static let deadline = 1.5
    private var released = false

    init() { SignalRouter.push(self) }

    /// Kills the children, removes temporary output and exits 128 + `sig`.
    static func exitNow(_ sig: Int32, reason: String) -> Never {
        EmergencyCleanup.run()
        writeToStandardError("error: interrupted by \(ExportError.signalName(sig)) (\(reason)): "
                             + "stopped at once; nothing was written\n")
        _exit(128 + sig)
    }

    /// From now on the signals end the process again (unless an outer trap is set).
    func release() {
        guard !released else { return }
        released = true
        SignalRouter.pop(self)
    }

    deinit { release() }
}

/// Reads SIGINT, SIGTERM and SIGHUP on one thread of its own, for the whole process.
///
/// `start()`, the first thing `main` does, blocks the three signals before any other
/// thread exists, so no thread ever runs a handler for them and none has a system call
/// interrupted; a signalfd delivers them to the router's thread. With a `SignalTrap` set,
/// a signal cancels the trap's token (a second one, or the deadline, ends the process at
/// once); without one, the process ends by the signal's default action, as if nothing had
/// been blocked. No signal is lost between the two: what libdispatch's signal sources
/// could not promise (their handler is installed later, on the manager thread, after the
/// default action has been turned off, so a signal in between vanished; and their queue
/// could be starved by busy workers).
enum SignalRouter {
    static let signals = [SIGINT, SIGTERM, SIGHUP]
    private static let lock = NSLock()
    nonisolated(unsafe) private static var traps: [SignalTrap] = []
    nonisolated(unsafe) private static var started = false

    /// Blocks the signals and starts the reading thread. Call before any thread is made.
    static func start() {
        lock.lock(); defer { lock.unlock() }
        guard !started else { return }
        started = true
        let fd = signals.withUnsafeBufferPointer { cspawn_signals_route($0.baseAddress, Int32($0.count)) }
        guard fd >= 0 else {
            // Without a signalfd the signals keep their default action (they end the process).
            var set = sigset_t()
            sigemptyset(&set)
            for s in signals { sigaddset(&set, s) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            return
        }
        let thread = Thread { run(fd) }
        thread.name = "chartreel signals"
        thread.start()
    }

    static func push(_ trap: SignalTrap) {
        lock.lock(); traps.append(trap); lock.unlock()
    }

    static func pop(_ trap: SignalTrap) {
        lock.lock(); traps.removeAll { $0 === trap }; lock.unlock()
    }

    private static func run(_ fd: Int32) -> Never {
        // The first signal that a trap took, and when the process must be gone by.
        var first: (signal: Int32, by: UInt64)?
        while true {
            var timeout: Int32 = -1
            if let f = first {
                let now = DispatchTime.now().uptimeNanoseconds
                timeout = f.by > now ? Int32(min((f.by - now + 999_999) / 1_000_000, UInt64(Int32.max))) : 0
            }
            let sig = cspawn_signals_next(fd, timeout)
            if sig == 0, let f = first {
                SignalTrap.exitNow(f.signal, reason: "the clean stop took over \(SignalTrap.deadline) s")
            }
            // -1 cannot happen with a valid signalfd (EINTR and EAGAIN are retried inside);
            // if it ever does, wait a little rather than spin.
            guard sig > 0 else { if sig < 0 { usleep(100_000) }; continue }
            lock.lock(); let trap = traps.last; lock.unlock()
            guard let trap else {
                EmergencyCleanup.run()
                cspawn_signals_die(sig)
                _exit(128 + sig)
            }
            if trap.token.error != nil { SignalTrap.exitNow(sig, reason: "a second signal") }
            trap.token.cancel(ExportError.interrupted(signal: sig))
            if first == nil {
                first = (sig, DispatchTime.now().uptimeNanoseconds + UInt64(SignalTrap.deadline * 1e9))
            }
        }
    }
}
