import Geometry
import Raster
import Scene

/// A rectangle per row from the baseline (or a second value, or the stack below) to its
/// value: vertical over a band x axis, horizontal over a band y axis. `grow` animates
/// each bar's extent from its baseline.
public struct BarMarkSpec: StrokedMark, FilledMark {
    public static let kind = MarkKind.bar
    public static var followsBandAxis: Bool { true }
    /// What every mark has.
    public var options: MarkOptions
    /// An outline.
    public var stroke: (paint: NodePaint, style: StrokeStyle)?
    /// The bars' paint when no colour encoding is given.
    public var fill: NodePaint?
    /// Corner radius in pixels.
    public var cornerRadius: Double = 0
    /// Fully rounded ends.
    public var capsule = false
    /// Thickness as a fraction of the band (0…1), or of `slot` when one is given.
    public var barWidth: Double = 1
    /// Which way bars run; from the axes when nil (horizontal over a band y axis).
    /// Horizontal bars over a number y axis are what a race draws: a bar per rank.
    public var orientation: Orientation?
    /// The room each bar has along the axis it sits on, in data units (1 for ranks
    /// 0, 1, 2, …); nil divides the plot among the distinct positions.
    public var slot: Double?
    /// A field whose values stand side by side within each band (grouped bars, Swift
    /// Charts' `position(by:)`): the band is split evenly among the field's values.
    public var groupField: String?
    /// The bar's thickness in pixels, instead of a fraction of its band.
    public var fixedWidth: Double?

    /// Which way bars run.
    public enum Orientation: String, Sendable, CaseIterable { case vertical, horizontal }

    /// Creates bars.
    public init(options: MarkOptions = MarkOptions()) { self.options = options }

    /// The bar's outline in `r`.
    func path(_ r: Rect) -> Path {
        if r.width <= 0 || r.height <= 0 { return Path() }
        if capsule { return .capsule(in: r) }
        if cornerRadius > 0 { return .roundedRect(r, cornerRadius: cornerRadius) }
        return .rect(r)
    }

    /// The pixel rectangle of a bar from value `a` to value `b`.
    /// `interval` is the data's interval along a time or number axis (`ChartSpec.barInterval`).
    func rect(_ e: MarkElement, _ l: ChartState, horizontal: Bool, from a: Double, to b: Double,
              group: (index: Int, count: Int)? = nil, interval: Double? = nil) -> Rect {
        let keyScale = horizontal ? l.y : l.x
        let keyResolved = horizontal ? l.yResolved : l.xResolved
        var center: Double, band: Double
        if case .band(let bs) = keyScale {
            center = bs.position(at: Int(e.key)) + bs.bandwidth / 2; band = bs.bandwidth
        } else if let slot {
            center = keyScale(e.key)
            band = abs(keyScale(e.key + slot / 2) - keyScale(e.key - slot / 2))
        } else if let iv = interval {
            // A bar per interval, with a fifth of it between bars (as a band scale's padding).
            center = keyScale(e.key)
            band = abs(keyScale(e.key + iv / 2) - keyScale(e.key - iv / 2)) * 0.8
        } else {
            center = keyScale(e.key)
            let n = Double(max(1, Set(keyResolved.values.compactMap { $0 }).count))
            band = (horizontal ? l.plot.height : l.plot.width) / n * 0.8
        }
        if let g = group, g.count > 0 {
            // Grouped bars: the element's share of its band.
            band /= Double(g.count)
            center += band * (Double(g.index) + 0.5) - band * Double(g.count) / 2
        }
        let w = fixedWidth ?? band * min(1, max(0, barWidth))
        let p0 = horizontal ? l.x(a) : l.y(a), p1 = horizontal ? l.x(b) : l.y(b)
        if horizontal { return Rect(x: min(p0, p1), y: center - w / 2, width: abs(p1 - p0), height: w) }
        return Rect(x: center - w / 2, y: min(p0, p1), width: w, height: abs(p1 - p0))
    }

    public func nodes(in chart: ChartSpec, state l: ChartState) -> [Node] {
        let o = options
        let horizontal = chart.isHorizontal(self, l)
        let els = chart.elements(self, l)
        let offsets = chart.staggerOffsets(o, count: els.count, values: els.map { $0.high - $0.low })
        let gradientPaint = o.color.flatMap { Self.valueGradientPaint($0, l, horizontal) }
        let groups = chart.groupSlots(els, field: groupField)
        let interval = slot == nil ? chart.barInterval(onX: !horizontal, l) : nil
        var out: [Node] = []
        for (i, e) in els.enumerated() {
            let group = groups[i]
            let full = rect(e, l, horizontal: horizontal, from: e.low, to: e.high, group: group, interval: interval)
            var node = ShapeNode(id: "\(o.id ?? "bar")[\(i)]", path: path(full), frame: full)
            var paint: NodePaint = .solid(e.color)
            if o.color == nil, let f = fill { paint = f }
            if let g = gradientPaint {
                // Overrides (cancelled flights) keep their solid colour.
                if case .overrides(let field, let values, _)? = o.color, values[chart.key(chart.data[e.row][field])] != nil {} else { paint = g }
            }
            if case .overrides(let field, let values, let otherwise)? = o.color, values[chart.key(chart.data[e.row][field])] == nil,
               let g = Self.valueGradientPaint(otherwise, l, horizontal) { paint = g }
            node.fill = (paint, .nonZero)
            if let s = stroke { node.stroke = s }
            node.opacity = chart.elementOpacity(chart.staggered(o.opacity, offsets, i), row: e.row)
            node.blendMode = o.blend
            if let g = o.grow {
                let grow = chart.staggered(g, offsets, i), bar = self
                node.dynamicPath = { t in
                    let p = grow.value(at: t)
                    return bar.path(bar.rect(e, l, horizontal: horizontal, from: e.low, to: e.low + (e.high - e.low) * p,
                                             group: group, interval: interval))
                }
                node.dynamicPathEnd = grow.displayEnd
                node.dynamicPathStart = grow.startTime
            }
            out.append(chart.flown(.shape(node), row: e.row, l))
        }
        return out
    }

    /// A value gradient laid along the value axis: each bar shows the stretch it covers.
    static func valueGradientPaint(_ enc: ColorEncoding, _ l: ChartState, _ horizontal: Bool) -> NodePaint? {
        guard case .valueGradient(let stops) = enc, let first = stops.first, let last = stops.last, last.value != first.value else { return nil }
        let a = horizontal ? Point(l.x(first.value), 0) : Point(0, l.y(first.value))
        let b = horizontal ? Point(l.x(last.value), 0) : Point(0, l.y(last.value))
        return .linear(stops: stops.map { GradientStop(offset: ($0.value - first.value) / (last.value - first.value), color: $0.color) },
                       from: .absolute(a), to: .absolute(b))
    }
}

extension ChartSpec {
    /// Each element's place among the values of `field` (its index and the number of
    /// values over the mark's rows), for bars that stand side by side; nil without a field.
    func groupSlots(_ els: [MarkElement], field: String?) -> [(index: Int, count: Int)?] {
        guard let field else { return els.map { _ in nil } }
        var order: [String: Int] = [:]
        for (k, v) in (fieldOrders[field] ?? []).enumerated() where order[v] == nil { order[v] = k }
        for e in els { let k = key(data[e.row][field]); if order[k] == nil { order[k] = order.count } }
        return els.map { (order[key(data[$0.row][field])] ?? 0, order.count) }
    }

    /// `p`, a point at the middle of its band, moved to the middle of its group's share
    /// of the band (where a grouped bar stands), along the band axis.
    func grouped(_ p: Point, _ g: (index: Int, count: Int), _ l: ChartState, horizontal: Bool) -> Point {
        guard case .band(let bs) = horizontal ? l.y : l.x, g.count > 0 else { return p }
        let share = bs.bandwidth / Double(g.count)
        let shift = share * (Double(g.index) + 0.5) - bs.bandwidth / 2
        return horizontal ? Point(p.x, p.y + shift) : Point(p.x + shift, p.y)
    }
}
