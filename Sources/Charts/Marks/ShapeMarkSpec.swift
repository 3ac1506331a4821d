import Geometry
import Raster
import Scene

/// A path drawn in the chart: a SwiftUI shape or SVG path data, in pixels or in data
/// units mapped by the chart's (linear) scales.
public struct ShapeMarkSpec: StrokedMark, FilledMark {
    public static let kind = MarkKind.shape
    /// What every mark has.
    public var options: MarkOptions
    /// The geometry; nothing is drawn when nil.
    public var path: Path?
    /// The path's coordinates are data values mapped by the scales (else pixels).
    public var inData = false
    /// The fill; the palette's first colour when neither fill nor stroke is given.
    public var fill: NodePaint?
    /// The outline.
    public var stroke: (paint: NodePaint, style: StrokeStyle)?

    /// Creates a shape.
    public init(options: MarkOptions = MarkOptions()) { self.options = options }

    public func nodes(in chart: ChartSpec, state l: ChartState) -> [Node] {
        let o = options
        guard var path else { return [] }
        if inData {
            // Linear scales are affine: map the path's points through them.
            let x0 = l.x(0), x1 = l.x(1), y0 = l.y(0), y1 = l.y(1)
            path = path.applying(Transform(a: x1 - x0, b: 0, c: 0, d: y1 - y0, tx: x0, ty: y0))
        }
        var node = ShapeNode(id: o.id, path: path)
        if let f = fill { node.fill = (f, .nonZero) }
        if let s = stroke { node.stroke = s }
        if fill == nil && stroke == nil { node.fill = (.solid(Palette.color(0)), .nonZero) }
        node.trimStart = o.trimStart; node.trimEnd = o.trimEnd; node.opacity = o.opacity
        node.blendMode = o.blend
        if let sc = o.scale {
            let b = path.controlBounds
            node.motion.scaleX = sc; node.motion.scaleY = sc; node.motion.anchor = Point(b.midX, b.midY)
        }
        return [.shape(node)]
    }
}
