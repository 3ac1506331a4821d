import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension TimelineDecoder {
    static let markKeys = ["id", "name", "type", "series", "y2", "x2", "stack", "color", "interpolation", "startAtOrigin",
                           "stroke", "fill", "points", "cornerRadius", "capsule", "barWidth", "size", "innerRadius",
                           "angularGap", "orientation", "blendMode", "text", "shape", "filter", "transition", "atPeak", "opacity", "animate"]

    static func mark(_ c: JSONCursor, tables: [String: DataTable] = [:], data: ChartData = .none) -> MarkSpec? {
        guard let obj = c.object(allowedKeys: markKeys) else { return nil }
        guard let kind = obj.required("type")?.stringEnum(MarkKind.self) else { return nil }
        var m = MarkSpec(id: obj.optional("id")?.string(), kind: kind)
        m.name = obj.optional("name")?.string()
        m.series = data.field(obj.optional("series"))
        m.y2 = data.field(obj.optional("y2"))
        m.x2 = data.field(obj.optional("x2"))
        if let st = obj.optional("stack")?.stringEnum(StackMode.self) { m.stack = st }
        if let cc = obj.optional("color") { m.color = colorEncoding(cc, data: data) }
        if let i = obj.optional("interpolation") { m.interpolation = interpolation(i) ?? .linear }
        if let s = obj.optional("startAtOrigin")?.bool() { m.startAtOrigin = s }
        if let s = obj.optional("stroke") { m.stroke = stroke(s) }
        if let f = obj.optional("fill") { m.fill = paint(f) }
        if let p = obj.optional("points") {
            if case .bool(let b) = p.value { if b { m.points = PointStyle() } }
            else if let po = p.object(allowedKeys: ["size", "fill", "stroke"]) {
                var ps = PointStyle()
                if let sz = po.optional("size")?.double(min: 0, max: 1000) { ps.size = sz }
                if let f = po.optional("fill").flatMap(color) { ps.fill = f }
                if let so = po.optional("stroke")?.object(allowedKeys: ["color", "width"]), let col = so.required("color").flatMap(color) {
                    ps.stroke = (col, so.optional("width")?.double(min: 0, max: 100) ?? 1)
                }
                m.points = ps
            }
        }
        if let r = obj.optional("cornerRadius")?.double(min: 0, max: 10_000) { m.cornerRadius = r }
        if let cap = obj.optional("capsule")?.bool() { m.capsule = cap }
        if let w = obj.optional("barWidth")?.double(min: 0, max: 1) { m.barWidth = w }
        if let sz = obj.optional("size")?.double(min: 0, max: 10_000) { m.size = sz }
        if let r = obj.optional("innerRadius")?.double(min: 0, max: 0.99) { m.innerRadius = r }
        if let g = obj.optional("angularGap")?.double(min: 0, max: 90) { m.angularGap = g }
        if let o = obj.optional("orientation")?.stringEnum(["vertical", "horizontal"]) { m.vertical = o == "vertical" }
        if let b = obj.optional("blendMode")?.stringEnum(blendModeNames) { m.blendMode = b }
        if let t = obj.optional("text") { textOptions(t, into: &m, data: data) }
        if let sh = obj.optional("shape") { shapeOptions(sh, into: &m) }
        if let f = obj.optional("filter")?.object(allowedKeys: ["field", "equals"]), let field = data.field(f.required("field")),
           let v = f.required("equals") {
            switch v.value {
            case .number: if let d = v.double() { m.filter = (field, .number(d)) }
            case .string(let s): m.filter = (field, .string(s))
            default: v.report("expected a number or a string, found \(v.value.kindDescription)")
            }
        }
        if let tr = obj.optional("transition")?.object(allowedKeys: ["data", "animation"]) {
            if let d = tr.required("data"), let name = d.string() {
                if let table = tables[name] {
                    let anim = tr.optional("animation").flatMap(animation) ?? Animation()
                    m.transition = (table.rows, anim)
                } else { d.report(unknownDataMessage(name, tables: tables)) }
            }
        }
        if let p = obj.optional("atPeak")?.bool() { m.atPeak = p }
        if let o = obj.optional("opacity")?.double(min: 0, max: 1) { m.opacity = .constant(o) }
        if kind == .line && m.stroke == nil && !obj.contains("stroke") {
            m.stroke = (.solid(Palette.color(0)), StrokeStyle(width: 2, cap: .round, join: .round))
        }
        if kind == .area && m.fill == nil && !obj.contains("fill") && m.color == nil && m.series == nil {
            m.fill = .solid(Palette.color(0).opacity(0.3))
        }
        if kind == .rule && m.stroke == nil { m.stroke = (.solid(Color(r: 0.4, g: 0.4, b: 0.4)), StrokeStyle(width: 1)) }
        if let a = obj.optional("animate")?.object(allowedKeys: ["trim", "opacity", "grow", "scale", "translate", "rotation",
                                                               "color", "count", "stagger"]) {
            if let t = a.optional("trim")?.object(allowedKeys: ["from", "to", "offset"]) {
                if let f = t.optional("from") { m.trimStart = animated(f, min: 0, max: 1) ?? m.trimStart }
                if let e = t.optional("to") { m.trimEnd = animated(e, min: 0, max: 1) ?? m.trimEnd }
                if let o = t.optional("offset") { m.trimOffset = animated(o, min: -1000, max: 1000) }
            }
            if let tr = a.optional("translate")?.object(allowedKeys: ["x", "y"]) {
                if let x = tr.optional("x") { m.translateX = animated(x, min: -1e6, max: 1e6) }
                if let y = tr.optional("y") { m.translateY = animated(y, min: -1e6, max: 1e6) }
            }
            if let r = a.optional("rotation") { m.rotation = animated(r, min: -1e6, max: 1e6) }
            if let col = a.optional("color") { m.colorAnimation = animatedColor(col) }
            if let n = a.optional("count") { m.count = animated(n, min: -1e15, max: 1e15) }
            if let o = a.optional("opacity") { m.opacity = animated(o, min: 0, max: 1) ?? m.opacity }
            if let g = a.optional("grow") { m.grow = animated(g, min: 0, max: 1) }
            if let sc = a.optional("scale") { m.scale = animated(sc, min: 0, max: 100) }
            if let st = a.optional("stagger")?.object(allowedKeys: ["step", "amount", "order"]) {
                var spec = StaggerSpec(step: st.optional("step")?.double(min: 0, max: 3600) ?? 0.1)
                spec.amount = st.optional("amount")?.double(min: 0, max: 3600)
                if let o = st.optional("order")?.stringEnum(StaggerSpec.Order.self) { spec.order = o }
                m.stagger = spec
            }
        }
        return m
    }

    static let blendModeNames = ["sourceOver", "multiply", "screen", "overlay", "darken", "lighten", "colorDodge",
                                 "colorBurn", "hardLight", "softLight", "difference", "exclusion"]

    /// `{ "field" }`, `{ "thresholds", "otherwise" }`, `{ "gradient" }`, `{ "ramp" }`, with optional `"overrides"`.
    static func colorEncoding(_ c: JSONCursor, data: ChartData = .none) -> ColorEncoding? {
        guard let o = c.object(allowedKeys: ["field", "colors", "domain", "thresholds", "otherwise", "gradient", "ramp", "overrides"]) else { return nil }
        let field = data.field(o.optional("field"))
        var enc: ColorEncoding? = nil
        if let th = o.optional("thresholds")?.array(minCount: 1) {
            let steps: [(upTo: Double, color: Color)] = th.compactMap { t in
                guard let to = t.object(allowedKeys: ["upTo", "color"]), let u = to.required("upTo")?.double(),
                      let col = to.required("color").flatMap(color) else { return nil }
                return (u, col)
            }
            let otherwise = o.required("otherwise").flatMap(color) ?? .black
            enc = .thresholds(field: field, steps: steps.sorted { $0.upTo < $1.upTo }, otherwise: otherwise)
        } else if let g = o.optional("gradient")?.array(minCount: 2) {
            let stops: [(value: Double, color: Color)] = g.compactMap { t in
                guard let to = t.object(allowedKeys: ["value", "color"]), let v = to.required("value")?.double(),
                      let col = to.required("color").flatMap(color) else { return nil }
                return (v, col)
            }
            enc = .valueGradient(stops: stops.sorted { $0.value < $1.value })
        } else if let r = o.optional("ramp")?.array(minCount: 1) {
            enc = .ramp(field: field, stops: r.compactMap(color))
        } else {
            let colors = o.optional("colors")?.array()?.compactMap(color)
            let domain = o.optional("domain")?.array()?.compactMap { $0.string() }
            enc = .category(field: field, colors: colors, domain: domain)
        }
        if let ov = o.optional("overrides")?.object(allowedKeys: ["field", "values"]), let f = data.field(ov.required("field")),
           let vals = ov.required("values")?.object(), let inner = enc {
            var map: [String: Color] = [:]
            for (k, v) in vals.entries { if let col = color(v) { map[k] = col } }
            enc = .overrides(field: f, values: map, otherwise: inner)
        }
        return enc
    }

    static func textOptions(_ c: JSONCursor, into m: inout MarkSpec, data: ChartData = .none) {
        guard let o = c.object(allowedKeys: textKeys) else { return }
        if let w = o.optional("wrap"), let style = textBlockStyle(w) { m.textBlock = style }
        shaping(o, into: &m.textShaping)
        m.textField = data.field(o.optional("field"))
        m.textLiteral = o.optional("value")?.string()
        if let f = o.optional("format"), case .number(let nf?)? = labelFormat(f) { m.textFormat = nf }
        if let s = o.optional("size")?.double(min: 1, max: 1000) { m.fontSize = s }
        m.textColor = o.optional("color").flatMap(color)
        if let p = o.optional("position")?.stringEnum(TextPosition.self) { m.textPosition = p }
        if let off = o.optional("offset")?.double(min: -1000, max: 1000) { m.textOffset = off }
        if let a = o.optional("angle")?.double(min: -360, max: 360) { m.textAngle = a }
        if let b = o.optional("background")?.object(allowedKeys: ["color", "cornerRadius", "padding"]) {
            var bg = TextBackground(color: b.optional("color").flatMap(color) ?? .white)
            if let r = b.optional("cornerRadius")?.double(min: 0, max: 1000) { bg.cornerRadius = r }
            if let p = b.optional("padding"), let arr = p.array(minCount: 2, maxCount: 2), let px = arr[0].double(min: 0), let py = arr[1].double(min: 0) {
                bg.padding = (px, py)
            }
            m.textBackground = bg
        }
        if let a = o.optional("atPeak")?.bool() { m.atPeak = a }
    }

    static func shapeOptions(_ c: JSONCursor, into m: inout MarkSpec) {
        guard let o = c.object(allowedKeys: ["kind", "rect", "svg", "cornerRadius", "style", "units"]) else { return }
        let kind = o.required("kind")?.stringEnum(["rect", "roundedRect", "capsule", "ellipse", "circle", "path"]) ?? "rect"
        m.shapeInData = (o.optional("units")?.stringEnum(["data", "pixels"]) ?? "pixels") == "data"
        if kind == "path" {
            guard let sv = o.required("svg"), let text = sv.string() else { return }
            do { m.shapePath = try Path(svg: text) } catch let e as SVGPathError {
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
        case "roundedRect": m.shapePath = .roundedRect(r, cornerRadius: radius, style: style)
        case "capsule": m.shapePath = .capsule(in: r)
        case "ellipse": m.shapePath = .ellipse(in: r)
        case "circle": m.shapePath = .circle(center: Point(r.midX, r.midY), radius: min(r.width, r.height) / 2)
        default: m.shapePath = .rect(r)
        }
    }

    static func interpolation(_ c: JSONCursor) -> Interpolation? {
        if case .string = c.value {
            guard let s = c.stringEnum(["linear", "catmullRom", "monotone", "stepStart", "stepCenter", "stepEnd"]) else { return nil }
            switch s {
            case "catmullRom": return .catmullRom
            case "monotone": return .monotone
            case "stepStart": return .step(.start)
            case "stepCenter": return .step(.center)
            case "stepEnd": return .step(.end)
            default: return .linear
            }
        }
        guard let obj = c.object(allowedKeys: ["bezier"]) else { return nil }
        if let r = obj.required("bezier")?.double(min: 0, max: 1) { return .bezier(r) }
        return nil
    }

    static func stroke(_ c: JSONCursor) -> (paint: NodePaint, style: StrokeStyle)? {
        guard let obj = c.object(allowedKeys: ["width", "cap", "join", "miterLimit", "dash", "dashPhase", "paint"]) else { return nil }
        var style = StrokeStyle(width: 1, cap: .butt, join: .miter)
        if let w = obj.optional("width")?.double(min: 0, max: 10_000) { style.width = w }
        if let cap = obj.optional("cap")?.stringEnum(LineCap.self) { style.cap = cap }
        if let join = obj.optional("join")?.stringEnum(LineJoin.self) { style.join = join }
        if let ml = obj.optional("miterLimit")?.double(min: 1, max: 1000) { style.miterLimit = ml }
        if let d = obj.optional("dash")?.array() { style.dash = d.compactMap { $0.double(min: 0, max: 1e6) } }
        if let p = obj.optional("dashPhase")?.double(min: -1e6, max: 1e6) { style.dashPhase = p }
        var p = NodePaint.solid(.black)
        if let pc = obj.optional("paint") { p = paint(pc) ?? p }
        return (p, style)
    }

    /// A colour string `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA`.
    static func color(_ c: JSONCursor) -> Color? {
        guard case .string(let s) = c.value else {
            return c.fail("expected a colour string such as \"#6A5ACD\", found \(c.value.kindDescription)")
        }
        if let col = Color(hex: s) { return col }
        return c.fail("expected a colour #RGB, #RGBA, #RRGGBB or #RRGGBBAA such as \"#6A5ACD\" or \"#6A5ACD99\", found \(quotedForMessage(s))")
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

    /// A paint: a colour string, or one of `{ "linear" }`, `{ "radial" }`, `{ "angular" }`.
    static func paint(_ c: JSONCursor) -> NodePaint? {
        switch c.value {
        case .string: return color(c).map { .solid($0) }
        case .object: break
        default:
            return c.fail("expected a colour such as \"#6A5ACD\" or a gradient { \"linear\": … }, found \(c.value.kindDescription)")
        }
        guard let obj = c.object(allowedKeys: ["linear", "radial", "angular"]) else { return nil }
        if obj.members.count != 1 { c.report("expected exactly one of \"linear\", \"radial\", \"angular\""); return nil }
        func stops(_ g: JSONObjectCursor) -> [GradientStop]? {
            guard let stopsC = g.required("stops")?.array(minCount: 1) else { return nil }
            var out: [GradientStop] = []
            for (i, s) in stopsC.enumerated() {
                if case .string = s.value {
                    if let col = color(s) {
                        out.append(GradientStop(offset: stopsC.count > 1 ? Double(i) / Double(stopsC.count - 1) : 0, color: col))
                    }
                } else if let so = s.object(allowedKeys: ["offset", "color"]) {
                    if let off = so.required("offset")?.double(min: 0, max: 1), let cc = so.required("color"), let col = color(cc) {
                        out.append(GradientStop(offset: off, color: col))
                    }
                }
            }
            return out
        }
        func spread(_ g: JSONObjectCursor) -> SpreadMode { g.optional("spread")?.stringEnum(SpreadMode.self) ?? .pad }
        if let lc = obj.optional("linear") {
            guard let lin = lc.object(allowedKeys: ["from", "to", "stops"]) else { return nil }
            let from = lin.optional("from").flatMap(paintPoint) ?? .leading
            let to = lin.optional("to").flatMap(paintPoint) ?? .trailing
            return stops(lin).map { .linear(stops: $0, from: from, to: to) }
        }
        if let rc = obj.optional("radial") {
            // SwiftUI's RadialGradient: a centre and start/end radii in pixels; a focal point
            // ("focus", another unit point) makes it the two-circle gradient of SVG and Canvas.
            guard let r = rc.object(allowedKeys: ["center", "focus", "startRadius", "endRadius", "stops", "spread"]) else { return nil }
            let center = r.optional("center").flatMap(paintPoint) ?? .center
            let focus = r.optional("focus").flatMap(paintPoint) ?? center
            let r0 = r.optional("startRadius")?.double(min: 0, max: 1e6) ?? 0
            let r1 = r.required("endRadius")?.double(min: 0, max: 1e6) ?? 100
            return stops(r).map { .radial(stops: $0, startCenter: focus, startRadius: r0, endCenter: center, endRadius: r1, spread: spread(r)) }
        }
        if let ac = obj.optional("angular") {
            // SwiftUI's AngularGradient: degrees clockwise from 3 o'clock.
            guard let a = ac.object(allowedKeys: ["center", "startAngle", "endAngle", "stops", "spread"]) else { return nil }
            let center = a.optional("center").flatMap(paintPoint) ?? .center
            let a0 = a.optional("startAngle")?.double(min: -36_000, max: 36_000) ?? 0
            let a1 = a.optional("endAngle")?.double(min: -36_000, max: 36_000) ?? 360
            return stops(a).map { .angular(stops: $0, center: center, startAngle: a0 * .pi / 180, endAngle: a1 * .pi / 180, spread: spread(a)) }
        }
        return nil
    }

    /// A number (constant) or an animation `{ "from", "to", "curve", "duration", "delay", "speed" }`.
}
