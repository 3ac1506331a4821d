// Streams frames into an ffmpeg child process as raw frames on its stdin (yuv420p for MP4
// and opaque WebM, BGRA for GIF, straight RGBA otherwise; DESIGN.md: no PNG round trip).
//
// Failure handling, the part that needs care:
// - ffmpeg dying mid-stream closes the pipe; with SIGPIPE ignored, write() then fails
//   with EPIPE and we report ffmpeg's exit status and the last lines of its stderr.
// - stderr is drained on a background thread into a bounded buffer: a chatty ffmpeg
//   can never fill the stderr pipe and block (which would deadlock our stdin writes).
// - ffmpeg writes to `.<name>.partial-<pid>` beside the target, renamed into place only
//   after the file is verified; every failure path removes that file.
// - Verification: ffmpeg 5.1 exits 0 after "Error writing trailer … No space left on
//   device", leaving an MP4 without its index or a GIF missing frames. So success is an
//   exit status of 0, no error in ffmpeg's output, a file that fsync accepts and that is
//   not empty, and a container that is whole and holds every frame (ContainerCheck).
// - A stall watchdog: ffmpeg that takes no bytes for `stallTimeout` seconds (or does not
//   exit that long after its input ended) is stopped, and the export fails saying so.
// - `interrupt()` (on a signal) ends ffmpeg, SIGTERM then SIGKILL, so a write blocked on
//   an ffmpeg that stopped reading returns at once.
import Foundation
import Raster

/// Encodes frames to a video file (MP4, GIF, WebM, APNG, MOV) by piping them to `ffmpeg`.
///
/// The rendering threads convert each frame to the layout ffmpeg reads (yuv420p; straight
/// RGBA, a no-op for opaque frames, whose premultiplied bytes are already straight; BGRA
/// for GIF); `write` only hands the bytes to the pipe.
public final class FFmpegSink: FrameSink {
    /// The file the video ends up in ("" when writing to a stream descriptor).
    public let outputPath: String
    /// The container and codec (a video format).
    public let format: OutputFormat
    /// Whether an existing file at `outputPath` is replaced rather than an error.
    public let overwrite: Bool
    /// The ffmpeg executable to run; nil means search PATH.
    public let ffmpegPath: String?
    /// Encoder settings: quality, alpha, GIF palette, looping.
    public let options: VideoOptions
    /// Seconds ffmpeg may go without taking a byte of input (or without exiting after
    /// the last frame) before it is stopped and the export fails.
    public let stallTimeout: Double
    /// The last lines ffmpeg printed on stderr, kept after it has exited (for reports).
    public private(set) var lastStderr = ""

    /// How many of ffmpeg's last stderr lines go into `ExportError.ffmpegFailed`.
    static let stderrTailLines = 20
    /// The default `stallTimeout`: a minute, far beyond any flush of a chart video.
    public static let defaultStallTimeout = 60.0

    private let streamFD: Int32?
    /// An ffmpeg started before the frame size was known, adopted by `begin` when it fits.
    private var prestart: FFmpegPrestart?
    /// Whether `begin` adopted the prestarted ffmpeg (rather than starting its own).
    private(set) var adoptedPrestart = false
    private let lock = NSLock()
    private var child: ChildProcess?
    private var stdinFD: Int32 = -1
    private var writer: PipeFrameWriter?
    private var stderrTail: StderrTail?
    private var tempPath: String?
    private var executable = ""
    private var width = 0, height = 0, frameCount = 0
    private var watchdog: DispatchSourceTimer?
    /// When the current write (or the wait for ffmpeg to exit) began; guarded by `lock`.
    private var busySince: UInt64?
    private var stalled = false

    /// Creates a sink that writes `format` to `outputPath`. With `overwrite` false an
    /// existing file there makes `begin` throw `ExportError.outputExists`. `ffmpegPath`
    /// names the executable; when nil, `ffmpeg` is looked up on PATH.
    ///
    /// `prestarted`, an ffmpeg started earlier for the same output, is used instead of
    /// starting one when its command fits the frames (`FFmpegPrestart`); otherwise `begin`
    /// stops it.
    public init(outputPath: String, format: OutputFormat, options: VideoOptions = VideoOptions(),
                overwrite: Bool = false, ffmpegPath: String? = nil, stallTimeout: Double = FFmpegSink.defaultStallTimeout,
                prestarted: FFmpegPrestart? = nil) {
        precondition(format.isVideo, "FFmpegSink writes video formats")
        prestart = prestarted
        self.outputPath = outputPath
        self.format = format
        self.options = options
        self.overwrite = overwrite
        self.ffmpegPath = ffmpegPath
        self.stallTimeout = stallTimeout
        streamFD = nil
    }

    /// Creates a sink whose ffmpeg writes `format` straight to `descriptor` (a FIFO, a
    /// character device, a pipe) as a stream: nothing is renamed and nothing can be
    /// probed, so success is ffmpeg's status and silence. The caller keeps the descriptor.
    public init(streamingTo descriptor: Int32, format: OutputFormat, options: VideoOptions = VideoOptions(),
                ffmpegPath: String? = nil, stallTimeout: Double = FFmpegSink.defaultStallTimeout) {
        precondition(format.isVideo && format.canStream, "\(format.rawValue) cannot be streamed")
        outputPath = ""
        self.format = format
        self.options = options
        overwrite = true
        self.ffmpegPath = ffmpegPath
        self.stallTimeout = stallTimeout
        streamFD = descriptor
    }

    deinit { abort() }

    /// Finds ffmpeg, checks the target and starts ffmpeg writing to the temporary file.
    public func begin(width: Int, height: Int, fps: Double, frameCount: Int) throws {
        guard child == nil else { throw ExportError.invalidArgument("begin called twice") }
        guard width > 0, height > 0 else { throw ExportError.invalidArgument("frame size \(width)x\(height)") }
        guard fps.isFinite, fps > 0 else { throw ExportError.invalidArgument("frame rate \(fps)") }
        if let given = ffmpegPath {
            guard FFmpeg.isExecutableFile(given) else { throw ExportError.ffmpegMissing }
            executable = given
        } else {
            guard let found = FFmpeg.locateFFmpeg() else { throw ExportError.ffmpegMissing }
            executable = found
        }
        var output = "pipe:1"
        if streamFD == nil {
            if !overwrite && pathExists(outputPath) { throw ExportError.outputExists(outputPath) }
            let temp = temporarySibling(of: outputPath)
            unlink(temp)  // left by a crashed run that had our pid
            output = temp
        }
        _ = ignoreSIGPIPE
        if let early = prestart {
            prestart = nil
            if try adopt(early, output: output, width: width, height: height, fps: fps, frameCount: frameCount) { return }
            early.discard()
        }

        let args = FFmpeg.arguments(format: format, width: width, height: height, fps: fps,
                                    frameCount: frameCount, options: options, output: output)
        if streamFD == nil { tempPath = output; EmergencyCleanup.addPartial(output) }
        let started: (child: ChildProcess, stdin: Int32, stderr: StderrTail)
        do {
            started = try Self.spawn(executable: executable, arguments: args, stdout: streamFD ?? -1)
        } catch {
            removeTemp()
            throw error
        }
        lock.lock(); child = started.child; lock.unlock()
        stdinFD = started.stdin
        writer = PipeFrameWriter(fd: started.stdin)
        stderrTail = started.stderr
        self.width = width
        self.height = height
        self.frameCount = frameCount
        startWatchdog()
    }

    /// Starts `executable` with its stdin and stderr on new pipes (stdin's enlarged) and
    /// `stdout` as its stdout (-1: /dev/null); returns the child, the write end of its
    /// stdin and the drain of its stderr.
    static func spawn(executable: String, arguments: [String],
                      stdout: Int32) throws -> (child: ChildProcess, stdin: Int32, stderr: StderrTail) {
        let inputPipe = try makePipe()
        let errorPipe: (read: Int32, write: Int32)
        do { errorPipe = try makePipe() } catch {
            close(inputPipe.read); close(inputPipe.write)
            throw error
        }
        let input = [inputPipe.read, inputPipe.write], errors = [errorPipe.read, errorPipe.write]
        // A 1 MiB pipe (the default Linux cap for unprivileged processes) instead of 64 KiB:
        // a 800×600 frame then crosses in two writes rather than thirty, with as many
        // fewer wake-ups of ffmpeg. Failure just leaves the default size.
        _ = fcntl(input[1], 1031 /* F_SETPIPE_SZ */, 1 << 20)
        let started: ChildProcess
        do {
            started = try ChildProcess(executable: executable, arguments: arguments, stdin: input[0],
                                       stdout: stdout, stderr: errors[1])
        } catch {
            for fd in input + errors { close(fd) }
            throw error
        }
        close(input[0]); close(errors[1])
        return (started, input[1], StderrTail(fd: errors[0]))
    }

    /// Takes over `early` when it was started with the command this sink would run for
    /// these frames (in yuv4mpeg form) and the header can describe them: sends the header
    /// and returns true. False when it does not fit (the caller discards it).
    private func adopt(_ early: FFmpegPrestart, output: String, width: Int, height: Int, fps: Double,
                       frameCount: Int) throws -> Bool {
        let args = FFmpeg.arguments(format: format, width: width, height: height, fps: fps,
                                    frameCount: frameCount, options: options, output: output)
        guard streamFD == nil, early.outputPath == outputPath, early.format == format, early.overwrite == overwrite,
              early.executable == executable, early.tempPath == output,
              FFmpeg.yuv4mpegArguments(args) == early.arguments,
              let header = FFmpeg.yuv4mpegHeader(width: width, height: height, fps: fps),
              let started = early.take() else { return false }
        tempPath = output
        EmergencyCleanup.addPartial(output)
        lock.lock(); child = started.child; lock.unlock()
        stdinFD = started.stdin
        stderrTail = started.stderr
        self.width = width
        self.height = height
        self.frameCount = frameCount
        let err = header.withUnsafeBytes { writeAll(started.stdin, $0) }
        if err != 0 {
            // ffmpeg is gone already: report what it said, as a failed write would.
            let status = stop(terminate: err != EPIPE)
            throw ExportError.ffmpegFailed(status: status, stderrTail: takeTail())
        }
        writer = PipeFrameWriter(fd: started.stdin, yuv4mpeg: true)
        adoptedPrestart = true
        startWatchdog()
        return true
    }

    /// On the rendering threads: checks the size and converts to the raw layout ffmpeg
    /// reads (`OutputFormat.pipePixelFormat`). yuv420p conversions of the same pixels (a
    /// hold, where the renderer hands out one cached picture) are remembered, so held
    /// frames cost nothing to convert.
    public func encoder() -> @Sendable (Pixmap, Int) throws -> [UInt8] {
        let (w, h) = (width, height)
        let layout = format.pipePixelFormat(alpha: options.alpha)
        let memo = FrameMemo<[UInt8]>()
        return { frame, index in
            guard frame.width == w, frame.height == h else {
                throw ExportError.invalidArgument("frame \(index) is \(frame.width)x\(frame.height), expected \(w)x\(h)")
            }
            switch layout {
            case .yuv420p: return memo.encoded(frame) { $0.yuv420p() }
            case .bgra: return frame.straightBGRA()
            // An opaque frame's premultiplied bytes are already straight: hand over the
            // pixmap's own storage (copy-on-write, so no copy is made).
            case .rgba: return frame.isOpaque ? frame.data : frame.straightRGBA()
            }
        }
    }

    /// Only raw RGBA hands ffmpeg the frame's own storage; yuv420p and BGRA are converted
    /// copies, made on the rendering threads.
    public var encodingSharesPixels: Bool { format.pipePixelFormat(alpha: options.alpha) == .rgba }

    /// RGBA and BGRA bytes are frame-sized: drawn over by a later frame once written. The
    /// yuv420p planes are not.
    public func reclaim(_ encoded: consuming [UInt8]) -> Pixmap? {
        Pixmap(width: width, height: height, premultipliedData: consume encoded)
    }

    /// Writes one frame's raw bytes to ffmpeg's stdin.
    public func write(_ frame: [UInt8], index: Int) throws {
        guard let writer else { throw ExportError.invalidArgument("write before begin") }
        let expected = format.pipePixelFormat(alpha: options.alpha).frameBytes(width: width, height: height)
        guard frame.count == expected else {
            throw ExportError.invalidArgument("frame \(index) has \(frame.count) bytes, expected \(expected)")
        }
        setBusy(true)
        let err = writer.write(frame)
        setBusy(false)
        guard err != 0 else { return }
        if err == EPIPE {
            // ffmpeg stopped reading: it has exited, is about to, or was stopped. Report why.
            let status = stop(terminate: false)
            try throwIfStalled()
            throw ExportError.ffmpegFailed(status: status, stderrTail: takeTail())
        }
        stop(terminate: true)
        throw ExportError.io("writing frame \(index) to ffmpeg: \(errnoText(err))")
    }

    /// Closes ffmpeg's stdin, waits for it to finish, verifies the file and renames it into place.
    public func finish() throws {
        guard child != nil else { throw ExportError.invalidArgument("finish before begin") }
        setBusy(true)   // the watchdog also covers ffmpeg's flush after the last frame
        let status = stop(terminate: false)
        try throwIfStalled()
        let tail = takeTail()
        guard status == 0 else {
            removeTemp()
            throw ExportError.ffmpegFailed(status: status, stderrTail: tail)
        }
        // With -loglevel error, ffmpeg prints only errors; some of them (a failed trailer
        // write) still end in exit status 0.
        if let line = tail.split(separator: "\n").first(where: Self.reportsFailure) {
            removeTemp()
            throw ExportError.verificationFailed("ffmpeg exited 0 but reported: \(line)")
        }
        guard let temp = tempPath else { return }   // a stream: nothing to rename or probe
        do {
            try verify(temp)
        } catch {
            removeTemp()
            throw error
        }
        if !overwrite && pathExists(outputPath) {
            removeTemp()
            throw ExportError.outputExists(outputPath)
        }
        guard rename(temp, outputPath) == 0 else {
            let e = errno
            removeTemp()
            throw ExportError.io("cannot rename \(temp) to \(outputPath): \(errnoText(e))")
        }
        EmergencyCleanup.removePartial(temp)
        tempPath = nil
        syncDirectory(of: outputPath)
    }

    /// Stops ffmpeg (SIGTERM, then SIGKILL) and removes the temporary file.
    public func abort() {
        prestart?.discard()
        prestart = nil
        if child != nil {
            stop(terminate: true)
            _ = takeTail()
        }
        removeTemp()
    }

    /// Ends ffmpeg from another thread (a signal's handler), so that a `write` blocked on
    /// a full pipe or a `finish` waiting for ffmpeg returns at once.
    public func interrupt() {
        lock.lock(); let c = child; lock.unlock()
        if let c { DispatchQueue.global().async { c.terminate() } }
    }

    /// Whether a line of ffmpeg's error output means the file is not right.
    static func reportsFailure(_ line: Substring) -> Bool {
        let l = line.lowercased()
        return l.contains("error") || l.contains("no space left") || l.contains("failed") || l.contains("cannot")
            || l.contains("too large")
    }

    /// Checks the finished temporary file: on disk, not empty, its container whole and
    /// every frame there.
    private func verify(_ temp: String) throws {
        let fd = open(temp, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ExportError.verificationFailed("cannot open it: \(errnoText(errno))") }
        let synced = fsync(fd) == 0 ? 0 : errno
        var st = stat()
        let statted = fstat(fd, &st) == 0
        close(fd)
        if synced != 0 { throw ExportError.verificationFailed("fsync: \(errnoText(synced))") }
        guard statted, st.st_size > 0 else { throw ExportError.verificationFailed("the file is empty") }
        let frames: Int
        do {
            frames = try ContainerCheck.frameCount(of: temp, format: format)
        } catch let e as ContainerCheck.Incomplete {
            throw ExportError.verificationFailed("the \(format.rawValue.uppercased()) is incomplete: \(e); the disk may be full")
        }
        if frameCount > 0 && frames != frameCount {
            throw ExportError.verificationFailed("it holds \(frames) of its \(frameCount) frames; the disk may be full")
        }
    }

    private func throwIfStalled() throws {
        lock.lock(); let s = stalled; lock.unlock()
        if s {
            removeTemp()
            throw ExportError.stalled(seconds: stallTimeout, stderrTail: takeTail())
        }
    }

    private func setBusy(_ busy: Bool) {
        lock.lock(); busySince = busy ? DispatchTime.now().uptimeNanoseconds : nil; lock.unlock()
    }

    /// Checks a few times per timeout whether ffmpeg has been stuck for `stallTimeout`.
    private func startWatchdog() {
        guard stallTimeout.isFinite, stallTimeout > 0 else { return }
        let t = DispatchSource.makeTimerSource(queue: .global())
        let every = min(1.0, stallTimeout / 4)
        t.schedule(deadline: .now() + every, repeating: every)
        let limit = UInt64(stallTimeout * 1e9)
        t.setEventHandler { [weak self] in
            guard let self else { return }
            lock.lock()
            let stuck = busySince.map { DispatchTime.now().uptimeNanoseconds - $0 > limit } ?? false
            if stuck && !stalled { stalled = true } else { lock.unlock(); return }
            let c = child
            lock.unlock()
            c?.terminate()
        }
        t.resume()
        watchdog = t
    }

    /// Closes ffmpeg's stdin and waits for it to exit. With `terminate` it also sends
    /// SIGTERM, and SIGKILL after a short grace; without, it waits as long as ffmpeg
    /// needs to flush the encoder (bounded by the watchdog). Returns the exit status, or
    /// minus the signal that ended it. On a failure status the temporary file is removed.
    @discardableResult
    private func stop(terminate: Bool) -> Int32 {
        lock.lock(); let p = child; lock.unlock()
        guard let p else { return 0 }
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
        if terminate { p.terminate() } else { p.wait() }
        watchdog?.cancel()
        watchdog = nil
        stderrTail?.join()
        lock.lock(); child = nil; lock.unlock()
        writer?.releaseAll()   // ffmpeg has exited: nothing can read the spliced pages any more
        writer = nil
        let status = p.status
        if status != 0 || terminate { removeTemp() }
        return status
    }

    private func removeTemp() {
        guard let temp = tempPath else { return }
        unlink(temp)
        EmergencyCleanup.removePartial(temp)
        tempPath = nil
    }

    private func takeTail() -> String {
        defer { stderrTail = nil }
        lastStderr = stderrTail?.lastLines(Self.stderrTailLines) ?? lastStderr
        return lastStderr
    }
}

/// fsyncs the directory holding `path`, so a rename into it survives a crash.
func syncDirectory(of path: String) {
    let dir = (path as NSString).deletingLastPathComponent
    let fd = open(dir.isEmpty ? "." : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if fd >= 0 { fsync(fd); close(fd) }
}
