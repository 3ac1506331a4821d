import Foundation
import Motion
import Scene
import Charts

/// Chaining: animations start relative to each other by id (GSAP's position parameter).
///
/// Before the marks are decoded, one pass over the document collects every animation
/// with its id (`"id"`, else `<mark id>.<property>`), its length and its position
/// (`"delay"`, or `"after"` / `"with"` an id plus `"offset"`); a mark's id names the
/// group of its animations, and the root `"sequence"` places mark groups one after
/// another. `Motion.Timeline` resolves the positions (and finds cycles and unknown
/// ids); decoding an animation then takes its resolved start as its delay.
enum Chaining {
    /// Resolved starts, keyed by the JSON path of each animation object.
    @TaskLocal static var starts: [String: Double] = [:]

    struct Found {
        var id: String
        var group: String?
        var cursor: JSONCursor
        var duration: Double
        var position: Timeline.Position
        var reference: JSONCursor?
    }

    /// The animatable properties under a mark's `"animate"`, as (property name, cursor).
    static func properties(_ animate: JSONObjectCursor) -> [(String, JSONCursor)] {
        var out: [(String, JSONCursor)] = []
        for (k, v) in animate.entries {
            switch k {
            case "trim", "translate":
                if case .object = v.value, let o = v.object() { for (kk, vv) in o.entries { out.append(("\(k).\(kk)", vv)) } }
            case "stagger": break
            default: out.append((k, v))
            }
        }
        return out
    }

    /// Collects every animation object of the document and resolves their starts.
    /// How long a mark's stagger spreads its elements' starts: the stagger's `amount`, or
    /// its `step` times one less than the number of elements the mark draws (series of a
    /// line or area, else rows, after the mark's filter), so that `"after"` a staggered
    /// mark waits for its last element.
    static func staggerSpan(_ mark: JSONObjectCursor, _ animate: JSONObjectCursor, chart: JSONObjectCursor, tables: [String: DecodedTable]) -> Double {
        guard case .object(let members)? = animate.optional("stagger")?.value else { return 0 }
        func number(_ key: String) -> Double? {
            if case .number(let v, _)? = members.first(where: { $0.key == key })?.value.value, v.isFinite { return v }
            return nil
        }
        if let amount = number("amount") { return max(0, amount) }
        let step = number("step") ?? 0.1
        guard step > 0,
              case .string(let name)? = chart.optional("data")?.value, let table = tables[name] else { return 0 }
        var rows = table.rows
        if case .object(let f)? = mark.optional("filter")?.value,
           case .string(let field)? = f.first(where: { $0.key == "field" })?.value.value,
           let equals = f.first(where: { $0.key == "equals" })?.value.value {
            let want: DataValue?
            switch equals { case .number(let v, _): want = .number(v); case .string(let s): want = .string(s); default: want = nil }
            rows = rows.gathering(rows.indices.filter { rows[$0][field] == want })
        }
        let kind: String? = { if case .string(let s)? = mark.optional("type")?.value { return s }; return nil }()
        let series: String? = { if case .string(let s)? = mark.optional("series")?.value { return s }; return nil }()
        let atPeak: Bool = { if case .bool(let b)? = mark.optional("atPeak")?.value { return b }; return false }()
        var count = rows.count
        if kind == "line" || kind == "area" || atPeak {
            count = series.map { f in Set(rows.map { $0[f]?.keyText ?? "" }).count } ?? 1
        }
        return step * Double(max(0, count - 1))
    }

    static func resolve(root: JSONObjectCursor, tables: [String: DecodedTable] = [:]) -> [String: Double] {
        var found: [Found] = []
        var groups: [String: [Int]] = [:]
        var groupOrder: [String] = []
        // Mark ids name groups for "after", "with" and "sequence", so they must be unique.
        var markIDs: [String: SourceLocation] = [:]
        var duplicateMarkID = false
        guard let charts = root.optional("charts"), case .array(let chartNodes) = charts.value else { return [:] }
        // Walk with a sink nobody reads: the real decode reports shape and timing errors;
        // this pass reports only what is about positions, through `loud`.
        let quiet = DiagnosticSink()
        let sink = root.cursor.sink
        func loud(_ c: JSONCursor) -> JSONCursor { JSONCursor(node: c.node, path: c.path, file: c.file, sink: sink) }
        for (ci, chartNode) in chartNodes.enumerated() {
            let chart = JSONCursor(node: chartNode, path: charts.path.appending(index: ci), file: charts.file, sink: quiet)
            guard case .object = chart.value, let co = chart.object(), let marks = co.optional("marks"),
                  case .array(let markNodes) = marks.value else { continue }
            for (mi, markNode) in markNodes.enumerated() {
                let mark = JSONCursor(node: markNode, path: marks.path.appending(index: mi), file: marks.file, sink: quiet)
                guard case .object = mark.value, let mo = mark.object() else { continue }
                let markID: String? = { if case .string(let s)? = mo.optional("id")?.value { return s }; return nil }()
                if let markID, let idCursor = mo.optional("id") {
                    if let first = markIDs[markID] {
                        loud(idCursor).report("two marks have the id \(quotedForMessage(markID)) (the first at \(first)); "
                                              + "ids name marks for \"after\", \"with\" and \"sequence\", so each must be unique")
                        duplicateMarkID = true
                    } else {
                        markIDs[markID] = idCursor.location
                    }
                }
                guard let an = mo.optional("animate"), case .object = an.value, let ao = an.object() else { continue }
                let span = staggerSpan(mo, ao, chart: co, tables: tables)
                for (prop, c) in properties(ao) {
                    guard case .object = c.value, let o = c.object() else { continue }
                    var anim = Animation()
                    TimelineDecoder.timing(o, into: &anim)
                    var duration = anim.end.isFinite ? anim.end - anim.start : anim.displayEnd - anim.start
                    if case .array(let kfs)? = o.optional("keyframes")?.value {
                        // Times out of range are reported by the real decode; here they would
                        // only add a second error (an end that is not a finite number).
                        let limit = TimelineDecoder.context?.limits.maxDuration ?? DocumentLimits().maxDuration
                        let times = kfs.compactMap { n -> Double? in
                            if case .object(let members) = n.value, let t = members.first(where: { $0.key == "time" }),
                               case .number(let v, _) = t.value.value, (0...limit).contains(v) { return v }
                            return nil
                        }
                        duration = (times.max() ?? 0) - min(0, times.min() ?? 0)
                    }
                    let explicit: String? = { if case .string(let s)? = o.optional("id")?.value { return s }; return nil }()
                    let id = explicit ?? "\(markID ?? c.path.description).\(prop)"
                    var position = Timeline.Position.at(anim.delay)
                    var reference: JSONCursor? = nil
                    let offset: Double = { if case .number(let v, _)? = o.optional("offset")?.value { return v }; return 0 }()
                    if let a = o.optional("after"), case .string(let target) = a.value { position = .after(target, offset: offset); reference = loud(a) }
                    else if let w = o.optional("with"), case .string(let target) = w.value { position = .with(target, offset: offset); reference = loud(w) }
                    found.append(Found(id: id, group: markID, cursor: loud(c), duration: max(0, duration.isFinite ? duration : 0) + span,
                                       position: position, reference: reference))
                    if let g = markID {
                        if groups[g] == nil { groupOrder.append(g) }
                        groups[g, default: []].append(found.count - 1)
                    }
                }
            }
        }
        guard !duplicateMarkID else { return [:] }
        func item(_ f: Found) -> Timeline.Item { .animation(f.id, duration: f.duration, position: f.position) }
        // A mark is a parallel group, so "after": "line" waits for all of line's animations.
        // The group starts where its first chained animation says (that animation then sits
        // at the group's start); its other animations keep their delays from the group's start.
        func group(_ name: String, _ idx: [Int], inSequence: Bool) -> Timeline.Item {
            let chained = idx.first { found[$0].reference != nil }
            var children: [Timeline.Item] = []
            for k in idx {
                var f = found[k]
                // The group is placed by this animation's chain (or by the sequence).
                if k == chained { f.position = .at(0) }
                children.append(item(f))
            }
            let position: Timeline.Position = inSequence ? .automatic() : (chained.map { found[$0].position } ?? .at(0))
            return .parallel(name, children, position: position)
        }
        var sequenced = Set<String>()
        var sequencedAt: [String: SourceLocation] = [:]
        var top: [Timeline.Item] = []
        // "sequence": [ids or { "parallel": [...] } or { "sequence": [...] }], nesting freely.
        func groupItems(_ entries: [JSONCursor], inSequence: Bool) -> [Timeline.Item] {
            var items: [Timeline.Item] = []
            for e in entries {
                if case .object = e.value {
                    guard let o = loud(e).object(allowedKeys: ["parallel", "sequence"]) else { continue }
                    guard o.members.count == 1, let key = o.keys.first, let inner = o.optional(key)?.array() else {
                        if o.members.count != 1 { loud(e).report("expected exactly one of \"parallel\" or \"sequence\"") }
                        continue
                    }
                    let quietInner = inner.map { JSONCursor(node: $0.node, path: $0.path, file: $0.file, sink: quiet) }
                    let children = groupItems(quietInner, inSequence: key == "sequence")
                    items.append(key == "sequence" ? .sequence(nil, children) : .parallel(nil, children))
                    continue
                }
                guard case .string(let name) = e.value else {
                    loud(e).report("expected a mark id or { \"parallel\": [...] } / { \"sequence\": [...] }, found \(e.value.kindDescription)")
                    continue
                }
                if let first = sequencedAt[name] {
                    loud(e).report("the mark \(quotedForMessage(name)) is already in the sequence (at \(first)); "
                                   + "a mark's animations play once, so each id may appear once")
                    continue
                }
                guard let idx = groups[name] else {
                    var message = "no mark with animations has the id \(quotedForMessage(name))"
                    if let s = nearestCandidate(to: name, in: groupOrder) { message += "; did you mean \(quotedForMessage(s))?" }
                    else if groupOrder.isEmpty { message += "; no mark has both an \"id\" and \"animate\"" }
                    else { message += "; marks with animations: " + groupOrder.map(quotedForMessage).joined(separator: ", ") }
                    loud(e).report(message)
                    continue
                }
                sequenced.insert(name)
                sequencedAt[name] = e.location
                // The sequence places the group; an "after" or "with" inside it is overridden.
                if let chained = idx.first(where: { found[$0].reference != nil }), let ref = found[chained].reference {
                    TimelineDecoder.context?.warnings.append(DocumentError(
                        file: ref.file, path: ref.path, location: ref.location,
                        message: "the \"sequence\" (at \(e.location)) places the mark \(quotedForMessage(name)), so this "
                            + "\"\(ref.path.components.last.map { c -> String in if case .key(let k) = c { return k }; return "" } ?? "")\" is ignored; "
                            + "remove it, or the mark from the sequence"))
                }
                items.append(group(name, idx, inSequence: true))
            }
            return items
        }
        if let seq = root.optional("sequence"), case .array = seq.value {} else if let seq = root.optional("sequence") {
            loud(seq).report("expected an array of mark ids, found \(seq.value.kindDescription)")
        }
        if let seq = root.optional("sequence"), case .array(let nodes) = seq.value {
            let entries = nodes.enumerated().map { JSONCursor(node: $0.element, path: seq.path.appending(index: $0.offset), file: seq.file, sink: quiet) }
            top.append(.sequence("sequence", groupItems(entries, inSequence: true)))
        }
        for g in groupOrder where !sequenced.contains(g) { top.append(group(g, groups[g]!, inSequence: false)) }
        for f in found where f.group == nil { top.append(item(f)) }
        guard !found.isEmpty else { return [:] }
        do {
            let spans = try Timeline(top).resolve()
            var out: [String: Double] = [:]
            for f in found { if let s = spans[f.id] { out[f.cursor.path.description] = s.start } }
            return out
        } catch {
            switch error {
            case .unknownIDs(let ids):
                for f in found where f.reference != nil {
                    if case .after(let t, _) = f.position, ids.contains(t) { report(f, t, groupOrder + found.map(\.id)) }
                    if case .with(let t, _) = f.position, ids.contains(t) { report(f, t, groupOrder + found.map(\.id)) }
                }
            case .cycle(let ids):
                let at = found.first { ids.contains($0.id) || ids.contains($0.group ?? "") }
                (at?.reference ?? at?.cursor ?? loud(root.cursor)).report("animations wait for each other in a cycle: " +
                    (ids + [ids[0]]).map { "\"\($0)\"" }.joined(separator: " → "))
            case .duplicateID(let id):
                let first = found.first { $0.id == id }, last = found.last { $0.id == id }
                let at = first.map { " (the first at \($0.cursor.location))" } ?? ""
                (last?.cursor ?? loud(root.cursor)).report("two animations have the id \(quotedForMessage(id))\(at); "
                                                           + "ids name animations for \"after\" and \"with\", so each must be unique")
            case .invalidTime(let item):
                let at = found.first { $0.id == item }?.cursor ?? loud(root.cursor)
                at.report("animation \(quotedForMessage(item)) starts or ends at a time that is not a finite number")
            }
            return [:]
        }
    }

    static func report(_ f: Found, _ target: String, _ known: [String]) {
        var msg = "no animation or mark has the id \(quotedForMessage(target))"
        if let s = nearestCandidate(to: target, in: known) { msg += "; did you mean \(quotedForMessage(s))?" }
        else if !known.isEmpty { msg += "; ids in this document: " + known.prefix(12).map(quotedForMessage).joined(separator: ", ") + (known.count > 12 ? ", …" : "") }
        f.reference?.report(msg)
    }
}

extension TimelineDecoder {
    /// The timing keys of an animation object, into `anim`.
    static func timing(_ obj: JSONObjectCursor, into anim: inout Animation) {
        let limit = (context?.limits ?? DocumentLimits()).maxDuration
        if let cc = obj.optional("curve"), let e = curve(cc) { anim.curve = e }
        if let d = obj.optional("duration"),
           let v = d.positive("a duration", unit: "seconds", limit: limit, limitName: "the limit on a video's length") {
            anim.duration = v
        }
        if let d = obj.optional("delay"),
           let v = d.nonNegative("a delay", unit: "seconds", limit: limit, limitName: "the limit on a video's length") {
            anim.delay = v
        }
        if let s = obj.optional("speed"), let v = s.positive("a speed", unit: "", min: 0.001, limit: 1000, limitName: "the speed limit") {
            anim.speed = v
        }
        if let r = obj.optional("repeat") {
            if case .string = r.value { if r.stringEnum(["forever"]) != nil { anim = anim.repeatForever(autoreverses: false) } }
            else if let n = r.int(min: 1, max: 100_000) { anim = anim.repeatCount(n, autoreverses: false) }
        }
        if let a = obj.optional("autoreverses")?.bool() { anim.autoreverses = a }
        if let b = obj.optional("holdBefore")?.stringEnum(["from", "to"]) { anim.before = b == "from" ? .from : .to }
        if let a = obj.optional("holdAfter")?.stringEnum(["to", "from", "lastPass"]) {
            anim.after = a == "to" ? .to : a == "from" ? .from : .lastPass
        }
    }

    /// A timing without values: `{ "curve", "duration", "delay", "speed", "repeat", "autoreverses" }`.
    static func animation(_ c: JSONCursor) -> Animation? {
        guard let obj = c.object(allowedKeys: ["curve", "duration", "delay", "speed", "repeat", "autoreverses", "holdBefore", "holdAfter"]) else { return nil }
        var anim = Animation()
        timing(obj, into: &anim)
        return anim
    }

    /// A number (constant), an animation `{ "from", "to", timing… }`, or keyframes
    /// `{ "keyframes": [ { "time", "value", "curve", "hold" } ] }`.
    static func animated(_ c: JSONCursor, min lo: Double, max hi: Double) -> AnimatedValue? {
        if case .number = c.value { return c.double(min: lo, max: hi).map { .constant($0) } }
        guard let obj = c.object(allowedKeys: ["from", "to", "keyframes", "id", "after", "with", "offset", "repeat",
                                              "autoreverses", "holdBefore", "holdAfter", "curve", "duration", "delay", "speed"]) else { return nil }
        let start = Chaining.starts[c.path.description]
        if let kc = obj.optional("keyframes") {
            for k in ["from", "to", "duration", "curve"] where obj.contains(k) {
                c.report("\"\(k)\" does not go with \"keyframes\"; each keyframe has its own time, value and curve")
            }
            guard let arr = kc.array(minCount: 1) else { return nil }
            var frames: [Keyframe] = []
            var previous: (time: Double, index: Int)? = nil
            for (i, k) in arr.enumerated() {
                guard let ko = k.object(allowedKeys: ["time", "value", "curve", "hold"]),
                      let tc = ko.required("time"), let t = tc.double(min: 0, max: 3600),
                      let v = ko.required("value")?.double(min: lo, max: hi) else { continue }
                // Keyframes are given in time order: one out of order is a mistake, not
                // something to sort silently.
                if let p = previous, t < p.time {
                    tc.report("keyframe times go in order, but \(literal(tc)) comes after \(format(p.time)) "
                              + "(keyframes[\(p.index)]); two keyframes at one time make a jump")
                }
                previous = (t, i)
                var e = Easing.linear
                if let cc = ko.optional("curve"), let parsed = curve(cc) { e = parsed }
                frames.append(Keyframe(time: t + (start ?? 0), value: v, easing: e, hold: ko.optional("hold")?.bool() ?? false))
            }
            guard let k = Keyframes(frames) else { return nil }
            checkLength(end: k.endTime, at: c)
            return .keyframes(k)
        }
        let from = obj.required("from")?.double(min: lo, max: hi)
        let to = obj.required("to")?.double(min: lo, max: hi)
        var anim = Animation()
        timing(obj, into: &anim)
        if let s = start { anim.delay = s }
        guard let f = from, let t = to else { return nil }
        checkLength(end: anim.displayEnd, at: c, curve: obj.optional("curve"))
        return .tween(Tween(from: f, to: t, animation: anim))
    }

    /// An animated colour: `{ "from": "#…", "to": "#…", timing… }`.
    static func animatedColor(_ c: JSONCursor) -> AnimatedColor? {
        guard let obj = c.object(allowedKeys: ["from", "to", "id", "after", "with", "offset", "repeat", "autoreverses",
                                              "holdBefore", "holdAfter", "curve", "duration", "delay", "speed"]) else { return nil }
        guard let f = obj.required("from").flatMap(color), let t = obj.required("to").flatMap(color) else { return nil }
        var anim = Animation()
        timing(obj, into: &anim)
        if let s = Chaining.starts[c.path.description] { anim.delay = s }
        checkLength(end: anim.displayEnd, at: c, curve: obj.optional("curve"))
        return AnimatedColor(from: f, to: t, animation: anim)
    }

    /// Reports an animation that ends after the limit on a video's length, or never
    /// (an undamped spring), unless the document's `"duration"` cuts the video short.
    static func checkLength(end: Double, at c: JSONCursor, curve: JSONCursor? = nil) {
        guard let ctx = context, !ctx.hasDuration else { return }
        let limit = ctx.limits.maxDuration
        if !end.isFinite {
            (curve ?? c).report("this animation never ends (a spring without damping never settles); "
                                + "give the spring damping, a \"duration\" to the animation, or a \"duration\" to the document")
            ctx.lengthReported = true
        } else if end > limit {
            c.report("this animation ends at \(format(end)) s, after the limit of \(format(limit)) s on a video's length; "
                     + "shorten it, or give the document a \"duration\" to end the video sooner")
            ctx.lengthReported = true
        }
    }

    /// A curve by name (`"easeInOut"`, `"bouncy"`) or CSS/SwiftUI function
    /// (`cubic-bezier(…)`, `steps(…)`, `linear(…)`, `spring(…)`, `interpolatingSpring(…)`);
    /// a function with wrong arguments is reported with the form it takes.
    static func curve(_ c: JSONCursor) -> Easing? {
        guard let text = c.string() else { return nil }
        if let e = Easing.parse(text) { return e }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let open = trimmed.firstIndex(of: "(") {
            let function = trimmed[..<open].trimmingCharacters(in: .whitespaces)
            let forms: [String: String] = [
                "cubic-bezier": "cubic-bezier(x1, y1, x2, y2): four numbers, x1 and x2 between 0 and 1",
                "steps": "steps(n) or steps(n, jump-start | jump-end | jump-none | jump-both), n a whole number of at least 1 (2 with jump-none)",
                "linear": "linear(…): numbers, each with up to two percentages, such as linear(0, 0.7 40%, 1)",
                "spring": "spring(), spring(duration: d, bounce: b) or spring(response: r, dampingFraction: f)",
                "interpolatingSpring": "interpolatingSpring(mass: m, stiffness: k, damping: c, initialVelocity: v), stiffness and damping required",
            ]
            if let form = forms[function] ?? forms[function.lowercased()] {
                return c.fail("invalid curve \(quotedForMessage(text)): expected \(form)")
            }
            var message = "unknown curve function \(quotedForMessage(String(function)))"
            if let s = nearestCandidate(to: String(function), in: forms.keys.sorted()) { message += "; did you mean \(quotedForMessage(s))?" }
            else { message += "; expected cubic-bezier(…), steps(…), linear(…), spring(…) or interpolatingSpring(…)" }
            return c.fail(message)
        }
        var message = "unknown curve \(quotedForMessage(text))"
        if let s = nearestCandidate(to: text, in: Easing.names) { message += "; did you mean \(quotedForMessage(s))?" }
        else { message += "; expected a name such as \"easeInOut\", \"easeOutBounce\" or \"bouncy\", or cubic-bezier(…), steps(…), linear(…), spring(…)" }
        return c.fail(message)
    }
}
