import Foundation
import CMalloc
import Raster
import Scene
import Timelines
import Export

/// The format named by `--format`, or implied by the output path.
func resolveFormat(explicit: String?, output: String) throws -> OutputFormat {
    let names = OutputFormat.allCases.map(\.rawValue).joined(separator: "|")
    if let e = explicit {
        guard let f = OutputFormat(rawValue: e.lowercased()) else {
            throw UsageError("--format expects one of \(names), got \"\(e)\"")
        }
        return f
    }
    if output == "-" { throw UsageError("writing to stdout (-o -) needs --format rgba") }
    let ext = (output as NSString).pathExtension.lowercased()
    if ext.isEmpty || output.hasSuffix("/") { return .png }
    if ext == "png" {
        throw UsageError("\(output) is one PNG file; use `chartreel frame` for one frame, --format apng for "
                         + "an animated PNG, or a directory name for PNG frames")
    }
    if let f = OutputFormat(rawValue: ext), f.video != nil { return f }
    throw UsageError("cannot tell the format of \"\(output)\" from .\(ext); use --format \(names)")
}

/// Loads a document; decode failures become `DocumentErrors` naming file, line:column and path.
func loadScene(_ path: String) throws -> Scene {
    try TimelineDecoder.load(path: path)
}

/// A colour option: `#RGB`, `#RRGGBB`, `#RRGGBBAA` (the `#` optional) or `white`/`black`.
func parseColor(_ s: String) -> Color? {
    switch s.lowercased() {
    case "white": return .white
    case "black": return .black
    default: return Color(hex: s.hasPrefix("#") ? s : "#" + s)
    }
}

/// `A..<B` (frame indices, B exclusive).
func parseFrameRange(_ s: String) -> (Int, Int)? {
    let parts = s.components(separatedBy: "..<")
    guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b > a else { return nil }
    return (a, b)
}

/// `chartreel render DOC -o OUT`.
func runRender(_ args: [String]) throws {
    let a = try Arguments(args, flags: ["-y", "--overwrite", "-q", "--quiet", "-h", "--help", "--dry-run"],
                          valued: ["-o", "--output", "--format", "--threads", "--fps", "--scale", "--from", "--to",
                                   "--frames", "--quality", "--colors", "--dither", "--bayer-scale", "--loop",
                                   "--pause", "--matte"])
    if a.flag("-h", "--help") { print(renderHelp); return }
    guard a.positional.count == 1 else {
        throw UsageError(a.positional.isEmpty ? "render needs a document: chartreel render DOC -o OUT"
                                              : "render takes one document, got \(a.positional.count)")
    }
    guard let output = a.value("-o", "--output") else { throw UsageError("render needs an output: -o OUT") }
    let format = try resolveFormat(explicit: a.value("--format"), output: output)
    if output == "-" && format != .rgba { throw UsageError("only --format rgba can be written to stdout") }
    if format == .rgba && output != "-" { throw UsageError("--format rgba writes to stdout: use -o - and redirect") }
    let threads = try a.int("--threads", min: 1, max: 256) ?? ProcessInfo.processInfo.activeProcessorCount
    let overwrite = a.flag("-y", "--overwrite")
    let quiet = a.flag("-q", "--quiet")
    let fps = try a.double("--fps", min: 1, max: 1000)
    let scale = try a.double("--scale", min: 0.01, max: 16) ?? 1
    var from = try a.parsed("--from", expected: "seconds like 0.5s or a frame index like 30", FramePosition.init)
    var to = try a.parsed("--to", expected: "seconds like 1.5s or a frame index like 90", FramePosition.init)
    if let r = try a.parsed("--frames", expected: "a frame range A..<B, e.g. '0..<42'", parseFrameRange) {
        guard from == nil && to == nil else { throw UsageError("--frames cannot be combined with --from/--to") }
        from = .frame(r.0); to = .frame(r.1)
    }
    let matte = try a.parsed("--matte", expected: "a colour like #FFFFFF or black", parseColor) ?? .white
    var options = VideoOptions()
    options.quality = try a.parsed("--quality", expected: "high, medium, low or a CRF number (0-51 for MP4, 0-63 for WebM)",
                                   VideoQuality.init) ?? .high
    let gifDefaults = GIFOptions()
    options.gif.colors = try a.int("--colors", min: 4, max: 256) ?? gifDefaults.colors
    options.gif.dither = try a.parsed("--dither", expected: GIFDither.allCases.map(\.rawValue).joined(separator: "|"),
                                      GIFDither.init(rawValue:)) ?? gifDefaults.dither
    options.gif.bayerScale = try a.int("--bayer-scale", min: 0, max: 5) ?? gifDefaults.bayerScale
    options.loop = try a.parsed("--loop", expected: "forever, once or a number of plays", LoopCount.init) ?? .forever
    options.pause = try a.double("--pause", min: 0, max: 600) ?? 0
    let gifOnly = ["--colors", "--dither", "--bayer-scale"].filter { a.options[$0] != nil }
    if !gifOnly.isEmpty && format != .gif { throw UsageError("\(gifOnly.joined(separator: ", ")) only apply to GIF output") }
    if (a.options["--loop"] != nil || a.options["--pause"] != nil) && format != .gif && format != .apng {
        throw UsageError("--loop and --pause only apply to GIF and APNG output")
    }

    let scene = try loadScene(a.positional[0])
    let plan: OutputPlan
    do {
        plan = try OutputPlan(scene: scene, format: format, fps: fps, scale: scale, matte: matte,
                              from: from, to: to, options: options)
    } catch let ExportError.invalidArgument(what) {
        throw UsageError(what)
    }
    for w in plan.warnings { report("note: \(w)") }
    if !quiet { for n in plan.notes { report("note: \(n)") } }
    releaseDecodingMemory()
    let s = plan.scene
    let count = plan.range.count
    let chunk = plan.range.count == plan.totalFrames ? "" : " (frames \(plan.range.lowerBound)..<\(plan.range.upperBound) of \(plan.totalFrames))"

    if a.flag("--dry-run") {
        print("\(count) frames\(chunk) of \(s.width)x\(s.height) at \(fmt(plan.fps)) fps "
              + "(\(fmt(s.effectiveDuration)) s) -> \(output) (\(format.rawValue))")
        if let video = format.video {
            let args = FFmpeg.arguments(format: video, width: s.width, height: s.height, fps: plan.fps,
                                        frameCount: count, options: plan.videoOptions, output: output)
            print((["ffmpeg"] + args).map(shellQuote).joined(separator: " "))
        }
        return
    }
    if format != .rgba, !overwrite, FileManager.default.fileExists(atPath: output) {
        throw ExportError.outputExists(output)
    }

    let trap = SignalTrap()
    defer { trap.release() }
    let progress = ProgressReporter(quiet: quiet)
    let start = DispatchTime.now().uptimeNanoseconds
    var size: Int?
    switch format {
    case .png:
        let sink = PNGDirectorySink(directory: output, overwrite: overwrite, firstIndex: plan.range.lowerBound,
                                    totalFrames: plan.totalFrames)
        try export(plan, to: sink, threads: threads, trap: trap, progress: progress)
        size = sink.bytesWritten
    case .rgba:
        try export(plan, to: RawRGBASink(), threads: threads, trap: trap, progress: progress)
        size = count * s.width * s.height * 4
    case .mp4, .gif, .webm, .apng, .mov:
        let sink = FFmpegSink(outputPath: output, format: format.video!, options: plan.videoOptions, overwrite: overwrite)
        do {
            try export(plan, to: sink, threads: threads, trap: trap, progress: progress)
        } catch ExportError.interrupted(let sig) {
            // ffmpeg's last words can explain a stall that made someone press Ctrl-C.
            throw InterruptedWithLog(signal: sig, log: sink.lastStderr)
        }
        size = fileSize(output)
    }
    if !quiet {
        let secs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        report("chartreel: " + ProgressReporter.summary(frames: count, seconds: secs,
                                                         destination: output == "-" ? "stdout" : output, bytes: size)
               + ", \(s.width)x\(s.height) at \(fmt(plan.fps)) fps, CPU " + String(format: "%.2f", ownCPUSeconds())
               + " s, peak memory \(peakMemoryMB()) MB")
    }
}

/// Runs the export of `plan` into `sink`: begin, parallel render and encode, finish.
func export<S: FrameSink>(_ plan: OutputPlan, to sink: S, threads: Int, trap: SignalTrap,
                          progress: ProgressReporter) throws {
    let s = plan.scene
    do {
        try sink.begin(width: s.width, height: s.height, fps: plan.fps, frameCount: plan.range.count)
    } catch {
        sink.abort()
        throw error
    }
    defer { progress.finish() }
    try FrameSequencer(threads: threads, frameBytes: s.width * s.height * 4).run(frameCount: plan.range.count, render: { i in plan.frame(i) },
                                             sink: sink, cancellation: trap.token,
                                             progress: { progress.update($0, $1) })
}

/// An interruption, with what ffmpeg printed last.
struct InterruptedWithLog: Error, CustomStringConvertible {
    let signal: Int32
    let log: String
    var description: String {
        let base = "\(ExportError.interrupted(signal: signal))"
        let tail = log.trimmingCharacters(in: .whitespacesAndNewlines)
        return tail.isEmpty ? base : base + "\nffmpeg's last output:\n" + tail
    }
}

/// The size of the file at `path`, or nil.
func fileSize(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
}

/// This process's user plus system CPU time in seconds (children such as ffmpeg not counted).
func ownCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func secs(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// This process's peak resident memory in MB (children such as ffmpeg not counted):
/// the high-water mark of its own address space (`VmHWM` in /proc/self/status).
/// `getrusage`'s `ru_maxrss` is not that on Linux: exec keeps the larger of it and the
/// peak of the process image it replaced, so a chartreel started by a 250 MB Python
/// script (scripts/bench, holding raw frames) reported 246 MB for a run whose resident
/// memory never passed 93 MB.
func peakMemoryMB() -> Int {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
       case let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }), fields.count >= 2,
       let kB = Int(fields[1]) {
        return (kB + 512) / 1024
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return (usage.ru_maxrss + 512) / 1024   // Linux reports kilobytes
}

/// `s` quoted for a POSIX shell when it needs quoting.
func shellQuote(_ s: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:+,@%")
    if !s.isEmpty && s.allSatisfy({ safe.contains($0) }) { return s }
    return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
