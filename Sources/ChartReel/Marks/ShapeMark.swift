import Geometry
import Raster
import Motion
import Scene
import Charts

/// A path drawn in the chart: in pixels, or in data units mapped by the chart's scales.
public struct ShapeMark<Row>: ChartContent {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// Draws `path`; with `inDataCoordinates` its points are data values (linear scales).
    public init(_ path: Path, inDataCoordinates: Bool = false) {
        var shape = ShapeMarkSpec()
        shape.path = path
        shape.inData = inDataCoordinates
        mark = AnyMark(shape, x: nil, y: nil)
    }
}
