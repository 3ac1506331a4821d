import Foundation
import Raster
import Scene
import Export

extension Scene {
    /// Frame `index` at the scene's rate: time index / fps, computed from the integers.
    public func frame(index: Int) -> Pixmap {
        frame(at: Scene.time(ofFrame: index, fps: fps))
    }

    /// Renders every frame to `url`, the format chosen by its extension as `chartreel
    /// render` chooses it: `.mp4`, `.gif` (and any other video format Export knows, such
    /// as `.webm`) through ffmpeg, a path without an extension or ending in `/` as a
    /// directory of PNG frames.
    ///
    /// - `fps`: sample the timeline at another rate; GIFs above 50 fps are sampled at 50,
    ///   because browsers play GIF frame delays under 2/100 s too slowly.
    /// - `threads`: rendering threads; frames are byte-identical for any count.
    /// - `overwrite`: replace an existing output (as `Data.write(to:)` does); false
    ///   refuses with `ExportError.outputExists`.
    /// - `progress`: called with (frames written, frame count) after each frame.
    ///
    /// The output appears only when complete: a failure leaves nothing half-written.
    public func render(to url: URL, fps: Double? = nil, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                       overwrite: Bool = true, progress: ((Int, Int) -> Void)? = nil) throws {
        let path = url.path
        let ext = url.pathExtension.lowercased()
        var rate = fps ?? self.fps
        guard rate > 0, rate.isFinite else { throw ChartReelError.unsupportedOutput(path: path, reason: "fps must be a positive number, not \(rate)") }
        if ext.isEmpty || url.hasDirectoryPath {
            try drive(PNGDirectorySink(directory: path, overwrite: overwrite), fps: rate, threads: threads, progress: progress)
            return
        }
        if ext == "png" {
            throw ChartReelError.unsupportedOutput(path: path, reason: "is one PNG file; write one frame with frame(at:).writePNG(toFile:), or give a directory for PNG frames")
        }
        guard let format = VideoFormat(rawValue: ext) else {
            let known = VideoFormat.allCases.map { ".\($0.rawValue)" }.joined(separator: ", ")
            throw ChartReelError.unsupportedOutput(path: path, reason: "cannot tell the format from .\(ext); use \(known) or a directory")
        }
        if format == .gif { rate = min(rate, 50) }
        try drive(FFmpegSink(outputPath: path, format: format, overwrite: overwrite), fps: rate, threads: threads, progress: progress)
    }

    /// Begins `sink` and runs the sequencer over every frame at `rate` into it.
    private func drive<S: FrameSink>(_ sink: S, fps rate: Double, threads: Int, progress: ((Int, Int) -> Void)?) throws {
        let count = frameCount(fps: rate)
        let scene = self
        do {
            try sink.begin(width: width, height: height, fps: rate, frameCount: count)
        } catch {
            sink.abort()
            throw error
        }
        try FrameSequencer(threads: max(1, threads)).run(frameCount: count, render: { i in
            scene.frame(at: Scene.time(ofFrame: i, fps: rate))
        }, sink: sink, progress: progress)
    }
}
