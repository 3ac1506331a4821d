// Golden-image checks for test suites, in resvg's manner (STYLE.md, 6): compare with a
// tight tolerance, leave an expected | actual | diff picture behind on failure, and
// rewrite references only when asked by an environment variable.
import Foundation
import Raster

/// A frame that does not match its reference image.
public struct PixmapMismatch: Error, CustomStringConvertible {
    /// The reference image's path.
    public var reference: String
    /// What differs (sizes, or the measures of `PixmapDifference`).
    public var summary: String
    /// Where the expected | actual | diff picture was written, if it was.
    public var comparisonImage: String?
    /// The message a failing test prints.
    public var description: String {
        "\(reference): \(summary)" + (comparisonImage.map { "; expected | actual | diff written to \($0)" } ?? "")
    }
}

extension Pixmap {
    /// The environment variable that, set to 1, makes `verifyMatches(png:)` write the
    /// actual frame as the reference instead of comparing.
    public static let updateReferencesVariable = "CHARTREEL_UPDATE_REFERENCES"

    /// Reads a PNG file.
    public init(contentsOf url: URL) throws { try self.init(pngFile: url.path) }

    /// Writes the pixmap as a PNG file (atomically).
    public func write(to url: URL) throws { try writePNG(toFile: url.path) }

    /// How far this pixmap is from the PNG at `url` (see `PixmapDifference`).
    public func difference(fromPNG url: URL, tolerance: Int = 0) throws -> PixmapDifference {
        try PixmapDifference(Pixmap(contentsOf: url), self, tolerance: tolerance)
    }

    /// Checks this frame against the reference PNG at `url`: it passes when no channel of
    /// any pixel differs by more than `tolerance` (0–255). Otherwise it writes
    /// `<reference name>.comparison.png` (expected | actual | diff, differences in red)
    /// into `failureDirectory` (the temporary directory by default) and throws a
    /// `PixmapMismatch` that says where.
    ///
    /// With `CHARTREEL_UPDATE_REFERENCES=1` in the environment, or when the reference does
    /// not exist and `createMissing` is true, the frame is written as the reference.
    public func verifyMatches(png url: URL, tolerance: Int = 0, createMissing: Bool = false,
                              failureDirectory: URL? = nil) throws {
        let fm = FileManager.default
        let update = ProcessInfo.processInfo.environment[Pixmap.updateReferencesVariable] == "1"
        if update || (createMissing && !fm.fileExists(atPath: url.path)) {
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try write(to: url)
            return
        }
        guard fm.fileExists(atPath: url.path) else {
            throw PixmapMismatch(reference: url.path, summary: "no reference image; run with \(Pixmap.updateReferencesVariable)=1 to write it",
                                 comparisonImage: nil)
        }
        let expected = try Pixmap(contentsOf: url)
        let d: PixmapDifference
        do {
            d = try PixmapDifference(expected, self, tolerance: tolerance)
        } catch {
            throw PixmapMismatch(reference: url.path, summary: error.description, comparisonImage: nil)
        }
        guard !d.withinTolerance else { return }
        let dir = failureDirectory ?? fm.temporaryDirectory.appendingPathComponent("chartreel-failures")
        try fm.createDirectory(at: dir, withIntermediateDirectories: true)
        let out = dir.appendingPathComponent(url.deletingPathExtension().lastPathComponent + ".comparison.png")
        try d.sideBySide(expected: expected, actual: self).write(to: out)
        throw PixmapMismatch(reference: url.path, summary: d.summary, comparisonImage: out.path)
    }
}
