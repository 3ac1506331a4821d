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

    /// Creates points.
    public init(options: MarkOptions = MarkOptions()) { self.options = options }

    public func nodes(in chart: ChartSpec, state: ChartState) -> [Node] {
        let solid: Color? = fill.flatMap { if case .solid(let c) = $0 { return c }; return nil }
        let encoded = options.color != nil
        return chart.dotNodes(self, state, chart.elements(self, state), size: size,
                              fill: { e in encoded ? e.color : (solid ?? e.color) }, stroke: stroke, moves: true)
    }
}
