import Geometry
import Raster
import Motion
import Scene
import Charts

/// The region under a line, or between two values, filled (Swift Charts' `AreaMark`).
public struct AreaMark<Row>: ChartContent, InterpolatedMark {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// The region between the baseline (zero) and y.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(AreaMarkSpec(), x: x, y: y)
    }
    /// Areas of several series, stacked as `stacking` says (a streamgraph is `.center`).
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>, series: PlottableValue<Row>, stacking: StackMode = .none) {
        mark = AnyMark(AreaMarkSpec(), x: x, y: y)
        mark.spec.options.series = mark.read(series)
        mark.spec.options.stack = stacking
    }
    /// The band between two values at each x (a range area).
    public init(x: PlottableValue<Row>, yStart: PlottableValue<Row>, yEnd: PlottableValue<Row>) {
        mark = AnyMark(AreaMarkSpec(), x: x, y: yEnd)
        mark.spec.options.y2 = mark.read(yStart)
    }
}
