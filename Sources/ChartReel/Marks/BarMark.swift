import Geometry
import Raster
import Motion
import Scene
import Charts

/// A rectangle per row from the baseline to its value (Swift Charts' `BarMark`):
/// vertical over a category x, horizontal over a category y.
public struct BarMark<Row>: ChartContent {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// Bars from zero to the value; the category axis decides the direction.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(BarMarkSpec(), x: x, y: y)
    }
    /// Vertical bars between two values (a floating or Gantt bar).
    public init(x: PlottableValue<Row>, yStart: PlottableValue<Row>, yEnd: PlottableValue<Row>) {
        mark = AnyMark(BarMarkSpec(), x: x, y: yEnd)
        mark.spec.options.y2 = mark.read(yStart)
    }
    /// Horizontal bars between two values.
    public init(xStart: PlottableValue<Row>, xEnd: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(BarMarkSpec(), x: xEnd, y: y)
        mark.spec.options.x2 = mark.read(xStart)
    }
}

extension BarMark {
    /// Rounded corners of `radius` pixels.
    public func cornerRadius(_ radius: Double) -> Self { with { $0.edit(BarMarkSpec.self) { $0.cornerRadius = radius } } }

    /// Fully rounded ends.
    public func capsule(_ enabled: Bool = true) -> Self { with { $0.edit(BarMarkSpec.self) { $0.capsule = enabled } } }

    /// The bar's thickness as a fraction of its band (0…1).
    public func barWidth(_ fraction: Double) -> Self { with { $0.edit(BarMarkSpec.self) { $0.barWidth = fraction } } }
}
