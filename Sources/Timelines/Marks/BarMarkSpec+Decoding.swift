import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension BarMarkSpec: DecodableMark {
    /// `stroke`, `fill`, `cornerRadius`, `capsule`, `barWidth`, `orientation`, `slot` and `group`.
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> BarMarkSpec {
        var m = BarMarkSpec(options: options)
        m.stroke = TimelineDecoder.markStroke(obj)
        m.fill = TimelineDecoder.markFill(obj)
        if let r = obj.optional("cornerRadius")?.double(min: 0, max: 10_000) { m.cornerRadius = r }
        if let cap = obj.optional("capsule")?.bool() { m.capsule = cap }
        if let w = obj.optional("barWidth")?.double(min: 0, max: 1) { m.barWidth = w }
        if let o = obj.optional("orientation")?.stringEnum(BarMarkSpec.Orientation.self) { m.orientation = o }
        if let s = obj.optional("slot")?.double(min: 1e-9, max: 1e12) { m.slot = s }
        if let g = obj.optional("group") { m.groupField = data.field(g) }
        return m
    }
}
