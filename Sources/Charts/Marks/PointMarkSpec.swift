import Geometry
import Raster
import Scene

/// A dot per row; `scale` pops the dots in, a transition slides them to new values.
public struct PointMarkSpec: StrokedMark, FilledMark {
    public static let kind = MarkKind.point
    /// What every mark has.
    public var options: MarkOptions
    /// Diameter in pixels.
    public var size: Double = 8
    /// Diameters from a field (bubbles): nil gives every dot `size`.
    public var sizeEncoding: SizeEncoding?
    /// Draw larger dots first, so small ones stay visible on top (bubble charts).
    public var largestFirst = false
    /// An outline.
    public var stroke: (paint: NodePaint, style: StrokeStyle)?
    /// The dots' colour when no colour encoding is given (a solid paint; a gradient's
    /// dots take the element's colour).
    public var fill: NodePaint?
    /// The shape of every dot (circles by default).
    public var symbol: PointSymbol = .circle
    /// A field whose values each get a symbol of their own (Swift Charts' `symbol(by:)`).
    public var symbolField: String?

    /// Creates points.
    public init(options: MarkOptions = MarkOptions()) { self.options = options }

    /// Dots grow in size, not from the baseline.
    public var growsFromBaseline: Bool { false }

    public func nodes(in chart: ChartSpec, state: ChartState) -> [Node] {
        let solid: Color? = fill.flatMap { if case .solid(let c) = $0 { return c }; return nil }
        let encoded = options.color != nil
        var els = chart.elements(self, state)
        let diameter: (MarkElement) -> Double
        if let enc = sizeEncoding {
            let domain = enc.domain ?? chart.fieldExtent(enc.field).map { (min(0, $0.0), $0.1) } ?? (0, 1)
            let data = chart.data
            diameter = { e in enc.diameter(of: data[e.row][enc.field]?.number, domain: domain) }
            if largestFirst {
                // Stable: equal sizes keep row order.
                els = els.enumerated().sorted { a, b in
                    let da = diameter(a.element), db = diameter(b.element)
                    return da != db ? da > db : a.offset < b.offset
                }.map(\.element)
            }
        } else {
            let s = size
            diameter = { _ in s }
        }
        let dots = chart.dotNodes(self, state, els, size: diameter,
                                  fill: { e in encoded ? e.color : (solid ?? e.color) }, stroke: stroke, moves: true)
        guard symbol != .circle || symbolField != nil else { return dots }
        let symbols = chart.symbols(els, field: symbolField, fixed: symbol)
        return chart.symbolNodes(dots, size: { diameter(els[$0]) }) { symbols[$0] }
    }
}

/// Dot diameters from a field, by area: a value twice as large gets a dot of twice the
/// area (a square-root scale, as bubble charts need to be read truly).
public struct SizeEncoding: Sendable, Equatable {
    /// The field read.
    public var field: String
    /// The smallest and largest diameters in pixels, at the domain's ends.
    public var range: (Double, Double)
    /// The values at the ends of the range; nil: 0 to the largest value over the whole
    /// data (every time step of moving data, so a dot's size means the same all along).
    public var domain: (Double, Double)?
    /// Creates a size encoding.
    public init(field: String, range: (Double, Double) = (4, 40), domain: (Double, Double)? = nil) {
        self.field = field; self.range = range; self.domain = domain
    }
    public static func == (a: SizeEncoding, b: SizeEncoding) -> Bool {
        a.field == b.field && a.range == b.range && a.domain?.0 == b.domain?.0 && a.domain?.1 == b.domain?.1
    }

    /// The diameter of a value (the smallest for a missing one), by area.
    public func diameter(of value: Double?, domain d: (Double, Double)) -> Double {
        guard let v = value, v.isFinite, d.1 > d.0 else { return range.0 }
        let f = min(1, max(0, (v - d.0) / (d.1 - d.0)))
        let a0 = range.0 * range.0, a1 = range.1 * range.1
        return (a0 + (a1 - a0) * f).squareRoot()
    }
}
