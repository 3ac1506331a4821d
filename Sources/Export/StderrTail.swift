// A child's stderr, drained so it can never fill and block the child, keeping its last lines.
import Foundation

/// Drains a child's stderr on a background thread, keeping only the last bytes.
final class StderrTail: @unchecked Sendable {
    /// The most bytes kept; older output is dropped from the front.
    static let limit = 16 * 1024

    private let fd: Int32
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)
    private var joined = false

    init(fd: Int32) {
        self.fd = fd
        let t = Thread { [self] in drain() }
        t.name = "chartreel.ffmpeg-stderr"
        t.start()
    }

    private func drain() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            lock.lock()
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > Self.limit { bytes.removeFirst(bytes.count - Self.limit) }
            lock.unlock()
        }
        done.signal()
    }

    /// Waits until the child has closed its stderr (it has exited, or soon will).
    /// A process the child left behind may keep the pipe open: after `timeout` seconds the
    /// tail is taken as it is (the reading thread is left to end with that process).
    func join(timeout: Double = 2) {
        if joined { return }
        joined = true
        if done.wait(timeout: .now() + timeout) == .success { close(fd) }
    }

    /// The last `n` lines of what was read.
    func lastLines(_ n: Int) -> String {
        lock.lock(); defer { lock.unlock() }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: true).suffix(n).joined(separator: "\n")
    }
}
