import Geometry
import Raster
import Motion
import Scene
import Charts

/// A dot per row (Swift Charts' `PointMark`).
public struct PointMark<Row>: ChartContent {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// A dot at (x, y) of every row.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(PointMarkSpec(), x: x, y: y)
    }
}
