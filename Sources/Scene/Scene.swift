import Geometry
import Raster
import Motion

// The Scene module: what is on screen and how it changes, drawn one frame at a time.
//
// It owns the node tree — shapes (a Geometry path with fill and stroke paints),
// lines of text (glyph outlines from Text, filled by the same rasterizer so text and
// shapes share one anti-aliasing) and groups — and the properties that animate on
// them: trim start, end and offset, opacity, an AnimatedTransform (translate, scale
// and rotate about an anchor), solid colours (AnimatedColor, mixed in OKLab by
// Raster), geometry recomputed per frame (`ShapeNode.dynamicPath`) and counting
// numbers. Values come from Motion as pure functions of t, so a frame is a pure
// function of (scene, t): `Scene.frame(at:)` draws it from nothing, and frame i
// shows t = i / fps computed from the integers, never by adding frame lengths.
// Charts builds scenes; Export asks for their frames; nothing here knows of data or
// files.
//
// Drawing a frame (Node.swift). Nodes draw in order onto a Raster Canvas. A node's
// opacity folds into its coverage when it has one paint; an offscreen layer is used
// only where the picture must fade as one — a shape with both fill and stroke, a
// text on a pill, a group — and it covers the node's ink box where that is known
// (InkBounds.swift), not the frame: axes and legends fade through layers of a few
// hundred pixels instead of 33 MB ones at 4K. With the shared cache below (and a
// malloc setting in the CLI) that took a 10 s 4K video's peak memory from 150–215 MB
// to 96–101 MB. A shape's arc-length table is built once, when its path is set, so
// a trimmed line costs a lookup and a de Casteljau cut per frame; gradient ends may
// be fractions of the node's frame (NodePaint.swift), so a trimmed stroke keeps its
// whole gradient, as in SwiftUI.
//
// Frames that share pixels (FrameRenderer.swift). Most of a chart does not change
// in most frames. Every node reports when it can change (ChangeSpan.swift): before
// that span it shows its first state, after it its last. FrameRenderer flattens the
// scene into a draw list, keys a frame by the states of its longest unchanging
// prefix, and keeps the pixels of that prefix: the grid, axes and a finished line
// are drawn once, and the hold at the end of a video is one shared picture.
// Compositing happens in the same order on the same bytes either way, so cached and
// uncached frames are byte-identical (SceneTests/FrameCacheTests, and
// TimelinesTests for every document). The cache is shared by the rendering workers
// and bounded at 32 MB: one cache instead of one per worker took the curved-line
// video from 104 to 80 ms of CPU (docs/benchmarks.md) and, at 4K, stopped two
// workers holding 66–130 MB of mostly identical pictures. Each worker also keeps
// one Canvas, reset between frames, because a fresh 800×600 canvas cost ~470 page
// faults a frame.
//
// RestingBounds.swift says where a node draws when at rest, for tests and tools
// that look at one node of a frame; `Scene.scaled(by:)` draws the same animation
// larger or smaller by putting the nodes under one scale transform.

/// A whole animation: canvas size, background, frame rate and the node tree.
///
/// Frame `i` shows time `t = i / fps`, computed from the integers each time (never
/// by adding frame durations), so frames are a pure function of (scene, index).
public struct Scene: Sendable {
    /// Canvas width in pixels.
    public var width: Int
    /// Canvas height in pixels.
    public var height: Int
    /// Painted under everything.
    public var background: Color
    /// Frames per second.
    public var fps: Double
    /// Length in seconds; when nil the scene lasts until its last animation ends plus `hold`.
    public var duration: Double?
    /// Seconds the final state stays on screen when `duration` is nil.
    public var hold: Double
    /// The nodes, drawn in order.
    public var nodes: [Node]

    /// Creates a scene.
    public init(width: Int, height: Int, background: Color = .white, fps: Double = 60,
                duration: Double? = nil, hold: Double = 0.5, nodes: [Node] = []) {
        self.width = width; self.height = height; self.background = background
        self.fps = fps; self.duration = duration; self.hold = hold; self.nodes = nodes
    }

    /// When the last animation ends.
    public var lastAnimationEnd: Double { nodes.reduce(0) { max($0, $1.endTime) } }

    /// The length of the video in seconds.
    public var effectiveDuration: Double { duration ?? (lastAnimationEnd + hold) }

    /// `round(duration × fps)` frames at this scene's rate (at least 1).
    public var frameCount: Int { frameCount(fps: fps) }

    /// The number of frames when sampled at `rate` frames per second (at least 1).
    public func frameCount(fps rate: Double) -> Int { max(1, Int((effectiveDuration * rate).rounded())) }

    /// The time shown by frame `index` at `rate` frames per second.
    @inlinable public static func time(ofFrame index: Int, fps rate: Double) -> Double { Double(index) / rate }

    /// Draws the scene at time `t` onto `canvas`, background first.
    public func render(at t: Double, on canvas: Canvas) {
        canvas.clear(background)
        for n in nodes { n.render(at: t, on: canvas) }
    }

    /// A new pixmap showing the scene at time `t`.
    public func frame(at t: Double) -> Pixmap {
        let c = Canvas(width: width, height: height, background: background)
        for n in nodes { n.render(at: t, on: c) }
        return c.takePixmap()
    }

    /// The same animation drawn `factor` times larger (2 for retina slides, 0.5 for a quick
    /// preview): the nodes go into one group with a scale transform, so strokes, gradients
    /// and trims scale with the geometry, and the canvas becomes `round(width × factor)` ×
    /// `round(height × factor)` pixels (at least 1). Timing is unchanged.
    public func scaled(by factor: Double) -> Scene {
        guard factor != 1 else { return self }
        var s = self
        s.width = max(1, Int((Double(width) * factor).rounded()))
        s.height = max(1, Int((Double(height) * factor).rounded()))
        s.nodes = [.group(GroupNode(children: nodes, transform: .scale(factor, factor)))]
        return s
    }

    /// The node with the given id, searching depth first.
    public func node(_ id: String) -> Node? {
        for n in nodes { if let f = n.find(id) { return f } }
        return nil
    }
}
