// How big an output will be, estimated before any frame is drawn, and whether it fits
// on the disk it goes to.
//
// A document within every limit can still ask for terabytes: 16,384² pixels at 1,000
// fps for an hour is about 13 TB of PNG frames. Rendering that would fill the disk after
// hours of work, so the estimate is compared with the free space first. The estimate is
// the frame count times the pixels of a frame times a typical number of bytes per pixel
// for the format, measured on this project's timelines (curved-line-reveal at 800x600
// and bar-race at 1280x720, `chartreel render` to each format): PNG frames 0.060–0.062
// bytes a pixel, APNG 0.030–0.031, GIF 0.014, MOV (ProRes 4444) 0.23, MP4 (CRF 18)
// 0.0016–0.0024, WebM 0.0011–0.0030. Charts with much texture or noise compress worse,
// so the figures are rounded up; an estimate is "about", and `--no-space-check` is the
// way past a wrong one.
import Foundation

/// An output's estimated size, and the free space where it goes.
public struct OutputSizeEstimate: Sendable, Equatable {
    /// The estimated size of the whole output, in bytes.
    public let bytes: Double
    /// The free space (for an unprivileged user) in the directory the output goes to, or
    /// nil when it is not a file or directory (standard output, a FIFO, a device) or
    /// cannot be asked.
    public let freeBytes: Double?

    /// Typical bytes per pixel per frame of a format (see the file's header).
    public static func bytesPerPixel(_ format: OutputFormat) -> Double {
        switch format {
        case .rgba: return 4
        case .png: return 0.08
        case .apng: return 0.04
        case .gif: return 0.02
        case .mov: return 0.3
        case .mp4: return 0.004
        case .webm: return 0.004
        }
    }

    /// The estimate for `plan` written to `target`.
    public init(plan: OutputPlan, target: OutputTarget) {
        let s = plan.scene
        bytes = Double(plan.range.count) * Double(s.width) * Double(s.height) * Self.bytesPerPixel(plan.format)
        switch target {
        case .stdout, .stream: freeBytes = nil
        case .new(let p), .file(let p): freeBytes = Self.freeSpace(inDirectoryOf: p, isDirectory: false)
        case .directory(let p): freeBytes = Self.freeSpace(inDirectoryOf: p, isDirectory: true)
        }
    }

    /// Creates an estimate from its figures (tests).
    public init(bytes: Double, freeBytes: Double?) {
        self.bytes = bytes
        self.freeBytes = freeBytes
    }

    /// True when the output is estimated not to fit in the free space.
    public var exceedsFreeSpace: Bool {
        guard let freeBytes else { return false }
        return bytes > freeBytes
    }

    /// `about 3.6 MB`, for messages.
    public static func describe(_ bytes: Double) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB", "PB"]
        var v = bytes, i = 0
        while v >= 1000 && i < units.count - 1 { v /= 1000; i += 1 }
        if i == 0 { return "\(Int(v)) bytes" }
        return String(format: v < 10 ? "%.1f" : "%.0f", v) + " " + units[i]
    }

    /// The free space of the filesystem that holds `path` (a directory, or a file whose
    /// directory is used, created or not).
    static func freeSpace(inDirectoryOf path: String, isDirectory: Bool) -> Double? {
        var dir = path
        if !isDirectory {
            if let slash = path.lastIndex(of: "/") { dir = slash == path.startIndex ? "/" : String(path[..<slash]) } else { dir = "." }
        }
        // A directory not made yet: ask its nearest existing parent.
        var info = statvfs()
        while statvfs(dir, &info) != 0 {
            guard let slash = dir.lastIndex(of: "/"), !dir.isEmpty, dir != "/" else {
                return statvfs(".", &info) == 0 ? free(info) : nil
            }
            dir = slash == dir.startIndex ? "/" : String(dir[..<slash])
        }
        return free(info)
    }

    /// The space an unprivileged user may fill, or nil for a filesystem that reports no
    /// size at all (/proc, /sys, some FUSE mounts): its "0 bytes free" says nothing, and
    /// writing there fails, or not, on its own terms.
    private static func free(_ info: statvfs) -> Double? {
        info.f_blocks == 0 ? nil : Double(info.f_bavail) * Double(info.f_frsize)
    }
}
