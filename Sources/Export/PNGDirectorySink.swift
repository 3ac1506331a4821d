import Foundation
import Raster

/// Writes each frame as `frame-00000.png`, `frame-00001.png`, … into a directory.
///
/// The frames go into a hidden temporary sibling, `.<name>.partial-<pid>`, which is
/// renamed to the target only when `finish` succeeds, so the target directory is never
/// seen half-filled. File names carry the frame's index in the whole video
/// (`firstIndex` + the sink's index) with five digits, or as many as `totalFrames` needs,
/// so names sort in frame order and the directories of chunks rendered apart
/// (`--frames A..<B`) merge into exactly the directory of a single render.
///
/// Compression (`FramePNG`, zlib level 1) and the file write happen on the rendering
/// threads, in parallel; the delivering thread only counts.
public final class PNGDirectorySink: FrameSink {
    /// The directory the frames end up in.
    public let directory: String
    /// Whether an existing `directory` is replaced (on `finish`) rather than an error.
    public let overwrite: Bool
    /// The index in the whole video of this sink's frame 0.
    public let firstIndex: Int
    /// The whole video's frame count, which sets the digits in names; nil: this sink's count.
    public let totalFrames: Int?
    /// zlib and filter settings for each frame.
    public let settings: FramePNG.Settings
    /// Total bytes of PNG written so far.
    public private(set) var bytesWritten = 0

    private var tempDirectory: String?
    private var digits = 5

    /// Creates a sink for `directory`. With `overwrite` false, an existing path there makes
    /// `begin` throw `ExportError.outputExists`; with true, it is replaced when `finish` succeeds.
    public init(directory: String, overwrite: Bool = false, firstIndex: Int = 0, totalFrames: Int? = nil,
                settings: FramePNG.Settings = .fast) {
        self.directory = directory
        self.overwrite = overwrite
        self.firstIndex = firstIndex
        self.totalFrames = totalFrames
        self.settings = settings
    }

    deinit { abort() }

    /// The file name of frame `index` of a video of `totalFrames` frames.
    public static func fileName(index: Int, totalFrames: Int) -> String {
        fileName(index: index, digits: digitCount(totalFrames: totalFrames))
    }

    static func digitCount(totalFrames: Int) -> Int { max(5, String(max(0, totalFrames - 1)).count) }

    static func fileName(index: Int, digits: Int) -> String {
        let n = String(index)
        return "frame-" + String(repeating: "0", count: max(0, digits - n.count)) + n + ".png"
    }

    /// Checks the target and creates the temporary directory.
    public func begin(width: Int, height: Int, fps: Double, frameCount: Int) throws {
        if !overwrite && pathExists(directory) { throw ExportError.outputExists(directory) }
        digits = Self.digitCount(totalFrames: totalFrames ?? firstIndex + frameCount)
        let temp = temporarySibling(of: directory)
        let fm = FileManager.default
        if pathExists(temp) { try? fm.removeItem(atPath: temp) }  // left by a crashed run with our pid
        do {
            try fm.createDirectory(atPath: temp, withIntermediateDirectories: false)
        } catch {
            throw ExportError.io("cannot create \(temp): \(reason(error))")
        }
        tempDirectory = temp
        EmergencyCleanup.addPartial(temp)
        bytesWritten = 0
    }

    /// On the rendering threads: compresses the frame and writes its file; returns its size.
    public func encoder() -> @Sendable (Pixmap, Int) throws -> Int {
        guard let temp = tempDirectory else {
            return { _, _ in throw ExportError.invalidArgument("encode before begin") }
        }
        let first = firstIndex, settings = self.settings, digits = self.digits
        let memo = FrameMemo<[UInt8]>()
        return { frame, index in
            let path = temp + "/" + Self.fileName(index: first + index, digits: digits)
            let bytes: [UInt8]
            do {
                // A held frame (the same pixels as the last) is compressed once.
                bytes = try memo.encoded(frame) { try FramePNG.encode($0, settings: settings) }
            } catch {
                throw ExportError.io("\(path): \(error)")
            }
            try writeFile(path, bytes)
            return bytes.count
        }
    }

    /// The encoder compresses a copy of the pixels and writes it itself.
    public var encodingSharesPixels: Bool { false }

    /// Counts the frame; its file was written by the encoder.
    public func write(_ frame: Int, index: Int) throws {
        guard tempDirectory != nil else { throw ExportError.invalidArgument("write before begin") }
        bytesWritten += frame
    }

    /// Moves the finished directory into place, replacing an old one if `overwrite` allows.
    public func finish() throws {
        guard let temp = tempDirectory else { throw ExportError.invalidArgument("finish before begin") }
        try moveDirectoryIntoPlace(temp, directory, overwrite: overwrite)
        EmergencyCleanup.removePartial(temp)
        tempDirectory = nil
    }

    /// Removes the temporary directory and everything in it.
    public func abort() {
        if let temp = tempDirectory {
            try? FileManager.default.removeItem(atPath: temp)
            EmergencyCleanup.removePartial(temp)
        }
        tempDirectory = nil
    }
}

/// Writes `bytes` to a new file at `path` (create, truncate) with plain POSIX calls;
/// with `sync`, fsyncs it too, so a full disk or an I/O error shows here.
func writeFile(_ path: String, _ bytes: [UInt8], sync: Bool = false) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw ExportError.io("cannot create \(path): \(errnoText(errno))") }
    var err = bytes.withUnsafeBytes { writeAll(fd, $0) }
    if err == 0 && sync && fsync(fd) != 0 { err = errno }
    let closeErr = close(fd) == 0 ? 0 : errno
    if err != 0 || closeErr != 0 {
        throw ExportError.io("cannot write \(path): \(errnoText(err != 0 ? err : closeErr))")
    }
}

/// Renames the complete directory `temp` to `target`. An existing `target` is an error
/// unless `overwrite`; then it is moved aside first (rename(2) will not replace a
/// non-empty directory) and deleted once the new one is in place.
func moveDirectoryIntoPlace(_ temp: String, _ target: String, overwrite: Bool) throws {
    var displaced: String?
    if pathExists(target) {
        guard overwrite else { throw ExportError.outputExists(target) }
        let old = temporarySibling(of: target).replacingOccurrences(of: ".partial-", with: ".old-")
        if pathExists(old) { try? FileManager.default.removeItem(atPath: old) }
        guard rename(target, old) == 0 else {
            throw ExportError.io("cannot move \(target) aside: \(errnoText(errno))")
        }
        displaced = old
        EmergencyCleanup.addDisplaced(old, original: target)
    }
    guard rename(temp, target) == 0 else {
        let e = errno
        if let old = displaced { rename(old, target); EmergencyCleanup.removeDisplaced(old) }  // put the old output back
        throw ExportError.io("cannot rename \(temp) to \(target): \(errnoText(e))")
    }
    if let old = displaced {
        EmergencyCleanup.removeDisplaced(old)
        try? FileManager.default.removeItem(atPath: old)
    }
}
