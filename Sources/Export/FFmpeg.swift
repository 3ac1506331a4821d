// How ChartReel finds and calls ffmpeg. The command lines live here, apart from the
// process plumbing in FFmpegSink.swift, so they can be read and tested on their own.
import Foundation
import Raster

/// Locating ffmpeg and building its command lines.
public enum FFmpeg {
    /// The first executable `ffmpeg` in the directories of `searchPath` (colon-separated;
    /// the `PATH` environment variable when nil), or nil when there is none.
    public static func locateFFmpeg(searchPath: String? = nil) -> String? {
        locate("ffmpeg", searchPath: searchPath)
    }

    /// The first executable named `name` in `searchPath` (or `PATH`).
    public static func locate(_ name: String, searchPath: String? = nil) -> String? {
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = dir.hasSuffix("/") ? "\(dir)\(name)" : "\(dir)/\(name)"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Whether `path` is a regular file this process may execute.
    static func isExecutableFile(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }

    /// The arguments (after the program name) that make ffmpeg read `frameCount` raw
    /// frames of `width` × `height` at `fps` from stdin (in `OutputFormat.pipePixelFormat`:
    /// yuv420p, straight RGBA or BGRA) and write `format` to `output`.
    ///
    /// An odd-sized MP4 gets `-vf pad` with `options.padColor` as a fallback; `OutputPlan`
    /// normally pads the canvas itself so ffmpeg never needs to. `-y` is there because
    /// `output` is our own temporary name, possibly left by a crashed run; the real target
    /// is never passed to ffmpeg.
    public static func arguments(format: OutputFormat, width: Int, height: Int, fps: Double,
                                 frameCount: Int = 0, options: VideoOptions = VideoOptions(),
                                 output: String) -> [String] {
        precondition(format.isVideo, "ffmpeg does not write \(format.rawValue)")
        var args = ["-hide_banner", "-loglevel", "error",
                    "-f", "rawvideo", "-pix_fmt", format.pipePixelFormat(alpha: options.alpha).ffmpegName, "-s", "\(width)x\(height)",
                    "-framerate", rate(fps), "-i", "-"]
        if let audio = options.audio {
            // The frames are stream 0 (so the video is the first track), the file's first
            // audio stream the second.
            // "file:" so a name like "pipe:0" or "http://…" is read as a file's name.
            args += ["-i", "file:" + audio.path, "-map", "0:v", "-map", "1:a:0", "-af", audio.filter]
            switch format {
            case .mp4: args += ["-c:a", "aac", "-b:a", "192k"]
            case .webm: args += ["-c:a", "libopus", "-b:a", "128k"]
            default: args += ["-c:a", "pcm_s16le"]
            }
        }
        let layout = format.pipePixelFormat(alpha: options.alpha)
        switch format {
        case .mp4:
            if width % 2 != 0 || height % 2 != 0 {
                args += ["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2:color=\(hex(options.padColor))"]
            }
            args += ["-c:v", "libx264", "-preset", "medium", "-crf", "\(options.quality.crf(for: .mp4)!)",
                     "-pix_fmt", "yuv420p"] + colourTags + ["-movflags", "+faststart", "-f", "mp4"]
        case .webm:
            // row-mt and cpu-used 2: libvpx's single-threaded "good" default is several
            // times slower for no visible gain on flat chart graphics.
            if layout != .yuv420p { args += ["-vf", bt709Scale] }
            args += ["-c:v", "libvpx-vp9", "-crf", "\(options.quality.crf(for: .webm)!)", "-b:v", "0",
                     "-pix_fmt", options.alpha ? "yuva420p" : "yuv420p"] + colourTags
                + ["-row-mt", "1", "-deadline", "good", "-cpu-used", "2", "-f", "webm"]
        case .mov:
            args += ["-vf", bt709Scale, "-c:v", "prores_ks", "-profile:v", "4444", "-vendor", "apl0"]
            args += options.alpha ? ["-pix_fmt", "yuva444p10le", "-alpha_bits", "16"] : ["-pix_fmt", "yuv444p10le"]
            args += colourTags + ["-f", "mov"]
        case .apng:
            args += ["-pix_fmt", options.alpha ? "rgba" : "rgb24", "-f", "apng",
                     "-plays", "\(options.loop.apngPlays)"]
            if options.pause > 0 {
                let last = frameCount > 0 ? 1 / fps : 0
                args += ["-final_delay", String(format: "%.3f", last + options.pause)]
            }
        case .gif:
            let g = options.gif
            var use = "paletteuse=dither=\(g.dither.rawValue)"
            if g.dither == .bayer { use += ":bayer_scale=\(g.bayerScale)" }
            use += ":diff_mode=rectangle"
            // palettegen's stats_mode=diff counts a pixel's colour when it changes *away*
            // from it, so the last frame's colours (a chart's final state, on screen for
            // the whole hold) never reach the palette. One extra frame of an unlikely colour
            // on the palette branch only makes every last-frame pixel change once more:
            // about +2 dB PSNR on the curved-line scene, and the output has no extra frame.
            args += ["-filter_complex",
                     "[0:v]split[a][b];[a]\(GIFTiming.flushFrame),palettegen=stats_mode=diff:max_colors=\(g.colors)[p];[b][p]\(use)",
                     "-f", "gif", "-loop", "\(options.loop.gifLoop)"]
            if frameCount > 0 {
                // Without it the last frame repeats the previous delay; with it the GIF
                // lasts exactly its rounded duration, plus the pause.
                let last = GIFTiming.delays(frameCount: frameCount, fps: fps, pause: options.pause).last!
                args += ["-final_delay", "\(min(last, 65_535))"]
            }
        case .png, .rgba:
            preconditionFailure("not a video format")
        }
        return args + ["-y", output]
    }

    /// `arguments` with the raw yuv420p input described by a yuv4mpeg stream header
    /// (`yuv4mpegHeader`) instead of by `-pix_fmt`, `-s` and `-framerate`: the command an
    /// ffmpeg can be started with before the frame size and rate are known. nil when the
    /// input is not yuv420p frames on stdin. Only the input's description changes, so the
    /// encoder receives the same frames and writes the same file (FFmpegPrestart).
    public static func yuv4mpegArguments(_ args: [String]) -> [String]? {
        let raw = ["-f", "rawvideo", "-pix_fmt", PipePixelFormat.yuv420p.ffmpegName]
        guard let start = args.firstIndex(of: "-f"), args.count >= start + 10,
              Array(args[start..<(start + 4)]) == raw, args[start + 4] == "-s", args[start + 6] == "-framerate",
              args[start + 8] == "-i", args[start + 9] == "-" else { return nil }
        return Array(args[..<start]) + ["-f", "yuv4mpegpipe", "-i", "-"] + Array(args[(start + 10)...])
    }

    /// The stream header that tells an ffmpeg started with `yuv4mpegArguments` what the
    /// frames are: their size, rate, progressive scan, left-sited 4:2:0 chroma
    /// (`C420mpeg2`, as `Pixmap.yuv420p` places it) and limited range; nil for a rate
    /// that is not a whole number of frames per second (`-framerate` turns a decimal into
    /// a fraction by rules of its own, which this header does not repeat).
    public static func yuv4mpegHeader(width: Int, height: Int, fps: Double) -> [UInt8]? {
        guard width > 0, height > 0, fps >= 1, fps == fps.rounded(), fps < 1e6 else { return nil }
        return Array("YUV4MPEG2 W\(width) H\(height) F\(Int(fps)):1 Ip A0:0 C420mpeg2 XCOLORRANGE=LIMITED\n".utf8)
    }

    /// What precedes each frame's planes in a yuv4mpeg stream.
    public static let yuv4mpegFrameMarker = Array("FRAME\n".utf8)

    /// Seconds for a filter argument: `1.5`, `0.333333`.
    static func seconds(_ t: Double) -> String {
        let s = String(format: "%.6f", t)
        var trimmed = s
        while trimmed.hasSuffix("0") { trimmed.removeLast() }
        if trimmed.hasSuffix(".") { trimmed.removeLast() }
        return trimmed
    }

    /// The colour tags of every YUV stream ChartReel writes (MP4, WebM, MOV): BT.709
    /// primaries, transfer and matrix, limited range. They tell a player how to turn the
    /// samples back into the PNG's RGB; without them (ffprobe: `unknown`) players guess,
    /// often BT.601 for sizes below HD, and colours shift (docs/cli.md, "Colour").
    ///
    /// The transfer is tagged BT.709 rather than sRGB (IEC 61966-2-1, code 13), although
    /// the pixels are sRGB-encoded: no transfer conversion happens either way (the values
    /// are sent as they are), and BT.709 is the SDR transfer every player and hardware
    /// decoder handles, where code 13 is honoured by few and ignored or refused by others.
    public static let colourTags = ["-colorspace", "bt709", "-color_primaries", "bt709",
                                    "-color_trc", "bt709", "-color_range", "tv"]

    /// The scale filter that converts RGBA input to YUV with the BT.709 matrix at limited
    /// range, as `Pixmap.yuv420p` does: ffmpeg's automatic conversion uses BT.601 whatever
    /// the stream is tagged. For the outputs ffmpeg still converts (WebM with alpha, MOV).
    /// `setparams` marks the frames so, which the ProRes encoder needs to write the tags.
    static let bt709Scale = "scale=out_color_matrix=bt709:out_range=tv,"
        + "setparams=colorspace=bt709:color_primaries=bt709:color_trc=bt709:range=tv"

    /// The arguments that join `listFile` (an ffconcat list of same-codec parts) into
    /// `output` of `format` without re-encoding.
    public static func concatArguments(listFile: String, format: OutputFormat, output: String) -> [String] {
        precondition(format.isVideo, "ffmpeg does not write \(format.rawValue)")
        var args = ["-hide_banner", "-loglevel", "error", "-f", "concat", "-safe", "0",
                    "-i", listFile, "-map", "0", "-c", "copy"]
        if format == .mp4 || format == .mov { args += ["-movflags", "+faststart"] }
        return args + ["-f", format.rawValue, "-y", output]
    }

    /// A frame rate as ffmpeg parses it: an integer when it is one, else the shortest
    /// decimal that round-trips (ffmpeg turns it into a rational itself).
    static func rate(_ fps: Double) -> String {
        if fps == fps.rounded(), abs(fps) < 1e9 { return String(Int(fps)) }
        return "\(fps)"
    }

    /// `0xRRGGBBAA`, as ffmpeg's colour options take it.
    static func hex(_ c: Color) -> String {
        func byte(_ v: Double) -> String {
            let b = Int((min(1, max(0, v)) * 255).rounded())
            return String(format: "%02X", b)
        }
        return "0x" + byte(c.r) + byte(c.g) + byte(c.b) + byte(c.a)
    }
}
