// What to render for an output, decided once before any frame: the frame rate, the frame
// range, and the scene adjusted for the format's limits. Each adjustment is made to the
// scene rather than to frames, so it costs nothing per frame:
//
// - Transparent background into MP4 (no alpha): the background becomes the background
//   composited over the matte. Source-over is associative, so every mark drawn over that
//   opaque background is the mark over the transparent background over the matte.
// - Odd size into MP4 (4:2:0 chroma needs even sizes): the canvas grows by one column or
//   row on the right or bottom. The scene paints its background over the whole canvas
//   and its marks keep their coordinates, so the new pixels are background colour.
import Foundation
import Raster
import Scene

/// The frames, rate and scene to render for one output.
public struct OutputPlan: Sendable {
    /// The format the frames are for.
    public let format: OutputFormat
    /// The scene as it will be drawn (scaled, matted, padded).
    public let scene: Scene
    /// The rate the timeline is sampled at.
    public let fps: Double
    /// The number of frames of the whole video at `fps`.
    public let totalFrames: Int
    /// The frames to render: all of them, or a chunk.
    public let range: Range<Int>
    /// Encoder settings, with `alpha` set when the output keeps transparency.
    public let videoOptions: VideoOptions
    /// Changes to the picture the user must be told about even with `--quiet`: the
    /// matte under a transparent background, padding of an odd size. One sentence each.
    public let warnings: [String]
    /// Informational remarks (a GIF's capped frame rate), one sentence each.
    public let notes: [String]
    /// Draws the frames keeping the pixels of layers that are not changing (grids,
    /// finished lines, the final hold), so each frame draws only what moves. Its cache
    /// is bounded by bytes whatever the frame size or thread count (32 MB; above 1080p
    /// only the hold's one picture, see `FrameRenderer.cacheBytes`). It used to keep four
    /// pictures per thread and was turned off above 32 MB of them, so 4K videos drew
    /// their hold again every frame: 300 frames of the 4K curved-line now take 8.2 s of
    /// CPU against 4.7 before, in 96–101 MB instead of 150.
    let renderer: FrameRenderer

    /// Plans `format` output of `scene`.
    ///
    /// - Parameters:
    ///   - fps: sample the timeline at this rate instead of the scene's (a GIF is capped at 50).
    ///   - scale: draw this many times larger (canvas and marks).
    ///   - matte: what a transparent background is composited onto when the format has no
    ///     alpha (made opaque).
    ///   - from: the first frame (inclusive); `to`: the end (exclusive, clamped to the
    ///     video's length).
    /// - Throws: `ExportError.invalidArgument` for an empty or out-of-range frame range.
    public init(scene original: Scene, format: OutputFormat, fps requested: Double? = nil, scale: Double = 1,
                matte: Color = .white, from: FramePosition? = nil, to: FramePosition? = nil,
                options: VideoOptions = VideoOptions()) throws {
        var scene = original.scaled(by: scale)
        var notes: [String] = [], warnings: [String] = []
        var rate = requested ?? scene.fps
        if format == .gif && rate > GIFTiming.maxFPS {
            notes.append("GIF frames are sampled at 50 fps instead of \(FFmpeg.rate(rate)): browsers play "
                         + "GIF frame delays under 2/100 s far too slowly")
            rate = GIFTiming.maxFPS
        }
        var options = options
        let transparent = scene.background.a < 1
        options.alpha = transparent && format.supportsAlpha
        if transparent && !format.supportsAlpha {
            let m = Color(r: matte.r, g: matte.g, b: matte.b, a: 1)
            let b = scene.background
            scene.background = Color(r: b.r * b.a + m.r * (1 - b.a), g: b.g * b.a + m.g * (1 - b.a),
                                     b: b.b * b.a + m.b * (1 - b.a), a: 1)
            warnings.append("the background is transparent but \(format.rawValue.uppercased()) has no alpha channel: "
                         + "composited onto \(m) (choose with --matte; WebM, MOV, APNG, GIF and PNG keep transparency)")
        }
        if format.needsEvenSize && (scene.width % 2 != 0 || scene.height % 2 != 0) {
            let w = scene.width + scene.width % 2, h = scene.height + scene.height % 2
            warnings.append("\(scene.width)x\(scene.height) is odd and \(format.rawValue.uppercased()) (yuv420p) needs even sizes: "
                         + "padded to \(w)x\(h) with the background colour on the right/bottom")
            scene.width = w
            scene.height = h
        }
        options.padColor = scene.background
        let total = scene.frameCount(fps: rate)
        let first = from?.index(fps: rate) ?? 0
        let end = min(total, to?.index(fps: rate) ?? total)
        guard first < total else {
            throw ExportError.invalidArgument("the range starts at frame \(first), but the video has \(total) frames (0..<\(total)) at \(FFmpeg.rate(rate)) fps")
        }
        guard first < end else {
            throw ExportError.invalidArgument("the frame range \(first)..<\(end) is empty")
        }
        if var audio = options.audio {
            guard format.carriesAudio else {
                throw ExportError.invalidArgument("--audio needs MP4, WebM or MOV output; \(format.rawValue.uppercased()) has no sound track")
            }
            // The audio of the frames rendered, on the whole video's timeline, so chunks
            // joined with concat carry one continuous track that fades once at the end.
            audio.start = Double(first) / rate
            audio.end = Double(end) / rate
            audio.videoEnd = Double(total) / rate
            options.audio = audio
        }
        self.format = format
        self.scene = scene
        self.fps = rate
        self.totalFrames = total
        self.range = first..<end
        self.videoOptions = options
        self.notes = notes
        self.warnings = warnings
        renderer = FrameRenderer(scene: scene)
    }

    /// Frame `i` of the range (0-based within it): the scene at time (first + i) / fps.
    /// Byte-identical to `scene.frame(at:)` at that time. Safe to call from many threads.
    public func frame(_ i: Int) -> Pixmap {
        let t = Scene.time(ofFrame: range.lowerBound + i, fps: fps)
        return renderer.frame(at: t)
    }

    /// The memory rendering this plan takes on `threads` threads, estimated: the frames in
    /// flight (`FrameSequencer`'s window) with their converted planes, the renderer's
    /// spare frames and cached picture, and a layer per worker's canvas.
    public func renderingMemory(threads: Int) -> Int {
        let frame = scene.width * scene.height * 4
        let window = FrameSequencer(threads: threads, frameBytes: frame).maxInFlight
        let spares = max(1, min(FrameRenderer.maxSpares, FrameRenderer.spareBytes / max(1, frame)))
        let cached = min(32 << 20, frame)
        return frame * (window + spares + max(1, threads)) + frame / 8 * 3 * window + cached
    }

    /// Hands a frame's pixels back once nothing uses them, for a later frame to be drawn
    /// into (`FrameRenderer.recycle(_:unshared:)`, whose promise `unshared` is). Safe to
    /// call from many threads.
    public func recycle(_ frame: consuming Pixmap, unshared: Bool = false) {
        renderer.recycle(consume frame, unshared: unshared)
    }
}
