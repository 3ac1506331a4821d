import Foundation
import Motion
import Scene
import Charts

extension TimelineDecoder {
    /// Checks the placeholders of a text that names the moment (`"{time:yyyy}"`).
    static func checkMomentTemplate(_ c: JSONCursor?) {
        guard let c, case .string(let text) = c.value else { return }
        do throws(MomentTemplate.Problem) { _ = try MomentTemplate(text) } catch {
            c.report("\(error.message), at character \(error.offset + 1) of \(quotedForMessage(text))")
        }
    }

    /// `"periodLabel"`: `true`, or `{ "text", "size", "color", "position" }`.
    static func periodLabel(_ c: JSONCursor) -> PeriodLabelSpec? {
        if case .bool(let b) = c.value { return b ? PeriodLabelSpec() : nil }
        guard let o = c.object(allowedKeys: ["text", "size", "color", "position"]) else { return nil }
        var p = PeriodLabelSpec()
        if let t = o.optional("text") { checkMomentTemplate(t); p.text = t.string() ?? p.text }
        if let s = o.optional("size")?.double(min: 1, max: 2000) { p.size = s }
        if let col = o.optional("color") { p.color = color(col) }
        if let pos = o.optional("position")?.stringEnum(PeriodLabelSpec.Corner.self) { p.corner = pos }
        return p
    }

    /// The keys of a chart's `"time"`.
    static let timeKeys = ["field", "key", "mode", "duration", "perStep", "transition", "hold", "curve", "delay", "rank",
                           "enter", "exit", "flyFrom", "flyTo", "reveal"]

    /// `"enter"` or `"exit"`: one effect or a list of them (`"none"`, `"fade"`, `"grow"`,
    /// `"shrink"` (the same as grow), `"fly"`), flying from or to the edge `fly`.
    static func keyTransition(_ c: JSONCursor, fly: Side) -> DataTimeline.KeyTransition {
        let names = ["none", "fade", "grow", "shrink", "fly"]
        var items: [String] = []
        if case .array = c.value { items = c.array()?.compactMap { $0.stringEnum(names) } ?? [] }
        else if let one = c.stringEnum(names) { items = [one] }
        var t = DataTimeline.KeyTransition()
        for name in items {
            switch name {
            case "fade": t.fade = true
            case "grow", "shrink": t.grow = true
            case "fly": t.fly = fly
            default: break
            }
        }
        return t
    }

    /// A chart's `"time"`: `{ "field", "key", "mode", "duration", "perStep", "transition",
    /// "hold", "curve", "delay" }` — which field is time, which field names each object,
    /// and how the video's clock moves through the data (docs/timeline-format.md).
    static func dataTimeline(_ c: JSONCursor, table: DecodedTable?, data: ChartData) -> DataTimeline? {
        guard let o = c.object(allowedKeys: timeKeys) else { return nil }
        let limit = (context?.limits ?? DocumentLimits()).maxDuration
        let limitName = "the limit on a video's length"
        let timeField = data.field(o.required("field"))
        let keyField = data.field(o.required("key"))
        let states = (o.optional("mode")?.stringEnum(["continuous", "states"]) ?? "continuous") == "states"
        for k in states ? ["duration", "perStep"] : ["transition", "hold"] where o.contains(k) {
            o.optional(k)?.report("\(quotedForMessage(k)) is for \"mode\": \"\(states ? "continuous" : "states")\"; "
                                  + (states ? "states move with \"transition\" and pause with \"hold\"" : "continuous time moves with \"duration\" or \"perStep\""))
        }
        if o.contains("duration") && o.contains("perStep") { c.report("give \"duration\" or \"perStep\", not both") }
        let duration = o.optional("duration")?.positive("a duration", unit: "seconds", limit: limit, limitName: limitName)
        let perStep = o.optional("perStep")?.positive("seconds per step", unit: "seconds", limit: limit, limitName: limitName)
        let transition = o.optional("transition")?.nonNegative("a transition", unit: "seconds", limit: limit, limitName: limitName) ?? 0.5
        let hold = o.optional("hold")?.nonNegative("a hold", unit: "seconds", limit: limit, limitName: limitName) ?? 0.5
        let delay = o.optional("delay")?.nonNegative("a delay", unit: "seconds", limit: limit, limitName: limitName) ?? 0
        var easing: Easing = states ? .easeInOut : .linear
        if let cc = o.optional("curve"), let e = curve(cc) { easing = e }
        let flyFrom = o.optional("flyFrom")?.stringEnum(Side.self) ?? .bottom
        let flyTo = o.optional("flyTo")?.stringEnum(Side.self) ?? .bottom
        let enter = o.optional("enter").map { keyTransition($0, fly: flyFrom) } ?? DataTimeline.KeyTransition()
        let exit = o.optional("exit").map { keyTransition($0, fly: flyTo) } ?? DataTimeline.KeyTransition()
        let reveal = o.optional("reveal")?.bool() ?? false
        if reveal, let r = o.optional("rank") { r.report("a race ranks the keys at each moment; \"reveal\" shows each key's history, so give one or the other") }
        var ranking: DataTimeline.Ranking? = nil
        if let rc = o.optional("rank")?.object(allowedKeys: ["by", "as", "top"]) {
            if let by = data.field(rc.required("by")) {
                ranking = DataTimeline.Ranking(field: by)
                if let a = rc.optional("as")?.string() { ranking!.output = a }
                ranking!.top = rc.optional("top")?.int(min: 1, max: 100_000)
            }
        }
        guard let timeField, let keyField, let table, table.isValid else { return nil }
        let mode: DataTimeline.Mode = states ? .states(transition: transition, hold: hold) : .continuous(duration: 0)
        do throws(DataTimeline.Problem) {
            // A column of dates read from a CSV holds seconds: the moment is a date all the same.
            var tl = try DataTimeline(table: table.rows, timeField: timeField, keyField: keyField, mode: mode, easing: easing, delay: delay,
                                      ranking: ranking, timeIsDate: table.dates.keys.contains(timeField) ? true : nil)
            if !states {
                let d = duration ?? (perStep ?? 1) * Double(max(0, tl.steps.count - 1))
                tl.mode = .continuous(duration: d)
            }
            tl.enter = enter
            tl.exit = exit
            tl.reveals = reveal
            if tl.length + delay > limit {
                c.report("the data would move for \(format(tl.length + delay)) seconds, over the limit of \(format(limit)) seconds; "
                         + "shorten \"duration\", \"perStep\", \"transition\" or \"hold\"")
                return nil
            }
            return tl
        } catch {
            /// A cell as a message quotes it.
            func shown(_ v: DataValue) -> String {
                switch v { case .number(let x): return format(x); case .string(let s): return quotedForMessage(s) }
            }
            func at(_ row: Int, _ message: String) {
                let origin = table.origins[row]
                c.sink.report(DocumentError(file: origin.file, path: origin.path, location: origin.location, message: message))
            }
            switch error {
            case .badTime(let r):
                let found = table.rows[r][timeField].map(shown) ?? "no value"
                at(r, "expected a number or an ISO 8601 date such as \"2024-03-05\" in \(quotedForMessage(timeField)), the chart's time field, "
                      + "found \(found) (text that names steps, such as \"2020-Q1\", must name them in every row, with no numbers or dates among them)")
            case .missingKey(let r):
                at(r, "this row has no \(quotedForMessage(keyField)), the field that names each object of the chart's time")
            case .duplicate(let first, let second, let key):
                let when = table.rows[second][timeField].map(shown) ?? ""
                at(second, "\(quotedForMessage(keyField)) \(quotedForMessage(key)) appears twice at \(quotedForMessage(timeField)) \(when) "
                           + "(first at \(table.origins[first].path)); each key has one row per time step")
            }
            return nil
        }
    }
}
