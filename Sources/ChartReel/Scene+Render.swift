import Foundation
import Raster
import Scene
import Export

extension Scene {
    /// Frame `index` at the scene's rate: time index / fps, computed from the integers.
    public func frame(index: Int) -> Pixmap {
        frame(at: Scene.time(ofFrame: index, fps: fps))
    }

    /// Renders every frame to `url`, the format chosen by its extension exactly as
    /// `chartreel render` chooses it (`OutputFormat.resolve`, the one place): `.mp4`,
    /// `.gif`, `.webm`, `.apng`, `.mov` through ffmpeg, a path without an extension or
    /// ending in `/` as a directory of PNG frames; `format` overrides the extension.
    ///
    /// The output goes through the same plan and writer as the command line's
    /// (`OutputPlan`, `OutputWriter`): a transparent background keeps its alpha in WebM,
    /// MOV, APNG, GIF and PNG and is composited onto `matte` for MP4; GIFs are sampled at
    /// 50 fps at most (browsers play GIF frame delays under 2/100 s too slowly); odd
    /// sizes are padded for MP4; video files are verified before they are renamed into
    /// place.
    ///
    /// - `fps`: sample the timeline at another rate.
    /// - `matte`: what a transparent background becomes in a format without alpha.
    /// - `threads`: rendering threads; frames are byte-identical for any count.
    /// - `overwrite`: replace an existing output (as `Data.write(to:)` does); false
    ///   refuses with `ExportError.outputExists`. A directory is replaced only when it
    ///   holds nothing but frame files (`ExportError.refused` otherwise).
    /// - `progress`: called with (frames written, frame count) after each frame.
    ///
    /// The output appears only when complete: a failure leaves nothing half-written.
    public func render(to url: URL, format: OutputFormat? = nil, fps: Double? = nil, matte: Color = .white,
                       threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                       overwrite: Bool = true, progress: ((Int, Int) -> Void)? = nil) throws {
        let path = url.hasDirectoryPath && !url.path.hasSuffix("/") ? url.path + "/" : url.path
        if let fps { guard fps > 0, fps.isFinite else {
            throw ChartReelError.unsupportedOutput(path: path, reason: "fps must be a positive number, not \(fps)")
        } }
        let resolved: OutputFormat
        do throws(OutputFormat.Unresolved) {
            if let format { resolved = format } else { resolved = try OutputFormat.resolve(path: path) }
        } catch .singlePNG {
            throw ChartReelError.unsupportedOutput(path: path, reason: "is one PNG file; write one frame with "
                                                   + "frame(at:).writePNG(toFile:), or give a directory for PNG frames")
        } catch {
            let known = OutputFormat.videoFormats.map { ".\($0.rawValue)" }.joined(separator: ", ")
            let ext = url.pathExtension.lowercased()
            throw ChartReelError.unsupportedOutput(path: path, reason: "cannot tell the format from .\(ext); use \(known) or a directory")
        }
        let plan = try OutputPlan(scene: self, format: resolved, fps: fps, matte: matte)
        var writer = OutputWriter()
        writer.overwrite = overwrite
        writer.threads = max(1, threads)
        writer.progress = progress
        try writer.write(plan, to: path)
    }
}
