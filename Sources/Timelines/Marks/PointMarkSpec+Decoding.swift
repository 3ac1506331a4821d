import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension PointMarkSpec: DecodableMark {
    /// `size`, `stroke` and `fill`.
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> PointMarkSpec {
        var m = PointMarkSpec(options: options)
        if let sz = obj.optional("size")?.double(min: 0, max: 10_000) { m.size = sz }
        m.stroke = TimelineDecoder.markStroke(obj)
        m.fill = TimelineDecoder.markFill(obj)
        return m
    }
}
