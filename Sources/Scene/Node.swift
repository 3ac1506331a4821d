import Geometry
import Raster
import Motion

/// A filled and/or stroked path whose trim and opacity animate.
public struct ShapeNode: Sendable {
    /// A name for finding the node again (a mark's id).
    public var id: String?
    /// The geometry, in user space.
    public var path: Path {
        didSet { measure = PathMeasure(path) }
    }
    /// The fill paint and rule, if the shape is filled.
    public var fill: (paint: NodePaint, rule: FillRule)?
    /// The stroke paint and style, if the shape is stroked.
    public var stroke: (paint: NodePaint, style: StrokeStyle)?
    /// Start of the visible part, as a fraction of the path's length (SwiftUI `trim(from:)`).
    public var trimStart: AnimatedValue = .constant(0)
    /// End of the visible part, as a fraction of the path's length (SwiftUI `trim(to:)`).
    public var trimEnd: AnimatedValue = .constant(1)
    /// Lottie's trim offset, in turns: the trimmed window slides round the path, wrapping
    /// across the start of a closed path without a seam; nil keeps SwiftUI's trim.
    public var trimOffset: AnimatedValue?
    /// Opacity in 0…1 applied to fill and stroke together.
    public var opacity: AnimatedValue = .constant(1)
    /// The rectangle unit paint points refer to; the path's bounds when nil.
    public var frame: Rect?
    /// The arc-length table of `path`, built once so each frame's trim is cheap.
    public private(set) var measure: PathMeasure
    /// Moves, scales and rotates the shape over time (bars grow, points pop in).
    public var motion = AnimatedTransform()
    /// Geometry that changes over time (a sector sweeping open, a line moving to new
    /// data); when set it replaces `path` at every frame, and `path` is its final state.
    public var dynamicPath: (@Sendable (Double) -> Path)?
    /// The time after which `dynamicPath` no longer changes.
    public var dynamicPathEnd: Double = 0
    /// The time before which `dynamicPath` does not change (a staggered bar's delay), for
    /// descriptions such as `chartreel validate`; drawing does not depend on it.
    public var dynamicPathStart: Double = 0
    /// How the shape's pixels combine with what is under them.
    public var blendMode: BlendMode = .sourceOver
    /// An animated solid fill colour, replacing the fill paint.
    public var fillColor: AnimatedColor?
    /// An animated solid stroke colour, replacing the stroke paint.
    public var strokeColor: AnimatedColor?
    /// When `path` stands in for a longer one (a decimated line), maps the trims, which
    /// are fractions of the original's length, onto `path`'s length.
    public var trimRemap: TrimRemap?

    /// Creates a shape node.
    public init(id: String? = nil, path: Path, fill: (paint: NodePaint, rule: FillRule)? = nil,
                stroke: (paint: NodePaint, style: StrokeStyle)? = nil, frame: Rect? = nil) {
        self.id = id; self.path = path; self.fill = fill; self.stroke = stroke; self.frame = frame
        measure = PathMeasure(path)
    }

    /// When the node's appearance can change (for caching unchanging layers).
    public var changeSpan: ChangeSpan {
        var s = trimStart.changeSpan.union(trimEnd.changeSpan).union(opacity.changeSpan).union(motion.changeSpan)
        if let o = trimOffset { s = s.union(o.changeSpan) }
        if dynamicPath != nil { s = s.union(ChangeSpan(start: -.infinity, end: dynamicPathEnd)) }
        if let c = fillColor { s = s.union(ChangeSpan(start: c.animation.start, end: c.animation.end)) }
        if let c = strokeColor { s = s.union(ChangeSpan(start: c.animation.start, end: c.animation.end)) }
        return s
    }

    /// The latest time at which any property of the node changes; an endless repeat counts
    /// one cycle (`AnimatedValue.displayEnd`), since the video's end stops it anyway.
    public var endTime: Double {
        max(trimStart.displayEnd, trimEnd.displayEnd, opacity.displayEnd, trimOffset?.displayEnd ?? 0, motion.endTime, dynamicPath == nil ? 0 : dynamicPathEnd,
            fillColor?.animation.displayEnd ?? 0, strokeColor?.animation.displayEnd ?? 0)
    }

    /// Draws the node as it is at time `t`.
    public func render(at t: Double, on canvas: Canvas) {
        let o = min(1, max(0, opacity.value(at: t)))
        guard o > 0 else { return }
        var a = trimStart.value(at: t), b = trimEnd.value(at: t)
        if let r = trimRemap { a = r(a); b = r(b) }
        let base = dynamicPath?(t) ?? path
        let visible: Path
        if let off = trimOffset?.value(at: t), off != 0 {
            visible = (dynamicPath == nil ? measure : PathMeasure(base)).trimmed(start: a, end: b, offset: off)
            if visible.isEmpty { return }
        } else if a <= 0 && b >= 1 {
            visible = base
        } else {
            guard a < b else { return }
            visible = (dynamicPath == nil ? measure : PathMeasure(base)).trimmed(from: a, to: b)
            if visible.isEmpty { return }
        }
        let box = frame ?? path.controlBounds
        let moved = !motion.isIdentity
        if moved {
            canvas.save()
            canvas.concatenate(motion.value(at: t))
        }
        defer { if moved { canvas.restore() } }
        // A shape with both fill and stroke at partial opacity must fade as one picture,
        // so it goes through a layer; with one of them the opacity folds into coverage.
        let both = fill != nil && stroke != nil && o < 1
        // The layer covers the shape's ink; its motion is already in the canvas transform.
        if both { canvas.beginLayer(opacity: o, blendMode: blendMode, bounds: inkBoundsUnmoved) }
        let drawOpacity = both ? 1 : o
        if let f = fill {
            let paint = fillColor.map { Paint.solid($0.value(at: t)) } ?? f.paint.resolve(in: box)
            canvas.fill(visible, paint: paint, rule: f.rule, opacity: drawOpacity, blendMode: both ? .sourceOver : blendMode)
        }
        if let s = stroke {
            let paint = strokeColor.map { Paint.solid($0.value(at: t)) } ?? s.paint.resolve(in: box)
            if let lines = Self.separateLines(visible, s.style, canvas.transform) {
                for line in lines {
                    canvas.stroke(line, style: s.style, paint: paint, opacity: drawOpacity, blendMode: both ? .sourceOver : blendMode)
                }
            } else {
                canvas.stroke(visible, style: s.style, paint: paint, opacity: drawOpacity, blendMode: both ? .sourceOver : blendMode)
            }
        }
        if both { canvas.endLayer() }
    }
}

extension ShapeNode {
    /// The subpaths of `path`, one path each, when it is only straight lines that run all
    /// vertically or all horizontally (a chart's grid), stroked with butt caps and no dash
    /// under an axis-aligned `transform`, and no device pixel is touched by two of them;
    /// nil otherwise. Stroked one by one they give the bytes of the one stroke (a pixel's
    /// coverage comes from one line either way), and each is one rectangle, which the
    /// rasterizer sweeps without cells: a 1,000-key race's vertical grid, stroked as one
    /// path, walked and swept the cells of every line's two long edges (6.8 % of a frame).
    static func separateLines(_ path: Path, _ style: StrokeStyle, _ transform: Transform) -> [Path]? {
        let n = path.elements.count
        guard n >= 4, n % 2 == 0, style.cap == .butt, style.dash.isEmpty, style.width > 0, style.width.isFinite,
              transform.b == 0, transform.c == 0, transform.a != 0, transform.d != 0 else { return nil }
        var lines: [(a: Point, b: Point)] = []
        lines.reserveCapacity(n / 2)
        for i in stride(from: 0, to: n, by: 2) {
            guard case .move(let a) = path.elements[i], case .line(let b) = path.elements[i + 1], a != b,
                  a.isFinite, b.isFinite else { return nil }
            lines.append((a, b))
        }
        let vertical = lines[0].a.x == lines[0].b.x
        guard lines.allSatisfy({ vertical ? $0.a.x == $0.b.x : $0.a.y == $0.b.y }) else { return nil }
        // Each line's device extent across its length, in whole pixels: no two may share one.
        let scale = abs(vertical ? transform.a : transform.d), offset = vertical ? transform.tx : transform.ty
        let half = scale * style.width / 2
        var spans: [(lo: Double, hi: Double)] = lines.map { l in
            let c = (vertical ? l.a.x : l.a.y) * (vertical ? transform.a : transform.d) + offset
            return ((c - half).rounded(.down), (c + half).rounded(.up))
        }
        guard spans.allSatisfy({ $0.lo.isFinite && $0.hi.isFinite }) else { return nil }
        spans.sort { $0.lo < $1.lo }
        for i in spans.indices.dropFirst() where spans[i - 1].hi > spans[i].lo { return nil }
        return lines.map { Path([.move($0.a), .line($0.b)]) }
    }
}

/// A group of nodes drawn together, optionally through an opacity layer and a transform.
public struct GroupNode: Sendable {
    /// A name for finding the group again.
    public var id: String?
    /// The children, drawn in order (later ones on top).
    public var children: [Node]
    /// Group opacity: the children are composited together, then faded as one.
    public var opacity: AnimatedValue = .constant(1)
    /// Applied to every child.
    public var transform: Transform = .identity
    /// An animated transform applied after `transform`.
    public var motion = AnimatedTransform()
    /// Children recomputed for each frame (a chart whose scales animate rebuilds its
    /// plot from its state at t); when set, its result replaces `children` while
    /// rendering, and `children` are what it gives after `dynamicSpan`.
    public var dynamicChildren: (@Sendable (Double) -> [Node])?
    /// When `dynamicChildren` can give different nodes; before its start they are the
    /// first state's, after its end the last state's.
    public var dynamicSpan: ChangeSpan = .never
    /// The children are drawn only inside this rectangle (in the group's coordinates):
    /// a chart's marks inside its plot.
    public var clip: Rect?

    /// Creates a group.
    public init(id: String? = nil, children: [Node], opacity: AnimatedValue = .constant(1), transform: Transform = .identity) {
        self.id = id; self.children = children; self.opacity = opacity; self.transform = transform
    }

    /// When anything in the group can change.
    public var changeSpan: ChangeSpan {
        let own = opacity.changeSpan.union(motion.changeSpan).union(dynamicChildren == nil ? .never : dynamicSpan)
        return children.reduce(own) { $0.union($1.changeSpan) }
    }

    /// Whether the group only passes its children through (opacity 1, no transform), so
    /// its children can be drawn, and cached, one by one.
    public var isTransparent: Bool {
        if case .constant(let o) = opacity, o == 1, transform.isIdentity, motion.isIdentity, dynamicChildren == nil, clip == nil { return true }
        return false
    }

    /// The latest time at which anything in the group changes.
    public var endTime: Double {
        let own = max(opacity.displayEnd, motion.endTime, dynamicChildren == nil || dynamicSpan == .never ? 0 : dynamicSpan.end)
        return children.reduce(own) { max($0, $1.endTime) }
    }

    /// Draws the group as it is at time `t`.
    public func render(at t: Double, on canvas: Canvas) {
        let o = min(1, max(0, opacity.value(at: t)))
        guard o > 0 else { return }
        let layered = o < 1
        canvas.save()
        canvas.concatenate(transform)
        if !motion.isIdentity { canvas.concatenate(motion.value(at: t)) }
        if let clip { canvas.clip(to: clip) }
        if layered {
            // The layer covers the children's ink (in the group's own coordinates) when
            // that is known, rather than the whole frame.
            canvas.beginLayer(opacity: o, bounds: inkBoundsOfChildren)
        }
        for c in dynamicChildren?(t) ?? children {
            // Under a clip mask (a plot whose edges fall between pixels), a shape whose ink
            // lies where the mask is full draws as if unclipped: the same bytes, on the
            // fused blitters (Canvas.withClipMaskSetAside). Not text: a moving label under a
            // mask is filled afresh at its rounded place, without one it replays a block
            // kept for its fraction of a pixel, and the two differ by a level on a few pixels.
            if case .shape(let s) = c, canvas.hasClipMask, let b = s.inkBounds {
                canvas.withClipMaskSetAside(within: b) { s.render(at: t, on: canvas) }
            } else {
                c.render(at: t, on: canvas)
            }
        }
        if layered { canvas.endLayer() }
        canvas.restore()
    }
}

/// One element of the scene tree.
public enum Node: Sendable {
    /// A path with paint.
    case shape(ShapeNode)
    /// A group of nodes.
    case group(GroupNode)
    /// A line of text.
    case text(TextNode)

    /// The node's id, if any.
    public var id: String? {
        switch self { case .shape(let s): return s.id; case .group(let g): return g.id; case .text(let t): return t.id }
    }

    /// The latest time at which the node changes.
    public var endTime: Double {
        switch self { case .shape(let s): return s.endTime; case .group(let g): return g.endTime; case .text(let t): return t.endTime }
    }

    /// When the node's appearance can change.
    public var changeSpan: ChangeSpan {
        switch self { case .shape(let s): return s.changeSpan; case .group(let g): return g.changeSpan; case .text(let t): return t.changeSpan }
    }

    /// Draws the node at time `t`.
    public func render(at t: Double, on canvas: Canvas) {
        switch self {
        case .shape(let s): s.render(at: t, on: canvas)
        case .group(let g): g.render(at: t, on: canvas)
        case .text(let x): x.render(at: t, on: canvas)
        }
    }

    /// This node or a descendant with the given id (depth first).
    public func find(_ id: String) -> Node? {
        if self.id == id { return self }
        if case .group(let g) = self {
            for c in g.children { if let n = c.find(id) { return n } }
        }
        return nil
    }
}
