// ffmpeg started before the document is read, so that its own start-up (loading its
// libraries, ~0.1 s of a short video's time on a busy machine) overlaps chartreel's
// (reading the document, its data and fonts) instead of following it.
//
// An MP4's ffmpeg command depends on the document only through the frames' size and rate
// (and, rarely, a pad filter for an odd size or an audio track, which this start does not
// guess). So ffmpeg is started with everything else and reads the rest from the stream it
// is sent: a yuv4mpeg stream, whose header carries the size and rate and whose frames are
// the same yuv420p planes as the raw stream's, each after a `FRAME` line. x264 receives
// the same frames and the file is the same, byte for byte (ExportTests' FFmpegPrestartTests
// compare the two).
//
// Until `FFmpegSink.begin` adopts it, the ffmpeg waits for that header and has created no
// file (ffmpeg opens its output only after its input). `begin` adopts it only when the
// command the sink would run for the real frames, turned into the yuv4mpeg form, is the
// very command this ffmpeg was started with, and the rate is a whole number; otherwise it
// is stopped and the sink starts its own, as without a prestart.
import Foundation

/// An ffmpeg started early for an MP4 file, waiting for its yuv4mpeg header.
public final class FFmpegPrestart: @unchecked Sendable {
    /// The output it is to write (symlinks followed), its format and whether it may replace a file.
    public let outputPath: String
    public let format: OutputFormat
    public let overwrite: Bool
    /// The executable and its arguments (the yuv4mpeg form; `FFmpeg.yuv4mpegArguments`).
    let executable: String
    let arguments: [String]
    /// The temporary file ffmpeg writes, renamed to `outputPath` by the sink.
    let tempPath: String

    private let lock = NSLock()
    private var process: (child: ChildProcess, stdin: Int32, stderr: StderrTail)?

    /// Starts ffmpeg for `format` at `path` with `options`, or returns nil when it cannot
    /// be started now: only MP4 without an audio track to a file is started early, and
    /// never when the path is refused (the real check later says why).
    public static func start(format: OutputFormat, path: String, overwrite: Bool, options: VideoOptions,
                             ffmpegPath: String? = nil) -> FFmpegPrestart? {
        guard format == .mp4, options.audio == nil, path != "-" else { return nil }
        guard let target = try? OutputTarget.prepare(path, format: format, overwrite: overwrite) else { return nil }
        switch target {
        case .new, .file: break
        default: return nil
        }
        let executable: String
        if let given = ffmpegPath {
            guard FFmpeg.isExecutableFile(given) else { return nil }
            executable = given
        } else {
            guard let found = FFmpeg.locateFFmpeg() else { return nil }
            executable = found
        }
        let temp = temporarySibling(of: target.path)
        // An even size: an odd one would add a pad filter, and the sink would not adopt this one.
        guard let args = FFmpeg.yuv4mpegArguments(FFmpeg.arguments(format: format, width: 2, height: 2, fps: 30,
                                                                   options: options, output: temp)) else { return nil }
        _ = ignoreSIGPIPE
        unlink(temp)   // left by a crashed run that had our pid; ffmpeg creates it only once it has frames
        guard let spawned = try? FFmpegSink.spawn(executable: executable, arguments: args, stdout: -1) else { return nil }
        return FFmpegPrestart(outputPath: target.path, format: format, overwrite: overwrite, executable: executable,
                              arguments: args, tempPath: temp, process: spawned)
    }

    private init(outputPath: String, format: OutputFormat, overwrite: Bool, executable: String, arguments: [String],
                 tempPath: String, process: (child: ChildProcess, stdin: Int32, stderr: StderrTail)) {
        self.outputPath = outputPath
        self.format = format
        self.overwrite = overwrite
        self.executable = executable
        self.arguments = arguments
        self.tempPath = tempPath
        self.process = process
    }

    deinit { discard() }

    /// Hands the running ffmpeg over (once): nil when it was taken or discarded already,
    /// or has exited (it failed to start; the sink then starts its own and reports that one).
    func take() -> (child: ChildProcess, stdin: Int32, stderr: StderrTail)? {
        lock.lock(); defer { lock.unlock() }
        guard let p = process, !p.child.hasExited else { return nil }
        process = nil
        return p
    }

    /// Whether it is still waiting to be adopted.
    public var isWaiting: Bool { lock.lock(); defer { lock.unlock() }; return process.map { !$0.child.hasExited } ?? false }

    /// Stops the ffmpeg unless a sink took it: its stdin closed, SIGKILL (it has written
    /// nothing), reaped. Safe to call more than once.
    public func discard() {
        lock.lock()
        let p = process
        process = nil
        lock.unlock()
        guard let p else { return }
        close(p.stdin)
        p.child.send(SIGKILL)
        p.child.wait()
        p.stderr.join()
        unlink(tempPath)
    }
}
