import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension PointMarkSpec: DecodableMark {
    /// `size`, `stroke`, `fill` and `symbol`.
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> PointMarkSpec {
        var m = PointMarkSpec(options: options)
        if let sz = obj.optional("size")?.double(min: 0, max: 10_000) { m.size = sz }
        m.stroke = TimelineDecoder.markStroke(obj)
        m.fill = TimelineDecoder.markFill(obj)
        if let sym = obj.optional("symbol")?.stringEnum(PointSymbol.self) { m.symbol = sym }
        return m
    }
}
