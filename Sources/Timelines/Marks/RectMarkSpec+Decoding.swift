import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension RectMarkSpec: DecodableMark {
    /// `stroke`, `fill`, `cornerRadius`, `width` and `height`.
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> RectMarkSpec {
        var m = RectMarkSpec(options: options)
        m.stroke = TimelineDecoder.markStroke(obj)
        m.fill = TimelineDecoder.markFill(obj)
        if let r = obj.optional("cornerRadius")?.double(min: 0, max: 10_000) { m.cornerRadius = r }
        if let w = obj.optional("width")?.double(min: 0, max: 100_000) { m.width = w }
        if let h = obj.optional("height")?.double(min: 0, max: 100_000) { m.height = h }
        return m
    }
}
