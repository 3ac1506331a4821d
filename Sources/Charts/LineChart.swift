import Geometry
import Raster
import Motion
import Scene

/// One (x, y) observation.
public struct DataPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double
    /// Creates a data point.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// Grid lines across the plot at fixed data steps.
public struct GridSpec: Hashable, Sendable {
    /// Distance in data units between vertical lines; nil for none.
    public var xStep: Double?
    /// Distance in data units between horizontal lines; nil for none.
    public var yStep: Double?
    /// Line colour.
    public var color: Color
    /// Line width in pixels.
    public var width: Double
    /// Creates a grid.
    public init(xStep: Double? = nil, yStep: Double? = nil, color: Color = Color(r: 0.8, g: 0.8, b: 0.8), width: Double = 1) {
        self.xStep = xStep; self.yStep = yStep; self.color = color; self.width = width
    }
}

/// The kinds of mark a chart draws.
public enum MarkKind: String, Hashable, Sendable, CaseIterable {
    /// A stroked line through the points.
    case line
    /// The region between the points and the baseline, filled.
    case area
}

/// One mark of a chart: its geometry kind, style and animated properties.
public struct MarkSpec: Sendable {
    /// The mark's id, used to find its node and to chain animations.
    public var id: String?
    /// What is drawn.
    public var kind: MarkKind
    /// How points are connected.
    public var interpolation: Interpolation = .linear
    /// Start the curve at the plot's bottom-left corner (the SwiftUI tutorial's custom line chart).
    public var startAtOrigin = false
    /// The stroke (lines; also allowed on areas).
    public var stroke: (paint: NodePaint, style: StrokeStyle)?
    /// The fill (areas).
    public var fill: NodePaint?
    /// Trim start, fraction of the path's length.
    public var trimStart: AnimatedValue = .constant(0)
    /// Trim end, fraction of the path's length.
    public var trimEnd: AnimatedValue = .constant(1)
    /// Opacity.
    public var opacity: AnimatedValue = .constant(1)

    /// Creates a mark.
    public init(id: String? = nil, kind: MarkKind) { self.id = id; self.kind = kind }
}

/// A chart over one table of points: a plot rectangle, scales, a grid and marks.
public struct ChartSpec: Sendable {
    /// The rectangle the chart occupies on the canvas.
    public var frame: Rect
    /// Distance from the frame's edges to the plot area.
    public var inset: Double
    /// The data, in drawing order.
    public var data: [DataPoint]
    /// X domain; 0…max x when nil.
    public var xDomain: (Double, Double)?
    /// Y domain; 0…max y when nil.
    public var yDomain: (Double, Double)?
    /// The grid, if any.
    public var grid: GridSpec?
    /// Marks, drawn in order.
    public var marks: [MarkSpec]

    /// Creates a chart.
    public init(frame: Rect, inset: Double = 40, data: [DataPoint], xDomain: (Double, Double)? = nil,
                yDomain: (Double, Double)? = nil, grid: GridSpec? = nil, marks: [MarkSpec] = []) {
        self.frame = frame; self.inset = inset; self.data = data; self.xDomain = xDomain
        self.yDomain = yDomain; self.grid = grid; self.marks = marks
    }

    /// The plot rectangle in pixels.
    public var plot: Rect { frame.insetBy(inset) }

    /// The data domains actually used: the given ones, or 0…max.
    public var domains: (x: (Double, Double), y: (Double, Double)) {
        let mx = data.map(\.x).max() ?? 1, my = data.map(\.y).max() ?? 1
        return (xDomain ?? (min(0, data.map(\.x).min() ?? 0), mx), yDomain ?? (min(0, data.map(\.y).min() ?? 0), my))
    }

    /// The horizontal and vertical scales onto the plot (y up).
    public var scales: (x: LinearScale, y: LinearScale) {
        let p = plot, d = domains
        return (LinearScale(domain: d.x, range: (p.minX, p.maxX)), LinearScale(domain: d.y, range: (p.maxY, p.minY)))
    }

    /// The scene nodes: a group with the grid, then each mark.
    public func build(id: String? = nil) -> Node {
        var children: [Node] = []
        if let g = grid { children.append(gridNode(g)) }
        for m in marks { children.append(.shape(markNode(m))) }
        return .group(GroupNode(id: id, children: children))
    }

    /// Grid lines; odd-width lines are centred on pixel centres so they stay crisp.
    func gridNode(_ g: GridSpec) -> Node {
        let (sx, sy) = scales, p = plot, d = domains
        var path = Path()
        func snap(_ v: Double) -> Double {
            let w = g.width.rounded()
            guard w == g.width, Int(w) % 2 == 1 else { return v }
            return v.rounded(.down) + 0.5
        }
        func steps(_ lo: Double, _ hi: Double, _ step: Double) -> [Double] {
            guard step > 0, step.isFinite, hi >= lo else { return [] }
            let first = (lo / step).rounded(.up), last = (hi / step + 1e-9).rounded(.down)
            guard last - first < 10_000 else { return [] }
            return stride(from: first, through: last, by: 1).map { $0 * step }
        }
        if let step = g.xStep {
            for v in steps(d.x.0, d.x.1, step) {
                let x = snap(min(sx(v), p.maxX - 0.5))
                path.move(to: Point(x, p.minY)); path.line(to: Point(x, p.maxY))
            }
        }
        if let step = g.yStep {
            for v in steps(min(d.y.0, d.y.1), max(d.y.0, d.y.1), step) {
                let y = snap(min(sy(v), p.maxY - 0.5))
                path.move(to: Point(p.minX, y)); path.line(to: Point(p.maxX, y))
            }
        }
        let node = ShapeNode(id: "grid", path: path, stroke: (.solid(g.color), StrokeStyle(width: g.width, cap: .butt)), frame: p)
        return .shape(node)
    }

    /// The pixel points of the data, with the origin first when the mark asks for it.
    func pixelPoints(_ m: MarkSpec) -> [Point] {
        let (sx, sy) = scales
        var pts = data.map { Point(sx($0.x), sy($0.y)) }
        if m.startAtOrigin {
            let d = domains
            pts.insert(Point(sx(d.x.0), sy(d.y.0)), at: 0)
        }
        return pts
    }

    /// The geometry and style of one mark.
    func markNode(_ m: MarkSpec) -> ShapeNode {
        let pts = pixelPoints(m)
        var path = Path()
        if let first = pts.first {
            path.move(to: first)
            m.interpolation.appendSegments(through: pts, to: &path)
            if m.kind == .area, let last = pts.last {
                let base = scales.y(max(domains.y.0, min(0, domains.y.1)))
                path.line(to: Point(last.x, base))
                path.line(to: Point(first.x, base))
                path.close()
            }
        }
        var node = ShapeNode(id: m.id, path: path, frame: plot)
        if m.kind == .area, let f = m.fill { node.fill = (f, .nonZero) }
        node.stroke = m.stroke
        node.trimStart = m.trimStart; node.trimEnd = m.trimEnd; node.opacity = m.opacity
        return node
    }
}
