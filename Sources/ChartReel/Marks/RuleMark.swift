import Geometry
import Raster
import Motion
import Scene
import Charts

/// A line across the plot at each row's x or y (Swift Charts' `RuleMark`).
public struct RuleMark<Row>: ChartContent, PeakMark {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// A vertical rule at each row's x, the plot's full height.
    public init(x: PlottableValue<Row>) {
        mark = AnyMark(RuleMarkSpec(), x: x, y: nil)
    }
    /// A horizontal rule at each row's y, the plot's full width.
    public init(y: PlottableValue<Row>) {
        mark = AnyMark(RuleMarkSpec(), x: nil, y: y)
        mark.edit(RuleMarkSpec.self) { $0.vertical = false }
    }
    /// A vertical rule at x between two values.
    public init(x: PlottableValue<Row>, yStart: PlottableValue<Row>, yEnd: PlottableValue<Row>) {
        mark = AnyMark(RuleMarkSpec(), x: x, y: yStart)
        mark.spec.options.y2 = mark.read(yEnd)
    }
    /// A horizontal rule at y between two values.
    public init(xStart: PlottableValue<Row>, xEnd: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(RuleMarkSpec(), x: xStart, y: y)
        mark.edit(RuleMarkSpec.self) { $0.vertical = false }
        mark.spec.options.x2 = mark.read(xEnd)
    }
}
