import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension TextMarkSpec: DecodableMark {
    /// `text` (`field`, `value`, `format`, `size`, `color`, `position`, `offset`, `angle`,
    /// `background`, `atPeak`) and `atPeak`.
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> TextMarkSpec {
        var m = TextMarkSpec(options: options)
        if let t = obj.optional("text") { TimelineDecoder.textOptions(t, into: &m, data: data) }
        if let p = obj.optional("atPeak")?.bool() { m.atPeak = p }
        if let g = obj.optional("group") { m.groupField = data.field(g) }
        return m
    }
}

extension TimelineDecoder {
    static func textOptions(_ c: JSONCursor, into m: inout TextMarkSpec, data: ChartData = .none) {
        guard let o = c.object(allowedKeys: textKeys) else { return }
        if let w = o.optional("wrap"), let style = textBlockStyle(w) { m.block = style }
        shaping(o, into: &m.shaping)
        m.field = data.field(o.optional("field"))
        m.literal = o.optional("value")?.string()
        if data.moving { checkMomentTemplate(o.optional("value")) }
        if let f = o.optional("format"), case .number(let nf?)? = labelFormat(f) { m.format = nf }
        if let s = o.optional("size")?.double(min: 1, max: 1000) { m.fontSize = s }
        m.color = o.optional("color").flatMap(color)
        if let p = o.optional("position")?.stringEnum(TextPosition.self) { m.position = p }
        if let off = o.optional("offset")?.double(min: -1000, max: 1000) { m.offset = off }
        if let a = o.optional("angle")?.double(min: -360, max: 360) { m.angle = a }
        if let b = o.optional("background")?.object(allowedKeys: ["color", "cornerRadius", "padding"]) {
            var bg = TextBackground(color: b.optional("color").flatMap(color) ?? .white)
            if let r = b.optional("cornerRadius")?.double(min: 0, max: 1000) { bg.cornerRadius = r }
            if let p = b.optional("padding"), let arr = p.array(minCount: 2, maxCount: 2), let px = arr[0].double(min: 0), let py = arr[1].double(min: 0) {
                bg.padding = (px, py)
            }
            m.background = bg
        }
        if let a = o.optional("atPeak")?.bool() { m.atPeak = a }
        if let col = o.optional("insideColor").flatMap(color) { m.insideColor = col }
        if let s = o.optional("separate")?.bool() { m.separate = s }
        if let s = o.optional("separation")?.double(min: 0, max: 1000) { m.separation = s }
    }

}
