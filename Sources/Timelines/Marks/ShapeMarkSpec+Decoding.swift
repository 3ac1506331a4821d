import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension ShapeMarkSpec: DecodableMark {
    /// `shape` (`kind`, `rect`, `svg`, `cornerRadius`, `style`, `units`), `fill` and `stroke`.
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> ShapeMarkSpec {
        var m = ShapeMarkSpec(options: options)
        if let sh = obj.optional("shape") { TimelineDecoder.shapeOptions(sh, into: &m) }
        m.fill = TimelineDecoder.markFill(obj)
        m.stroke = TimelineDecoder.markStroke(obj)
        return m
    }
}

extension TimelineDecoder {
    static func shapeOptions(_ c: JSONCursor, into m: inout ShapeMarkSpec) {
        guard let o = c.object(allowedKeys: ["kind", "rect", "svg", "cornerRadius", "style", "units"]) else { return }
        let kind = o.required("kind")?.stringEnum(["rect", "roundedRect", "capsule", "ellipse", "circle", "path"]) ?? "rect"
        m.inData = (o.optional("units")?.stringEnum(["data", "pixels"]) ?? "pixels") == "data"
        if kind == "path" {
            guard let sv = o.required("svg"), let text = sv.longString() else { return }
            do { m.path = try Path(svg: text) } catch let e as SVGPathError {
                // The offset counts UTF-8 bytes of the path data; show what precedes it.
                let before = String(decoding: Array(text.utf8).prefix(e.offset), as: UTF8.self)
                let shown = before.count > 24 ? "…" + before.suffix(24) : before
                sv.report("invalid SVG path data: \(e.message) at character \(before.count + 1), after \(quotedForMessage(shown))")
            } catch {
                sv.report("invalid SVG path data: \(error)")
            }
            return
        }
        guard let rc = o.required("rect"), let arr = rc.array(minCount: 4, maxCount: 4) else { return }
        let v = arr.compactMap { $0.double() }
        guard v.count == 4 else { return }
        let r = Rect(corner: Point(v[0], v[1]), Point(v[2], v[3]))
        let radius = o.optional("cornerRadius")?.double(min: 0, max: 1e6) ?? 8
        let style: RoundedCornerStyle = (o.optional("style")?.stringEnum(RoundedCornerStyle.self)) ?? .circular
        switch kind {
        case "roundedRect": m.path = .roundedRect(r, cornerRadius: radius, style: style)
        case "capsule": m.path = .capsule(in: r)
        case "ellipse": m.path = .ellipse(in: r)
        case "circle": m.path = .circle(center: Point(r.midX, r.midY), radius: min(r.width, r.height) / 2)
        default: m.path = .rect(r)
        }
    }

}
