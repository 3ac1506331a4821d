import Geometry
import Raster
import Motion

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
