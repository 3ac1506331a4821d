import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension RuleMarkSpec: DecodableMark {
    /// `orientation`, `stroke` (1 px grey unless given), `atPeak` and `label`.
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> RuleMarkSpec {
        var m = RuleMarkSpec(options: options)
        if let o = obj.optional("orientation")?.stringEnum(["vertical", "horizontal"]) { m.vertical = o == "vertical" }
        m.stroke = TimelineDecoder.markStroke(obj, otherwise: RuleMarkSpec.defaultStroke)
        if let p = obj.optional("atPeak")?.bool() { m.atPeak = p }
        if let l = obj.optional("label") { m.label = ruleLabel(l, data: data) }
        return m
    }

    /// `{ "field", "position", "alignment", "offset", "size", "color" }`: text beside each rule.
    static func ruleLabel(_ c: JSONCursor, data: ChartData) -> RuleLabel? {
        guard let o = c.object(allowedKeys: ["field", "position", "alignment", "offset", "size", "color"]),
              let field = data.field(o.required("field")) else { return nil }
        var l = RuleLabel(field: field)
        if let p = o.optional("position")?.stringEnum(["top", "bottom", "leading", "trailing", "center"]) { l.position = TextPosition(rawValue: p) ?? .top }
        if let a = o.optional("alignment")?.stringEnum(["leading", "center", "trailing"]) { l.alignment = TextAnchor.Horizontal(rawValue: a) ?? .center }
        if let off = o.optional("offset")?.double(min: -1000, max: 1000) { l.offset = off }
        if let size = o.optional("size")?.double(min: 1, max: 1000) { l.fontSize = size }
        l.color = o.optional("color").flatMap(TimelineDecoder.color)
        return l
    }
}
