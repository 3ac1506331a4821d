// Small POSIX helpers shared by the sinks: whole-buffer writes, errno text,
// temporary sibling names and SIGPIPE handling.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The text of an errno value.
func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

/// Writes all of `buffer` to `fd`, retrying after partial writes and EINTR.
/// Returns 0 on success or the errno that stopped it (EPIPE when the reader is gone).
func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32 {
    guard var p = buffer.baseAddress else { return 0 }
    var left = buffer.count
    while left > 0 {
        let n = write(fd, p, left)
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        p += n; left -= n
    }
    return 0
}

/// `dir/.name.partial-<pid>` for `dir/name`: hidden, in the same directory so the final
/// rename is atomic, and distinct per process.
func temporarySibling(of path: String) -> String {
    let url = URL(fileURLWithPath: path)
    return url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())").path
}

/// Whether anything (file, directory, dangling symlink) exists at `path`.
func pathExists(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0
}

/// The most useful text of a Foundation error (the POSIX reason when there is one).
func reason(_ error: Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return errnoText(Int32(underlying.code))
    }
    return ns.localizedDescription
}

/// Makes writes to a closed pipe fail with EPIPE instead of killing the process.
/// Process-wide and permanent: a library that talks to child processes over pipes
/// cannot handle EPIPE any other way on Linux (there is no per-fd SO_NOSIGPIPE).
let ignoreSIGPIPE: Void = {
    _ = signal(SIGPIPE, SIG_IGN)
}()
