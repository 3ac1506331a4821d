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

    /// Slices in Swift Charts' terms: `innerRadius` and `outerRadius` as `.ratio(_:)` of
    /// the radius the plot allows, `angularInset` the pixels each slice's edges are moved
    /// in (neighbours are twice that apart at the rim).
    public init(angle: PlottableValue<Row>, innerRadius: MarkDimension = .automatic, outerRadius: MarkDimension = .automatic,
                angularInset: Double? = nil) {
        var sector = SectorMarkSpec()
        var problems: [String] = []
        func fraction(_ d: MarkDimension, _ name: String, _ automatic: Double) -> Double {
            switch d {
            case .automatic: return automatic
            case .ratio(let r): return r
            case .fixed, .inset:
                problems.append("\(name) of .fixed(_:) or .inset(_:) is not supported; use .ratio(_:)")
                return automatic
            }
        }
        sector.innerRadius = fraction(innerRadius, "innerRadius", 0)
        sector.outerRadius = fraction(outerRadius, "outerRadius", 1)
        sector.angularInset = angularInset ?? 0
        mark = AnyMark(sector, x: nil, y: angle)
        mark.problems = problems
    }
}
