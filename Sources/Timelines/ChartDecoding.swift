import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

extension TimelineDecoder {
    static let chartKeys = ["data", "height", "inset", "x", "y", "grid", "axes", "legend", "title", "caption", "card", "plotArea", "extremes", "style", "clip", "time", "periodLabel", "transform", "marks"]

    static func chart(_ c: JSONCursor, frame: Rect, style: ChartStyle, tables: [String: DecodedTable]) -> ChartSpec? {
        guard let obj = c.object(allowedKeys: chartKeys) else { return nil }
        var table: DecodedTable? = nil
        var tableName = ""
        let dataCursor = obj.required("data")
        if let d = dataCursor, let name = d.string() {
            tableName = name
            table = tables[name]
            if table == nil { d.report(unknownDataMessage(name, tables: tables)) }
        }
        // The chart's own transforms run on the table's rows before anything reads them.
        if let t = obj.optional("transform"), var given = table {
            transform(t, table: &given, tableName: tableName)
            table = given
        }
        var st = style
        if let so = obj.optional("style")?.object(allowedKeys: ["textColor", "secondaryTextColor", "axisColor", "labelSize", "titleSize", "subtitleSize", "captionSize", "axisTitleSize"]) {
            if let c = so.optional("textColor").flatMap(color) { st.textColor = c }
            if let c = so.optional("secondaryTextColor").flatMap(color) { st.secondaryTextColor = c }
            if let c = so.optional("axisColor").flatMap(color) { st.axisColor = c }
            if let v = so.optional("labelSize")?.double(min: 1, max: 500) { st.labelSize = v }
            if let v = so.optional("titleSize")?.double(min: 1, max: 500) { st.titleSize = v }
            if let v = so.optional("subtitleSize")?.double(min: 1, max: 500) { st.subtitleSize = v }
            if let v = so.optional("captionSize")?.double(min: 1, max: 500) { st.captionSize = v }
            if let v = so.optional("axisTitleSize")?.double(min: 1, max: 500) { st.axisTitleSize = v }
        }
        var spec = ChartSpec(frame: frame, style: st, data: table?.rows ?? [])
        // Fields the chart's time adds to every row: a race's rank.
        let added = rankOutput(obj.optional("time")).map { Set([$0]) } ?? []
        let xc = obj.optional("x"), yc = obj.optional("y")
        if let xc { spec.x = channel(xc, default: "x") ?? spec.x }
        if let yc { spec.y = channel(yc, default: "y") ?? spec.y }
        // A field of dates (a CSV column typed "date", a timeUnit's output) holds seconds:
        // it goes on a time axis unless the channel names another scale.
        if let dates = table?.dates {
            if spec.x.scale == nil && dates.keys.contains(spec.x.field) { spec.x.scale = .time }
            if spec.y.scale == nil && dates.keys.contains(spec.y.field) { spec.y.scale = .time }
        }
        // In a chart whose data moves, a row without a value to plot (x, y, or the field a
        // race ranks by) stands for a key missing at that step: it is dropped here, and the
        // key is bridged from its step before to its step after like a row that is not there
        // (real tables have empty cells; gganimate drops such rows too).
        if obj.contains("time"), var given = table, given.isValid, !given.rows.isEmpty {
            var needed = [spec.x.field, spec.y.field].filter { !added.contains($0) }
            if let by = rankField(obj.optional("time")) { needed.append(by) }
            let columns = needed.compactMap { given.rows.column($0) }
            if !columns.isEmpty {
                let keep = given.rows.indices.filter { i in columns.allSatisfy { $0[i] != nil } || given.origins[i].reported }
                if keep.count < given.rows.count {
                    given.rows = given.rows.gathering(keep)
                    given.origins = given.origins.gathering(keep)
                    table = given
                    spec.data = given.rows
                }
            }
        }
        // Every row must have the fields the chart plots. A field no row has is reported
        // where it is named (or at "data" for the default x and y); a row that lacks a
        // field the others have is reported at the row.
        if let table, table.isValid, !table.rows.isEmpty, let d = dataCursor {
            for (field, axis, channelCursor) in [(spec.x.field, "x", xc), (spec.y.field, "y", yc)] where !added.contains(field) {
                let named = channelCursor.flatMap { ch -> JSONCursor? in
                    guard case .object = ch.value, let o = ch.object() else { return nil }
                    return o.optional("field")
                }
                if !table.hasField(field) {
                    var message = unknownFieldMessage(field, tableName: tableName, table: table)
                    if named == nil { message += " (\(axis) reads \(quotedForMessage(field)) unless \"\(axis)\": { \"field\": … } names another)" }
                    (named ?? d).report(message)
                } else if let i = table.rows.indices.first(where: { table.rows[$0][field] == nil && !table.origins[$0].reported }) {
                    let origin = table.origins[i]
                    var message = "this row has no value for \(quotedForMessage(field)), which \(c.path) plots on \(axis)"
                    if let s = nearestCandidate(to: field, in: Array(table.rows[i].dictionary.keys)) { message += "; it has \(quotedForMessage(s))" }
                    else { message += "; to leave out rows with empty cells, give the chart \"transform\": [{ \"filter\": { \"field\": \(quotedForMessage(field)), \"valid\": true } }]" }
                    c.sink.report(DocumentError(file: origin.file, path: origin.path, location: origin.location, message: message))
                }
            }
            // Scales divide by the width of the domain, which must be a finite number.
            for (field, axis, given, fromZero) in [(spec.x.field, "x", spec.x.domain != nil || spec.x.animatedDomain != nil, true),
                                                   (spec.y.field, "y", spec.y.domain != nil || spec.y.animatedDomain != nil, true)] where !given {
                let values = table.rows.compactMap { $0[field]?.number }
                guard var lo = values.min(), var hi = values.max() else { continue }
                if fromZero { lo = min(lo, 0); hi = max(hi, 0) }
                if !(hi - lo).isFinite {
                    d.report("the values of \(quotedForMessage(field)) run from \(lo) to \(hi): the \(axis) axis would span more than "
                             + "the largest number (about 1.8e308); expected values whose range is finite, or give \"\(axis)\": { \"domain\": … }")
                }
            }
        }
        if let i = obj.optional("inset")?.double(min: 0, max: min(frame.width, frame.height) / 2) { spec.inset = i }
        if let g = obj.optional("grid") { spec.grid = grid(g) }
        if let a = obj.optional("axes")?.array() { spec.axes = a.compactMap(axis) }
        // An axis without a title shows its field's display name, when the table gives one.
        if let names = table?.displayNames, !names.isEmpty {
            for i in spec.axes.indices where spec.axes[i].title == nil {
                let f = spec.axes[i].side == .bottom || spec.axes[i].side == .top ? spec.x.field : spec.y.field
                spec.axes[i].title = names[f]
            }
        }
        if let l = obj.optional("legend") { spec.legend = legend(l) }
        if let t = obj.optional("title") { spec.title = title(t) }
        if let c = obj.optional("caption") { spec.caption = caption(c) }
        // Unless the chart says, marks are clipped when a domain moves or leaves data outside.
        spec.clipsMarks = obj.optional("clip")?.bool()
        if let cc = obj.optional("card") {
            if case .bool(let b) = cc.value { if b { spec.card = CardSpec() } }
            else if let co = cc.object(allowedKeys: ["color", "cornerRadius", "padding"]) {
                var card = CardSpec()
                if let col = co.optional("color").flatMap(color) { card.color = col }
                if let r = co.optional("cornerRadius")?.double(min: 0, max: 10_000) { card.cornerRadius = r }
                if let p = co.optional("padding")?.double(min: 0, max: 10_000) { card.padding = p }
                spec.card = card
            }
        }
        if let po = obj.optional("plotArea")?.object(allowedKeys: ["background", "border", "borderWidth"]) {
            var area = PlotAreaSpec()
            area.background = po.optional("background").flatMap(color)
            area.border = po.optional("border").flatMap(color)
            if let w = po.optional("borderWidth")?.double(min: 0, max: 1000) { area.borderWidth = w }
            spec.plotArea = area
        }
        if let e = obj.optional("extremes")?.object(allowedKeys: ["format", "animate"]) {
            var ex = ExtremesSpec()
            if let f = e.optional("format"), case .number(let nf)? = labelFormat(f) { ex.format = nf ?? ex.format }
            ex.opacity = guideOpacity(e.optional("animate")) ?? ex.opacity
            spec.extremes = ex
        }
        let moving = obj.contains("time")
        for ch in [xc, yc] {
            guard !moving, let ch, case .object = ch.value, let co = ch.object(), let f = co.optional("follow") else { continue }
            f.report("\"follow\" moves a domain with data that changes over time; this chart has no \"time\"")
        }
        let reveals: Bool = {
            guard case .object(let members)? = obj.optional("time")?.value,
                  case .bool(let b)? = members.first(where: { $0.key == "reveal" })?.value.value else { return false }
            return b
        }()
        if let tc = obj.optional("time") {
            spec.timeline = dataTimeline(tc, table: table, data: ChartData(name: tableName, table: table))
            // Texts may name the moment: check their placeholders.
            if let t = obj.optional("title") {
                if case .object = t.value, let to = t.object() { checkMomentTemplate(to.optional("text")); checkMomentTemplate(to.optional("subtitle")) }
                else { checkMomentTemplate(t) }
            }
            if let c = obj.optional("caption") {
                if case .object = c.value, let co = c.object() { checkMomentTemplate(co.optional("text")) } else { checkMomentTemplate(c) }
            }
        }
        if let p = obj.optional("periodLabel") {
            if !moving { p.report("a period label names the moment of moving data; give the chart a \"time\"") }
            spec.periodLabel = periodLabel(p)
        }
        if let ms = obj.optional("marks")?.array() {
            var data = ChartData(name: tableName, table: table)
            data.moving = moving
            data.reveals = reveals
            data.added = added
            for m in ms { if let mk = mark(m, tables: tables, data: data) { spec.marks.append(mk) } }
        }
        return spec
    }

    /// The field a `"time"` with `"rank"` ranks by (`"by"`), read without reporting.
    static func rankField(_ time: JSONCursor?) -> String? {
        guard case .object(let members)? = time?.value,
              case .object(let rank)? = members.first(where: { $0.key == "rank" })?.value.value,
              case .string(let name)? = rank.first(where: { $0.key == "by" })?.value.value else { return nil }
        return name
    }

    /// The field a `"time"` with `"rank"` writes ranks to (`"as"`, else "rank"), read
    /// without reporting: `dataTimeline` reports what is wrong with it.
    static func rankOutput(_ time: JSONCursor?) -> String? {
        guard case .object(let members)? = time?.value,
              case .object(let rank)? = members.first(where: { $0.key == "rank" })?.value.value else { return nil }
        if case .string(let name)? = rank.first(where: { $0.key == "as" })?.value.value { return name }
        return "rank"
    }

    /// `unknown data "wek"; did you mean "week"?`, or the tables there are.
    static func unknownDataMessage(_ name: String, tables: [String: DecodedTable]) -> String {
        var msg = "unknown data \(quotedForMessage(name))"
        if let s = nearestCandidate(to: name, in: tables.keys.sorted()) { msg += "; did you mean \(quotedForMessage(s))?" }
        else if !tables.isEmpty { msg += "; the document defines " + tables.keys.sorted().map(quotedForMessage).joined(separator: ", ") }
        else { msg += "; the document has no \"data\"" }
        return msg
    }

    /// The value as written in the document: a number's literal, a string quoted.
    static func literal(_ c: JSONCursor) -> String {
        switch c.value {
        case .number(_, let literal): return literal
        case .string(let s): return quotedForMessage(s)
        default: return c.value.kindDescription
        }
    }

    /// A domain `[low, high]` of numbers or ISO 8601 dates.
    static func domain(_ d: JSONCursor, scale: ScaleType?) -> (Double, Double)? {
        guard let arr = d.array(minCount: 2, maxCount: 2) else { return nil }
        func value(_ v: JSONCursor) -> Double? {
            if case .string(let s) = v.value {
                if let t = CivilDate.parseISO(s) { return t }
                return v.fail("expected a number or an ISO 8601 date such as \"2024-03-05\", found \"\(s)\"")
            }
            return v.double()
        }
        guard let lo = value(arr[0]), let hi = value(arr[1]) else { return nil }
        let written = "[" + arr.map { literal($0) }.joined(separator: ", ") + "]"
        if lo == hi {
            d.report("expected two different values [low, high], found \(written)")
        } else if !(hi - lo).isFinite {
            d.report("expected a domain whose width is a finite number, found \(written)")
        } else if scale == .log && (lo <= 0 || hi <= 0) {
            d.report("expected a domain above 0 for a log scale, found \(written)")
        } else {
            return (lo, hi)
        }
        return nil
    }

    /// A zoom: `{ "from": [low, high], "to": [low, high], timing… }`, `"from"` being the
    /// channel's `"domain"` when left out.
    static func animatedDomain(_ c: JSONCursor, given: (Double, Double)?, scale: ScaleType?) -> AnimatedDomain? {
        guard let obj = c.object(allowedKeys: ["from", "to", "curve", "duration", "delay", "speed", "repeat", "autoreverses",
                                               "holdBefore", "holdAfter", "keyframes"]) else { return nil }
        if let kc = obj.optional("keyframes") {
            // Keyframes: `[ { "time", "value": [low, high], "curve", "hold" } ]`, each end
            // moving through its own keyframes with the same times and curves.
            for k in ["from", "to", "duration", "curve", "delay", "speed", "repeat", "autoreverses", "holdBefore", "holdAfter"] where obj.contains(k) {
                c.report("\"\(k)\" does not go with \"keyframes\"; each keyframe has its own time, domain and curve")
            }
            guard let arr = kc.array(minCount: 1) else { return nil }
            var lows: [Keyframe] = [], highs: [Keyframe] = []
            var last = -Double.infinity
            for k in arr {
                guard let ko = k.object(allowedKeys: ["time", "value", "curve", "hold"]),
                      let t = ko.required("time")?.double(min: 0, max: 3600), let d = ko.required("value").flatMap({ domain($0, scale: scale) }) else { continue }
                if t <= last { ko.optional("time")?.report("expected keyframe times in increasing order; this one is not after the one before") }
                last = t
                var e = Easing.linear
                if let cc = ko.optional("curve"), let parsed = curve(cc) { e = parsed }
                let hold = ko.optional("hold")?.bool() ?? false
                lows.append(Keyframe(time: t, value: d.0, easing: e, hold: hold))
                highs.append(Keyframe(time: t, value: d.1, easing: e, hold: hold))
            }
            guard let lo = Keyframes(lows), let hi = Keyframes(highs) else { return nil }
            checkLength(end: lo.endTime, at: c)
            return AnimatedDomain(lower: .keyframes(lo), upper: .keyframes(hi))
        }
        let from: (Double, Double)?
        if let f = obj.optional("from") { from = domain(f, scale: scale) }
        else if let given { from = given }
        else { c.report("expected \"from\": [low, high], or a \"domain\" beside \"animate\" to start from"); from = nil }
        let to = obj.required("to").flatMap { domain($0, scale: scale) }
        var anim = Animation()
        timing(obj, into: &anim)
        guard let from, let to else { return nil }
        checkLength(end: anim.displayEnd, at: c, curve: obj.optional("curve"))
        return AnimatedDomain(lower: .tween(Tween(from: from.0, to: to.0, animation: anim)),
                              upper: .tween(Tween(from: from.1, to: to.1, animation: anim)))
    }

    static func channel(_ c: JSONCursor, default field: String) -> Channel? {
        guard let o = c.object(allowedKeys: ["field", "scale", "domain", "nice", "includesZero", "categories", "padding", "animate", "follow"]) else { return nil }
        var ch = Channel(field: field)
        if let f = o.optional("field")?.string() { ch.field = f }
        if let s = o.optional("scale")?.stringEnum(ScaleType.self) { ch.scale = s }
        if let d = o.optional("domain") { ch.domain = domain(d, scale: ch.scale) }
        if let a = o.optional("animate")?.object(allowedKeys: ["domain"]), let dc = a.optional("domain") {
            ch.animatedDomain = animatedDomain(dc, given: ch.domain, scale: ch.scale)
        }
        if let n = o.optional("nice")?.bool() { ch.nice = n }
        if let z = o.optional("includesZero")?.bool() { ch.includesZero = z }
        if let cats = o.optional("categories")?.array() { ch.categories = cats.compactMap { $0.string() } }
        if let p = o.optional("padding")?.double(min: 0, max: 1) { ch.paddingInner = p; ch.paddingOuter = p }
        if let f = o.optional("follow") {
            if case .object = f.value, let fo = f.object(allowedKeys: ["ends", "padding", "minSpan"]) {
                if let m = fo.optional("minSpan")?.double(min: 0, max: 1e15) { ch.follow.minSpan = m }
                if let e = fo.optional("ends")?.stringEnum(DomainFollow.Ends.self) { ch.follow.ends = e }
                if let p = fo.optional("padding")?.double(min: 0, max: 10) { ch.follow.padding = p }
            } else if let e = f.stringEnum(DomainFollow.Ends.self) { ch.follow.ends = e }
        }
        return ch
    }

    static func grid(_ c: JSONCursor) -> GridSpec? {
        if case .bool(let b) = c.value {
            guard b else { return nil }
            var g = GridSpec(); g.xAtTicks = true; g.yAtTicks = true
            return g
        }
        guard let o = c.object(allowedKeys: ["x", "y", "color", "width", "zeroColor", "animate"]) else { return nil }
        var g = GridSpec()
        for (key, isX) in [("x", true), ("y", false)] {
            guard let a = o.optional(key) else { continue }
            if case .bool(let b) = a.value { if isX { g.xAtTicks = b } else { g.yAtTicks = b }; continue }
            guard let ao = a.object(allowedKeys: ["step"]), let sc = ao.required("step"), let s = sc.double() else { continue }
            guard s > 0 else { sc.report("expected a step greater than 0, found \(literal(sc))"); continue }
            if isX { g.xStep = s } else { g.yStep = s }
        }
        if let col = o.optional("color").flatMap(color) { g.color = col }
        if let w = o.optional("width")?.double(min: 0, max: 1000) { g.width = w }
        if let z = o.optional("zeroColor").flatMap(color) { g.zeroColor = z }
        g.opacity = guideOpacity(o.optional("animate")) ?? g.opacity
        return g
    }

    static func axis(_ c: JSONCursor) -> AxisSpec? {
        guard let o = c.object(allowedKeys: ["side", "title", "ticks", "tickLength", "line", "labels", "format", "labelAngle", "animate"]) else { return nil }
        guard let side = o.required("side")?.stringEnum(Side.self) else { return nil }
        var a = AxisSpec(side: side, title: o.optional("title")?.string())
        if let t = o.optional("ticks") {
            if case .array = t.value { a.values = t.array()?.compactMap { v -> Double? in
                if case .string(let s) = v.value { return CivilDate.parseISO(s) ?? v.fail("expected a number or an ISO 8601 date, found \"\(s)\"") }
                return v.double()
            } }
            else if case .object = t.value { a.stride = tickStride(t) }
            else if let n = t.int(min: 0, max: 1000) { a.tickCount = n }
        }
        if let l = o.optional("labels")?.bool() { a.showLabels = l }
        if let l = o.optional("tickLength")?.double(min: 0, max: 100) { a.tickLength = l }
        if let l = o.optional("line")?.bool() { a.showLine = l }
        if let f = o.optional("format") { a.format = labelFormat(f) }
        if let angle = o.optional("labelAngle")?.double(min: -90, max: 90) { a.labelAngle = angle }
        a.opacity = guideOpacity(o.optional("animate")) ?? a.opacity
        return a
    }

    /// `{ "every": 50 }` or `{ "every": "month", "count": 3 }`: a tick at every multiple of a
    /// step, or on every calendar boundary.
    static func tickStride(_ c: JSONCursor) -> TickStride? {
        guard let o = c.object(allowedKeys: ["every", "count"]), let e = o.required("every") else { return nil }
        if case .string = e.value {
            guard let unit = e.stringEnum(TimeTicks.Unit.self) else { return nil }
            let count = o.optional("count")?.int(min: 1, max: 1000) ?? 1
            return .calendar(TimeTicks.Interval(unit: unit, step: count))
        }
        guard let step = e.double() else { return nil }
        guard step > 0 else { e.report("expected a step greater than 0, found \(literal(e))"); return nil }
        return .step(step)
    }

    static func legend(_ c: JSONCursor) -> LegendSpec? {
        if case .bool(let b) = c.value { return b ? LegendSpec() : nil }
        guard let o = c.object(allowedKeys: ["side", "swatch", "entries", "animate"]) else { return nil }
        var l = LegendSpec()
        if let s = o.optional("side")?.stringEnum(Side.self) { l.side = s }
        if let s = o.optional("swatch")?.stringEnum(["circle", "square", "line"]) { l.swatch = LegendSpec.Swatch(rawValue: s)! }
        if let es = o.optional("entries")?.array() {
            l.entries = es.compactMap { e in
                guard let eo = e.object(allowedKeys: ["name", "color"]), let n = eo.required("name")?.string(),
                      let col = eo.required("color").flatMap(color) else { return nil }
                return (n, col)
            }
        }
        l.opacity = guideOpacity(o.optional("animate")) ?? l.opacity
        return l
    }

    static func title(_ c: JSONCursor) -> TitleSpec? {
        if case .string(let s) = c.value { return c.checkedLength(s).map { TitleSpec($0) } }
        guard let o = c.object(allowedKeys: ["text", "subtitle", "animate", "wrap"] + shapingKeys),
              let text = o.required("text")?.string() else { return nil }
        var t = TitleSpec(text, subtitle: o.optional("subtitle")?.string())
        if let w = o.optional("wrap") { t.textStyle = textBlockStyle(w) }
        shaping(o, into: &t.shaping)
        t.opacity = guideOpacity(o.optional("animate")) ?? t.opacity
        return t
    }

    /// `"caption": "Source: …"` or `{ "text", "animate", "wrap", "features", "language", "direction" }`:
    /// the subtitle's options, for a note under the chart.
    static func caption(_ c: JSONCursor) -> CaptionSpec? {
        if case .string(let s) = c.value { return c.checkedLength(s).map { CaptionSpec($0) } }
        guard let o = c.object(allowedKeys: ["text", "animate", "wrap"] + shapingKeys),
              let text = o.required("text")?.string() else { return nil }
        var caption = CaptionSpec(text)
        if let w = o.optional("wrap") { caption.textStyle = textBlockStyle(w) }
        shaping(o, into: &caption.shaping)
        caption.opacity = guideOpacity(o.optional("animate")) ?? caption.opacity
        return caption
    }

    /// `"animate": { "opacity": animation }` on a guide.
    static func guideOpacity(_ c: JSONCursor?) -> AnimatedValue? {
        guard let c, let o = c.object(allowedKeys: ["opacity"]), let op = o.optional("opacity") else { return nil }
        return animated(op, min: 0, max: 1)
    }

    /// A label format: `{ "fractionDigits", "minFractionDigits", "maxFractionDigits", "grouping",
    /// "prefix", "unit", "notation" }` for numbers, or `{ "date": "MMM d" }`.
    static func labelFormat(_ c: JSONCursor) -> LabelFormat? {
        guard let o = c.object(allowedKeys: ["fractionDigits", "minFractionDigits", "maxFractionDigits", "grouping",
                                             "prefix", "unit", "notation", "scale", "rounding", "date"]) else { return nil }
        if let d = o.optional("date") {
            if o.keys.count > 1 { c.report("a date format takes only \"date\"") }
            return d.string().map { .date(DateFormat($0)) }
        }
        var f = NumberFormat()
        if let n = o.optional("fractionDigits")?.int(min: 0, max: 17) { f.minFractionDigits = n; f.maxFractionDigits = n }
        if let n = o.optional("minFractionDigits")?.int(min: 0, max: 17) { f.minFractionDigits = n; f.maxFractionDigits = max(f.maxFractionDigits, n) }
        if let n = o.optional("maxFractionDigits")?.int(min: 0, max: 17) { f.maxFractionDigits = n; f.minFractionDigits = min(f.minFractionDigits, n) }
        if let g = o.optional("grouping")?.bool() { f.grouping = g }
        if let p = o.optional("prefix")?.string() { f.prefix = p }
        if let u = o.optional("unit")?.string() { f.suffix = u }
        if let n = o.optional("notation")?.stringEnum(["standard", "percent", "compact"]) { f.notation = NumberFormat.Notation(rawValue: n)! }
        if let s = o.optional("scale") {
            if let v = s.double(), v != 0 { f.scale = v } else if s.double() != nil { s.report("expected a scale other than 0, found 0") }
        }
        if let r = o.optional("rounding")?.stringEnum(NumberFormat.Rounding.self) { f.rounding = r }
        return .number(f)
    }
}
