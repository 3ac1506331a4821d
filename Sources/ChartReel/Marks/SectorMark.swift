import Geometry
import Raster
import Motion
import Scene
import Charts

/// A pie or donut slice per row, clockwise from 12 o'clock (Swift Charts' `SectorMark`).
/// The slices are named and coloured by `foregroundStyle(by:)`.
public struct SectorMark<Row>: ChartContent {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// Slices whose angles are proportional to `angle`; `innerRadius` is the hole as a
    /// fraction of the radius (0 for a pie), `angularGap` the gap between slices in degrees.
    public init(angle: PlottableValue<Row>, innerRadius: Double = 0, angularGap: Double = 0) {
        var sector = SectorMarkSpec()
        sector.innerRadius = innerRadius
        sector.angularGap = angularGap
        mark = AnyMark(sector, x: nil, y: angle)
    }
}
