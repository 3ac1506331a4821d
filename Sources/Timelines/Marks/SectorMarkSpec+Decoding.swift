import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension SectorMarkSpec: DecodableMark {
    /// `innerRadius`, `outerRadius`, `angularGap`, `angularInset`, `fill` and `stroke`.
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> SectorMarkSpec {
        var m = SectorMarkSpec(options: options)
        if let r = obj.optional("innerRadius")?.double(min: 0, max: 0.99) { m.innerRadius = r }
        if let g = obj.optional("angularGap")?.double(min: 0, max: 90) { m.angularGap = g }
        if let r = obj.optional("outerRadius")?.double(min: 0, max: 1) { m.outerRadius = r }
        if let i = obj.optional("angularInset")?.double(min: 0, max: 1000) { m.angularInset = i }
        m.fill = TimelineDecoder.markFill(obj)
        m.stroke = TimelineDecoder.markStroke(obj)
        return m
    }
}
