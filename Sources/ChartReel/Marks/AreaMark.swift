import Geometry
import Raster
import Motion
import Scene
import Charts

/// The region under a line, or between two values, filled (Swift Charts' `AreaMark`).
public struct AreaMark<Row>: ChartContent, InterpolatedMark {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// The region between the baseline (zero) and y; split into series by
    /// `foregroundStyle(by:)`, the areas stack as `stacking` says (`.standard` by default).
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>, stacking: MarkStackingMethod? = nil) {
        mark = AnyMark(AreaMarkSpec(), x: x, y: y)
        if let stacking { mark.spec.options.stack = stacking; mark.stackingSet = true }
    }
    /// Areas of several series, stacked as `stacking` says (a streamgraph is `.center`).
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>, series: PlottableValue<Row>, stacking: MarkStackingMethod? = nil) {
        mark = AnyMark(AreaMarkSpec(), x: x, y: y)
        mark.spec.options.series = mark.read(series)
        if let stacking { mark.spec.options.stack = stacking; mark.stackingSet = true }
    }
    /// The band between two values at each x (a range area).
    public init(x: PlottableValue<Row>, yStart: PlottableValue<Row>, yEnd: PlottableValue<Row>) {
        mark = AnyMark(AreaMarkSpec(), x: x, y: yEnd)
        mark.spec.options.y2 = mark.read(yStart)
    }
    /// The band between two values at each y (a horizontal range area).
    public init(xStart: PlottableValue<Row>, xEnd: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(AreaMarkSpec(), x: xEnd, y: y)
        mark.spec.options.x2 = mark.read(xStart)
    }
}
