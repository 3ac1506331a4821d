import Geometry
import Raster
import Scene

/// Pie and donut sectors, one per row with a positive value, clockwise from 12 o'clock;
/// `grow` sweeps the pie open (or each sector in turn under a stagger).
///
/// The slices are named by the mark's `series` field (the chart's x field when nil) and
/// their values read from the chart's y field.
public struct SectorMarkSpec: StrokedMark, FilledMark {
    public static let kind = MarkKind.sector
    /// What every mark has.
    public var options: MarkOptions
    /// The hole as a fraction of the radius (0 for a pie).
    public var innerRadius: Double = 0
    /// Gap between sectors in degrees.
    public var angularGap: Double = 0
    /// The outer edge as a fraction of the radius the plot allows (1 fills it).
    public var outerRadius: Double = 1
    /// Pixels each slice's straight edges are moved in, so neighbours are `2 × angularInset`
    /// apart at the outer edge (Swift Charts' `angularInset`); adds to `angularGap`.
    public var angularInset: Double = 0
    /// The paint of a single slice without a colour encoding.
    public var fill: NodePaint?
    /// An outline.
    public var stroke: (paint: NodePaint, style: StrokeStyle)?

    /// Creates sectors.
    public init(options: MarkOptions = MarkOptions()) { self.options = options }

    /// The slices: (name, value, colour, row) per row with a positive, finite value.
    func slices(_ chart: ChartSpec) -> [(name: String, value: Double, color: Color, row: Int)] {
        let data = chart.data
        let categoryField = options.series ?? chart.x.field
        let valueField = chart.y.field
        var out: [(name: String, value: Double, color: Color, row: Int)] = []
        let rows = chart.rowIndices(self)
        let names = rows.map { chart.key(data[$0][categoryField]) }
        var cache = ColorCache()
        var named = self
        named.options.series = categoryField
        for (k, r) in rows.enumerated() {
            guard let v = data[r][valueField]?.number, v.isFinite, v > 0 else { continue }
            let e = MarkElement(row: r, key: Double(k), low: 0, high: v, series: names[k], color: .black)
            let c = options.color != nil ? chart.color(of: e, named, seriesNames: names, cache: &cache) : Palette.color(k)
            out.append((names[k], v, c, r))
        }
        return out
    }

    /// One entry per slice.
    public func legendEntries(in chart: ChartSpec) -> [(name: String, color: Color)] {
        slices(chart).map { ($0.name, $0.color) }
    }

    public func nodes(in chart: ChartSpec, state l: ChartState) -> [Node] {
        let o = options
        let slices = slices(chart)
        let total = slices.reduce(0) { $0 + $1.value }
        guard total > 0 else { return [] }
        let p = l.plot
        let center = Point(p.midX, p.midY)
        let full = min(p.width, p.height) / 2
        let radius = full * max(0, outerRadius)
        let inner = min(radius * 0.99, full * max(0, innerRadius))
        let gap = angularGap * .pi / 180 + (radius > 0 ? 2 * max(0, angularInset) / radius : 0)
        let offsets = chart.staggerOffsets(o, count: slices.count, values: slices.map(\.value))
        var out: [Node] = []
        var start = -Double.pi / 2   // 12 o'clock; angles grow clockwise on screen
        for (i, s) in slices.enumerated() {
            let sweep = s.value / total * 2 * .pi
            let a0 = start + gap / 2, a1 = start + sweep - gap / 2
            start += sweep
            guard a1 > a0 else { continue }
            let path = Path.wedge(center: center, radius: radius, innerRadius: inner, startAngle: a0, endAngle: a1, clockwise: true)
            var node = ShapeNode(id: "\(o.id ?? "sector")[\(i)]", path: path, frame: p)
            node.fill = (o.color == nil && fill != nil && slices.count == 1 ? fill! : .solid(s.color), .nonZero)
            if let st = stroke { node.stroke = st }
            node.opacity = chart.staggered(o.opacity, offsets, i)
            if let g = o.grow {
                let grow = chart.staggered(g, offsets, i)
                let staggeredOwn = o.stagger != nil
                node.dynamicPath = { t in
                    let q = grow.value(at: t)
                    // Unstaggered: the whole pie sweeps open from 12 o'clock; staggered: each
                    // sector opens from its own start, one after another.
                    let b0 = staggeredOwn ? a0 : -Double.pi / 2 + (a0 + Double.pi / 2) * q
                    let b1 = staggeredOwn ? a0 + (a1 - a0) * q : -Double.pi / 2 + (a1 + Double.pi / 2) * q
                    guard b1 > b0 + 1e-9 else { return Path() }
                    return .wedge(center: center, radius: radius, innerRadius: inner, startAngle: b0, endAngle: b1, clockwise: true)
                }
                node.dynamicPathEnd = grow.displayEnd
                node.dynamicPathStart = grow.startTime
            }
            out.append(.shape(node))
        }
        return out
    }
}
