import Geometry
import Raster
import Scene

/// A line across the plot at each row's x (vertical) or y (horizontal), optionally
/// between two values; `atPeak` puts one rule at each series' peak.
public struct RuleMarkSpec: StrokedMark {
    public static let kind = MarkKind.rule
    /// What every mark has.
    public var options: MarkOptions
    /// Vertical rules at x (true) or horizontal rules at y.
    public var vertical = true
    /// The stroke: 1 px of grey by default.
    public var stroke: (paint: NodePaint, style: StrokeStyle)? = RuleMarkSpec.defaultStroke
    /// One rule per series, at the row where the series is thickest (the baby-names rulers).
    public var atPeak = false

    /// The stroke a rule has unless it says otherwise.
    public static let defaultStroke: (paint: NodePaint, style: StrokeStyle) = (.solid(Color(r: 0.4, g: 0.4, b: 0.4)), StrokeStyle(width: 1))

    /// Creates rules.
    public init(options: MarkOptions = MarkOptions()) { self.options = options }

    public func nodes(in chart: ChartSpec, state l: ChartState) -> [Node] {
        let o = options, p = l.plot, data = chart.data
        var out: [Node] = []
        var rows = chart.rowIndices(self)
        if atPeak { rows = chart.peaks(chart.elements(self, l)).map(\.row) }
        let offsets = chart.staggerOffsets(o, count: rows.count, values: [])
        for (i, r) in rows.enumerated() {
            let seg: (Point, Point)
            if vertical {
                guard let xv = l.xResolved.values[r] else { continue }
                let x0 = l.x(xv)
                var y0 = p.minY, y1 = p.maxY
                if let f = o.y2, let a = l.yResolved.values[r], let b = data[r][f]?.number { y0 = l.y(a); y1 = l.y(b) }
                seg = (Point(x0, min(y0, y1)), Point(x0, max(y0, y1)))
            } else {
                guard let yv = l.yResolved.values[r] else { continue }
                let y0 = l.y(yv)
                var x0 = p.minX, x1 = p.maxX
                if let f = o.x2, let a = l.xResolved.values[r], let b = data[r][f]?.number { x0 = l.x(a); x1 = l.x(b) }
                seg = (Point(min(x0, x1), y0), Point(max(x0, x1), y0))
            }
            var path = Path()
            path.move(to: seg.0); path.line(to: seg.1)
            let style = stroke?.style ?? StrokeStyle(width: 1)
            let frame = Rect(corner: seg.0, seg.1).insetBy(-style.width / 2)
            var node = ShapeNode(id: "\(o.id ?? "rule")[\(i)]", path: path, frame: frame)
            node.stroke = (stroke?.paint ?? .solid(legendColor), style)
            node.opacity = chart.staggered(o.opacity, offsets, i)
            node.trimEnd = chart.staggered(o.trimEnd, offsets, i)
            node.blendMode = o.blend
            out.append(.shape(node))
        }
        return out
    }
}

extension ChartSpec {
    /// One element per series, where the series is thickest (high − low), in the order
    /// the series first appear: where peak rules and labels stand.
    func peaks(_ els: [MarkElement]) -> [MarkElement] {
        var best: [String: MarkElement] = [:], order: [String] = []
        for e in els {
            if best[e.series] == nil { order.append(e.series); best[e.series] = e }
            else if e.high - e.low > best[e.series]!.high - best[e.series]!.low { best[e.series] = e }
        }
        return order.compactMap { best[$0] }
    }
}
