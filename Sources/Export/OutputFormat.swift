// The one place an output's format is decided: from `--format` (or the Swift API's
// explicit format) or the path's extension, and what that format means for the rest of
// the export — alpha, even sizes, the pixel layout on ffmpeg's pipe, whether chunks can
// be joined or the output streamed. `OutputPlan` adjusts the scene for it, `FFmpeg`
// builds the encoder's arguments from it and `OutputWriter` picks the sink by it; the
// command line and `Scene.render(to:)` both start here.
import Foundation

/// Every kind of output ChartReel writes.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// A directory of PNG frames.
    case png
    /// Raw straight RGBA8 frames on a stream.
    case rgba
    /// H.264 in MP4 (libx264, yuv420p, faststart). No alpha; even sizes only.
    case mp4
    /// An animated GIF with a per-video palette (palettegen / paletteuse).
    case gif
    /// VP9 in WebM (libvpx-vp9), with an alpha channel (yuva420p) when frames have one.
    case webm
    /// Animated PNG: lossless, straight RGBA.
    case apng
    /// ProRes 4444 in QuickTime MOV, with alpha when frames have one: the format Keynote,
    /// PowerPoint and video editors take for overlays.
    case mov

    /// The formats ffmpeg encodes (every one but PNG frames and raw RGBA).
    public static let videoFormats: [OutputFormat] = [.mp4, .gif, .webm, .apng, .mov]

    /// Whether ffmpeg encodes this format.
    public var isVideo: Bool { self != .png && self != .rgba }

    /// Whether frames in this format can keep a transparent background.
    public var supportsAlpha: Bool { self != .mp4 }

    /// Whether the container takes a sound track (`--audio`): MP4, WebM and MOV.
    public var carriesAudio: Bool { self == .mp4 || self == .webm || self == .mov }

    /// Whether the encoder needs even width and height (4:2:0 chroma subsampling in H.264).
    public var needsEvenSize: Bool { self == .mp4 }

    /// The raw pixel layout ffmpeg reads from the pipe for this format, `alpha` telling
    /// whether the output keeps transparency (`VideoOptions.alpha`).
    ///
    /// - yuv420p for MP4 and for WebM without alpha: the encoders' own format, converted
    ///   by the rendering threads in parallel (BT.709, `Pixmap.yuv420p`), so ffmpeg does no
    ///   conversion on its one input thread and the pipe carries 1.5 bytes a pixel instead
    ///   of 4 (the curved-line MP4: ffmpeg ~17 % less CPU, docs/benchmarks.md).
    /// - BGRA for GIF: ffmpeg's palettegen and paletteuse work on BGRA and would each
    ///   convert every RGBA frame on ffmpeg's one filter thread, the bottleneck of a GIF;
    ///   the rendering threads swap the channels instead (ffmpeg's CPU per frame −15 %).
    /// - Straight RGBA otherwise: WebM with alpha (yuva420p), MOV (10-bit 4:4:4 ProRes, a
    ///   conversion ChartReel does not have) and APNG (RGB).
    public func pipePixelFormat(alpha: Bool) -> PipePixelFormat {
        switch self {
        case .gif: return .bgra
        case .mp4: return .yuv420p
        case .webm: return alpha ? .rgba : .yuv420p
        default: return .rgba
        }
    }

    /// Whether `chartreel concat` can join files of this format without re-encoding:
    /// formats whose files start with an independent frame and whose codec data is the
    /// same across chunks. A GIF chunk carries its own palette, so GIF cannot.
    public var canConcatenate: Bool { self == .mp4 || self == .webm || self == .mov }

    /// Whether the format can be written front to back to something that cannot seek (a
    /// pipe, a FIFO, a character device such as /dev/null). MP4 and MOV write their index
    /// after the frames at the front or in place; a PNG frame directory is many files.
    public var canStream: Bool { self == .rgba || self == .gif || self == .webm || self == .apng }

    /// The format for a video file extension (`mp4`, `gif`, `webm`, `apng`, `mov`),
    /// case-insensitive; nil for anything else (`png` is one image, not a video).
    public init?(fileExtension ext: String) {
        guard let f = OutputFormat(rawValue: ext.lowercased()), f.isVideo else { return nil }
        self = f
    }

    /// Why an output's format could not be decided; callers word it for their users.
    public enum Unresolved: Error, Equatable, Sendable {
        /// The format named explicitly is not one of `OutputFormat.allCases`.
        case unknownName(String)
        /// Standard output (`-`) takes raw frames only, so it needs the format named.
        case stdoutNeedsRGBA
        /// The path ends in `.png`: one image, not a video or a frame directory.
        case singlePNG(path: String)
        /// The extension names no format.
        case unknownExtension(path: String, ext: String)
    }

    /// The format of an output at `path`: `explicit` when given (case-insensitive), else
    /// the extension's video format, or PNG frames for a path without an extension or
    /// ending in `/`.
    public static func resolve(explicit: String? = nil, path: String) throws(Unresolved) -> OutputFormat {
        if let e = explicit {
            guard let f = OutputFormat(rawValue: e.lowercased()) else { throw .unknownName(e) }
            return f
        }
        if path == "-" { throw .stdoutNeedsRGBA }
        let ext = (path as NSString).pathExtension.lowercased()
        if ext.isEmpty || path.hasSuffix("/") { return .png }
        if ext == "png" { throw .singlePNG(path: path) }
        guard let f = OutputFormat(fileExtension: ext) else { throw .unknownExtension(path: path, ext: ext) }
        return f
    }
}
