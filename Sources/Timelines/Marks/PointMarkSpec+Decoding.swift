import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension TimelineDecoder {
    /// A point's `"size"` from a field: `{ "field", "range": [smallest, largest], "domain": [low, high] }`.
    static func sizeEncoding(_ c: JSONCursor, data: ChartData) -> SizeEncoding? {
        guard let o = c.object(allowedKeys: ["field", "range", "domain"]), let field = data.field(o.required("field")) else { return nil }
        var e = SizeEncoding(field: field)
        if let r = o.optional("range"), let arr = r.array(minCount: 2, maxCount: 2),
           let a = arr[0].double(min: 0, max: 10_000), let b = arr[1].double(min: 0, max: 10_000) { e.range = (a, b) }
        if let d = o.optional("domain") { e.domain = domain(d, scale: .linear) }
        return e
    }
}

extension PointMarkSpec: DecodableMark {
    /// `size`, `stroke`, `fill` and `symbol`.
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> PointMarkSpec {
        var m = PointMarkSpec(options: options)
        if let c = obj.optional("size") {
            if case .object = c.value { m.sizeEncoding = TimelineDecoder.sizeEncoding(c, data: data) }
            else if let sz = c.double(min: 0, max: 10_000) { m.size = sz }
        }
        if let b = obj.optional("largestFirst")?.bool() { m.largestFirst = b }
        m.stroke = TimelineDecoder.markStroke(obj)
        m.fill = TimelineDecoder.markFill(obj)
        if let sym = obj.optional("symbol")?.stringEnum(PointSymbol.self) { m.symbol = sym }
        return m
    }
}
