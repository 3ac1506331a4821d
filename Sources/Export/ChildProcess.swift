// A child process (ffmpeg, ffprobe) started through CSpawn: it dies with chartreel even
// when chartreel is SIGKILLed (PR_SET_PDEATHSIG), runs in its own process group, and is
// ended SIGTERM first, then SIGKILL after a short grace, so a child stuck in a system
// call (opening a FIFO nobody writes) cannot outlive a request to stop.
import CSpawn
import Foundation

/// A new pipe with both ends close-on-exec, so no other child inherits them.
func makePipe() throws -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    let err = cspawn_pipe(&fds)
    guard err == 0 else { throw ExportError.io("cannot create a pipe: \(errnoText(err))") }
    return (fds[0], fds[1])
}

/// A running child process and how it ended.
///
/// The kernel sends the death signal when the *thread* that started the child ends, not
/// only the process. Children are started by the thread that runs the export (a sink's
/// `begin`, `Concatenation.joinVideos`, a probe) and that thread waits for them, so it
/// outlives every child it starts.
final class ChildProcess: @unchecked Sendable {
    /// Its process id.
    let pid: pid_t
    private let lock = NSLock()
    private var reaped = false
    private var rawStatus: Int32 = 0
    private let done = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments`; -1 for a descriptor means /dev/null.
    init(executable: String, arguments: [String], stdin: Int32 = -1, stdout: Int32 = -1, stderr: Int32 = -1) throws {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let err = cspawn(executable, argv, stdin, stdout, stderr, &child)
        guard err == 0 else { throw ExportError.io("cannot start \(executable): \(errnoText(err))") }
        pid = child
        EmergencyCleanup.addChild(child)
        // waitpid blocks a thread of its own: no polling, and the exit is seen at once.
        let t = Thread { [self] in
            var st: Int32 = 0
            while waitpid(pid, &st, 0) < 0 && errno == EINTR {}
            lock.lock()
            rawStatus = st
            reaped = true
            lock.unlock()
            EmergencyCleanup.removeChild(pid)
            done.signal()
            done.signal()   // one for wait(), one spare for a concurrent terminate()
        }
        t.name = "chartreel.child-wait"
        t.start()
    }

    /// Whether it has exited and been reaped.
    var hasExited: Bool { lock.lock(); defer { lock.unlock() }; return reaped }

    /// Sends `signal` to its process group (a wrapper script's children too), and to the
    /// process itself while it has not been reaped (its pid may then be someone else's; a
    /// group id is not reused while the group has members).
    func send(_ signal: Int32) {
        lock.lock(); defer { lock.unlock() }
        kill(-pid, signal)
        if !reaped { kill(pid, signal) }
    }

    /// Waits for the exit, at most `timeout` seconds when given; whether it has exited.
    @discardableResult
    func wait(timeout: Double? = nil) -> Bool {
        if hasExited { return true }
        if let timeout {
            guard done.wait(timeout: .now() + timeout) == .success else { return false }
        } else {
            done.wait()
        }
        done.signal()   // leave the token for the next waiter
        return true
    }

    /// SIGTERM, then SIGKILL if it has not exited `grace` seconds later; waits for the end.
    func terminate(grace: Double = ChildProcess.grace) {
        send(SIGTERM)
        if !wait(timeout: grace) {
            send(SIGKILL)
            wait()
        }
    }

    /// How long a child gets between SIGTERM and SIGKILL: ffmpeg ends within milliseconds
    /// of SIGTERM unless it is stuck in a system call, which only SIGKILL ends.
    static let grace = 0.5

    /// The exit status, or minus the signal that ended it; 0 while running.
    var status: Int32 {
        lock.lock(); defer { lock.unlock() }
        let st = rawStatus
        let signal = st & 0x7f
        return signal == 0 ? (st >> 8) & 0xff : -signal
    }
}

/// Runs `executable` to completion and returns its exit status, stdout and stderr (each
/// read on its own thread, so neither pipe can fill and block the child).
func capture(_ executable: String, _ arguments: [String]) throws -> (Int32, String, String) {
    let outPipe = try makePipe()
    let errPipe: (read: Int32, write: Int32)
    do { errPipe = try makePipe() } catch {
        close(outPipe.read); close(outPipe.write)
        throw error
    }
    let outFDs = [outPipe.read, outPipe.write], errFDs = [errPipe.read, errPipe.write]
    let child: ChildProcess
    do {
        child = try ChildProcess(executable: executable, arguments: arguments, stdout: outFDs[1], stderr: errFDs[1])
    } catch {
        for fd in outFDs + errFDs { close(fd) }
        throw error
    }
    close(outFDs[1]); close(errFDs[1])
    let errText = DrainedText(fd: errFDs[0])
    let out = readAll(outFDs[0])
    close(outFDs[0])
    child.wait()
    return (child.status, String(decoding: out, as: UTF8.self), errText.wait())
}

/// Every byte readable from `fd` until end of file.
func readAll(_ fd: Int32) -> [UInt8] {
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    return out
}

/// A descriptor read to its end on a thread of its own (then closed).
private final class DrainedText: @unchecked Sendable {
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)
    init(fd: Int32) {
        let t = Thread { [self] in bytes = readAll(fd); close(fd); done.signal() }
        t.start()
    }
    func wait() -> String { done.wait(); return String(decoding: bytes, as: UTF8.self) }
}
