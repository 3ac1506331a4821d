import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension SectorMarkSpec: DecodableMark {
    /// `innerRadius`, `angularGap`, `fill` and `stroke`.
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> SectorMarkSpec {
        var m = SectorMarkSpec(options: options)
        if let r = obj.optional("innerRadius")?.double(min: 0, max: 0.99) { m.innerRadius = r }
        if let g = obj.optional("angularGap")?.double(min: 0, max: 90) { m.angularGap = g }
        m.fill = TimelineDecoder.markFill(obj)
        m.stroke = TimelineDecoder.markStroke(obj)
        return m
    }
}
