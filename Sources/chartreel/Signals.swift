import Dispatch
import Foundation
import Export

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
final class SignalTrap {
    /// Cancelled by the first signal.
    let token = CancellationToken()
    /// How long the clean stop may take before the process exits regardless.
    static let deadline = 1.5
    private var sources: [DispatchSourceSignal] = []
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    init() {
        for sig in Self.signals {
            // Dispatch sources see signals only when the default action is off.
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            let token = self.token
            source.setEventHandler {
                if token.error != nil { Self.exitNow(sig, reason: "a second signal") }
                token.cancel(ExportError.interrupted(signal: sig))
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.deadline) {
                    Self.exitNow(sig, reason: "the clean stop took over \(Self.deadline) s")
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Kills the children, removes temporary output and exits 128 + `sig`.
    static func exitNow(_ sig: Int32, reason: String) -> Never {
        EmergencyCleanup.run()
        writeToStandardError("error: interrupted by \(ExportError.signalName(sig)) (\(reason)): "
                             + "stopped at once; nothing was written\n")
        _exit(128 + sig)
    }

    /// Restores the default actions.
    func release() {
        for s in sources { s.cancel() }
        sources.removeAll()
        for sig in Self.signals { signal(sig, SIG_DFL) }
    }

    deinit { release() }
}
