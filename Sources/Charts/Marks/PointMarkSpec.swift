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

    public func nodes(in chart: ChartSpec, state: ChartState) -> [Node] {
        let solid: Color? = fill.flatMap { if case .solid(let c) = $0 { return c }; return nil }
        let encoded = options.color != nil
        let els = chart.elements(self, state)
        let dots = chart.dotNodes(self, state, els, size: size,
                                  fill: { e in encoded ? e.color : (solid ?? e.color) }, stroke: stroke, moves: true)
        guard symbol != .circle || symbolField != nil else { return dots }
        let symbols = chart.symbols(els, field: symbolField, fixed: symbol)
        return chart.symbolNodes(dots, size: size) { symbols[$0] }
    }
}
