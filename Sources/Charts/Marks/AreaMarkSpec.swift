import Geometry
import Raster
import Scene

/// The region between a line through the points and the baseline (or the low values of
/// a range or a stack), filled; one per series.
public struct AreaMarkSpec: StrokedMark, FilledMark, ConnectedMark {
    public static let kind = MarkKind.area
    public static var followsBandAxis: Bool { true }
    /// What every mark has.
    public var options: MarkOptions
    /// How points are connected.
    public var interpolation: Interpolation = .linear
    /// Start the curve at the plot's bottom-left corner.
    public var startAtOrigin = false
    /// An outline along the whole area's edge.
    public var stroke: (paint: NodePaint, style: StrokeStyle)?
    /// The fill of a single-series area without a colour encoding; the element's colour
    /// at 30 % when nil. Series and encodings colour their areas solid.
    public var fill: NodePaint?

    /// The fill an area of one series has unless it says otherwise.
    public static let defaultFill = NodePaint.solid(Palette.color(0).opacity(0.3))

    /// Creates an area.
    public init(options: MarkOptions = MarkOptions()) { self.options = options }

    public func nodes(in chart: ChartSpec, state: ChartState) -> [Node] {
        chart.connectedNodes(self, ConnectedShape(isArea: true, interpolation: interpolation, startAtOrigin: startAtOrigin),
                             state, fill: fill, stroke: stroke, points: nil)
    }
}
