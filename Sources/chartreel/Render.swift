import Foundation
import CMalloc
import Raster
import Scene
import Timelines
import Export

/// The format named by `--format`, or implied by the output path (`OutputFormat.resolve`),
/// with the command line's wording for what cannot be resolved.
func resolveFormat(explicit: String?, output: String) throws -> OutputFormat {
    let names = OutputFormat.allCases.map(\.rawValue).joined(separator: "|")
    do {
        return try OutputFormat.resolve(explicit: explicit, path: output)
    } catch .unknownName(let e) {
        throw UsageError("--format expects one of \(names), got \"\(e)\"")
    } catch .stdoutNeedsRGBA {
        throw UsageError("writing to stdout (-o -) needs --format rgba")
    } catch .singlePNG(let path) {
        throw UsageError("\(path) is one PNG file; use `chartreel frame` for one frame, --format apng for "
                         + "an animated PNG, or a directory name for PNG frames")
    } catch .unknownExtension(let path, let ext) {
        throw UsageError("cannot tell the format of \"\(path)\" from .\(ext); use --format \(names)")
    }
}

/// The options of every command that reads a document: `--allow-path DIR`, `--max-memory SIZE`, and the
/// command line's changes to the document, `--set PATH=JSON`, `--data NAME=FILE` and
/// `--param NAME=VALUE` (all repeatable).
let documentOptions: Set<String> = ["--allow-path", "--max-memory", "--set", "--data", "--param"]

/// The `--set`, `--data` and `--param` values of `a`, parsed; `extra` parameters (a
/// batch row's) come after them and win.
func documentInputs(_ a: Arguments, extra: [DocumentInputs.ParameterValue] = []) throws -> DocumentInputs {
    var inputs = DocumentInputs()
    inputs.assignments = try a.values("--set").map { (s: String) throws -> DocumentInputs.Assignment in try DocumentInputs.assignment(s) }
    inputs.dataSources = try a.values("--data").map { (s: String) throws -> DocumentInputs.DataSource in try DocumentInputs.dataSource(s) }
    inputs.parameters = try a.values("--param").map { (s: String) throws -> DocumentInputs.ParameterValue in try DocumentInputs.parameter(s) } + extra
    return inputs
}

/// Loads a document with the command line's changes; decode failures become
/// `DocumentErrors` naming file, line:column and path, and a change that cannot be
/// applied an `InputError` naming its flag. Warnings (a filter that leaves no rows) go to
/// standard error; `--strict` makes them errors. `--allow-path DIR` (repeatable) names
/// folders besides the document's own whose files the document may read.
func loadDocument(_ path: String, _ a: Arguments, extra: [DocumentInputs.ParameterValue] = [],
                  warning: @escaping (String) -> Void = { report("warning: \($0)") }) throws -> TimelineDecoder.Loaded {
    var limits = DocumentLimits()
    for dir in a.values("--allow-path") {
        var info = stat()
        guard stat(dir, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw UsageError("--allow-path expects a directory, got \"\(dir)\"")
        }
        limits.allowedDirectories.append(dir)
    }
    limits.maxMemory = try memoryLimit(a)
    return try TimelineDecoder.load(path: path, inputs: try documentInputs(a, extra: extra), limits: limits,
                                    strict: a.flag("--strict")) { warning("\($0)") }
}

/// The scene of `loadDocument`.
func loadScene(_ path: String, _ a: Arguments) throws -> Scene { try loadDocument(path, a).scene }

/// `--max-memory SIZE` (`2G`, `800M`), `none` for no check; by default three quarters of
/// the memory the process may use (`MemoryBudget.defaultLimit`).
func memoryLimit(_ a: Arguments) throws -> Int? {
    guard let text = a.value("--max-memory") else { return MemoryBudget.defaultLimit() }
    if text.lowercased() == "none" { return nil }
    guard let v = MemoryBudget.parse(text) else {
        throw UsageError("--max-memory expects a size such as 2G, 800M or 500000000 (bytes), or none, got \"\(text)\"")
    }
    return v
}

/// The memory a render is estimated to take: its inputs (`MemoryBudget`: the document
/// and the CSV files among `files`, the render's inputs from `inputFiles`) and the frames
/// in flight, spare and cached, the canvases' layers and the converted planes
/// (`OutputPlan.renderingMemory`).
func renderMemoryEstimate(document: String, files: [String], plan: OutputPlan, threads: Int) -> (total: Int, inputs: Int, frames: Int) {
    let docBytes = fileSize(document) ?? 0
    let csvBytes = files.filter { $0 != document && $0.lowercased().hasSuffix(".csv") }.compactMap(fileSize).reduce(0, +)
    let inputs = MemoryBudget.inputs(documentBytes: docBytes, csvBytes: csvBytes)
    let frames = plan.renderingMemory(threads: threads)
    return (inputs + frames, inputs, frames)
}

/// The largest canvas side, before and after `--scale` (`DocumentLimits.maxCanvasSide`).
let maxCanvasSide = DocumentLimits().maxCanvasSide

/// Refuses a `--scale` that takes the canvas past the canvas limit, before any frame is
/// allocated (4096² at scale 16 asked for 17 GB a frame).
func checkScaledCanvas(_ scene: Scene, scale: Double) throws {
    let s = scene.scaled(by: scale)
    guard s.width > maxCanvasSide || s.height > maxCanvasSide else { return }
    let largest = Double(maxCanvasSide) / Double(max(scene.width, scene.height))
    throw UsageError("--scale \(fmt(scale)) makes the \(scene.width)x\(scene.height) canvas \(s.width)x\(s.height) pixels, "
                     + "over the limit of \(maxCanvasSide) pixels per side (the canvas limit per side); "
                     + "the largest scale for this document is \(fmt((largest * 100).rounded(.down) / 100))")
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

/// The flags of `render` (and of `batch`, which renders with the same options).
let renderFlags: Set<String> = ["-y", "--overwrite", "-q", "--quiet", "-h", "--help", "--dry-run", "--strict", "--no-space-check", "--json"]
/// The options of `render` that take a value.
let renderValued: Set<String> = Set(["-o", "--output", "--format", "--threads", "--fps", "--scale", "--from", "--to",
                                     "--frames", "--quality", "--colors", "--dither", "--bayer-scale", "--loop",
                                     "--pause", "--matte", "--stall-timeout", "--audio", "--audio-fade"]).union(documentOptions)

/// `chartreel render DOC -o OUT`.
func runRender(_ args: [String]) throws {
    let a = try Arguments(args, flags: renderFlags, valued: renderValued)
    if a.flag("-h", "--help") { print(renderHelp); return }
    guard a.positional.count == 1 else {
        throw UsageError(a.positional.isEmpty ? "render needs a document: chartreel render DOC -o OUT"
                                              : "render takes one document, got \(a.positional.count)")
    }
    guard let output = a.value("-o", "--output") else { throw UsageError("render needs an output: -o OUT") }
    if a.flag("--json") && output == "-" { throw UsageError("--json prints to stdout, which -o - already uses for frames") }
    let summary = try render(document: a.positional[0], output: output, a)
    if a.flag("--json"), let summary { printJSON(summary.json) }
}

/// What one render did, for the summary line and `--json`.
struct RenderSummary {
    var document: String
    var output: String
    var format: OutputFormat
    var frames: Int
    var range: Range<Int>
    var totalFrames: Int
    var width: Int
    var height: Int
    var fps: Double
    /// The length of what was rendered, in seconds of video.
    var videoSeconds: Double
    /// Wall-clock time the render took.
    var renderSeconds: Double
    var bytes: Int?
    var warnings: [String]
    var notes: [String]
    /// The audio file muxed in, if any.
    var audio: String? = nil
    var parameters: [DocumentParameter]

    /// The `--json` object: keys in a fixed order when printed (sorted).
    var json: [String: Any] {
        var o: [String: Any] = [
            "document": document, "output": output, "format": format.rawValue, "frames": frames,
            "firstFrame": range.lowerBound, "totalFrames": totalFrames, "width": width, "height": height, "fps": fps,
            "seconds": videoSeconds, "renderSeconds": (renderSeconds * 1000).rounded() / 1000,
            "warnings": warnings, "notes": notes,
        ]
        o["bytes"] = bytes ?? NSNull()
        if let audio { o["audio"] = audio }
        if !parameters.isEmpty {
            o["params"] = Dictionary(parameters.map { p -> (String, Any) in
                switch p.value {
                case .number(let v, _): return (p.name, v)
                case .bool(let b): return (p.name, b)
                default: return (p.name, DocumentParameter.text(p.value))
                }
            }, uniquingKeysWith: { a, _ in a })
        }
        return o
    }
}

/// Prints `object` as one line of JSON on standard output, keys sorted.
func printJSON(_ object: Any) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    print(String(decoding: data, as: UTF8.self))
}

/// Renders `document` to `output` with `render`'s options in `a` (and `extra` parameter
/// values, a batch row's). Returns nil for `--dry-run`. `quietSummary` leaves out the
/// summary line (batch prints its own).
func render(document: String, output: String, _ a: Arguments, extra: [DocumentInputs.ParameterValue] = [],
            quietSummary: Bool = false, showProgress: Bool? = nil,
            cancellation: CancellationToken? = nil) throws -> RenderSummary? {
    var warnings: [String] = []
    let format = try resolveFormat(explicit: a.value("--format"), output: output)
    if output == "-" && format != .rgba { throw UsageError("only --format rgba can be written to stdout") }
    if output == "-" { try requireStandardOutput() }
    let threads = try a.int("--threads", min: 1, max: 256) ?? ProcessInfo.processInfo.activeProcessorCount
    let overwrite = a.flag("-y", "--overwrite")
    let quiet = a.flag("-q", "--quiet") || quietSummary
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
    if case .crf(let n) = options.quality, format == .mp4, n > 51 {
        throw UsageError("--quality \(n) is out of range for MP4: its CRF runs from 0 to 51")
    }
    let stallTimeout = try a.double("--stall-timeout", min: 1, max: 86_400) ?? FFmpegSink.defaultStallTimeout
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

    if let audio = a.value("--audio") {
        guard format.carriesAudio else {
            throw UsageError("--audio needs MP4, WebM or MOV output; \(format.rawValue.uppercased()) has no sound track")
        }
        let fade = try a.double("--audio-fade", min: 0, max: 3600) ?? 0
        // Refused (exit 2, naming the file) before anything is rendered.
        _ = try MediaProbe.checkAudio(audio)
        options.audio = AudioTrack(path: audio, fade: fade)
    } else if a.options["--audio-fade"] != nil {
        throw UsageError("--audio-fade needs --audio FILE")
    }
    // A caller that keeps its own trap (watch and batch, for their whole session) passes
    // its token. Set before ffmpeg is started and the document read: a signal from here on
    // stops the render cleanly.
    let trap = cancellation == nil ? SignalTrap() : nil
    defer { trap?.release() }
    let token = cancellation ?? trap!.token
    // ffmpeg's own start-up overlaps the reading of the document (FFmpegPrestart): it is
    // started now and told the frame size when the plan is known, or stopped if the
    // render does not get that far or does not fit it.
    let prestart = a.flag("--dry-run") ? nil
        : FFmpegPrestart.start(format: format, path: output, overwrite: overwrite, options: options)
    defer { prestart?.discard() }
    let loaded = try loadDocument(document, a, extra: extra) { warnings.append($0); report("warning: \($0)") }
    if let stop = token.error { throw stop }
    let scene = loaded.scene
    try checkScaledCanvas(scene, scale: scale)
    let plan: OutputPlan
    do {
        plan = try OutputPlan(scene: scene, format: format, fps: fps, scale: scale, matte: matte,
                              from: from, to: to, options: options)
    } catch let ExportError.invalidArgument(what) {
        throw UsageError(what)
    }
    var writer = OutputWriter()
    writer.overwrite = overwrite
    writer.threads = threads
    writer.stallTimeout = stallTimeout
    writer.inputs = inputFiles(ofDocument: document, a) + (a.value("--audio").map { [$0] } ?? [])
    writer.note = { report("note: \($0)") }
    writer.prestarted = prestart
    // Refusals (a directory holding more than frames, an input, a device that cannot take
    // the format) come before anything is rendered or printed.
    let target = a.flag("--dry-run") ? (try? writer.check(plan, to: output)) : try writer.check(plan, to: output)
    // The whole output against the free space where it goes (16384² at 1000 fps for an
    // hour is ~13 TB of PNG), before the first frame.
    let estimate = OutputSizeEstimate(plan: plan, target: target ?? .new(path: output))
    if !a.flag("--dry-run") && !a.flag("--no-space-check") && estimate.exceedsFreeSpace {
        throw ExportError.refused("the output would take about \(OutputSizeEstimate.describe(estimate.bytes)) "
                                  + "(\(plan.range.count) frames of \(plan.scene.width)x\(plan.scene.height) as \(format.rawValue), estimated), "
                                  + "but only \(OutputSizeEstimate.describe(estimate.freeBytes ?? 0)) are free where it goes; "
                                  + "free some space, render a part (--frames, --to, --fps, --scale), or pass --no-space-check")
    }
    // The whole render against the memory it may take (a 16384² canvas is 1 GB a
    // frame, and several are in flight), before the first frame.
    let memory = renderMemoryEstimate(document: document, files: writer.inputs, plan: plan, threads: threads)
    let memoryLimit = try memoryLimit(a)
    if !a.flag("--dry-run"), let limit = memoryLimit, memory.total > limit {
        throw ExportError.refused("the render would take about \(MemoryBudget.describe(memory.total)) of memory "
                                  + "(\(MemoryBudget.describe(memory.frames)) for \(plan.scene.width)x\(plan.scene.height) frames on \(threads) threads, "
                                  + "\(MemoryBudget.describe(memory.inputs)) for the document and its data; estimated), over the limit of "
                                  + "\(MemoryBudget.describe(limit)) (--max-memory"
                                  + (a.value("--max-memory") == nil ? "; by default \(MemoryBudget.defaultLimitSource())" : "")
                                  + "); use fewer threads (--threads), a smaller canvas (--scale), or raise --max-memory")
    }
    for w in plan.warnings { report("note: \(w)"); warnings.append(w) }
    if !quiet { for n in plan.notes { report("note: \(n)") } }
    releaseDecodingMemory()
    let s = plan.scene
    let count = plan.range.count
    let chunk = plan.range.count == plan.totalFrames ? "" : " (frames \(plan.range.lowerBound)..<\(plan.range.upperBound) of \(plan.totalFrames))"

    if a.flag("--dry-run") {
        print("\(count) frames\(chunk) of \(s.width)x\(s.height) at \(fmt(plan.fps)) fps "
              + "(\(fmt(s.effectiveDuration)) s) -> \(output) (\(format.rawValue))")
        if format.isVideo {
            let args = FFmpeg.arguments(format: format, width: s.width, height: s.height, fps: plan.fps,
                                        frameCount: count, options: plan.videoOptions, output: output)
            print((["ffmpeg"] + args).map(shellQuote).joined(separator: " "))
        }
        print("estimated size: about \(OutputSizeEstimate.describe(estimate.bytes))"
              + (estimate.freeBytes.map { ", \(OutputSizeEstimate.describe($0)) free at the destination" } ?? "")
              + (estimate.exceedsFreeSpace ? " (does not fit: render refuses without --no-space-check)" : ""))
        print("estimated memory: about \(MemoryBudget.describe(memory.total)) (frames \(MemoryBudget.describe(memory.frames)), "
              + "inputs \(MemoryBudget.describe(memory.inputs)))"
              + (memoryLimit.map { ", limit \(MemoryBudget.describe($0))" + (memory.total > $0 ? " (over: render refuses)" : "") } ?? ""))
        return nil
    }

    let progress = ProgressReporter(quiet: !(showProgress ?? !quiet))
    writer.cancellation = token
    writer.progress = { progress.update($0, $1) }
    let start = DispatchTime.now().uptimeNanoseconds
    let written: OutputWriter.Written
    do {
        defer { progress.finish() }
        written = try writer.write(plan, to: output)
    }
    let secs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    if !quiet && !a.flag("--json") {
        report("chartreel: " + ProgressReporter.summary(frames: count, seconds: secs,
                                                         destination: output == "-" ? "stdout" : output, bytes: written.bytes)
               + ", \(s.width)x\(s.height) at \(fmt(plan.fps)) fps, CPU " + String(format: "%.2f", ownCPUSeconds())
               + " s, peak memory \(peakMemoryMB()) MB")
    }
    return RenderSummary(document: document, output: output == "-" ? "-" : written.path, format: format, frames: count,
                         range: plan.range, totalFrames: plan.totalFrames, width: s.width, height: s.height, fps: plan.fps,
                         videoSeconds: Double(count) / plan.fps, renderSeconds: secs, bytes: written.bytes,
                         warnings: warnings, notes: plan.notes, audio: a.value("--audio"), parameters: loaded.parameters)
}

/// Removes what killed runs left beside `output` (their `.partial-PID` files) and says so.
func removeStalePartials(of output: String) {
    for stale in OutputTarget.removeStalePartials(of: output) {
        report("note: removed \(stale), left by a chartreel run that was killed")
    }
}

/// The files a document reads besides itself: every `"file"` and `"boldFile"` it names
/// (data tables, fonts), resolved as the decoder resolves them, next to the document,
/// and the files `--data` gives (`a`). The document decoded already, so a plain walk of
/// its JSON finds them.
func inputFiles(ofDocument path: String, _ a: Arguments? = nil) -> [String] {
    var found = [path]
    for d in a?.values("--data") ?? [] {
        if let source = try? DocumentInputs.dataSource(d) { found.append(source.file) }
    }
    // ChartReel's own parser: Foundation's took 13 bytes per byte of the document and
    // half the time of a render of inline rows (a 42 MB document peaked at 4.8 GB).
    guard let data = FileManager.default.contents(atPath: path) else { return found }
    let base = (path as NSString).deletingLastPathComponent
    for name in JSONParser.stringValues(ofKeys: ["file", "boldFile"], in: [UInt8](data)) {
        found.append(name.hasPrefix("/") || base.isEmpty ? name : base + "/" + name)
    }
    return found
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
    return singleQuoted(s)
}
