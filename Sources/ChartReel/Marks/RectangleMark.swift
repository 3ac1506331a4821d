import Geometry
import Raster
import Motion
import Scene
import Charts

/// A rectangle per row (Swift Charts' `RectangleMark`): a heat map's cell over two band
/// axes, or a box between two x and two y values.
public struct RectangleMark<Row>: ChartContent {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// A rectangle at (x, y): across its band on a band axis, else `width` × `height`
    /// pixels about the point.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>, width: MarkDimension = .automatic, height: MarkDimension = .automatic) {
        mark = AnyMark(RectMarkSpec(), x: x, y: y)
        mark.setSize(width: width, height: height)
    }
    /// The rectangle between two x and two y values.
    public init(xStart: PlottableValue<Row>, xEnd: PlottableValue<Row>, yStart: PlottableValue<Row>, yEnd: PlottableValue<Row>) {
        mark = AnyMark(RectMarkSpec(), x: xStart, y: yEnd)
        mark.spec.options.x2 = mark.read(xEnd)
        mark.spec.options.y2 = mark.read(yStart)
    }
    /// A rectangle between two y values at x, `width` pixels wide (or its band).
    public init(x: PlottableValue<Row>, yStart: PlottableValue<Row>, yEnd: PlottableValue<Row>, width: MarkDimension = .automatic) {
        mark = AnyMark(RectMarkSpec(), x: x, y: yEnd)
        mark.spec.options.y2 = mark.read(yStart)
        mark.setSize(width: width, height: .automatic)
    }
    /// A rectangle between two x values at y, `height` pixels tall (or its band).
    public init(xStart: PlottableValue<Row>, xEnd: PlottableValue<Row>, y: PlottableValue<Row>, height: MarkDimension = .automatic) {
        mark = AnyMark(RectMarkSpec(), x: xStart, y: y)
        mark.spec.options.x2 = mark.read(xEnd)
        mark.setSize(width: .automatic, height: height)
    }
}

extension RectangleMark {
    /// Rounded corners of `radius` pixels.
    public func cornerRadius(_ radius: Double) -> Self { with { $0.edit(RectMarkSpec.self) { $0.cornerRadius = radius } } }
}

extension AnyMark {
    /// A rectangle's size: fixed pixels, or a fraction of its band.
    mutating func setSize(width: MarkDimension, height: MarkDimension) {
        for (d, isWidth) in [(width, true), (height, false)] {
            switch d {
            case .automatic: break
            case .fixed(let px): edit(RectMarkSpec.self) { if isWidth { $0.width = px } else { $0.height = px } }
            case .ratio(let r): edit(RectMarkSpec.self) { $0.bandFraction = r }
            case .inset: problems.append("a width or height of .inset(_:) is not supported; use .fixed(_:) or .ratio(_:)")
            }
        }
    }
}
