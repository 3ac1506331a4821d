// Writing a planned output to a path: the one place a format and a target become a sink.
// The command line's `render` and the Swift API's `Scene.render(to:)` both end here, so
// both get the same checks (OutputTarget), the same stale-partial clean-up, the same
// verification of video files and the same signal handling.
import Foundation
import Raster

/// Writes the frames of an `OutputPlan` to a path.
public struct OutputWriter {
    /// Whether an existing file or frame directory (frames only) may be replaced.
    public var overwrite = false
    /// Rendering threads; frames are byte-identical for any count.
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    /// Stops the export when cancelled (a signal): ffmpeg is ended, temporary output removed.
    public var cancellation: CancellationToken?
    /// Called with (frames written, frame count) after each frame.
    public var progress: ((Int, Int) -> Void)?
    /// The ffmpeg executable; nil searches PATH.
    public var ffmpegPath: String?
    /// Seconds ffmpeg may take no frame before it is stopped (`FFmpegSink.stallTimeout`).
    public var stallTimeout = FFmpegSink.defaultStallTimeout
    /// Files the render reads (the document, its data and fonts): never written or removed.
    public var inputs: [String] = []
    /// Receives remarks for the user (a stale temporary file removed), one sentence each.
    public var note: (String) -> Void = { _ in }
    /// An ffmpeg started before the plan was known (`FFmpegPrestart.start`): `write` uses
    /// it when it fits the plan, and otherwise stops it.
    public var prestarted: FFmpegPrestart?

    /// Creates a writer with the defaults above.
    public init() {}

    /// What a finished write produced.
    public struct Written: Sendable {
        /// Where the output went ("-" for standard output; a symlink's target).
        public var path: String
        /// Bytes written: the file's or the frame files' size, or the raw stream's length.
        public var bytes: Int?
    }

    /// Checks `path` for `plan`'s format without writing anything (the refusals `write`
    /// would make, before any rendering).
    public func check(_ plan: OutputPlan, to path: String) throws -> OutputTarget {
        try Self.check(format: plan.format, path: path, overwrite: overwrite, inputs: inputs)
    }

    /// The target at `path` for `format`, or the reason it is refused.
    public static func check(format: OutputFormat, path: String, overwrite: Bool, inputs: [String]) throws -> OutputTarget {
        let target = try OutputTarget.prepare(path, format: format, overwrite: overwrite, inputs: inputs)
        if format == .rgba, case .new = target {
            throw ExportError.refused("raw RGBA goes to standard output, a pipe or a FIFO; \(path) is not one")
        }
        if format == .rgba, case .file = target {
            throw ExportError.refused("raw RGBA goes to standard output, a pipe or a FIFO; \(path) is not one")
        }
        if format != .rgba, target == .stdout {
            throw ExportError.refused("only raw RGBA can be written to standard output")
        }
        return target
    }

    /// Renders `plan` and writes it to `path`; returns where it went and its size.
    ///
    /// - Throws: `ExportError`: `refused` or `outputExists` before anything is rendered,
    ///   `verificationFailed` when ffmpeg's file is incomplete, `stalled`, `interrupted`
    ///   (as `InterruptedExport`, with ffmpeg's last lines), or what the sink reports.
    @discardableResult
    public func write(_ plan: OutputPlan, to path: String) throws -> Written {
        defer { prestarted?.discard() }   // a no-op once a sink has taken it
        let target = try check(plan, to: path)
        for stale in OutputTarget.removeStalePartials(of: target.path) {
            note("removed \(stale), left by a chartreel run that was killed")
        }
        let s = plan.scene
        switch (plan.format, target) {
        case (.rgba, .stdout):
            try run(plan, RawRGBASink())
            return Written(path: "-", bytes: plan.range.count * s.width * s.height * 4)
        case (.rgba, .stream(let node, _)):
            let fd = try openStream(node)
            try run(plan, RawRGBASink(fileDescriptor: fd, closesDescriptor: true))
            return Written(path: node, bytes: plan.range.count * s.width * s.height * 4)
        case (.png, _):
            let sink = PNGDirectorySink(directory: target.path, overwrite: overwrite, firstIndex: plan.range.lowerBound,
                                        totalFrames: plan.totalFrames)
            try run(plan, sink)
            return Written(path: target.path, bytes: sink.bytesWritten)
        case (_, .stream(let node, _)):
            let fd = try openStream(node)
            defer { close(fd) }
            let sink = FFmpegSink(streamingTo: fd, format: plan.format, options: plan.videoOptions,
                                  ffmpegPath: ffmpegPath, stallTimeout: stallTimeout)
            try runVideo(plan, sink)
            return Written(path: node, bytes: nil)
        default:
            let sink = FFmpegSink(outputPath: target.path, format: plan.format, options: plan.videoOptions,
                                  overwrite: overwrite, ffmpegPath: ffmpegPath, stallTimeout: stallTimeout,
                                  prestarted: prestarted)
            try runVideo(plan, sink)
            var st = stat()
            return Written(path: target.path, bytes: stat(target.path, &st) == 0 ? Int(st.st_size) : nil)
        }
    }

    /// Opens a character device or FIFO for writing in place (a FIFO waits for a reader).
    private func openStream(_ path: String) throws -> Int32 {
        _ = ignoreSIGPIPE
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ExportError.io("cannot open \(path): \(errnoText(errno))") }
        return fd
    }

    private func runVideo(_ plan: OutputPlan, _ sink: FFmpegSink) throws {
        do {
            try run(plan, sink)
        } catch ExportError.interrupted(let sig) {
            // ffmpeg's last words can explain a stall that made someone press Ctrl-C.
            throw InterruptedExport(signal: sig, ffmpegLog: sink.lastStderr)
        }
    }

    /// Begin, parallel render and encode, finish.
    private func run<S: FrameSink>(_ plan: OutputPlan, _ sink: S) throws {
        let s = plan.scene
        do {
            try sink.begin(width: s.width, height: s.height, fps: plan.fps, frameCount: plan.range.count)
        } catch {
            sink.abort()
            throw error
        }
        try FrameSequencer(threads: threads, frameBytes: s.width * s.height * 4)   // the rendered pixmaps dominate
            .run(frameCount: plan.range.count, render: { i in plan.frame(i) }, sink: sink,
                 cancellation: cancellation, progress: progress,
                 recycle: { (frame: consuming Pixmap, unshared: Bool) in plan.recycle(consume frame, unshared: unshared) })
    }
}

/// An export stopped by a signal, with what ffmpeg printed last.
public struct InterruptedExport: Error, CustomStringConvertible {
    /// The signal that stopped it.
    public let signal: Int32
    /// ffmpeg's last lines of stderr ("" when there was no ffmpeg or it said nothing).
    public let ffmpegLog: String
    /// The interruption's message, then ffmpeg's last output when there is some.
    public var description: String {
        let base = "\(ExportError.interrupted(signal: signal))"
        let tail = ffmpegLog.trimmingCharacters(in: .whitespacesAndNewlines)
        return tail.isEmpty ? base : base + "\nffmpeg's last output:\n" + tail
    }
}
