import Geometry
import Raster
import Motion
import Scene
import Charts

/// A line through the rows' points, one per series (Swift Charts' `LineMark`).
public struct LineMark<Row>: ChartContent, InterpolatedMark {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// A line through (x, y) of every row.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(LineMarkSpec(), x: x, y: y)
    }
    /// One line per value of `series`.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>, series: PlottableValue<Row>) {
        mark = AnyMark(LineMarkSpec(), x: x, y: y)
        mark.spec.options.series = mark.read(series)
    }
}

extension LineMark {
    /// Dots at the line's points: `size` in pixels across, the line's colour unless `fill`
    /// is given, with an optional outline.
    public func symbol(size: Double = 8, fill: Color? = nil, stroke: (color: Color, width: Double)? = nil) -> Self {
        with { m in
            var p = PointStyle(size: size)
            p.fill = fill
            p.stroke = stroke
            m.edit(LineMarkSpec.self) { $0.points = p }
        }
    }
}
