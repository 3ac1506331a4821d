import Raster

/// How hard a lossy encoder compresses: named levels, or a CRF passed to the encoder as is.
public enum VideoQuality: Equatable, Sendable, CustomStringConvertible {
    /// Visually lossless for charts (x264 CRF 18, VP9 CRF 24). The default: flat colour and
    /// thin anti-aliased lines show ringing at the usual "good" CRF 23.
    case high
    /// The encoders' usual defaults (x264 CRF 23, VP9 CRF 31).
    case medium
    /// Small files for previews (x264 CRF 28, VP9 CRF 40).
    case low
    /// A constant rate factor given directly: 0–51 for H.264 (0 is lossless), 0–63 for VP9.
    case crf(Int)

    /// Parses `high`, `medium`, `low` or a CRF number; nil for anything else.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "high": self = .high
        case "medium": self = .medium
        case "low": self = .low
        default:
            guard let n = Int(text), (0...63).contains(n) else { return nil }
            self = .crf(n)
        }
    }

    /// The CRF for `format` (H.264 or VP9); nil for formats without one.
    public func crf(for format: OutputFormat) -> Int? {
        switch (format, self) {
        case (.mp4, .high): return 18
        case (.mp4, .medium): return 23
        case (.mp4, .low): return 28
        case (.mp4, .crf(let n)): return min(n, 51)
        case (.webm, .high): return 24
        case (.webm, .medium): return 31
        case (.webm, .low): return 40
        case (.webm, .crf(let n)): return n
        default: return nil
        }
    }

    /// The name or number, as given on the command line.
    public var description: String {
        switch self {
        case .high: return "high"
        case .medium: return "medium"
        case .low: return "low"
        case .crf(let n): return "\(n)"
        }
    }
}

/// How many times an animated GIF or APNG plays.
public enum LoopCount: Equatable, Sendable {
    /// Over and over (the default for both formats).
    case forever
    /// `n` times in all (1 is once: no repeat).
    case times(Int)

    /// Parses `forever`, `once` or a positive number of plays; nil for anything else.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "forever", "infinite", "0": self = .forever
        case "once": self = .times(1)
        default:
            guard let n = Int(text), n >= 1, n <= 65_535 else { return nil }
            self = .times(n)
        }
    }

    /// The GIF muxer's `-loop`: 0 forever, -1 no repeat (one play), else the repeat count
    /// written into the NETSCAPE2.0 block, which counts plays after the first.
    var gifLoop: Int {
        switch self {
        case .forever: return 0
        case .times(let n): return n <= 1 ? -1 : n - 1
        }
    }

    /// The APNG muxer's `-plays`: 0 forever, else the number of plays.
    var apngPlays: Int {
        switch self {
        case .forever: return 0
        case .times(let n): return n
        }
    }
}

/// How a GIF's colours are reduced to a palette's.
public enum GIFDither: String, CaseIterable, Sendable {
    /// No dithering: flat bands where a gradient has more shades than the palette.
    case none
    /// Ordered 8×8 Bayer dithering: the same input pixel always gives the same output, so
    /// static areas do not shimmer between frames, and it compresses well. The default.
    case bayer
    /// Floyd–Steinberg error diffusion: smoother gradients, but noise that moves.
    case floydSteinberg = "floyd_steinberg"
    /// Sierra-2-4A ("lite") error diffusion, ffmpeg's own default.
    case sierra24a = "sierra2_4a"
}

/// Settings for the GIF encoder (ffmpeg's palettegen and paletteuse filters).
public struct GIFOptions: Equatable, Sendable {
    /// The palette size, 4 to 256 (one entry is kept for transparency).
    public var colors: Int = 256
    /// The dithering method.
    public var dither: GIFDither = .bayer
    /// The Bayer pattern's scale, 0–5: lower draws a stronger crosshatch (less banding in
    /// gradients with few palette colours), higher a fainter one. 5 by default: on the
    /// curved-line scene with 256 colours it gives a GIF a third smaller than 3 and 6–7 dB
    /// more PSNR, with no visible banding (docs/benchmarks.md). ffmpeg's own default is 2.
    public var bayerScale: Int = 5

    /// The defaults: 256 colours, Bayer dither at scale 5.
    public init(colors: Int = 256, dither: GIFDither = .bayer, bayerScale: Int = 5) {
        self.colors = colors; self.dither = dither; self.bayerScale = bayerScale
    }
}

/// Everything about a video encode besides its size, rate and format.
public struct VideoOptions: Equatable, Sendable {
    /// The rate-control quality for H.264 and VP9.
    public var quality: VideoQuality = .high
    /// Whether frames carry transparency to keep. WebM then uses yuva420p, MOV yuva444p10,
    /// APNG rgba and GIF a transparent palette entry; MP4 cannot, so its frames must be
    /// composited onto a matte first (see `OutputPlan`).
    public var alpha = false
    /// GIF palette settings.
    public var gif = GIFOptions()
    /// How often a GIF or APNG plays.
    public var loop: LoopCount = .forever
    /// Extra seconds the last frame of a GIF or APNG stays on screen before it loops.
    public var pause: Double = 0
    /// The colour ffmpeg pads an odd-sized MP4 with when it is given one (straight RGBA as
    /// `RRGGBBAA`). `OutputPlan` pads frames itself, so this is only a fallback.
    public var padColor: Color = .black
    /// A sound track to mux in (MP4, WebM, MOV), trimmed to the frames rendered.
    public var audio: AudioTrack? = nil

    /// Creates options; every field has a default.
    public init(quality: VideoQuality = .high, alpha: Bool = false, gif: GIFOptions = GIFOptions(),
                loop: LoopCount = .forever, pause: Double = 0, padColor: Color = .black) {
        self.quality = quality; self.alpha = alpha; self.gif = gif
        self.loop = loop; self.pause = pause; self.padColor = padColor
    }
}

/// An audio file muxed into a video: trimmed to the video, with an optional fade-out at
/// the video's end. ffmpeg decodes it (any format it reads) and encodes it as the
/// container expects: AAC in MP4, Opus in WebM, 16-bit PCM in MOV (what editors take).
public struct AudioTrack: Equatable, Sendable {
    /// The audio file.
    public var path: String
    /// Seconds of fade-out ending where the whole video ends; 0 for none.
    public var fade: Double
    /// The first rendered frame's time (set by `OutputPlan`).
    public var start: Double = 0
    /// The end of the last rendered frame (set by `OutputPlan`).
    public var end: Double = 0
    /// The end of the whole video, where the fade ends (set by `OutputPlan`).
    public var videoEnd: Double = 0

    /// A track from `path` fading out over `fade` seconds.
    public init(path: String, fade: Double = 0) {
        self.path = path
        self.fade = fade
    }

    /// The audio filter: fade on the video's timeline, then cut to the rendered span and
    /// start it at 0 (a chunk's audio starts where its frames do).
    var filter: String {
        var parts: [String] = []
        if fade > 0 {
            let st = max(0, videoEnd - fade)
            parts.append("afade=t=out:st=\(FFmpeg.seconds(st)):d=\(FFmpeg.seconds(videoEnd - st))")
        }
        parts.append("atrim=start=\(FFmpeg.seconds(start)):end=\(FFmpeg.seconds(end))")
        parts.append("asetpts=PTS-STARTPTS")
        return parts.joined(separator: ",")
    }
}
