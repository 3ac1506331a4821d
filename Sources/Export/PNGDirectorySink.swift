import Foundation
import Raster

/// Writes each frame as `frame-00000.png`, `frame-00001.png`, … into a directory.
///
/// The frames go into a hidden temporary sibling, `.<name>.partial-<pid>`, which is
/// renamed to the target only when `finish` succeeds, so the target directory is never
/// seen half-filled. The index has five digits, or more when the frame count needs them,
/// so names always sort in frame order.
///
/// PNG encoding happens in `write`, on the delivering thread.
public final class PNGDirectorySink: FrameSink {
    /// The directory the frames end up in.
    public let directory: String
    /// Whether an existing `directory` is replaced (on `finish`) rather than an error.
    public let overwrite: Bool

    private var tempDirectory: String?
    private var digits = 5

    /// Creates a sink for `directory`. With `overwrite` false, an existing path there makes
    /// `begin` throw `ExportError.outputExists`; with true, it is replaced when `finish` succeeds.
    public init(directory: String, overwrite: Bool = false) {
        self.directory = directory
        self.overwrite = overwrite
    }

    deinit { abort() }

    /// Checks the target and creates the temporary directory.
    public func begin(width: Int, height: Int, fps: Double, frameCount: Int) throws {
        if !overwrite && pathExists(directory) { throw ExportError.outputExists(directory) }
        digits = max(5, String(max(0, frameCount - 1)).count)
        let temp = temporarySibling(of: directory)
        let fm = FileManager.default
        if pathExists(temp) { try? fm.removeItem(atPath: temp) }  // left by a crashed run with our pid
        do {
            try fm.createDirectory(atPath: temp, withIntermediateDirectories: false)
        } catch {
            throw ExportError.io("cannot create \(temp): \(reason(error))")
        }
        tempDirectory = temp
    }

    /// Encodes the frame and writes it as `frame-<index>.png` in the temporary directory.
    public func write(_ frame: Pixmap, index: Int) throws {
        guard let temp = tempDirectory else { throw ExportError.invalidArgument("write before begin") }
        let name = "frame-" + String(repeating: "0", count: max(0, digits - String(index).count)) + "\(index).png"
        let path = temp + "/" + name
        do {
            let bytes = try PNGCodec.encode(frame)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch let e as PNGError {
            throw ExportError.io("\(path): \(e)")
        } catch {
            throw ExportError.io("cannot write \(path): \(reason(error))")
        }
    }

    /// Moves the finished directory into place, replacing an old one if `overwrite` allows.
    public func finish() throws {
        guard let temp = tempDirectory else { throw ExportError.invalidArgument("finish before begin") }
        var displaced: String?
        if pathExists(directory) {
            guard overwrite else { throw ExportError.outputExists(directory) }
            // rename(2) will not replace a non-empty directory: move the old one aside
            // first, then delete it once the new one is in place.
            let old = temporarySibling(of: directory).replacingOccurrences(of: ".partial-", with: ".old-")
            if pathExists(old) { try? FileManager.default.removeItem(atPath: old) }
            guard rename(directory, old) == 0 else {
                throw ExportError.io("cannot move \(directory) aside: \(errnoText(errno))")
            }
            displaced = old
        }
        guard rename(temp, directory) == 0 else {
            let e = errno
            if let old = displaced { rename(old, directory) }  // put the old output back
            throw ExportError.io("cannot rename \(temp) to \(directory): \(errnoText(e))")
        }
        tempDirectory = nil
        if let old = displaced { try? FileManager.default.removeItem(atPath: old) }
    }

    /// Removes the temporary directory and everything in it.
    public func abort() {
        if let temp = tempDirectory { try? FileManager.default.removeItem(atPath: temp) }
        tempDirectory = nil
    }
}
