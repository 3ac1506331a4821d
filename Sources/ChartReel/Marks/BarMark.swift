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
    /// Bars from zero to the value; the category axis decides the direction. `width`
    /// (vertical bars) or `height` (horizontal ones) sets the thickness; bars split into
    /// series by `foregroundStyle(by:)` stack as `stacking` says (`.standard` unless
    /// they are placed side by side with `position(by:)`).
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>, width: MarkDimension = .automatic,
                height: MarkDimension = .automatic, stacking: MarkStackingMethod? = nil) {
        mark = AnyMark(BarMarkSpec(), x: x, y: y)
        mark.setThickness(width == .automatic ? height : width)
        if let stacking { mark.spec.options.stack = stacking; mark.stackingSet = true }
    }
    /// One horizontal bar across the plot from zero to the value; split into series by
    /// `foregroundStyle(by:)`, the series stack along it (a part-to-whole bar).
    public init(x: PlottableValue<Row>, height: MarkDimension = .automatic, stacking: MarkStackingMethod? = nil) {
        mark = AnyMark(BarMarkSpec(), x: x, y: .value(BarMark.wholeLabel, ""))
        mark.setThickness(height)
        if let stacking { mark.spec.options.stack = stacking; mark.stackingSet = true }
    }
    /// One vertical bar up the plot from zero to the value (see `init(x:height:stacking:)`).
    public init(y: PlottableValue<Row>, width: MarkDimension = .automatic, stacking: MarkStackingMethod? = nil) {
        mark = AnyMark(BarMarkSpec(), x: .value(BarMark.wholeLabel, ""), y: y)
        mark.setThickness(width)
        if let stacking { mark.spec.options.stack = stacking; mark.stackingSet = true }
    }
    /// The label of the one category a bar of one value stands on.
    static var wholeLabel: String { "\u{1}whole" }
    /// Vertical bars between two values (a floating or Gantt bar).
    public init(x: PlottableValue<Row>, yStart: PlottableValue<Row>, yEnd: PlottableValue<Row>, width: MarkDimension = .automatic) {
        mark = AnyMark(BarMarkSpec(), x: x, y: yEnd)
        mark.spec.options.y2 = mark.read(yStart)
        mark.setThickness(width)
    }
    /// Horizontal bars between two values.
    public init(xStart: PlottableValue<Row>, xEnd: PlottableValue<Row>, y: PlottableValue<Row>, height: MarkDimension = .automatic) {
        mark = AnyMark(BarMarkSpec(), x: xEnd, y: y)
        mark.spec.options.x2 = mark.read(xStart)
        mark.setThickness(height)
    }
}

extension AnyMark {
    /// A bar's or rectangle's thickness from a `MarkDimension`.
    mutating func setThickness(_ d: MarkDimension) {
        switch d {
        case .automatic: break
        case .fixed(let px):
            edit(BarMarkSpec.self) { $0.fixedWidth = px }
            edit(RectMarkSpec.self) { $0.width = px }
        case .ratio(let r):
            edit(BarMarkSpec.self) { $0.barWidth = r }
            edit(RectMarkSpec.self) { $0.bandFraction = r }
        case .inset:
            problems.append("a width or height of .inset(_:) is not supported; use .fixed(_:) or .ratio(_:)")
        }
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
