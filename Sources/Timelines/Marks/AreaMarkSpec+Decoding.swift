import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension AreaMarkSpec: DecodableMark {
    /// `interpolation`, `startAtOrigin`, `stroke` and `fill` (the palette's first colour at
    /// 30 % for one series without a colour encoding, when absent).
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> AreaMarkSpec {
        var m = AreaMarkSpec(options: options)
        m.interpolation = TimelineDecoder.markInterpolation(obj)
        if let s = obj.optional("startAtOrigin")?.bool() { m.startAtOrigin = s }
        m.stroke = TimelineDecoder.markStroke(obj)
        m.fill = TimelineDecoder.markFill(obj)
        if m.fill == nil && !obj.contains("fill") && options.color == nil && options.series == nil { m.fill = AreaMarkSpec.defaultFill }
        return m
    }
}
