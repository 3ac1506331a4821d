/// The rows a transform pipeline made, with what the decoder needs to report on them.
public struct TransformedRows: Sendable {
    /// The rows, by column.
    public var rows: DataTable
    /// For each row, the input row it came from (an aggregate's row: its group's first),
    /// so a problem found later is reported where the data was written.
    public var sources: [Int]
    /// The fields holding dates (seconds since the epoch), each with the pattern its
    /// text was written in when it came from a patterned column.
    public var dates: [String: DateFormat?]
    /// Steps worth a warning: a filter that leaves no rows.
    public var warnings: [(step: Int, message: String)]
}

extension TransformedRows {
    /// Keeps the rows at `indices`, in that order.
    mutating func keep(_ indices: [Int]) {
        rows = rows.gathering(indices)
        sources = indices.map { sources[$0] }
    }
}

extension DataTransform {
    /// Runs `transforms` on `rows` in order. `dates` names the fields holding dates (a
    /// CSV column typed `date`), with their patterns, so filters can compare them with
    /// dates written like the data, and `timeUnit` knows them.
    ///
    /// Costs one pass over the rows per step (`sort`, `top` and `window` sort, n log n);
    /// rows a step does not change are shared, not copied.
    /// - Throws: `TransformError` for what only the rows reveal (text where numbers are
    ///   needed, a cell that is not a date).
    public static func apply(_ transforms: [DataTransform], to rows: [DataRow],
                             dates: [String: DateFormat?] = [:]) throws(TransformError) -> TransformedRows {
        var table = DataTable(rows: rows)
        return try apply(transforms, taking: &table, dates: dates)
    }

    /// `apply(_:to:dates:)` on a table.
    public static func apply(_ transforms: [DataTransform], to table: DataTable,
                             dates: [String: DateFormat?] = [:]) throws(TransformError) -> TransformedRows {
        var copy = table
        return try apply(transforms, taking: &copy, dates: dates)
    }

    /// `apply(_:to:dates:)` on a table it takes from `table` (left empty), so a step that
    /// adds a field does not copy the others: columns are shared until written.
    public static func apply(_ transforms: [DataTransform], taking table: inout DataTable,
                             dates: [String: DateFormat?] = [:]) throws(TransformError) -> TransformedRows {
        var out = TransformedRows(rows: DataTable(), sources: Array(table.indices), dates: dates, warnings: [])
        swap(&out.rows, &table)
        for (step, t) in transforms.enumerated() {
            try t.run(step: step, on: &out)
        }
        return out
    }

    /// The fields a step reads.
    public var reads: [String] {
        switch self {
        case .filter(let p): return p.fields
        case .aggregate(let fs, let g): return g + fs.compactMap(\.field)
        case .timeUnit(_, let f, _), .bin(_, let f, _, _): return [f]
        case .sort(let keys): return keys.map(\.field)
        case .top(_, let keys, let g): return keys.map(\.field) + g
        case .window(let fs, let keys, let g): return fs.compactMap(\.field) + keys.map(\.field) + g
        case .calculate(let e, _): return e.fields
        }
    }

    /// The fields the rows have after the step, given those they had before.
    public func fields(after input: Set<String>) -> Set<String> {
        switch self {
        case .filter, .sort, .top: return input
        case .aggregate(let fs, let g): return Set(g).union(fs.map(\.name))
        case .timeUnit(_, _, let name), .calculate(_, let name): return input.union([name])
        case .bin(_, _, let name, let end): return input.union([name] + (end.map { [$0] } ?? []))
        case .window(let fs, _, _): return input.union(fs.map(\.name))
        }
    }

    func run(step: Int, on t: inout TransformedRows) throws(TransformError) {
        switch self {
        case .filter(let p):
            let test = CompiledPredicate(p, dates: t.dates)
            let kept = t.rows.indices.filter { test.holds(t.rows[$0]) }
            if kept.isEmpty && !t.rows.isEmpty {
                t.warnings.append((step, "the filter leaves no rows of \(t.rows.count)"))
            }
            if kept.count != t.rows.count { t.keep(kept) }
        case .aggregate(let fields, let groupBy):
            try aggregate(fields, groupBy: groupBy, step: step, on: &t)
        case .timeUnit(let unit, let field, let name):
            let pattern = t.dates[field] ?? nil
            let source = t.rows.column(field), old = t.rows.column(name)
            var out = DataColumn.Builder()
            out.reserveCapacity(t.rows.count)
            for i in t.rows.indices {
                guard let cell = source?[i] else { out.append(old?[i]); continue }
                guard let seconds = Self.date(cell, pattern: pattern) else {
                    throw TransformError(step: step, field: field, row: t.sources[i],
                                         message: "timeUnit needs dates in \(quotedForMessage(field)), found \(Self.describe(cell)); "
                                         + "type the column as a date (\"columns\": { \(quotedForMessage(field)): \"date\" })")
                }
                guard abs(seconds) <= Self.maxDateSeconds else {
                    // The calendar's arithmetic is in Ints of days: 1e300 s trapped converting.
                    throw TransformError(step: step, field: field, row: t.sources[i],
                                         message: "timeUnit needs dates within 1,000,000 years of 1970, found \(Self.describe(cell)) "
                                         + "(seconds) in \(quotedForMessage(field))")
                }
                out.append(number: Self.truncate(seconds, to: unit))
            }
            t.rows.setColumn(name, out.column)
            t.dates.updateValue(pattern, forKey: name)
        case .bin(let options, let field, let name, let end):
            var lo = Double.infinity, hi = -Double.infinity
            let source = t.rows.column(field)
            for i in t.rows.indices {
                switch source?[i] {
                case .number(let v)?: lo = Swift.min(lo, v); hi = Swift.max(hi, v)
                case .string(let s)?:
                    throw TransformError(step: step, field: field, row: t.sources[i],
                                         message: "bin needs numbers in \(quotedForMessage(field)), found the text \(quotedForMessage(s))")
                case nil: break
                }
            }
            guard lo <= hi else { return }
            let width = options.step ?? Self.binStep(lo, hi, maxBins: options.maxBins)
            guard width.isFinite else {
                // Values a whole double's range apart (-1e308 and 1e308) have no nice step.
                throw TransformError(step: step, field: field, row: nil,
                                     message: "bin cannot divide the values of \(quotedForMessage(field)), from \(Self.describe(.number(lo))) "
                                     + "to \(Self.describe(.number(hi))), into bins: they span more than the largest number; give a \"step\"")
            }
            let oldStart = t.rows.column(name), oldEnd = end.flatMap { t.rows.column($0) }
            var starts = DataColumn.Builder(), ends = DataColumn.Builder()
            for i in t.rows.indices {
                guard case .number(let v)? = source?[i] else {
                    starts.append(oldStart?[i]); ends.append(oldEnd?[i]); continue
                }
                var (start, stop) = Self.bin(v, width: width)
                // The largest value closes the last bin rather than opening one of its own
                // (0…1 in steps of 0.1 is ten bins, as in Vega-Lite).
                if v == hi && start == v && v > lo { (start, stop) = Self.bin(v - width / 2, width: width) }
                guard start.isFinite && stop.isFinite else {
                    // 1e15 in steps of 1e-300 is bin number 1e315, beyond a double.
                    throw TransformError(step: step, field: field, row: t.sources[i],
                                         message: "bin cannot place \(Self.describe(.number(v))) of \(quotedForMessage(field)) in bins "
                                         + "\(Self.describe(.number(width))) wide: its bin's edges would be beyond the largest number; "
                                         + "give a larger \"step\"")
                }
                starts.append(number: start); ends.append(number: stop)
            }
            t.rows.setColumn(name, starts.column)
            if let end { t.rows.setColumn(end, ends.column) }
        case .sort(let keys):
            let order = Self.order(t.rows.indices, rows: t.rows, keys: keys)
            t.keep(order)
        case .top(let count, let keys, let groupBy):
            let order = Self.order(t.rows.indices, rows: t.rows, keys: keys)
            let groups = GroupIndex(t.rows, groupBy)
            var taken = [Int](repeating: 0, count: groups.count)
            var kept: [Int] = []
            for i in order {
                let g = groups.ids[i]
                if taken[g] < count { kept.append(i); taken[g] += 1 }
            }
            t.keep(kept)
        case .window(let fields, let keys, let groupBy):
            try window(fields, keys: keys, groupBy: groupBy, step: step, on: &t)
        case .calculate(let expression, let name):
            let old = t.rows.column(name)
            var out = DataColumn.Builder()
            out.reserveCapacity(t.rows.count)
            for i in t.rows.indices {
                do throws(FieldExpression.Failure) {
                    if let v = try expression.evaluate(t.rows[i]) { out.append(number: v) } else { out.append(nil) }
                } catch {
                    guard case .text(let f, let s) = error else { out.append(old?[i]); continue }
                    throw TransformError(step: step, field: f, row: t.sources[i],
                                         message: "calculate works on numbers, but \(quotedForMessage(f)) holds the text \(quotedForMessage(s))")
                }
            }
            t.rows.setColumn(name, out.column)
            t.dates.removeValue(forKey: name)
        }
    }

    // MARK: Aggregate

    /// Running summaries of one group.
    struct Accumulator {
        var count = 0
        var firstRow: Int
        var numbers: [Double]
        /// The sums again, each number scaled by 2^-64 (exact), for a mean whose plain sum
        /// overflows: two values of 1e308 have a mean of 1e308 though their sum is infinite.
        var scaled: [Double]
        var counts: [Int]
        var lists: [[Double]]
        var distinct: [Set<DataValue>]
        var key: [DataValue?]
    }

    func aggregate(_ fields: [AggregateField], groupBy: [String], step: Int, on t: inout TransformedRows) throws(TransformError) {
        let index = GroupIndex(t.rows, groupBy)
        var groups: [Accumulator] = []
        groups.reserveCapacity(index.count)
        let n = fields.count
        // The columns read, looked up once (not a field name hashed per row).
        let keyColumns = groupBy.map { t.rows.column($0) }
        let fieldColumns = fields.map { f in f.field.flatMap { t.rows.column($0) } }
        for i in t.rows.indices {
            let g = index.ids[i]
            if g == groups.count {
                var initial = [Double](repeating: 0, count: n)
                for (k, f) in fields.enumerated() {
                    if f.op == .min { initial[k] = .infinity } else if f.op == .max { initial[k] = -.infinity }
                }
                groups.append(Accumulator(firstRow: i, numbers: initial, scaled: [Double](repeating: 0, count: n), counts: [Int](repeating: 0, count: n),
                                          lists: fields.map { _ in [] }, distinct: fields.map { _ in [] },
                                          key: keyColumns.map { $0?[i] }))
            }
            groups[g].count += 1
            for (k, f) in fields.enumerated() {
                guard let name = f.field, f.op != .count else { continue }
                guard let cell = fieldColumns[k]?[i] else { continue }
                if f.op == .distinct { groups[g].distinct[k].insert(cell); continue }
                guard case .number(let v) = cell else {
                    throw TransformError(step: step, field: name, row: t.sources[i],
                                         message: "aggregate \"\(f.op.rawValue)\" of \(quotedForMessage(name)) needs numbers, "
                                         + "found the text \(quotedForMessage(cell.string ?? "")); "
                                         + "count it (\"op\": \"count\" or \"distinct\") or group by it instead")
                }
                groups[g].counts[k] += 1
                switch f.op {
                case .sum: groups[g].numbers[k] += v
                case .mean: groups[g].numbers[k] += v; groups[g].scaled[k] += v * Self.downScale
                case .min: groups[g].numbers[k] = Swift.min(groups[g].numbers[k], v)
                case .max: groups[g].numbers[k] = Swift.max(groups[g].numbers[k], v)
                case .median: groups[g].lists[k].append(v)
                case .count, .distinct: break
                }
            }
        }
        // One column per group field and per summary (a later one of the same name wins,
        // as it did writing rows field by field).
        var columns: [(field: String, column: DataColumn)] = []
        for (j, name) in groupBy.enumerated() { columns.append((name, DataColumn(groups.lazy.map { $0.key[j] }))) }
        for (k, f) in fields.enumerated() {
            columns.append((f.name, DataColumn(groups.lazy.map { g -> DataValue? in
                let c = g.counts[k]
                switch f.op {
                case .count: return .number(Double(g.count))
                case .distinct: return .number(Double(g.distinct[k].count))
                // A sum beyond the largest number is left missing, as calculate leaves a
                // result that is not finite.
                case .sum: return g.numbers[k].isFinite ? .number(g.numbers[k]) : nil
                case .mean:
                    let plain = g.numbers[k]
                    return c == 0 ? nil : .number(plain.isFinite ? plain / Double(c) : g.scaled[k] / Double(c) * Self.upScale)
                case .min, .max: return c > 0 ? .number(g.numbers[k]) : nil
                case .median:
                    let s = g.lists[k].sorted()
                    // Halves first: the two middle numbers may add up beyond the largest.
                    return s.isEmpty ? nil : .number(s.count % 2 == 1 ? s[s.count / 2] : s[s.count / 2 - 1] / 2 + s[s.count / 2] / 2)
                }
            })))
        }
        let sources = groups.map { t.sources[$0.firstRow] }
        var dates: [String: DateFormat?] = [:]
        for name in groupBy { if let p = t.dates[name] { dates.updateValue(p, forKey: name) } }
        for f in fields where [.min, .max, .median].contains(f.op) {
            if let source = f.field, let p = t.dates[source] { dates.updateValue(p, forKey: f.name) }
        }
        t.rows = DataTable(count: groups.count, columns: columns); t.sources = sources; t.dates = dates
    }

    // MARK: Window

    func window(_ fields: [WindowField], keys: [SortKey], groupBy: [String], step: Int, on t: inout TransformedRows) throws(TransformError) {
        // Rows of each group in sort order.
        let order = Self.order(t.rows.indices, rows: t.rows, keys: keys)
        let index = GroupIndex(t.rows, groupBy)
        var members = [[Int]](repeating: [], count: index.count)
        for i in order { members[index.ids[i]].append(i) }
        for f in fields {
            if let name = f.field, f.op == .cumulativeSum || f.op == .movingAverage, let column = t.rows.column(name) {
                for i in t.rows.indices {
                    if case .string(let s)? = column[i] {
                        throw TransformError(step: step, field: name, row: t.sources[i],
                                             message: "window \"\(f.op.rawValue)\" of \(quotedForMessage(name)) needs numbers, found the text \(quotedForMessage(s))")
                    }
                }
            }
        }
        // Field by field, each a new column: every row belongs to one group, so each
        // field writes every row. (A field reading an earlier one's output sees it, as
        // when the rows were written group by group: a row reads only its own group.)
        for f in fields {
            var out = [Double?](repeating: nil, count: t.rows.count)
            let source = t.rows.column(f.field ?? "")
            for members in members {
                switch f.op {
                case .rowNumber:
                    for (k, i) in members.enumerated() { out[i] = Double(k + 1) }
                case .rank:
                    var rank = 1
                    for (k, i) in members.enumerated() {
                        if k > 0 && Self.compare(t.rows[members[k - 1]], t.rows[i], keys: keys) != 0 { rank = k + 1 }
                        out[i] = Double(rank)
                    }
                case .cumulativeSum:
                    var total = 0.0
                    for i in members {
                        total += source?.number(at: i) ?? 0
                        // A running total beyond the largest number is left missing.
                        out[i] = total.isFinite ? total : nil
                    }
                case .movingAverage:
                    let values = members.map { source?.number(at: $0) }
                    // A frame's sum from a tree of pairwise sums (O(log n) a frame). Prefix
                    // sums were cheaper, but a frame's sum was then a difference of two
                    // sums holding everything before it: after a spike of 1e17 the mean of
                    // 1 and 3 came out as 0, and after two 1e308s as NaN. When the numbers
                    // add up past the largest double, they are summed scaled by 2^-64 (exact).
                    var counts = [0]
                    for v in values { counts.append(counts.last! + (v == nil ? 0 : 1)) }
                    var sums = RangeSums(values.map { $0 ?? 0 })
                    var scale = 1.0
                    if !sums.total.isFinite {
                        sums = RangeSums(values.map { ($0 ?? 0) * Self.downScale })
                        scale = Self.upScale
                    }
                    for (k, i) in members.enumerated() {
                        let a = Swift.max(0, k + f.frame.before), b = Swift.min(members.count - 1, k + f.frame.after)
                        let c = b >= a ? counts[b + 1] - counts[a] : 0
                        out[i] = c > 0 ? sums.sum(a, b) / Double(c) * scale : nil
                    }
                }
            }
            t.rows.setColumn(f.name, DataColumn(numbers: out))
        }
    }

    // MARK: Helpers

    /// 2^-64 and 2^64: sums of numbers scaled by the first cannot overflow for fewer than
    /// 2^64 numbers, and scaling by a power of two is exact (down to 2^-958).
    static let downScale = 0x1p-64, upScale = 0x1p64

    /// The dates `timeUnit` truncates: within 1,000,000 years of 1970 in seconds (the
    /// calendar's day arithmetic is in Ints; MomentTemplate writes years beyond as numbers).
    static let maxDateSeconds = 1_000_000 * 365.2425 * 86_400

    /// The indices in the order of `keys` (stable).
    static func order(_ indices: Range<Int>, rows: DataTable, keys: [SortKey]) -> [Int] {
        guard !keys.isEmpty else { return Array(indices) }
        // Pull the keys out once: sorting a million rows compares ~20 million times.
        let columns = keys.map { k in rows.column(k.field).map { c in rows.indices.map { c[$0] } } ?? Array(repeating: nil, count: rows.count) }
        return indices.sorted { a, b in
            for (c, k) in zip(columns, keys) {
                let r = compareCells(c[a], c[b])
                if r != 0 { return k.descending ? r > 0 : r < 0 }
            }
            return a < b
        }
    }

    /// -1, 0 or 1 comparing two rows by `keys` (directions ignored: ties only matter).
    static func compare<R: FieldLookup>(_ a: R, _ b: R, keys: [SortKey]) -> Int {
        for k in keys { let r = compareCells(a[k.field], b[k.field]); if r != 0 { return r } }
        return 0
    }

    /// Numbers before text; numbers by value, text by Unicode scalars; missing values last.
    static func compareCells(_ a: DataValue?, _ b: DataValue?) -> Int {
        switch (a, b) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case (.number(let x)?, .number(let y)?): return x < y ? -1 : x > y ? 1 : 0
        case (.number?, .string?): return -1
        case (.string?, .number?): return 1
        case (.string(let x)?, .string(let y)?):
            return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars) ? -1 : x == y ? 0 : 1
        }
    }

    /// A cell as a date in seconds: a number, or text in the pattern or ISO 8601.
    static func date(_ cell: DataValue, pattern: DateFormat?) -> Double? {
        switch cell {
        case .number(let v): return v
        case .string(let s): return pattern?.parse(s) ?? CivilDate.parseISO(s)
        }
    }

    static func describe(_ cell: DataValue) -> String {
        switch cell {
        case .number(let v):
            // Written out below 10^16, in exponent form beyond (not 309 digits for 1e308)
            // and below 10^-6 (not "0" for 1e-300).
            if v != 0 && (abs(v) >= 1e16 || abs(v) < 1e-6) { return "\(v)" }
            return NumberFormat(maxFractionDigits: 6).format(v)
        case .string(let s): return "the text " + quotedForMessage(s)
        }
    }

    /// The start of the calendar unit holding `seconds` (UTC).
    public static func truncate(_ seconds: Double, to unit: TimeUnit) -> Double {
        let d = CivilDate(seconds: seconds)
        switch unit {
        case .year: return CivilDate(year: d.year, month: 1, day: 1).seconds
        case .quarter: return CivilDate(year: d.year, month: (d.month - 1) / 3 * 3 + 1, day: 1).seconds
        case .month: return CivilDate(year: d.year, month: d.month, day: 1).seconds
        case .week:
            let day = CivilDate.days(year: d.year, month: d.month, day: d.day) - d.weekday
            return Double(day) * 86_400
        case .day: return CivilDate(year: d.year, month: d.month, day: d.day).seconds
        }
    }

    /// A nice bin width (1, 2 or 5 × 10ⁿ) giving at most `maxBins` bins over `lo…hi`.
    /// Infinity when the values span more than the largest double (-1e308 to 1e308).
    public static func binStep(_ lo: Double, _ hi: Double, maxBins: Int) -> Double {
        guard hi > lo else { return 1 }
        guard (hi - lo).isFinite else { return .infinity }
        var step = NiceTicks.step(lo, hi, count: max(1, maxBins))
        // The ticks' step may give one bin too many once the ends are rounded out.
        for _ in 0..<4 {
            let (first, _) = bin(lo, width: step)
            if max(1, ((hi - first) / step - 1e-9).rounded(.up)) <= Double(maxBins) { break }
            let m = (step / pow10(step)).rounded()
            step = m == 1 ? step * 2 : m == 2 ? step * 2.5 : step * 2
        }
        return step
    }

    static func pow10(_ v: Double) -> Double {
        // An infinite or NaN step would never end the loops below.
        guard v.isFinite, v > 0 else { return 1 }
        var p = 1.0
        while p * 10 <= v { p *= 10 }
        while p > v { p /= 10 }
        return p
    }

    /// The bin of `v`: [start, end), computed so steps below 1 stay exact decimals.
    static func bin(_ v: Double, width: Double) -> (Double, Double) {
        if width < 1, (1 / width).rounded() * width == 1 {
            let inv = (1 / width).rounded()
            let k = (v * inv).rounded(.down)
            return (k / inv, (k + 1) / inv)
        }
        let k = (v / width).rounded(.down)
        return (k * width, (k + 1) * width)
    }
}

/// Sums of runs of numbers, each from at most 2 log n pairwise sums of numbers inside the
/// run (a segment tree), so a run's sum does not lose its digits to numbers outside it.
struct RangeSums {
    private var nodes: [Double]
    private let size: Int

    init(_ values: [Double]) {
        var size = 1
        while size < values.count { size *= 2 }
        nodes = [Double](repeating: 0, count: 2 * size)
        for (i, v) in values.enumerated() { nodes[size + i] = v }
        for i in stride(from: size - 1, through: 1, by: -1) { nodes[i] = nodes[2 * i] + nodes[2 * i + 1] }
        self.size = size
    }

    /// The sum of every number: finite only when no partial sum overflowed.
    var total: Double { nodes[1] }

    /// The sum of the numbers `a...b`.
    func sum(_ a: Int, _ b: Int) -> Double {
        var lo = a + size, hi = b + size + 1, s = 0.0
        while lo < hi {
            if lo & 1 == 1 { s += nodes[lo]; lo += 1 }
            if hi & 1 == 1 { hi -= 1; s += nodes[hi] }
            lo /= 2; hi /= 2
        }
        return s
    }
}

/// The group of every row: ids 0, 1, 2… in order of first appearance of each
/// combination of the group-by fields' values.
///
/// Each field's values are numbered once (one hash of the cell per field and row), and
/// the combination is folded pairwise over those numbers, so no key array is allocated
/// per row (with an array of values as the key, the aggregate of a million rows by two
/// fields was 14 % of scripts/bench-transforms' pipeline in perf, mostly that).
struct GroupIndex {
    private struct Pair: Hashable { var a: Int, b: Int }
    /// Each row's group.
    let ids: [Int]
    /// How many groups there are.
    let count: Int

    init(_ rows: DataTable, _ fields: [String]) {
        guard !fields.isEmpty else {
            ids = [Int](repeating: 0, count: rows.count)
            count = rows.isEmpty ? 0 : 1
            return
        }
        var combined = [Int](repeating: 0, count: rows.count)
        var combinedCount = 1
        for (k, field) in fields.enumerated() {
            var codes: [DataValue?: Int] = [:]
            var pairs: [Pair: Int] = [:]
            var next = 0
            let column = rows.column(field)
            // Each value's number in order of first appearance: a text column's codes
            // already name its distinct values, so they are renumbered without hashing.
            var textCodes: [Int] = [], raw: [UInt32] = [], missingCode = -1, seen = 0
            var isText = false
            if case .texts(let c, let values)? = column?.storage {
                textCodes = [Int](repeating: -1, count: values.count); raw = c; isText = true
            }
            for i in rows.indices {
                let code: Int
                if isText {
                    let r = raw[i]
                    if r == DataColumn.missingCode {
                        if missingCode < 0 { missingCode = seen; seen += 1 }
                        code = missingCode
                    } else if textCodes[Int(r)] >= 0 {
                        code = textCodes[Int(r)]
                    } else {
                        code = seen; textCodes[Int(r)] = seen; seen += 1
                    }
                } else {
                    let cell = column?[i]
                    if let c = codes[cell] { code = c } else { code = codes.count; codes[cell] = code }
                }
                if k == 0 {
                    combined[i] = code
                    next = isText ? seen : codes.count
                } else {
                    let pair = Pair(a: combined[i], b: code)
                    if let id = pairs[pair] { combined[i] = id } else { pairs[pair] = next; combined[i] = next; next += 1 }
                }
            }
            combinedCount = next
        }
        // Ids numbered so far follow first appearance of each field's values in turn;
        // renumber by first appearance of the whole combination.
        var renumber = [Int](repeating: -1, count: combinedCount)
        var n = 0
        for i in combined.indices {
            if renumber[combined[i]] < 0 { renumber[combined[i]] = n; n += 1 }
            combined[i] = renumber[combined[i]]
        }
        ids = combined
        count = n
    }
}

/// A filter predicate with its operands resolved once (dates parsed in the column's pattern).
struct CompiledPredicate {
    /// An operand: its number (a number, or a date in seconds) and its text.
    struct Operand {
        var number: Double?
        var text: String?
        /// A number written as text: text cells compare only when they are numbers too.
        var numericText = false
        init(_ v: DataValue, pattern: DateFormat??) {
            switch v {
            case .number(let n): number = n; text = nil
            case .string(let s):
                text = s
                if case .some(let p) = pattern { number = p?.parse(s) ?? CivilDate.parseISO(s) }
                else {
                    // A date, or a number written as text ("10" against a number column).
                    let plain = Double(s).flatMap { $0.isFinite ? $0 : nil }
                    number = CivilDate.parseISO(s) ?? plain
                    numericText = number != nil && number == plain
                }
            }
        }

        /// -1, 0, 1 comparing a cell with the operand; nil when they cannot be compared.
        func compare(_ cell: DataValue) -> Int? {
            switch cell {
            case .number(let v):
                guard let n = number else { return nil }
                return v < n ? -1 : v > n ? 1 : 0
            case .string(let s):
                if numericText, let n = number {
                    guard let v = Double(s), v.isFinite else { return nil }
                    return v < n ? -1 : v > n ? 1 : 0
                }
                if let n = number, let v = CivilDate.parseISO(s) { return v < n ? -1 : v > n ? 1 : 0 }
                guard let t = text else { return nil }
                return DataTransform.compareCells(.string(s), .string(t))
            }
        }
    }

    indirect enum Test {
        case equals(String, [Operand])
        case range(String, (Operand, Bool)?, (Operand, Bool)?)
        case valid(String)
        case not(Test)
        case all([Test])
    }

    let test: Test

    init(_ p: FilterPredicate, dates: [String: DateFormat?]) {
        func compile(_ p: FilterPredicate) -> Test {
            switch p {
            case .equals(let f, let v): return .equals(f, [Operand(v, pattern: dates[f])])
            case .oneOf(let f, let vs): return .equals(f, vs.map { Operand($0, pattern: dates[f]) })
            case .range(let f, let lo, let hi):
                return .range(f, lo.map { (Operand($0.value, pattern: dates[f]), $0.inclusive) },
                              hi.map { (Operand($0.value, pattern: dates[f]), $0.inclusive) })
            case .valid(let f): return .valid(f)
            case .not(let q): return .not(compile(q))
            case .all(let qs): return .all(qs.map(compile))
            }
        }
        test = compile(p)
    }

    func holds<R: FieldLookup>(_ row: R) -> Bool { Self.holds(test, row) }

    static func holds<R: FieldLookup>(_ t: Test, _ row: R) -> Bool {
        switch t {
        case .equals(let f, let ops):
            guard let cell = row[f] else { return false }
            return ops.contains { $0.compare(cell) == 0 }
        case .range(let f, let lo, let hi):
            guard let cell = row[f] else { return false }
            if let (op, inclusive) = lo {
                guard let c = op.compare(cell), c > 0 || (inclusive && c == 0) else { return false }
            }
            if let (op, inclusive) = hi {
                guard let c = op.compare(cell), c < 0 || (inclusive && c == 0) else { return false }
            }
            return true
        case .valid(let f): return row[f] != nil
        case .not(let q): return !holds(q, row)
        case .all(let qs): return qs.allSatisfy { holds($0, row) }
        }
    }
}

/// `s` in double quotes, control characters escaped, shortened to about 40 characters
/// (the document decoder's message style).
func quotedForMessage(_ s: String) -> String {
    var out = "\""
    for (n, scalar) in s.unicodeScalars.enumerated() {
        if n == 40 { out += "…"; break }
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case _ where scalar.value < 0x20: out += "\\u{\(String(scalar.value, radix: 16))}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
