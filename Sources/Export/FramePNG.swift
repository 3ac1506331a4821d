// Fast PNG encoding for frame output, through the CPNGWrite C helper (libpng's full API).
//
// Raster's PNGCodec uses libpng's simplified API, which always compresses at zlib's
// default level 6 and tries every row filter on every row. A frame directory of a whole
// video wants speed over the last few percent of size, so frames are written with the
// settings below (zlib level 1, the Up filter: about 4 ms per 800×600 chart frame, other
// choices measured in docs/benchmarks.md), and opaque frames as RGB, a quarter less data
// to filter and deflate.
import CPNGWrite
import Foundation
import Raster

/// PNG encoding tuned for writing many frames quickly.
public enum FramePNG {
    /// zlib and filter settings for one PNG.
    public struct Settings: Equatable, Sendable {
        /// zlib level, 0 (store) to 9 (smallest).
        public var level: Int32
        /// zlib strategy: 0 default, 1 filtered, 2 Huffman only, 3 run-length.
        public var strategy: Int32
        /// The row filters libpng may choose from (CPNGW_FILTER_* bits).
        public var filters: Int32

        /// Creates settings from zlib's level and strategy and the allowed PNG filters.
        public init(level: Int32, strategy: Int32, filters: Int32) {
            self.level = level; self.strategy = strategy; self.filters = filters
        }

        /// The frame-directory default: zlib level 1 and the Up filter. On chart frames (flat
        /// colour, thin lines, vertical gradients) Up turns most rows into zeros, which
        /// level 1 deflates fast.
        public static let fast = Settings(level: 1, strategy: 0, filters: Int32(CPNGW_FILTER_UP))
    }

    /// Encodes `pixmap` as a PNG: RGB when it is opaque, straight RGBA otherwise. Safe to
    /// call from several threads at once.
    public static func encode(_ pixmap: Pixmap, settings: Settings = .fast) throws -> [UInt8] {
        let opaque = pixmap.isOpaque
        let rgba = opaque ? pixmap.data : pixmap.straightRGBA()
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = rgba.withUnsafeBufferPointer { px in
            cpngw_encode(px.baseAddress, UInt32(pixmap.width), UInt32(pixmap.height), pixmap.width * 4,
                         opaque ? 1 : 0,
                         cpngw_settings(level: settings.level, strategy: settings.strategy, filters: settings.filters),
                         &out, &size, &message, message.count)
        }
        guard status == 0, let bytes = out else {
            let text = String(cString: message)
            throw PNGError.encodeFailed(text.isEmpty ? "libpng could not start" : text)
        }
        defer { cpngw_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }
}

extension FramePNG {
    /// Encodes `pixmap` and writes it to `path` through a temporary sibling, fsynced and
    /// renamed into place, so `path` is never seen half-written. A character device or
    /// FIFO at `path` (or at the end of a symlink there) is written in place instead,
    /// never renamed over; `-` is standard output.
    public static func write(_ pixmap: Pixmap, toFile path: String, settings: Settings = .fast) throws {
        let bytes = try encode(pixmap, settings: settings)
        try writeImage(bytes, to: path)
    }

    /// Writes finished image bytes to `path` as `write(_:toFile:)` does.
    public static func writeImage(_ bytes: [UInt8], to path: String) throws {
        let target = try OutputTarget.prepare(path, format: nil, overwrite: true)
        switch target {
        case .stdout, .stream:
            _ = ignoreSIGPIPE
            let fd = target == .stdout ? STDOUT_FILENO : open(target.path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ExportError.io("cannot open \(target.path): \(errnoText(errno))") }
            let err = bytes.withUnsafeBytes { writeAll(fd, $0) }
            if fd != STDOUT_FILENO { close(fd) }
            if err != 0 {
                throw ExportError.io("cannot write \(target == .stdout ? "standard output" : target.path): \(errnoText(err))")
            }
        case .new(let file), .file(let file), .directory(let file):
            let temp = temporarySibling(of: file)
            EmergencyCleanup.addPartial(temp)
            defer { EmergencyCleanup.removePartial(temp) }
            do {
                try writeFile(temp, bytes, sync: true)
            } catch {
                unlink(temp)
                throw error
            }
            guard rename(temp, file) == 0 else {
                let e = errno
                unlink(temp)
                throw ExportError.io("cannot rename \(temp) to \(file): \(errnoText(e))")
            }
        }
    }
}
