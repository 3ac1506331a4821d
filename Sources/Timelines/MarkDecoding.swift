import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension TimelineDecoder {
    static let markKeys = ["id", "name", "type", "interpolation", "startAtOrigin", "stroke", "fill", "opacity", "animate"]

    static func mark(_ c: JSONCursor) -> MarkSpec? {
        guard let obj = c.object(allowedKeys: markKeys) else { return nil }
        guard let kind = obj.required("type")?.stringEnum(MarkKind.self) else { return nil }
        var m = MarkSpec(id: obj.optional("id")?.string(), kind: kind)
        m.name = obj.optional("name")?.string()
        if let i = obj.optional("interpolation") { m.interpolation = interpolation(i) ?? .linear }
        if let s = obj.optional("startAtOrigin")?.bool() { m.startAtOrigin = s }
        if let s = obj.optional("stroke") { m.stroke = stroke(s) }
        if let f = obj.optional("fill") { m.fill = paint(f) }
        if let o = obj.optional("opacity")?.double(min: 0, max: 1) { m.opacity = .constant(o) }
        if kind == .line && m.stroke == nil && !obj.contains("stroke") {
            m.stroke = (.solid(Color(r: 0, g: 0.478, b: 1)), StrokeStyle(width: 2, cap: .round, join: .round))
        }
        if kind == .area && m.fill == nil && !obj.contains("fill") {
            m.fill = .solid(Color(r: 0, g: 0.478, b: 1, a: 0.3))
        }
        if let a = obj.optional("animate")?.object(allowedKeys: ["trim", "opacity"]) {
            if let t = a.optional("trim")?.object(allowedKeys: ["from", "to"]) {
                if let f = t.optional("from") { m.trimStart = animated(f, min: 0, max: 1) ?? m.trimStart }
                if let e = t.optional("to") { m.trimEnd = animated(e, min: 0, max: 1) ?? m.trimEnd }
            }
            if let o = a.optional("opacity") { m.opacity = animated(o, min: 0, max: 1) ?? m.opacity }
        }
        return m
    }

    static func interpolation(_ c: JSONCursor) -> Interpolation? {
        if case .string = c.value {
            guard let s = c.stringEnum(["linear"]) else { return nil }
            _ = s
            return .linear
        }
        guard let obj = c.object(allowedKeys: ["bezier"]) else { return nil }
        if let r = obj.required("bezier")?.double(min: 0, max: 1) { return .bezier(r) }
        return nil
    }

    static func stroke(_ c: JSONCursor) -> (paint: NodePaint, style: StrokeStyle)? {
        guard let obj = c.object(allowedKeys: ["width", "cap", "join", "miterLimit", "paint"]) else { return nil }
        var style = StrokeStyle(width: 1, cap: .butt, join: .miter)
        if let w = obj.optional("width")?.double(min: 0, max: 10_000) { style.width = w }
        if let cap = obj.optional("cap")?.stringEnum(LineCap.self) { style.cap = cap }
        if let join = obj.optional("join")?.stringEnum(LineJoin.self) { style.join = join }
        if let ml = obj.optional("miterLimit")?.double(min: 1, max: 1000) { style.miterLimit = ml }
        var p = NodePaint.solid(.black)
        if let pc = obj.optional("paint") { p = paint(pc) ?? p }
        return (p, style)
    }

    /// A colour string `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA`.
    static func color(_ c: JSONCursor) -> Color? {
        guard let s = c.string() else { return nil }
        if let col = Color(hex: s) { return col }
        return c.fail("expected a colour like \"#6A5ACD\" or \"#6A5ACD99\", found \"\(s)\"")
    }

    static let unitPoints: [String: PaintPoint] = [
        "top": .top, "bottom": .bottom, "leading": .leading, "trailing": .trailing, "center": .center,
        "topLeading": .topLeading, "topTrailing": .topTrailing, "bottomLeading": .bottomLeading, "bottomTrailing": .bottomTrailing,
    ]

    static func paintPoint(_ c: JSONCursor) -> PaintPoint? {
        if case .string = c.value {
            guard let name = c.stringEnum(unitPoints.keys.sorted()) else { return nil }
            return unitPoints[name]
        }
        guard let arr = c.array(minCount: 2, maxCount: 2), let u = arr[0].double(), let v = arr[1].double() else { return nil }
        return .unit(u, v)
    }

    /// A paint: a colour string, or `{ "linear": { "from", "to", "stops" } }`.
    static func paint(_ c: JSONCursor) -> NodePaint? {
        if case .string = c.value { return color(c).map { .solid($0) } }
        guard let obj = c.object(allowedKeys: ["linear"]) else { return nil }
        guard let lin = obj.required("linear")?.object(allowedKeys: ["from", "to", "stops"]) else { return nil }
        let from = lin.optional("from").flatMap(paintPoint) ?? .leading
        let to = lin.optional("to").flatMap(paintPoint) ?? .trailing
        guard let stopsC = lin.required("stops")?.array(minCount: 1) else { return nil }
        var stops: [GradientStop] = []
        for (i, s) in stopsC.enumerated() {
            if case .string = s.value {
                if let col = color(s) {
                    stops.append(GradientStop(offset: stopsC.count > 1 ? Double(i) / Double(stopsC.count - 1) : 0, color: col))
                }
            } else if let so = s.object(allowedKeys: ["offset", "color"]) {
                if let off = so.required("offset")?.double(min: 0, max: 1), let cc = so.required("color"), let col = color(cc) {
                    stops.append(GradientStop(offset: off, color: col))
                }
            }
        }
        return .linear(stops: stops, from: from, to: to)
    }

    /// A number (constant) or an animation `{ "from", "to", "curve", "duration", "delay", "speed" }`.
    static func animated(_ c: JSONCursor, min lo: Double, max hi: Double) -> AnimatedValue? {
        if case .number = c.value { return c.double(min: lo, max: hi).map { .constant($0) } }
        guard let obj = c.object(allowedKeys: ["from", "to", "curve", "duration", "delay", "speed"]) else { return nil }
        let from = obj.required("from")?.double(min: lo, max: hi)
        let to = obj.required("to")?.double(min: lo, max: hi)
        var anim = Animation()
        if let cc = obj.optional("curve") {
            if let name = cc.stringEnum(Easing.names), let e = Easing(name: name) { anim.curve = e }
        }
        if let d = obj.optional("duration"), let v = d.double(min: 0, max: 3600) {
            if v <= 0 { d.report("expected a duration greater than 0 seconds, found \(v)") } else { anim.duration = v }
        }
        if let d = obj.optional("delay")?.double(min: 0, max: 3600) { anim.delay = d }
        if let s = obj.optional("speed"), let v = s.double(min: 0, max: 1000) {
            if v <= 0 { s.report("expected a speed greater than 0, found \(v)") } else { anim.speed = v }
        }
        guard let f = from, let t = to else { return nil }
        return .tween(Tween(from: f, to: t, animation: anim))
    }
}
