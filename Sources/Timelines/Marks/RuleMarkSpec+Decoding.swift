import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension RuleMarkSpec: DecodableMark {
    /// `orientation`, `stroke` (1 px grey unless given) and `atPeak`.
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> RuleMarkSpec {
        var m = RuleMarkSpec(options: options)
        if let o = obj.optional("orientation")?.stringEnum(["vertical", "horizontal"]) { m.vertical = o == "vertical" }
        m.stroke = TimelineDecoder.markStroke(obj) ?? RuleMarkSpec.defaultStroke
        if let p = obj.optional("atPeak")?.bool() { m.atPeak = p }
        return m
    }
}
