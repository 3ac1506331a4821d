// Whole frames into a pipe to a child process, by reference (vmsplice) where possible.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// vmsplice(2), looked up at run time: the Glibc module does not declare it.
private typealias VmspliceFunction = @convention(c) (Int32, UnsafePointer<iovec>?, Int, UInt32) -> Int
private let vmspliceFunction: VmspliceFunction? = {
    guard let symbol = dlsym(nil, "vmsplice") else { return nil }   // nil is RTLD_DEFAULT
    return unsafeBitCast(symbol, to: VmspliceFunction.self)
}()

/// Feeds whole frames into a pipe whose reader is a child process we wait for.
///
/// With vmsplice the pipe takes references to the frame's pages instead of a copy
/// (the reader's read() is then the only copy, as when ffmpeg reads a file): 242 MB
/// through the pipe for the curved-line scene cost chartreel 0.04–0.07 s of CPU as
/// write() copies. The pages must not change or be freed until the reader has consumed
/// them, so every frame is kept until at least a pipe's capacity of later bytes has
/// been spliced after it (the pipe can hold no more, so the earlier bytes have been
/// read), and the rest until `releaseAll()`, which the owner calls only once the reader
/// has exited. Where vmsplice is unavailable or the descriptor is not a pipe, it falls
/// back to write(). For a yuv4mpeg stream, the `FRAME` line goes before every frame, in
/// the same vmsplice call.
final class PipeFrameWriter {
    let fd: Int32
    private let capacity: Int
    /// Whether frames go by reference (vmsplice) rather than by copy.
    private(set) var splicing: Bool
    private var retained: [(bytes: [UInt8], end: Int)] = []
    private var first = 0
    private var total = 0

    /// Bytes sent before every frame (a yuv4mpeg stream's `FRAME` line), or none.
    private let marker: UnsafeRawBufferPointer?

    /// A writer to `fd`; with `yuv4mpeg`, each frame is preceded by yuv4mpeg's frame
    /// marker (the stream's header is the caller's to write first).
    init(fd: Int32, yuv4mpeg: Bool = false) {
        self.fd = fd
        let size = fcntl(fd, 1032 /* F_GETPIPE_SZ */)
        capacity = Int(size)
        splicing = size > 0 && vmspliceFunction != nil
        marker = yuv4mpeg ? Self.yuv4mpegMarker : nil
    }

    /// yuv4mpeg's frame marker in memory that is never freed or changed, so that a pipe
    /// may hold references to its page for as long as the process lives.
    nonisolated(unsafe) private static let yuv4mpegMarker: UnsafeRawBufferPointer = {
        let bytes = FFmpeg.yuv4mpegFrameMarker
        let p = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        bytes.withUnsafeBytes { p.copyMemory(from: $0) }
        return UnsafeRawBufferPointer(p)
    }()

    /// Sends the marker and all of `bytes`; returns 0 or the errno that stopped it (EPIPE:
    /// the reader is gone).
    func write(_ bytes: [UInt8]) -> Int32 {
        guard splicing, let vmsplice = vmspliceFunction else {
            if let marker, case let e = writeAll(fd, marker), e != 0 { return e }
            return bytes.withUnsafeBytes { writeAll(fd, $0) }
        }
        var sent = 0
        let err = bytes.withUnsafeBytes { raw -> Int32 in
            // The marker and the frame in one call: (base, length) of each part, and how
            // much of the whole has gone.
            var parts: [(UnsafeRawPointer, Int)] = []
            if let marker, let m = marker.baseAddress, marker.count > 0 { parts.append((m, marker.count)) }
            if let base = raw.baseAddress, raw.count > 0 { parts.append((base, raw.count)) }
            let whole = parts.reduce(0) { $0 + $1.1 }
            var done = 0
            while done < whole {
                var iovs: [iovec] = []
                var skip = done
                for (base, count) in parts {
                    if skip >= count { skip -= count; continue }
                    iovs.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: base + skip), iov_len: count - skip))
                    skip = 0
                }
                let n = iovs.withUnsafeBufferPointer { vmsplice(fd, $0.baseAddress, $0.count, 0) }
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            sent = done
            return 0
        }
        if sent > 0 {
            total += sent
            retained.append((bytes, total))
            while first < retained.count && total - retained[first].end >= capacity {
                retained[first].bytes = []
                first += 1
            }
            if first > 64 { retained.removeFirst(first); first = 0 }
        }
        if sent == 0 && (err == EINVAL || err == ENOSYS) {
            splicing = false   // not splicable after all: copy from now on
            return write(bytes)
        }
        return err
    }

    /// Frees every retained frame; call only when the reader has exited.
    func releaseAll() {
        retained.removeAll()
        first = 0
    }
}
