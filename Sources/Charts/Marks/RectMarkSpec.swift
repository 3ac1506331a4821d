import Geometry
import Raster
import Scene

/// A rectangle per row (Swift Charts' `RectangleMark`): across its band on a band axis
/// (a heat map's cell), between the row's two values where it has a second one (`x2`,
/// `y2`), else `width` or `height` pixels about its value.
public struct RectMarkSpec: StrokedMark, FilledMark {
    public static let kind = MarkKind.rect
    /// What every mark has.
    public var options: MarkOptions
    /// An outline.
    public var stroke: (paint: NodePaint, style: StrokeStyle)?
    /// The rectangles' paint when no colour encoding is given.
    public var fill: NodePaint?
    /// Corner radius in pixels.
    public var cornerRadius: Double = 0
    /// Width in pixels where x is neither a band nor a range; a bar's share of the plot when nil.
    public var width: Double?
    /// Height in pixels where y is neither a band nor a range; as `width` when nil.
    public var height: Double?
    /// The fraction of its band a rectangle covers on a band axis (0…1).
    public var bandFraction: Double = 1

    /// Creates rectangles.
    public init(options: MarkOptions = MarkOptions()) { self.options = options }

    /// The pixel interval a row covers along one axis.
    func extent(_ scale: PositionScale, _ r: ChartSpec.Resolved, value: Double, second: Double?, size: Double?, plotLength: Double) -> (Double, Double) {
        if case .band(let bs) = scale {
            let c = scale(value), w = bs.bandwidth * min(1, max(0, bandFraction))
            return (c - w / 2, c + w / 2)
        }
        if let s = second { let a = scale(value), b = scale(s); return (min(a, b), max(a, b)) }
        let w = size ?? plotLength / Double(max(1, Set(r.values.compactMap { $0 }).count)) * 0.8
        let c = scale(value)
        return (c - w / 2, c + w / 2)
    }

    public func nodes(in chart: ChartSpec, state l: ChartState) -> [Node] {
        let o = options
        let els = chart.elements(self, l)
        let offsets = chart.staggerOffsets(o, count: els.count, values: els.map(\.high))
        var out: [Node] = []
        for (i, e) in els.enumerated() {
            let row = chart.data[e.row]
            let xs = extent(l.x, l.xResolved, value: e.key, second: o.x2.flatMap { row[$0]?.number }, size: width, plotLength: l.plot.width)
            let ys = extent(l.y, l.yResolved, value: e.high, second: o.y2 != nil ? e.low : nil, size: height ?? width, plotLength: l.plot.height)
            let r = Rect(x: xs.0, y: ys.0, width: xs.1 - xs.0, height: ys.1 - ys.0)
            guard r.width > 0, r.height > 0 else { continue }
            let path: Path = cornerRadius > 0 ? .roundedRect(r, cornerRadius: cornerRadius) : .rect(r)
            var node = ShapeNode(id: "\(o.id ?? "rect")[\(i)]", path: path, frame: r)
            node.fill = (o.color == nil ? (fill ?? .solid(e.color)) : .solid(e.color), .nonZero)
            if let s = stroke { node.stroke = s }
            node.opacity = chart.elementOpacity(chart.staggered(o.opacity, offsets, i), row: e.row)
            node.blendMode = o.blend
            if let sc = o.scale {
                node.motion.scaleX = chart.staggered(sc, offsets, i); node.motion.scaleY = chart.staggered(sc, offsets, i)
                node.motion.anchor = Point(r.midX, r.midY)
            }
            out.append(.shape(node))
        }
        return out
    }
}
