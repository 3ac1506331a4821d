import Foundation
import Charts

/// Decoding `"transform": [ … ]` on a table or a chart (docs/timeline-format.md,
/// "Transforms"): each step is checked against the fields the rows have at that point of
/// the pipeline (a field no row has is reported where it is named, with the fields there
/// are), then the pipeline runs and what only the rows reveal (text summed, a cell that is
/// not a date) is reported at the field that asked for it, naming the row.
extension TimelineDecoder {
    /// The kinds of step, in the order a step's kind is recognised (`top` and `window`
    /// take a `sort` of their own).
    static let transformKinds = ["filter", "aggregate", "timeUnit", "bin", "top", "window", "calculate", "sort"]

    /// The keys each kind of step takes.
    static let transformKeys: [String: [String]] = [
        "filter": ["filter"],
        "aggregate": ["aggregate", "groupBy"],
        "timeUnit": ["timeUnit", "field", "as"],
        "bin": ["bin", "field", "as", "end"],
        "sort": ["sort"],
        "top": ["top", "sort", "groupBy"],
        "window": ["window", "sort", "groupBy"],
        "calculate": ["calculate", "as"],
    ]

    static let predicateKeys = ["field", "equals", "oneOf", ">=", ">", "<=", "<", "between", "valid", "not"]

    /// Where a decoded step was written, for the problems found when it runs.
    struct TransformSite {
        var cursor: JSONCursor
        var fields: [String: JSONCursor] = [:]
    }

    /// The table after the steps at `c` (an array), or `table` unchanged when there are
    /// none or they do not decode; problems are reported. The table is taken (`inout`,
    /// left as the result), so its rows change in place when no one else holds them.
    static func transform(_ c: JSONCursor?, table: inout DecodedTable, tableName: String) {
        table = transformed(c, taking: &table, tableName: tableName)
    }

    private static func transformed(_ c: JSONCursor?, taking table: inout DecodedTable, tableName: String) -> DecodedTable {
        guard let c, let items = c.array() else { return table }
        var fields = Set(table.fields)
        var dates = Set(table.dates.keys)
        var steps: [DataTransform] = []
        var sites: [TransformSite] = []
        var ok = true
        for item in items {
            var site = TransformSite(cursor: item)
            guard let step = transformStep(item, fields: fields, dates: dates, table: table, tableName: tableName, site: &site) else {
                ok = false; continue
            }
            if case .timeUnit(_, let f, let name) = step, dates.contains(f) { dates.insert(name) }
            if case .aggregate(let fs, let g) = step {
                dates = dates.intersection(g).union(fs.filter { [.min, .max, .median].contains($0.op) && dates.contains($0.field ?? "") }.map(\.name))
            }
            if case .calculate(_, let name) = step { dates.remove(name) }
            fields = step.fields(after: fields)
            steps.append(step); sites.append(site)
        }
        guard ok, table.isValid, !steps.isEmpty else { return ok ? table : .invalid }
        do throws(TransformError) {
            var rows = DataTable()
            swap(&rows, &table.rows)
            let result = try DataTransform.apply(steps, taking: &rows, dates: table.dates)
            for w in result.warnings { warn(sites[w.step].cursor, w.message) }
            var out = DecodedTable()
            out.rows = result.rows
            out.origins = table.origins.gathering(result.sources)
            out.dates = result.dates
            out.displayNames = table.displayNames
            return out
        } catch {
            let site = sites[error.step]
            let at = error.field.flatMap { site.fields[$0] } ?? site.cursor
            var message = error.message
            if let row = error.row, row < table.origins.count {
                let o = table.origins[row]
                message += " (the row at \(o.file):\(o.location))"
            }
            at.report(message)
            return .invalid
        }
    }

    /// One step; nil (reported) when it does not decode.
    static func transformStep(_ c: JSONCursor, fields: Set<String>, dates: Set<String>, table: DecodedTable, tableName: String,
                              site: inout TransformSite) -> DataTransform? {
        guard case .object(let members) = c.value else { return c.fail("expected a transform, an object such as { \"filter\": … }, found \(c.value.kindDescription)") }
        guard let kind = transformKinds.first(where: { k in members.contains { $0.key == k } }) else {
            return c.fail("expected a transform: an object with one of " + transformKinds.map(quotedForMessage).joined(separator: ", "))
        }
        guard let o = c.object(allowedKeys: transformKeys[kind]!) else { return nil }
        var failed = false
        /// A field the rows have at this step, reported when none has it.
        func field(_ fc: JSONCursor?) -> String? {
            guard let fc, let name = fc.string() else { failed = true; return nil }
            site.fields[name] = site.fields[name] ?? fc
            if table.isValid && !table.rows.isEmpty && !fields.contains(name) {
                fc.report(unknownTransformField(name, fields: fields, tableName: tableName))
                failed = true
            }
            return name
        }
        func name(_ nc: JSONCursor?) -> String? {
            guard let nc, let s = nc.string() else { failed = true; return nil }
            if s.isEmpty { nc.report("expected a field name, found an empty string"); failed = true; return nil }
            return s
        }
        func fieldList(_ lc: JSONCursor?) -> [String] {
            guard let lc else { return [] }
            guard let items = lc.array() else { failed = true; return [] }
            return items.compactMap { field($0) }
        }
        func sortKeys(_ sc: JSONCursor?) -> [SortKey] {
            guard let sc else { return [] }
            let items: [JSONCursor]
            if case .array = sc.value { items = sc.array() ?? [] } else { items = [sc] }
            var keys: [SortKey] = []
            for k in items {
                if case .string = k.value { if let f = field(k) { keys.append(SortKey(f)) }; continue }
                guard let ko = k.object(allowedKeys: ["field", "order"]) else { failed = true; continue }
                let f = field(ko.required("field"))
                let order = ko.optional("order")?.stringEnum(["ascending", "descending"]) ?? "ascending"
                if let f { keys.append(SortKey(f, descending: order == "descending")) }
            }
            return keys
        }
        let step: DataTransform?
        switch kind {
        case "filter":
            step = o.required("filter").flatMap { predicate($0, field: field, dates: dates, table: table) }.map { .filter($0) }
        case "aggregate":
            let groupBy = fieldList(o.optional("groupBy"))
            var out: [AggregateField] = []
            for a in o.required("aggregate")?.array(minCount: 1) ?? [] {
                guard let ao = a.object(allowedKeys: ["op", "field", "as"]) else { failed = true; continue }
                guard let op = ao.required("op")?.stringEnum(AggregateField.Op.self) else { failed = true; continue }
                var f: String? = nil
                if let fc = ao.optional("field") { f = field(fc) }
                else if op != .count { a.report("\"\(op.rawValue)\" needs a \"field\""); failed = true }
                guard let n = name(ao.required("as")) else { continue }
                out.append(AggregateField(op, field: f, as: n))
            }
            step = .aggregate(out, groupBy: groupBy)
        case "timeUnit":
            let unit = o.required("timeUnit")?.stringEnum(TimeUnit.self)
            let fc = o.required("field")
            let f = field(fc)
            if let f, let fc, fields.contains(f), !dates.contains(f), table.isValid,
               let cell = table.rows.first(where: { $0[f] != nil })?[f], cell.string.flatMap(CivilDate.parseISO) == nil {
                fc.report("\(quotedForMessage(f)) does not hold dates; type its column as one (\"columns\": { \(quotedForMessage(f)): \"date\" } "
                          + "or { \"date\": \"MMM d yyyy\" })")
                failed = true
            }
            let n = o.optional("as").map { name($0) } ?? f
            guard let unit, let f, let n else { return nil }
            step = .timeUnit(unit, field: f, as: n)
        case "bin":
            var options = BinOptions()
            if let bc = o.required("bin") {
                if case .bool(let b) = bc.value {
                    if !b { bc.report("expected true or { \"step\": … } / { \"maxBins\": … }"); failed = true }
                } else if let bo = bc.object(allowedKeys: ["step", "maxBins"]) {
                    if let s = bo.optional("step") {
                        if let v = s.double(), v > 0 { options.step = v } else { s.report("expected a step greater than 0"); failed = true }
                    }
                    if let m = bo.optional("maxBins")?.int(min: 1, max: 10_000) { options.maxBins = m }
                } else { failed = true }
            }
            let f = field(o.required("field"))
            let n = o.optional("as").map { name($0) } ?? f
            let end = o.optional("end").flatMap { name($0) }
            guard let f, let n else { return nil }
            step = .bin(options, field: f, as: n, end: end)
        case "sort":
            let keys = sortKeys(o.required("sort"))
            step = .sort(keys)
        case "top":
            let n = o.required("top")?.int(min: 1, max: Int(Int32.max))
            let keys = sortKeys(o.optional("sort"))
            let groupBy = fieldList(o.optional("groupBy"))
            guard let n else { return nil }
            step = .top(n, sort: keys, groupBy: groupBy)
        case "window":
            let keys = sortKeys(o.optional("sort"))
            let groupBy = fieldList(o.optional("groupBy"))
            var out: [WindowField] = []
            for w in o.required("window")?.array(minCount: 1) ?? [] {
                guard let wo = w.object(allowedKeys: ["op", "field", "as", "frame"]) else { failed = true; continue }
                guard let op = wo.required("op")?.stringEnum(WindowField.Op.self) else { failed = true; continue }
                var f: String? = nil
                if op == .cumulativeSum || op == .movingAverage { f = field(wo.required("field")) }
                else if let fc = wo.optional("field") { fc.report("\"\(op.rawValue)\" reads no field; it counts rows in the order of \"sort\""); failed = true }
                var frame = (before: -2, after: 0)
                if let fr = wo.optional("frame") {
                    if op != .movingAverage { fr.report("only \"movingAverage\" takes a \"frame\""); failed = true }
                    else if let a = fr.array(minCount: 2, maxCount: 2), let b = a[0].int(min: -100_000, max: 0), let e = a[1].int(min: 0, max: 100_000) {
                        frame = (b, e)
                    } else { failed = true }
                }
                guard let n = name(wo.required("as")) else { continue }
                out.append(WindowField(op, field: f, as: n, frame: frame))
            }
            step = .window(out, sort: keys, groupBy: groupBy)
        case "calculate":
            let n = name(o.required("as"))
            guard let ec = o.required("calculate"), let text = ec.string() else { return nil }
            do throws(FieldExpression.SyntaxError) {
                let e = try FieldExpression(text)
                for f in e.fields where table.isValid && !table.rows.isEmpty && !fields.contains(f) {
                    ec.report("the expression \(quotedForMessage(text)) reads \(quotedForMessage(f)), but "
                              + unknownTransformField(f, fields: fields, tableName: tableName))
                    failed = true
                }
                for f in e.fields { site.fields[f] = ec }
                guard let n else { return nil }
                step = .calculate(e, as: n)
            } catch {
                ec.report("in the expression \(quotedForMessage(text)), at \(error.line):\(error.column): \(error.message)")
                return nil
            }
        default:
            step = nil
        }
        return failed ? nil : step
    }

    /// `no row of data "weather" has a field "temp"; did you mean "temp_max"?` at this
    /// point of the pipeline.
    static func unknownTransformField(_ name: String, fields: Set<String>, tableName: String) -> String {
        var message = "no row of data \(quotedForMessage(tableName)) has a field \(quotedForMessage(name)) at this step"
        let sorted = fields.sorted()
        if let s = nearestCandidate(to: name, in: sorted) { message += "; did you mean \(quotedForMessage(s))?" }
        else if !sorted.isEmpty {
            message += "; its fields are " + sorted.prefix(12).map(quotedForMessage).joined(separator: ", ") + (sorted.count > 12 ? ", …" : "")
        }
        return message
    }

    /// A filter's test: `{ "field": "type", "equals": "rain" }`, `"oneOf": [ … ]`, `">="`,
    /// `">"`, `"<="`, `"<"`, `"between": [low, high]`, `"valid": true` (the field has a value;
    /// `false`: it has none) (several together must all hold), or `{ "not": test }`.
    static func predicate(_ c: JSONCursor, field: (JSONCursor?) -> String?, dates: Set<String>, table: DecodedTable) -> FilterPredicate? {
        guard let o = c.object(allowedKeys: predicateKeys) else { return nil }
        if let n = o.optional("not") {
            if o.keys.count > 1 { c.report("a \"not\" takes only the test it negates: { \"not\": { \"field\": …, … } }"); return nil }
            return predicate(n, field: field, dates: dates, table: table).map { .not($0) }
        }
        guard let f = field(o.required("field")) else { return nil }
        var failed = false
        func value(_ v: JSONCursor) -> DataValue? {
            switch v.value {
            case .number(let d, _): return .number(d)
            case .string(let s):
                if dates.contains(f) {
                    let pattern = table.dates[f] ?? nil
                    if (pattern?.parse(s) ?? CivilDate.parseISO(s)) == nil {
                        let like = pattern.map { "like \"\($0.pattern)\" or " } ?? ""
                        v.report("expected a date \(like)in ISO 8601 (2024-03-05) for \(quotedForMessage(f)), found \(quotedForMessage(s))")
                        failed = true
                    }
                }
                return .string(s)
            default:
                failed = true
                return v.fail("expected a number or a string, found \(v.value.kindDescription)")
            }
        }
        var tests: [FilterPredicate] = []
        if let e = o.optional("equals"), let v = value(e) { tests.append(.equals(field: f, value: v)) }
        if let a = o.optional("oneOf")?.array(minCount: 1) { tests.append(.oneOf(field: f, values: a.compactMap(value))) }
        var lower: RangeBound? = nil, upper: RangeBound? = nil
        for (key, isLower, inclusive) in [(">=", true, true), (">", true, false), ("<=", false, true), ("<", false, false)] {
            guard let b = o.optional(key), let v = value(b) else { continue }
            if isLower { if lower != nil { b.report("give one lower bound: \">=\" or \">\""); failed = true }; lower = RangeBound(v, inclusive: inclusive) }
            else { if upper != nil { b.report("give one upper bound: \"<=\" or \"<\""); failed = true }; upper = RangeBound(v, inclusive: inclusive) }
        }
        if lower != nil || upper != nil { tests.append(.range(field: f, lower: lower, upper: upper)) }
        if let v = o.optional("valid") {
            if let b = v.bool() { tests.append(b ? .valid(field: f) : .not(.valid(field: f))) } else { failed = true }
        }
        if let b = o.optional("between")?.array(minCount: 2, maxCount: 2), let lo = value(b[0]), let hi = value(b[1]) {
            tests.append(.range(field: f, lower: RangeBound(lo, inclusive: true), upper: RangeBound(hi, inclusive: true)))
        }
        if tests.isEmpty && !failed {
            c.report("expected a test beside \"field\": \"equals\", \"oneOf\", \">=\", \">\", \"<=\", \"<\", \"between\" or \"valid\"")
            return nil
        }
        if failed { return nil }
        return tests.count == 1 ? tests[0] : .all(tests)
    }

    /// Reports a warning at `c`: on standard error, or as an error under `--strict`.
    static func warn(_ c: JSONCursor, _ message: String) {
        let w = DocumentError(file: c.file, path: c.path, location: c.location, message: message)
        if let context, context.strict {
            c.sink.report(DocumentError(file: w.file, path: w.path, location: w.location, message: message + " (a warning, an error under --strict)"))
        } else if let context {
            context.warnings.append(w)
        } else {
            writeWarning(w)
        }
    }
}

/// `warning: file:line:col: path: message` on standard error.
func writeWarning(_ w: DocumentError) {
    var text = "warning: " + w.description + "\n"
    text.withUTF8 { buf in _ = fwrite(buf.baseAddress, 1, buf.count, stderr) }
}
