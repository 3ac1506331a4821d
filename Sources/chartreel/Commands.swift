import Foundation
import Geometry
import Raster
import Scene
import Timelines
import Export

/// The output kinds `render` can write.
enum OutputFormat: String, CaseIterable {
    case mp4, gif, png, rgba

    /// The format named by `--format`, or implied by the output path.
    static func resolve(explicit: String?, output: String) throws -> OutputFormat {
        if let e = explicit {
            guard let f = OutputFormat(rawValue: e.lowercased()) else {
                throw UsageError("--format expects one of \(allCases.map(\.rawValue).joined(separator: ", ")), got \"\(e)\"")
            }
            return f
        }
        if output == "-" { throw UsageError("writing to stdout (-o -) needs --format rgba") }
        switch (output as NSString).pathExtension.lowercased() {
        case "mp4": return .mp4
        case "gif": return .gif
        case "png": throw UsageError("\(output) is one PNG file; use `chartreel frame` for one frame, or give a directory for PNG frames")
        case "": return .png
        case let ext: throw UsageError("cannot tell the format of \"\(output)\" from .\(ext); use --format mp4|gif|png|rgba")
        }
    }
}

/// Loads a document, turning decode failures into `DocumentErrors` with the file named.
func loadScene(_ path: String) throws -> Scene {
    try TimelineDecoder.load(path: path)
}

/// `chartreel render DOC -o OUT`.
func runRender(_ args: [String]) throws {
    let a = try Arguments(args, allowedFlags: ["-y", "--overwrite", "-q", "--quiet", "-h", "--help", "--dry-run"],
                          allowedOptions: ["-o", "--output", "--format", "--threads", "--fps"])
    if a.flags.contains("-h") || a.flags.contains("--help") { print(renderHelp); return }
    guard a.positional.count == 1 else {
        throw UsageError(a.positional.isEmpty ? "render needs a document: chartreel render DOC -o OUT" : "render takes one document, got \(a.positional.count)")
    }
    guard let output = a.value("-o", "--output") else { throw UsageError("render needs an output: -o OUT") }
    let format = try OutputFormat.resolve(explicit: a.value("--format"), output: output)
    if output == "-" && format != .rgba { throw UsageError("only --format rgba can be written to stdout") }
    let threads = try a.int("--threads", min: 1, max: 256) ?? ProcessInfo.processInfo.activeProcessorCount
    let overwrite = a.flags.contains("-y") || a.flags.contains("--overwrite")
    let quiet = a.flags.contains("-q") || a.flags.contains("--quiet")
    var scene = try loadScene(a.positional[0])
    if let f = try a.double("--fps", min: 1, max: 1000) { scene.fps = f }

    // GIF frame delays are whole hundredths of a second and browsers slow delays under
    // 2/100 s down, so GIFs above 50 fps sample the timeline at 50 fps instead.
    let fps = format == .gif ? min(scene.fps, 50) : scene.fps
    let frameCount = scene.frameCount(fps: fps)
    if a.flags.contains("--dry-run") {
        print("\(frameCount) frames of \(scene.width)x\(scene.height) at \(fps) fps (\(scene.effectiveDuration) s) -> \(output) (\(format.rawValue))")
        if let video = format == .mp4 ? VideoFormat.mp4 : format == .gif ? .gif : nil {
            let args = FFmpeg.arguments(format: video, width: scene.width, height: scene.height, fps: fps, output: output)
            print((["ffmpeg"] + args).map(shellQuote).joined(separator: " "))
        }
        return
    }
    if format != .rgba, !overwrite, FileManager.default.fileExists(atPath: output) {
        throw ExportError.outputExists(output)
    }
    let sink: FrameSink
    switch format {
    case .mp4: sink = FFmpegSink(outputPath: output, format: .mp4, overwrite: overwrite)
    case .gif: sink = FFmpegSink(outputPath: output, format: .gif, overwrite: overwrite)
    case .png: sink = PNGDirectorySink(directory: output, overwrite: overwrite)
    case .rgba:
        guard output == "-" else { throw UsageError("--format rgba writes to stdout: use -o - and redirect") }
        sink = RawRGBASink()
    }
    let progress = ProgressReporter(quiet: quiet)
    let renderer = FrameRenderer(scene: scene, fps: fps)
    let start = DispatchTime.now().uptimeNanoseconds
    try sink.begin(width: scene.width, height: scene.height, fps: fps, frameCount: frameCount)
    try FrameSequencer(threads: threads).run(frameCount: frameCount, render: { i in renderer.frame(i) },
                                             sink: sink, progress: { progress.update($0, $1) })
    progress.finish()
    if !quiet {
        let secs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let dest = output == "-" ? "stdout" : output
        FileHandle.standardError.write(String(format: "chartreel: %d frames (%dx%d, %.3g fps) in %.2f s -> %@\n",
                                              frameCount, scene.width, scene.height, fps, secs, dest).data(using: .utf8)!)
    }
}

/// `chartreel frame DOC (--at S | --frame N) -o FILE.png`.
func runFrame(_ args: [String]) throws {
    let a = try Arguments(args, allowedFlags: ["-y", "--overwrite", "-h", "--help"],
                          allowedOptions: ["-o", "--output", "--at", "--frame"])
    if a.flags.contains("-h") || a.flags.contains("--help") { print(frameHelp); return }
    guard a.positional.count == 1 else { throw UsageError("frame needs one document: chartreel frame DOC --at SECONDS -o FILE.png") }
    guard let output = a.value("-o", "--output") else { throw UsageError("frame needs an output: -o FILE.png") }
    let at = try a.double("--at", min: 0, max: 1e6)
    let index = try a.int("--frame", min: 0, max: Int(Int32.max))
    guard (at == nil) != (index == nil) else { throw UsageError("frame needs exactly one of --at SECONDS or --frame N") }
    let overwrite = a.flags.contains("-y") || a.flags.contains("--overwrite")
    if !overwrite, FileManager.default.fileExists(atPath: output) { throw ExportError.outputExists(output) }
    let scene = try loadScene(a.positional[0])
    let t = at ?? Scene.time(ofFrame: index!, fps: scene.fps)
    try scene.frame(at: t).writePNG(toFile: output)
}

/// `s` quoted for a POSIX shell when it needs quoting.
func shellQuote(_ s: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:+,@%")
    if !s.isEmpty && s.allSatisfy({ safe.contains($0) }) { return s }
    return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
