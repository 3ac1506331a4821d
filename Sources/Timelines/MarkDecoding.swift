import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

/// A mark kind that documents can write: how its own keys decode, after the options
/// every mark shares (`TimelineDecoder.markOptions`). One file per kind under `Marks/`.
protocol DecodableMark: ChartMark {
    /// The mark from its object in the document, with its shared options decoded.
    static func decode(_ obj: JSONObjectCursor, options: MarkOptions, data: ChartData) -> Self
}

extension TimelineDecoder {
    static let markKeys = ["id", "name", "type", "series", "y2", "x2", "stack", "color", "interpolation", "startAtOrigin",
                           "stroke", "fill", "points", "cornerRadius", "capsule", "barWidth", "size", "innerRadius",
                           "angularGap", "outerRadius", "angularInset", "orientation", "slot", "group", "symbol", "width", "height", "label",
                           "blendMode", "text", "shape", "filter", "transition", "atPeak", "opacity", "animate", "heads", "largestFirst", "trail", "trace"]

    /// Every mark kind's decoder, by the name documents give it in `"type"`.
    static let markTypes: [MarkKind: any DecodableMark.Type] = [
        .line: LineMarkSpec.self, .area: AreaMarkSpec.self, .bar: BarMarkSpec.self, .point: PointMarkSpec.self,
        .rule: RuleMarkSpec.self, .text: TextMarkSpec.self, .sector: SectorMarkSpec.self, .shape: ShapeMarkSpec.self, .rect: RectMarkSpec.self,
    ]

    /// A mark: the options every kind shares, then the kind's own (its `DecodableMark`).
    static func mark(_ c: JSONCursor, tables: [String: DecodedTable] = [:], data: ChartData = .none) -> (any ChartMark)? {
        guard let obj = c.object(allowedKeys: markKeys) else { return nil }
        guard let kind = obj.required("type")?.stringEnum(MarkKind.self), let type = markTypes[kind] else { return nil }
        let options = markOptions(obj, tables: tables, data: data)
        checkOtherKindsKeys(obj, kind: kind, data: data)
        return type.decode(obj, options: options, data: data)
    }

    /// Keys that only some kinds read, with those kinds.
    static let kindKeys: [(key: String, kinds: Set<MarkKind>)] = [
        ("interpolation", [.line, .area]), ("startAtOrigin", [.line, .area]), ("points", [.line]),
        ("stroke", [.line, .area, .bar, .point, .rule, .sector, .shape, .rect]), ("fill", [.area, .bar, .point, .sector, .shape, .rect]),
        ("cornerRadius", [.bar, .rect]), ("width", [.rect]), ("height", [.rect]), ("group", [.bar, .text]), ("symbol", [.point]),
        ("outerRadius", [.sector]), ("angularInset", [.sector]), ("label", [.rule]), ("capsule", [.bar]), ("barWidth", [.bar]), ("size", [.point]), ("largestFirst", [.point]),
        ("innerRadius", [.sector]), ("angularGap", [.sector]), ("orientation", [.rule, .bar]), ("slot", [.bar]), ("atPeak", [.rule, .text]),
        ("text", [.text]), ("shape", [.shape]),
    ]

    /// A key of another kind on this mark has no effect, but its value is still checked, so
    /// a mistake in it is reported as it would be on a mark that reads it.
    static func checkOtherKindsKeys(_ obj: JSONObjectCursor, kind: MarkKind, data: ChartData) {
        for (key, kinds) in kindKeys where !kinds.contains(kind) {
            guard let c = obj.optional(key) else { continue }
            switch key {
            case "interpolation": _ = interpolation(c)
            case "startAtOrigin", "capsule", "atPeak", "largestFirst": _ = c.bool()
            case "points": _ = pointStyle(c)
            case "stroke": _ = stroke(c)
            case "fill": _ = paint(c)
            case "cornerRadius": _ = c.double(min: 0, max: 10_000)
            case "size": if case .object = c.value { _ = sizeEncoding(c, data: data) } else { _ = c.double(min: 0, max: 10_000) }
            case "width", "height": _ = c.double(min: 0, max: 100_000)
            case "group": _ = data.field(c)
            case "label": _ = RuleMarkSpec.ruleLabel(c, data: data)
            case "symbol": _ = c.stringEnum(PointSymbol.self)
            case "outerRadius": _ = c.double(min: 0, max: 1)
            case "angularInset": _ = c.double(min: 0, max: 1000)
            case "barWidth": _ = c.double(min: 0, max: 1)
            case "slot": _ = c.double(min: 1e-9, max: 1e12)
            case "innerRadius": _ = c.double(min: 0, max: 0.99)
            case "angularGap": _ = c.double(min: 0, max: 90)
            case "orientation": _ = c.stringEnum(["vertical", "horizontal"])
            case "text": var t = TextMarkSpec(); textOptions(c, into: &t, data: data)
            case "shape": var sh = ShapeMarkSpec(); shapeOptions(c, into: &sh)
            default: break
            }
        }
    }

    /// Dots on a line: `true`, or `{ "size", "fill", "stroke": { "color", "width" } }`.
    static func pointStyle(_ p: JSONCursor) -> PointStyle? {
        if case .bool(let b) = p.value { return b ? PointStyle() : nil }
        guard let po = p.object(allowedKeys: ["size", "fill", "stroke"]) else { return nil }
        var ps = PointStyle()
        if let sz = po.optional("size")?.double(min: 0, max: 1000) { ps.size = sz }
        if let f = po.optional("fill").flatMap(color) { ps.fill = f }
        if let so = po.optional("stroke")?.object(allowedKeys: ["color", "width"]), let col = so.required("color").flatMap(color) {
            ps.stroke = (col, so.optional("width")?.double(min: 0, max: 100) ?? 1)
        }
        return ps
    }

    /// What every mark has: id, name, encodings, blend mode, filter, transition, opacity
    /// and the animations.
    static func markOptions(_ obj: JSONObjectCursor, tables: [String: DecodedTable], data: ChartData) -> MarkOptions {
        var m = MarkOptions(id: obj.optional("id")?.string())
        m.name = obj.optional("name")?.string()
        m.series = data.field(obj.optional("series"))
        if let c = obj.optional("trail") {
            if !data.moving { c.report("a trail shows where moving data was; give the chart a \"time\"") }
            if case .bool(let b) = c.value { m.trail = b ? TrailSpec() : nil }
            else if let o = c.object(allowedKeys: ["length", "copies", "opacity", "size"]) {
                var t = TrailSpec()
                if let v = o.optional("length")?.positive("a trail's length", unit: "seconds", limit: 3600, limitName: "an hour") { t.length = v }
                if let v = o.optional("copies")?.int(min: 1, max: 100) { t.copies = v }
                if let v = o.optional("opacity")?.double(min: 0, max: 1) { t.opacity = v }
                if let v = o.optional("size")?.double(min: 0, max: 1) { t.size = v }
                m.trail = t
            }
        }
        if let c = obj.optional("trace") {
            if !data.moving { c.report("a trace leaves the past steps of moving data behind; give the chart a \"time\"") }
            if case .bool(let b) = c.value { m.trace = b ? TraceSpec() : nil }
            else if let o = c.object(allowedKeys: ["opacity", "size"]) {
                var t = TraceSpec()
                if let v = o.optional("opacity")?.double(min: 0, max: 1) { t.opacity = v }
                if let v = o.optional("size")?.double(min: 0, max: 1) { t.size = v }
                m.trace = t
            }
        }
        if let h = obj.optional("heads"), let b = h.bool() {
            if b && !data.reveals { h.report("\"heads\" draws the head of each key of a revealed timeline; give the chart's \"time\" \"reveal\": true") }
            m.headsOnly = b
        }
        m.y2 = data.field(obj.optional("y2"))
        m.x2 = data.field(obj.optional("x2"))
        if let st = obj.optional("stack")?.stringEnum(StackMode.self) { m.stack = st }
        if let cc = obj.optional("color") { m.color = colorEncoding(cc, data: data) }
        if let b = obj.optional("blendMode")?.stringEnum(blendModeNames) { m.blendMode = b }
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
        if let o = obj.optional("opacity")?.double(min: 0, max: 1) { m.opacity = .constant(o) }
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

    /// The mark's `"stroke"` when it has one; `otherwise` when it does not say. A stroke
    /// object's keys left out keep `otherwise`'s values (a line's `{ "width": 3 }` keeps
    /// its round caps and joins and its colour), and the plain defaults when there is none.
    static func markStroke(_ obj: JSONObjectCursor, otherwise: (paint: NodePaint, style: StrokeStyle)? = nil) -> (paint: NodePaint, style: StrokeStyle)? {
        guard let s = obj.optional("stroke") else { return otherwise }
        return stroke(s, defaults: otherwise ?? plainStroke)
    }

    /// The mark's `"fill"` paint.
    static func markFill(_ obj: JSONObjectCursor) -> NodePaint? { obj.optional("fill").flatMap(paint) }

    /// `"interpolation"`, linear when absent or wrong.
    static func markInterpolation(_ obj: JSONObjectCursor) -> Interpolation {
        obj.optional("interpolation").flatMap(interpolation) ?? .linear
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
        guard let obj = c.object(allowedKeys: ["bezier", "cardinal"]) else { return nil }
        if obj.optional("cardinal") != nil {
            if let t = obj.required("cardinal")?.double(min: 0, max: 1) { return .cardinal(t) }
            return nil
        }
        if let r = obj.required("bezier")?.double(min: 0, max: 1) { return .bezier(r) }
        return nil
    }

    /// The plain defaults of a `"stroke"` object: 1 px of black, butt caps, miter joins.
    static let plainStroke: (paint: NodePaint, style: StrokeStyle) = (.solid(.black), StrokeStyle(width: 1, cap: .butt, join: .miter))

    /// A `"stroke"` object; the keys it leaves out take `defaults`' values.
    static func stroke(_ c: JSONCursor, defaults: (paint: NodePaint, style: StrokeStyle) = plainStroke) -> (paint: NodePaint, style: StrokeStyle)? {
        guard let obj = c.object(allowedKeys: ["width", "cap", "join", "miterLimit", "dash", "dashPhase", "paint"]) else { return nil }
        var style = defaults.style
        if let w = obj.optional("width")?.double(min: 0, max: 10_000) { style.width = w }
        if let cap = obj.optional("cap")?.stringEnum(LineCap.self) { style.cap = cap }
        if let join = obj.optional("join")?.stringEnum(LineJoin.self) { style.join = join }
        if let ml = obj.optional("miterLimit")?.double(min: 1, max: 1000) { style.miterLimit = ml }
        if let d = obj.optional("dash")?.array() { style.dash = d.compactMap { $0.double(min: 0, max: 1e6) } }
        if let p = obj.optional("dashPhase")?.double(min: -1e6, max: 1e6) { style.dashPhase = p }
        var p = defaults.paint
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
