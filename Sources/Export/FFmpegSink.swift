// Streams frames into an ffmpeg child process as raw straight RGBA (BGRA for GIF) on its stdin
// (DESIGN.md: no PNG round trip for video).
//
// Failure handling, the part that needs care:
// - ffmpeg dying mid-stream closes the pipe; with SIGPIPE ignored, write() then fails
//   with EPIPE and we report ffmpeg's exit status and the last lines of its stderr.
// - stderr is drained on a background thread into a bounded buffer: a chatty ffmpeg
//   can never fill the stderr pipe and block (which would deadlock our stdin writes).
// - ffmpeg writes to `.<name>.partial-<pid>` beside the target, renamed into place only
//   after ffmpeg exits 0; every failure path removes that file.
import Foundation
import Raster

/// Encodes frames to a video file (MP4, GIF, WebM, APNG, MOV) by piping them to `ffmpeg`.
///
/// The rendering threads convert each frame to the layout ffmpeg reads (straight RGBA, a
/// no-op for opaque frames, whose premultiplied bytes are already straight; BGRA for GIF);
/// `write` only hands the bytes to the pipe.
public final class FFmpegSink: FrameSink {
    /// The file the video ends up in.
    public let outputPath: String
    /// The container and codec.
    public let format: VideoFormat
    /// Whether an existing file at `outputPath` is replaced rather than an error.
    public let overwrite: Bool
    /// The ffmpeg executable to run; nil means search PATH.
    public let ffmpegPath: String?
    /// Encoder settings: quality, alpha, GIF palette, looping.
    public let options: VideoOptions
    /// The last lines ffmpeg printed on stderr, kept after it has exited (for reports).
    public private(set) var lastStderr = ""

    /// How many of ffmpeg's last stderr lines go into `ExportError.ffmpegFailed`.
    static let stderrTailLines = 20

    private var process: Process?
    /// Signalled by the process's termination handler. Waiting on it instead of
    /// `Process.waitUntilExit()`, which polls its run loop every 50 ms: that poll alone
    /// was 5 % of a one-second render.
    private var exited: DispatchSemaphore?
    private var stdinPipe: Pipe?
    private var writer: PipeFrameWriter?
    private var stderrTail: StderrTail?
    private var tempPath: String?
    private var width = 0, height = 0

    /// Creates a sink that writes `format` to `outputPath`. With `overwrite` false an
    /// existing file there makes `begin` throw `ExportError.outputExists`. `ffmpegPath`
    /// names the executable; when nil, `ffmpeg` is looked up on PATH.
    public init(outputPath: String, format: VideoFormat, options: VideoOptions = VideoOptions(),
                overwrite: Bool = false, ffmpegPath: String? = nil) {
        self.outputPath = outputPath
        self.format = format
        self.options = options
        self.overwrite = overwrite
        self.ffmpegPath = ffmpegPath
    }

    deinit { abort() }

    /// Finds ffmpeg, checks the target and starts ffmpeg writing to the temporary file.
    public func begin(width: Int, height: Int, fps: Double, frameCount: Int) throws {
        guard process == nil else { throw ExportError.invalidArgument("begin called twice") }
        guard width > 0, height > 0 else { throw ExportError.invalidArgument("frame size \(width)x\(height)") }
        guard fps.isFinite, fps > 0 else { throw ExportError.invalidArgument("frame rate \(fps)") }
        let executable: String
        if let given = ffmpegPath {
            guard FFmpeg.isExecutableFile(given) else { throw ExportError.ffmpegMissing }
            executable = given
        } else {
            guard let found = FFmpeg.locateFFmpeg() else { throw ExportError.ffmpegMissing }
            executable = found
        }
        if !overwrite && pathExists(outputPath) { throw ExportError.outputExists(outputPath) }

        let temp = temporarySibling(of: outputPath)
        unlink(temp)  // left by a crashed run that had our pid
        _ = ignoreSIGPIPE

        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = FFmpeg.arguments(format: format, width: width, height: height, fps: fps,
                                       frameCount: frameCount, options: options, output: temp)
        let input = Pipe(), errors = Pipe()
        // A 1 MiB pipe (the default Linux cap for unprivileged processes) instead of 64 KiB:
        // a 800×600 frame then crosses in two writes rather than thirty, with as many
        // fewer wake-ups of ffmpeg. Failure just leaves the default size.
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, 1031 /* F_SETPIPE_SZ */, 1 << 20)
        p.standardInput = input
        p.standardError = errors
        p.standardOutput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        do {
            try p.run()
        } catch {
            throw ExportError.io("cannot start \(executable): \(reason(error))")
        }
        process = p
        self.exited = exited
        stdinPipe = input
        writer = PipeFrameWriter(fd: input.fileHandleForWriting.fileDescriptor)
        stderrTail = StderrTail(reading: errors)
        tempPath = temp
        self.width = width
        self.height = height
    }

    /// On the rendering threads: checks the size and converts to the raw layout ffmpeg reads.
    public func encoder() -> @Sendable (Pixmap, Int) throws -> [UInt8] {
        let (w, h) = (width, height)
        let bgra = format.inputPixelFormat == "bgra"
        return { frame, index in
            guard frame.width == w, frame.height == h else {
                throw ExportError.invalidArgument("frame \(index) is \(frame.width)x\(frame.height), expected \(w)x\(h)")
            }
            if bgra { return frame.straightBGRA() }
            // An opaque frame's premultiplied bytes are already straight: hand over the
            // pixmap's own storage (copy-on-write, so no copy is made).
            return frame.isOpaque ? frame.data : frame.straightRGBA()
        }
    }

    /// Writes one frame's raw bytes to ffmpeg's stdin.
    public func write(_ frame: [UInt8], index: Int) throws {
        guard let writer else { throw ExportError.invalidArgument("write before begin") }
        guard frame.count == width * height * 4 else {
            throw ExportError.invalidArgument("frame \(index) has \(frame.count) bytes, expected \(width * height * 4)")
        }
        let err = writer.write(frame)
        guard err != 0 else { return }
        if err == EPIPE {
            // ffmpeg stopped reading: it has exited or is about to. Report why.
            let status = stop(terminate: false)
            throw ExportError.ffmpegFailed(status: status, stderrTail: takeTail())
        }
        stop(terminate: true)
        throw ExportError.io("writing frame \(index) to ffmpeg: \(errnoText(err))")
    }

    /// Closes ffmpeg's stdin, waits for it to finish and renames the video into place.
    public func finish() throws {
        guard process != nil, let temp = tempPath else { throw ExportError.invalidArgument("finish before begin") }
        let status = stop(terminate: false)
        tempPath = nil
        guard status == 0 else {
            unlink(temp)
            throw ExportError.ffmpegFailed(status: status, stderrTail: takeTail())
        }
        if !overwrite && pathExists(outputPath) {
            unlink(temp)
            throw ExportError.outputExists(outputPath)
        }
        guard rename(temp, outputPath) == 0 else {
            let e = errno
            unlink(temp)
            throw ExportError.io("cannot rename \(temp) to \(outputPath): \(errnoText(e))")
        }
        _ = takeTail()
    }

    /// Stops ffmpeg (SIGTERM) and removes the temporary file.
    public func abort() {
        if process != nil {
            stop(terminate: true)
            _ = takeTail()
        }
        if let temp = tempPath { unlink(temp) }
        tempPath = nil
    }

    /// Closes ffmpeg's stdin and waits for it to exit. With `terminate` it also sends
    /// SIGTERM, and SIGKILL if ffmpeg is still there 10 s later; without, it waits as long
    /// as ffmpeg needs to flush the encoder (long for a long video). Returns the exit
    /// status, or minus the signal that ended it. On a failure status the temporary file
    /// is removed here, so every error path is clean.
    @discardableResult
    private func stop(terminate: Bool) -> Int32 {
        guard let p = process else { return 0 }
        try? stdinPipe?.fileHandleForWriting.close()
        stdinPipe = nil
        if terminate && p.isRunning { p.terminate() }
        if let exited {
            if terminate && exited.wait(timeout: .now() + 10) == .timedOut {
                kill(p.processIdentifier, SIGKILL)
                exited.wait()
            } else if !terminate {
                exited.wait()
            }
        }
        exited = nil
        stderrTail?.join()
        process = nil
        writer?.releaseAll()   // ffmpeg has exited: nothing can read the spliced pages any more
        writer = nil
        let status = p.terminationReason == .exit ? p.terminationStatus : -p.terminationStatus
        if status != 0 || terminate, let temp = tempPath {
            unlink(temp)
            tempPath = nil
        }
        return status
    }

    private func takeTail() -> String {
        defer { stderrTail = nil }
        lastStderr = stderrTail?.lastLines(Self.stderrTailLines) ?? lastStderr
        return lastStderr
    }
}

/// Drains a child's stderr on a background thread, keeping only the last bytes.
private final class StderrTail: @unchecked Sendable {
    /// The most bytes kept; older output is dropped from the front.
    static let limit = 16 * 1024

    private let pipe: Pipe
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)
    private var joined = false

    init(reading pipe: Pipe) {
        self.pipe = pipe
        let t = Thread { [self] in drain() }
        t.name = "chartreel.ffmpeg-stderr"
        t.start()
    }

    private func drain() {
        let fd = pipe.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            lock.lock()
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > Self.limit { bytes.removeFirst(bytes.count - Self.limit) }
            lock.unlock()
        }
        done.signal()
    }

    /// Waits until the child has closed its stderr (it has exited, or soon will).
    func join() {
        if joined { return }
        done.wait()
        joined = true
        try? pipe.fileHandleForReading.close()
    }

    /// The last `n` lines of what was read.
    func lastLines(_ n: Int) -> String {
        lock.lock(); defer { lock.unlock() }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: true).suffix(n).joined(separator: "\n")
    }
}
