// PNG encode and decode through libpng's simplified API (`png_image`).
//
// Why the simplified API: the classic libpng API reports errors by longjmp out of
// a callback, which Swift cannot survive (it would skip Swift frames and leak or
// corrupt ARC state). The simplified API catches libpng's errors internally and
// reports them as a return value plus `png_image.message`, so every failure
// becomes a typed `PNGError` here.
//
// PNG holds straight (unpremultiplied) RGBA8 and `Pixmap` holds premultiplied
// RGBA8 (DESIGN.md, Pixels), so encode unpremultiplies and decode premultiplies.
// That round trip is exact for every valid premultiplied pixel: unpremultiplying
// with rounding moves a channel by at most 0.5·255/a, and premultiplying back
// moves it by less than 0.5, so rounding lands on the original value.
import CPNG
import Glibc

/// An error from encoding, decoding, reading or writing a PNG.
public enum PNGError: Error, Equatable, CustomStringConvertible {
    /// libpng rejected the input: not a PNG, truncated or corrupt. The payload is libpng's message.
    case decodeFailed(String)
    /// libpng failed while compressing the image. The payload is libpng's message.
    case encodeFailed(String)
    /// The image's width × height exceeds `PNGCodec.maxPixelCount` (a guard against hostile headers).
    case tooLarge(width: Int, height: Int)
    /// A PNG file could not be read or written: the path and the system's reason.
    case io(path: String, reason: String)
    /// The path to read is not a regular file (a FIFO would block, `/dev/zero` never ends).
    case notRegularFile(path: String, kind: String)
    /// The file is larger than `PNGCodec.maxFileBytes`.
    case fileTooLarge(path: String, bytes: Int)

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .decodeFailed(let m): return "not a readable PNG: \(m)"
        case .encodeFailed(let m): return "PNG encoding failed: \(m)"
        case .tooLarge(let w, let h):
            return "PNG of \(w)×\(h) pixels is larger than the limit of \(PNGCodec.maxPixelCount) pixels"
        case .io(let path, let reason): return "\(path): \(reason)"
        case .notRegularFile(let path, let kind): return "\(path): is a \(kind), not a regular file; expected a PNG file"
        case .fileTooLarge(let path, let bytes):
            return "\(path): \(bytes) bytes, larger than the limit of \(PNGCodec.maxFileBytes) bytes on a PNG file"
        }
    }
}

/// PNG encoding and decoding of `Pixmap`s (8-bit RGBA, sRGB).
public enum PNGCodec {
    /// The largest image, in pixels, that `decode` accepts (256 Mpx, 1 GiB of RGBA).
    /// A PNG header can claim any size; this keeps a corrupt or hostile file from
    /// allocating unbounded memory.
    public static let maxPixelCount = 1 << 28

    /// The largest PNG file, in bytes, that `Pixmap(pngFile:)` reads (1 GiB: the raw
    /// pixels of the largest image, which no PNG of it needs to exceed).
    public static let maxFileBytes = 1 << 30

    // PNG_FORMAT_RGBA: colour + alpha, 8 bits per channel, straight alpha, sRGB.
    private static let formatRGBA = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    /// Encodes `p` as an 8-bit RGBA PNG with straight alpha.
    public static func encode(_ p: Pixmap) throws -> [UInt8] {
        try encode(p, initialCapacity: pngSizeBound(width: p.width, height: p.height))
    }

    /// `encode` starting from a buffer of `initialCapacity` bytes; tests pass a small one
    /// to exercise the retry.
    static func encode(_ p: Pixmap, initialCapacity: Int) throws -> [UInt8] {
        let rgba = p.straightRGBA()
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(p.width)
        image.height = UInt32(p.height)
        image.format = formatRGBA

        // One compression pass: libpng documents an upper bound for the output
        // (PNG_IMAGE_PNG_SIZE_MAX, a macro Swift cannot import, recomputed here),
        // so a buffer of that size never needs the "ask for the size, then write"
        // second pass. If the bound were ever short, libpng reports the size it
        // needs and we retry once with exactly that.
        var capacity = max(1, initialCapacity)
        for _ in 0..<2 {
            var out = [UInt8](repeating: 0, count: capacity)
            var size = png_alloc_size_t(capacity)
            let ok = out.withUnsafeMutableBytes { dst in
                rgba.withUnsafeBytes { src in
                    png_image_write_to_memory(&image, dst.baseAddress, &size, 0,
                                              src.baseAddress, Int32(p.width * 4), nil)
                }
            }
            if ok != 0 {
                out.removeLast(out.count - Int(size))
                return out
            }
            // On failure libpng leaves `size` unchanged for a real error and sets it
            // to the needed size when only the buffer was too small.
            guard Int(size) > capacity else { throw PNGError.encodeFailed(message(of: &image)) }
            capacity = Int(size)
            image.warning_or_error = 0
            png_image_free(&image)
        }
        throw PNGError.encodeFailed("output buffer size estimate was wrong twice")
    }

    /// Decodes a PNG of any colour type and bit depth into a premultiplied `Pixmap`
    /// (libpng converts the samples to 8-bit sRGB RGBA first).
    public static func decode(_ bytes: [UInt8]) throws -> Pixmap {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }  // safe at any point; a no-op once libpng has freed it
        guard !bytes.isEmpty else { throw PNGError.decodeFailed("empty input") }
        let begun = bytes.withUnsafeBytes { src in
            png_image_begin_read_from_memory(&image, src.baseAddress, src.count)
        }
        guard begun != 0 else { throw PNGError.decodeFailed(message(of: &image)) }

        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0 else { throw PNGError.decodeFailed("zero image size") }
        guard width <= maxPixelCount / height else { throw PNGError.tooLarge(width: width, height: height) }

        image.format = formatRGBA
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let finished = rgba.withUnsafeMutableBytes { dst in
            png_image_finish_read(&image, nil, dst.baseAddress, Int32(width * 4), nil)
        }
        guard finished != 0 else { throw PNGError.decodeFailed(message(of: &image)) }
        guard let p = Pixmap(width: width, height: height, straightRGBA: rgba) else {
            throw PNGError.decodeFailed("pixel buffer does not match the image size")
        }
        return p
    }

    /// libpng's NUL-terminated `message` field as a String.
    private static func message(of image: inout png_image) -> String {
        let text = withUnsafeBytes(of: &image.message) { raw -> String in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        return text.isEmpty ? "unknown libpng error" : text
    }

    /// PNG_IMAGE_PNG_SIZE_MAX for 8-bit RGBA without a colour map (png.h, libpng 1.6):
    /// signature and fixed chunks, zlib's worst-case expansion of the filtered rows,
    /// and one 12-byte chunk header per PNG_ZBUF_SIZE (8192) bytes of IDAT.
    static func pngSizeBound(width: Int, height: Int) -> Int {
        let dataSize = width * height * 4 + height               // rows plus one filter byte each
        let compressed = dataSize + (dataSize + 7) >> 3 + (dataSize + 63) >> 6 + 11
        let fixedChunks = 8 + 25 + 16 + 44 + 12 + 12
        return fixedChunks + 12 * (compressed / 8192) + compressed
    }
}

extension Pixmap {
    /// Writes the pixmap as a PNG file. The bytes go to a temporary name in the same
    /// directory (`.<name>.partial-<pid>`) that is renamed over `path` once complete,
    /// so `path` is never seen half-written. No fsync: this guards against crashes
    /// of the process, not against power loss, which would cost a sync per frame.
    public func writePNG(toFile path: String) throws {
        let bytes = try PNGCodec.encode(self)
        let temp = temporarySibling(of: path)
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PNGError.io(path: path, reason: systemError(errno)) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno; return
                }
                offset += n
            }
        }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temp, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temp)
            throw PNGError.io(path: path, reason: systemError(failure))
        }
    }

    /// Reads and decodes the PNG file at `path`.
    ///
    /// Only a regular file of at most `PNGCodec.maxFileBytes` is read: it is opened
    /// without blocking (a FIFO with no writer would hang) and checked with `fstat` on the
    /// open descriptor, so `/dev/zero` or a pipe is refused at once rather than read until
    /// memory runs out; a file that grows past the limit while it is read is stopped there.
    public init(pngFile path: String) throws {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw PNGError.io(path: path, reason: systemError(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw PNGError.io(path: path, reason: systemError(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw PNGError.notRegularFile(path: path, kind: "directory")
        case S_IFIFO: throw PNGError.notRegularFile(path: path, kind: "FIFO (named pipe)")
        case S_IFCHR, S_IFBLK: throw PNGError.notRegularFile(path: path, kind: "device")
        default: throw PNGError.notRegularFile(path: path, kind: "special file")
        }
        let size = Int(info.st_size)
        guard size <= PNGCodec.maxFileBytes else { throw PNGError.fileTooLarge(path: path, bytes: size) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            guard bytes.count <= PNGCodec.maxFileBytes else { throw PNGError.fileTooLarge(path: path, bytes: bytes.count) }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PNGError.io(path: path, reason: systemError(errno))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        self = try PNGCodec.decode(bytes)
    }
}

/// `dir/.name.partial-<pid>` for `dir/name`: a name in the same directory (so rename is atomic),
/// hidden, and unique per process.
private func temporarySibling(of path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let dir = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    return "\(dir).\(name).partial-\(getpid())"
}

private func systemError(_ code: Int32) -> String {
    String(cString: strerror(code))
}
