import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension LineMarkSpec: DecodableMark {
    /// `interpolation`, `startAtOrigin`, `stroke` (2 px round of the palette's first colour
    /// when absent) and `points` (`true` or `{ "size", "fill", "stroke" }`).
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> LineMarkSpec {
        var m = LineMarkSpec(options: options)
        m.interpolation = TimelineDecoder.markInterpolation(obj)
        if let s = obj.optional("startAtOrigin")?.bool() { m.startAtOrigin = s }
        m.stroke = TimelineDecoder.markStroke(obj, otherwise: LineMarkSpec.defaultStroke)
        if let p = obj.optional("points") { m.points = TimelineDecoder.pointStyle(p) }
        return m
    }
}
