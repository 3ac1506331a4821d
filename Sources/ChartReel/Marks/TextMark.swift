import Geometry
import Raster
import Motion
import Scene
import Charts

/// A label per row at its data point: Swift Charts' annotations as a mark.
public struct TextMark<Row>: ChartContent, PeakMark {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// Each row's y value as text (formatted with `format(_:)`), above its point.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(TextMarkSpec(), x: x, y: y)
    }
    /// Each row's `text` value at its point.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>, text: PlottableValue<Row>) {
        mark = AnyMark(TextMarkSpec(), x: x, y: y)
        let field = mark.read(text)
        mark.edit(TextMarkSpec.self) { $0.field = field }
    }
    /// The same text at every row's point.
    public init(_ text: String, x: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(TextMarkSpec(), x: x, y: y)
        mark.edit(TextMarkSpec.self) { $0.literal = text }
    }
}

extension TextMark {
    /// Text size in pixels.
    public func font(size: Double) -> Self { with { $0.edit(TextMarkSpec.self) { $0.fontSize = size } } }

    /// Where the label sits relative to its point, `offset` pixels away from it.
    public func position(_ position: TextPosition, offset: Double = 6) -> Self {
        with { $0.edit(TextMarkSpec.self) { $0.position = position; $0.offset = offset } }
    }

    /// Rotation in degrees, clockwise (−90 reads bottom to top).
    public func rotation(degrees: Double) -> Self { with { $0.edit(TextMarkSpec.self) { $0.angle = degrees } } }

    /// A rounded background behind each label (Swift Charts' annotation pill).
    public func background(_ color: Color, cornerRadius: Double = 4, padding: (x: Double, y: Double) = (6, 3)) -> Self {
        with { $0.edit(TextMarkSpec.self) { $0.background = TextBackground(color: color, cornerRadius: cornerRadius, padding: padding) } }
    }

    /// How numbers are written.
    public func format(_ format: NumberFormat) -> Self { with { $0.edit(TextMarkSpec.self) { $0.format = format } } }
}
