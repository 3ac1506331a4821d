// Fuzz target: data transforms (filter, aggregate, timeUnit, bin, sort, top, window,
// calculate) and the table decoding around them (inline values, CSV files, fold).
//
// One input is a data table as a document writes it, a JSON object such as
// `{ "values": [ { "a": 1, "b": "x" }, … ], "transform": [ { "filter": … }, … ] }`
// (or `"file": "data/weather.csv"` with `"columns"`, and `"fold"`). It is used twice:
//
// 1. Placed in a document as its table `t` and decoded (`TimelineDecoder.decode`): the
//    decoder either accepts it or throws `DocumentErrors` whose messages are not empty
//    and whose locations lie inside the document; an error about a step lies inside the
//    input and its path runs through `data.t`.
// 2. Its inline rows and the steps that decode (read here leniently, as the decoder would
//    pass them, but without checking fields against the rows) run through
//    `DataTransform.apply` one step at a time. Each step either throws a `TransformError`
//    naming that step, with a message and, when it names a row, one of the input rows; or
//    gives rows within the step's bounds: `filter` a subsequence, `aggregate` one row per
//    group (one for all when not grouped), `top` at most its count per group, the others
//    exactly the rows they were given; every row's source is an input row; the fields
//    are those `fields(after:)` promises; every number is finite (the inputs are: JSON
//    has no infinities); `rank` and `rowNumber` lie in 1…n. The whole pipeline in one call
//    must give the same rows as the steps one by one.
import Charts
import Timelines

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let root = try? JSONParser.parse(bytes), case .object(let members) = root.value else { return 0 }
    decodeInDocument(bytes)
    var rows: [DataRow] = []
    var steps: [DataTransform] = []
    for m in members {
        if m.key == "values", case .array(let items) = m.value.value {
            for item in items {
                var row: DataRow = [:]
                if case .object(let cells) = item.value {
                    for c in cells {
                        switch c.value.value {
                        case .number(let v, _): row[c.key] = .number(v)
                        case .string(let s): row[c.key] = .string(s)
                        default: break
                        }
                    }
                }
                rows.append(row)
            }
        }
        if m.key == "transform", case .array(let items) = m.value.value {
            steps = items.compactMap(step)
        }
    }
    runSteps(steps, rows: rows)
    return 0
}

// MARK: The document decoder

/// The table placed in a document on lines of its own, so a location on lines 2…n+1 is
/// inside the input.
func decodeInDocument(_ table: [UInt8]) {
    let head = Array(#"{ "canvas": { "width": 64, "height": 64 }, "data": { "t":"#.utf8) + [0x0A]
    let tail = [0x0A] + Array("} }\n".utf8)
    let doc = head + table + tail
    let lines = lineCount(doc), inputLines = lineCount(table)
    do {
        _ = try TimelineDecoder.decode(doc, file: "timelines/fuzz.json", warnings: { _ in })
    } catch {
        for e in error.errors {
            if e.message.isEmpty { fatalError("an error without a message at \(e.path)") }
            _ = e.description
            guard e.file == "timelines/fuzz.json" else { continue }   // a CSV file's own line
            if let l = e.location, l.line < 1 || l.line > lines || l.column < 1 {
                fatalError("error at \(l), outside the document's \(lines) lines: \(e)")
            }
            if e.path.description.contains("transform") {
                if !e.path.description.hasPrefix("data.t") { fatalError("a transform's error at \(e.path): \(e)") }
                if let l = e.location, l.line < 2 || l.line > inputLines + 1 {
                    fatalError("a transform's error at \(l), outside the table (lines 2…\(inputLines + 1)): \(e)")
                }
            }
        }
    }
}

/// Lines as the JSON parser counts them: ended by LF, CRLF or a lone CR.
func lineCount(_ bytes: [UInt8]) -> Int {
    var lines = 1
    for (i, b) in bytes.enumerated() where b == 0x0A || (b == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A)) {
        lines += 1
    }
    return lines
}

// MARK: Steps, read leniently

func string(_ n: JSONNode?) -> String? { if case .string(let s)? = n?.value, !s.isEmpty { return s }; return nil }
func number(_ n: JSONNode?) -> Double? { if case .number(let v, _)? = n?.value { return v }; return nil }
func member(_ n: JSONNode?, _ key: String) -> JSONNode? {
    guard case .object(let ms)? = n?.value else { return nil }
    return ms.first { $0.key == key }?.value
}
func list(_ n: JSONNode?) -> [JSONNode] {
    guard let n else { return [] }
    if case .array(let items) = n.value { return items }
    return [n]
}
func value(_ n: JSONNode?) -> DataValue? {
    switch n?.value {
    case .number(let v, _)?: return .number(v)
    case .string(let s)?: return .string(s)
    default: return nil
    }
}
func fields(_ n: JSONNode?) -> [String] { list(n).compactMap(string) }
func sortKeys(_ n: JSONNode?) -> [SortKey] {
    list(n).compactMap { k in
        if let f = string(k) { return SortKey(f) }
        guard let f = string(member(k, "field")) else { return nil }
        return SortKey(f, descending: string(member(k, "order")) == "descending")
    }
}

func predicate(_ n: JSONNode?) -> FilterPredicate? {
    if let inner = member(n, "not") { return predicate(inner).map { .not($0) } }
    guard let f = string(member(n, "field")) else { return nil }
    var tests: [FilterPredicate] = []
    if let v = value(member(n, "equals")) { tests.append(.equals(field: f, value: v)) }
    if let vs = member(n, "oneOf") { tests.append(.oneOf(field: f, values: list(vs).compactMap(value))) }
    var lower: RangeBound? = nil, upper: RangeBound? = nil
    if let v = value(member(n, ">=")) { lower = RangeBound(v, inclusive: true) }
    if let v = value(member(n, ">")) { lower = RangeBound(v, inclusive: false) }
    if let v = value(member(n, "<=")) { upper = RangeBound(v, inclusive: true) }
    if let v = value(member(n, "<")) { upper = RangeBound(v, inclusive: false) }
    if lower != nil || upper != nil { tests.append(.range(field: f, lower: lower, upper: upper)) }
    let between = list(member(n, "between")).compactMap(value)
    if between.count == 2 {
        tests.append(.range(field: f, lower: RangeBound(between[0], inclusive: true), upper: RangeBound(between[1], inclusive: true)))
    }
    if case .bool(let b)? = member(n, "valid")?.value { tests.append(b ? .valid(field: f) : .not(.valid(field: f))) }
    if tests.isEmpty { return nil }
    return tests.count == 1 ? tests[0] : .all(tests)
}

/// A step as the decoder would pass it (same ranges for counts, steps and frames), or nil.
func step(_ n: JSONNode) -> DataTransform? {
    if let p = member(n, "filter") { return predicate(p).map { .filter($0) } }
    if let a = member(n, "aggregate") {
        let out = list(a).compactMap { x -> AggregateField? in
            guard let op = string(member(x, "op")).flatMap(AggregateField.Op.init(rawValue:)), let name = string(member(x, "as")) else { return nil }
            let f = string(member(x, "field"))
            if f == nil && op != .count { return nil }
            return AggregateField(op, field: f, as: name)
        }
        return out.isEmpty ? nil : .aggregate(out, groupBy: fields(member(n, "groupBy")))
    }
    if let u = string(member(n, "timeUnit")).flatMap(TimeUnit.init(rawValue:)) {
        guard let f = string(member(n, "field")) else { return nil }
        return .timeUnit(u, field: f, as: string(member(n, "as")) ?? f)
    }
    if let b = member(n, "bin") {
        var options = BinOptions()
        if let s = number(member(b, "step")) { guard s > 0 else { return nil }; options.step = s }
        if let m = number(member(b, "maxBins")) { guard m >= 1, m <= 10_000, m.rounded() == m else { return nil }; options.maxBins = Int(m) }
        guard let f = string(member(n, "field")) else { return nil }
        return .bin(options, field: f, as: string(member(n, "as")) ?? f, end: string(member(n, "end")))
    }
    if let t = member(n, "top") {
        guard let c = number(t), c >= 1, c <= Double(Int32.max), c.rounded() == c else { return nil }
        return .top(Int(c), sort: sortKeys(member(n, "sort")), groupBy: fields(member(n, "groupBy")))
    }
    if let w = member(n, "window") {
        let out = list(w).compactMap { x -> WindowField? in
            guard let op = string(member(x, "op")).flatMap(WindowField.Op.init(rawValue:)), let name = string(member(x, "as")) else { return nil }
            let f = string(member(x, "field"))
            if (op == .cumulativeSum || op == .movingAverage) && f == nil { return nil }
            var frame = (before: -2, after: 0)
            let fr = list(member(x, "frame")).compactMap(number)
            if fr.count == 2, fr[0] >= -100_000, fr[0] <= 0, fr[1] >= 0, fr[1] <= 100_000, fr[0].rounded() == fr[0], fr[1].rounded() == fr[1] {
                frame = (Int(fr[0]), Int(fr[1]))
            }
            return WindowField(op, field: op == .rank || op == .rowNumber ? nil : f, as: name, frame: frame)
        }
        return out.isEmpty ? nil : .window(out, sort: sortKeys(member(n, "sort")), groupBy: fields(member(n, "groupBy")))
    }
    if let e = string(member(n, "calculate")) {
        guard let name = string(member(n, "as")), let expression = try? FieldExpression(e) else { return nil }
        return .calculate(expression, as: name)
    }
    if let s = member(n, "sort") { return .sort(sortKeys(s)) }
    return nil
}

// MARK: The engine

/// The fields holding dates: those whose first text cell is an ISO 8601 date (as a CSV
/// column typed `date` would be).
func dateFields(_ rows: [DataRow]) -> [String: DateFormat?] {
    var out: [String: DateFormat?] = [:]
    var seen = Set<String>()
    for row in rows {
        for (k, v) in row where !seen.contains(k) {
            guard case .string(let s) = v else { continue }
            seen.insert(k)
            if CivilDate.parseISO(s) != nil { out.updateValue(nil, forKey: k) }
        }
    }
    return out
}

func runSteps(_ steps: [DataTransform], rows input: [DataRow]) {
    let n0 = input.count
    var rows = input
    var sources = Array(input.indices)
    var dates = dateFields(input)
    var failedAt: Int? = nil
    for (k, s) in steps.enumerated() {
        let before = rows
        let fieldsBefore = Set(before.flatMap(\.keys))
        let result: TransformedRows
        do throws(TransformError) {
            result = try DataTransform.apply([s], to: before, dates: dates)
        } catch {
            if error.step != 0 { fatalError("step \(k) (\(s.name)) threw for step \(error.step): \(error)") }
            if error.message.isEmpty { fatalError("step \(k) (\(s.name)) threw an error without a message") }
            if let r = error.row, r < 0 || r >= before.count { fatalError("step \(k) (\(s.name)) blamed row \(r) of \(before.count)") }
            if let f = error.field, !s.reads.contains(f) { fatalError("step \(k) (\(s.name)) blamed \"\(f)\", which it does not read: \(error)") }
            failedAt = k
            break
        }
        let n = before.count, m = result.rows.rows.count
        if result.sources.count != m { fatalError("step \(k) (\(s.name)): \(m) rows, \(result.sources.count) sources") }
        for src in result.sources where src < 0 || src >= n { fatalError("step \(k) (\(s.name)): source \(src) of \(n) rows") }
        switch s {
        case .filter:
            if m > n { fatalError("filter made \(m) rows of \(n)") }
            if zip(result.sources, result.sources.dropFirst()).contains(where: { $0 >= $1 }) { fatalError("filter reordered rows") }
            for (r, src) in zip(result.rows.rows, result.sources) where r != before[src] { fatalError("filter changed a row") }
        case .aggregate(let fs, let groupBy):
            if groupBy.isEmpty ? m != min(n, 1) : (m > n || (n > 0 && m == 0)) { fatalError("aggregate made \(m) rows of \(n) (groupBy \(groupBy))") }
            for f in fs where f.op == .count {
                let total = result.rows.rows.reduce(0.0) { $0 + ($1[f.name]?.number ?? 0) }
                // A later summary of the same name overwrites the count.
                if !fs.contains(where: { $0.name == f.name && $0.op != .count }) && !groupBy.contains(f.name) && total != Double(n) {
                    fatalError("aggregate counts sum to \(total), not \(n)")
                }
            }
        case .top(let count, _, _):
            if m > n { fatalError("top made \(m) rows of \(n)") }
            if count >= n && m != n { fatalError("top \(count) of \(n) rows kept \(m)") }
        case .sort:
            if m != n || Set(result.sources).count != n { fatalError("sort made \(m) rows of \(n), not a permutation") }
        case .timeUnit, .bin, .window, .calculate:
            if m != n || result.sources != Array(0..<n) { fatalError("\(s.name) made \(m) rows of \(n) or moved them") }
        }
        let allowed = s.fields(after: fieldsBefore)
        for r in result.rows.rows {
            for (key, v) in r {
                if !allowed.contains(key) { fatalError("step \(k) (\(s.name)) left a field \"\(key)\" it does not promise") }
                if case .number(let x) = v, !x.isFinite { fatalError("step \(k) (\(s.name)) made \(x) in \"\(key)\"") }
            }
        }
        if case .window(let fs, _, _) = s {
            for f in fs where f.op == .rank || f.op == .rowNumber {
                // A later window field of the same name overwrites this one.
                if fs.last(where: { $0.name == f.name })?.op != f.op { continue }
                for r in result.rows.rows {
                    guard let x = r[f.name]?.number, x >= 1, x <= Double(n), x.rounded() == x else {
                        fatalError("\(f.op) gave \(String(describing: r[f.name])) among \(n) rows")
                    }
                }
            }
        }
        rows = result.rows.rows
        sources = result.sources.map { sources[$0] }
        dates = result.dates
    }
    // The pipeline in one call gives the same rows, or fails at the same step.
    do throws(TransformError) {
        let whole = try DataTransform.apply(steps, to: input, dates: dateFields(input))
        if failedAt != nil { fatalError("the pipeline succeeded where step \(failedAt!) failed alone") }
        if whole.rows.rows != rows || whole.sources != sources { fatalError("the pipeline differs from its steps one by one") }
        for src in whole.sources where src >= n0 { fatalError("pipeline source \(src) of \(n0)") }
    } catch {
        if error.step != failedAt { fatalError("the pipeline failed at step \(error.step), its steps one by one at \(String(describing: failedAt))") }
        if let r = error.row, r < 0 || r >= n0 { fatalError("the pipeline blamed row \(r) of \(n0)") }
    }
}
