import Foundation
import Charts

/// A decoded data table and where each of its rows came from, so a problem found
/// later (a chart reading a field a row lacks) is reported at the row itself: its
/// line in the CSV file, or its object in the document.
struct DecodedTable {
    /// Where one row was written.
    struct Origin {
        /// The document or the CSV file.
        var file: String
        /// The row's JSON path (`data.week.values[3]`), or the table's for CSV rows.
        var path: JSONPath
        /// The row's first character.
        var location: SourceLocation
        /// True when the row itself was reported (it is not an object), so nothing
        /// more is said about it.
        var reported = false
    }

    /// The rows, in order, by column.
    var rows = DataTable()
    /// Where each row came from, parallel to `rows`.
    var origins = RowOrigins()
    /// False when the table could not be read; its error is reported already, so
    /// charts that use it check nothing more against it.
    var isValid = true
    /// The fields holding dates (seconds), with the pattern their column was written in.
    var dates: [String: DateFormat?] = [:]
    /// Names to show for fields in axis titles (`"displayNames"`).
    var displayNames: [String: String] = [:]

    /// A table that failed to load.
    static let invalid = DecodedTable(isValid: false)

    /// Every field some row has, sorted.
    var fields: [String] { rows.fields.filter(hasField).sorted() }

    /// True when at least one row has `field`.
    func hasField(_ field: String) -> Bool {
        guard let c = rows.column(field) else { return false }
        return (0..<c.count).contains { c[$0] != nil }
    }
}

/// Where each row of a decoded table was written: for a CSV file one shared file and
/// path and a location per row (8 bytes a row), for inline rows an origin each; after a
/// transform, the input row each row came from.
struct RowOrigins {
    private enum Base {
        /// A CSV file's rows: one path, a location each.
        case csv(file: String, path: JSONPath, locations: [UInt64])
        /// Inline rows: the `values` array's path (row k is its element k), a location
        /// each, and the rows reported already (they were not objects).
        case inline(file: String, path: JSONPath, locations: [UInt64], reported: Set<Int>)
    }
    private var base = Base.inline(file: "", path: JSONPath(), locations: [], reported: [])
    /// Row → index into `base`; nil when they are the same.
    private var map: [Int]?

    init() {}

    /// The origins of a CSV file's rows.
    init(file: String, path: JSONPath, locations: [UInt64]) { base = .csv(file: file, path: path, locations: locations) }

    /// The origins of the inline rows of the array at `path`.
    init(file: String, inlineRowsAt path: JSONPath, locations: [UInt64], reported: Set<Int>) {
        base = .inline(file: file, path: path, locations: locations, reported: reported)
    }

    var count: Int {
        if let map { return map.count }
        switch base { case .csv(_, _, let l), .inline(_, _, let l, _): return l.count }
    }

    subscript(i: Int) -> DecodedTable.Origin {
        let k = map?[i] ?? i
        switch base {
        case .csv(let file, let path, let locations):
            return DecodedTable.Origin(file: file, path: path, location: SourceLocation(packed: locations[k]))
        case .inline(let file, let path, let locations, let reported):
            return DecodedTable.Origin(file: file, path: path.appending(index: k), location: SourceLocation(packed: locations[k]),
                                       reported: reported.contains(k))
        }
    }

    /// The origins of the rows at `indices`, in that order.
    func gathering(_ indices: [Int]) -> RowOrigins {
        var o = self
        o.map = map.map { m in indices.map { m[$0] } } ?? indices
        return o
    }
}

extension TimelineDecoder {
    /// A data table: `{ "values": [ { "field": number or text, … }, … ] }` inline, or
    /// `{ "file": "data/names.csv", "columns": { "year": "number", "day": { "date": "MMM d yyyy" } } }`
    /// read from a CSV file next to the document; `"fold"` turns wide data (one column per
    /// series) into long rows: `{ "columns": ["a", "b"], "as": ["series", "value"] }`.
    static func table(_ c: JSONCursor, base: String) -> DecodedTable {
        guard let obj = c.object(allowedKeys: ["values", "file", "columns", "delimiter", "decimal", "fold", "transform", "displayNames"]) else { return .invalid }
        var out = DecodedTable()
        if let f = obj.optional("file") {
            guard let name = f.string() else { return .invalid }
            if obj.contains("values") { c.report("a table takes \"values\" or \"file\", not both") }
            let path = name.hasPrefix("/") || base.isEmpty ? name : base + "/" + name
            guard let csv = readCSV(f, path: path, types: columnTypes(obj.optional("columns")),
                                    delimiter: obj.optional("delimiter").flatMap(csvDelimiter), decimal: obj.optional("decimal")) else { return .invalid }
            out.rows = csv.rows
            out.origins = RowOrigins(file: path, path: c.path, locations: csv.locations)
            out.dates = csv.dates
        } else {
            for key in ["columns", "delimiter", "decimal"] where obj.contains(key) {
                obj.optional(key)?.report("\"\(key)\" is for a CSV \"file\"; inline \"values\" need none")
            }
        }
        if !obj.contains("file") {
            guard let rows = obj.required("values")?.elements(minCount: 1) else { return .invalid }
            (out.rows, out.origins) = inlineRows(rows)
        }
        if let fold = obj.optional("fold")?.object(allowedKeys: ["columns", "keep", "as", "displayNames"]) {
            let tableName = c.path.components.last.flatMap(keyName) ?? ""
            var cols: [String] = []
            if let keepCursor = fold.optional("keep") {
                // The columns that stay (pandas' `melt(id_vars=…)`); every other is folded,
                // in the table's order: a wide CSV of 200 countries needs no list of them.
                if let given = fold.optional("columns") { given.report("give \"columns\" (the columns to fold) or \"keep\" (the columns that stay), not both") }
                var kept = Set<String>()
                for kc in keepCursor.array(minCount: 1) ?? [] {
                    guard let name = kc.string() else { continue }
                    if out.isValid && !out.hasField(name) { kc.report(unknownFieldMessage(name, tableName: tableName, table: out)) }
                    kept.insert(name)
                }
                cols = out.rows.fields.filter { !kept.contains($0) && out.hasField($0) }
                if cols.isEmpty && out.isValid && !out.rows.isEmpty { keepCursor.report("every column is kept, so none is left to fold") }
            } else {
                for cc in fold.required("columns")?.array(minCount: 1) ?? [] {
                    guard let name = cc.string() else { continue }
                    if out.isValid && !out.hasField(name) {
                        cc.report(unknownFieldMessage(name, tableName: tableName, table: out))
                        continue
                    }
                    cols.append(name)
                }
            }
            var names = ("series", "value")
            if let a = fold.optional("as")?.array(minCount: 2, maxCount: 2), let k = a[0].string(), let v = a[1].string() { names = (k, v) }
            // The key each column gets: its display name, else its own name.
            var shown: [String: String] = [:]
            if let dn = fold.optional("displayNames")?.object() {
                for (k, v) in dn.entries {
                    guard let text = v.string() else { continue }
                    if !cols.contains(k) {
                        var message = "\(quotedForMessage(k)) is not one of the folded columns"
                        if let s = nearestCandidate(to: k, in: cols) { message += "; did you mean \(quotedForMessage(s))?" }
                        v.report(message)
                    }
                    shown[k] = text
                }
            }
            // Each row once per folded column: the other fields gathered, then the
            // column's name and its value.
            var long = DecodedTable()
            long.dates = out.dates
            let repeated = out.rows.indices.flatMap { i in repeatElement(i, count: cols.count) }
            var rest = out.rows
            for col in cols { rest.removeColumn(col) }
            long.rows = rest.gathering(repeated)
            let source = cols.map { out.rows.column($0) }
            long.rows.setColumn(names.0, DataColumn(out.rows.indices.lazy.flatMap { _ in cols.lazy.map { DataValue.string(shown[$0] ?? $0) } }))
            long.rows.setColumn(names.1, DataColumn(out.rows.indices.lazy.flatMap { i in source.lazy.map { $0?[i] } }))
            long.origins = out.origins.gathering(repeated)
            out = long
        }
        if let dn = obj.optional("displayNames")?.object() {
            for (k, v) in dn.entries {
                guard let text = v.string() else { continue }
                if out.isValid && !out.rows.isEmpty && !out.hasField(k) {
                    v.report(unknownFieldMessage(k, tableName: c.path.components.last.flatMap(keyName) ?? "", table: out))
                }
                out.displayNames[k] = text
            }
        }
        if let t = obj.optional("transform") {
            transform(t, table: &out, tableName: c.path.components.last.flatMap(keyName) ?? "")
        }
        return out
    }

    /// False makes every inline row go the general way (for tests comparing the two).
    nonisolated(unsafe) static var readsRowsOffTape = true

    /// Inline rows straight into columns, with their origins.
    ///
    /// A parsed row that is an object of numbers, strings (within the label limit) and
    /// nulls without a repeated key is read off the tape (JSONTape.swift) with no cursor,
    /// path or dictionary; its keys are matched to columns by their bytes, as the rows
    /// of a table mostly repeat them. Any other row goes through cursors, which report
    /// what is wrong with it exactly as before.
    static func inlineRows(_ rows: JSONArrayCursor) -> (DataTable, RowOrigins) {
        var fields: [String] = [], slot: [String: Int] = [:]
        var columns: [DataColumn.Builder] = [], filled: [Int] = []
        func column(_ field: String) -> Int {
            if let k = slot[field] { return k }
            slot[field] = fields.count
            fields.append(field); columns.append(DataColumn.Builder()); filled.append(0)
            return fields.count - 1
        }
        // Keys read off the tape, numbered as first seen; a key's column is made when it
        // first has a value (as the general way makes it), so the order of fields is the same.
        var keyIDs: [String: Int] = [:], keyNames: [String] = [], keyColumns: [Int] = []
        var seen: [Int] = []   // per key, the last row that had it, for repeated keys
        func keyID(_ name: String) -> Int {
            if let k = keyIDs[name] { return k }
            keyIDs[name] = keyNames.count
            keyNames.append(name); keyColumns.append(-1); seen.append(-1)
            return keyNames.count - 1
        }
        func put(_ v: DataValue?, column k: Int, row: Int) {
            while filled[k] < row { columns[k].append(nil); filled[k] += 1 }
            columns[k].append(v); filled[k] = row + 1
        }
        var locations: [UInt64] = []
        locations.reserveCapacity(rows.count)
        var reported = Set<Int>()
        let limit = TimelineDecoder.labelLimit
        // Per member position, a key's bytes seen there before and its number.
        var recent: [(range: Range<Int>, column: Int)] = []
        var scanner: SourceMap.Scanner? = nil
        var rowColumns: [Int] = []
        for r in rows.indices {
            if case .parsed(let d, let children) = rows.elements {
                let e = Int(children[r])
                // Rows come in text order, so one scanner walks the text once for all their locations.
                let offset = d.offset(e)
                if scanner == nil || scanner!.offset > offset { scanner = d.map.scanner(before: offset) }
                scanner!.advance(to: offset, in: d.source)
                locations.append(scanner!.location.packed)
                if readsRowsOffTape && readRow(d, e, row: r) { continue }
            } else {
                locations.append(rows[r].location.packed)
            }
            // The general way: cursors report whatever is wrong.
            let c = rows[r]
            guard let ro = c.object() else { reported.insert(r); continue }
            var row: DataRow = [:]   // a repeated key's last value wins
            for (k, v) in ro.entries {
                switch v.value {
                case .number(let x, _): row[k] = .number(x)
                case .string(let s): row[k] = .string(v.checkedLength(s) ?? "")
                case .null: break
                default:
                    v.report("expected a number or a string, found \(v.value.kindDescription)")
                    // A stand-in keeps the row from being reported again as lacking the field.
                    row[k] = .number(0)
                }
            }
            var done = Set<String>()
            for k in ro.keys where row[k] != nil && done.insert(k).inserted { put(row[k], column: column(k), row: r) }
        }

        /// Reads row `r` at tape index `e` into the columns; false (and nothing read) when
        /// it is not a plain object of numbers, strings and nulls.
        func readRow(_ d: JSONDocument, _ e: Int, row r: Int) -> Bool {
            guard d.tag(e) == .object else { return false }
            // First check, then read, so a row read the general way is not half in the columns.
            rowColumns.removeAll(keepingCapacity: true)
            var ok = true
            d.source.withUnsafeBufferPointer { source in
                d.forEachChild(e) { key in
                    guard ok else { return }
                    let m = rowColumns.count
                    let (raw, escaped) = d.rawString(key)
                    let k: Int
                    if !escaped, m < recent.count, recent[m].range.count == raw.count,
                       memcmp(source.baseAddress! + recent[m].range.lowerBound, source.baseAddress! + raw.lowerBound, raw.count) == 0 {
                        k = recent[m].column
                    } else {
                        k = keyID(d.string(key))
                        if !escaped {
                            if m < recent.count { recent[m] = (raw, k) } else { recent.append((raw, k)) }
                        }
                    }
                    switch d.tag(key + 1) {
                    case .smallInteger, .number, .null: break
                    case .string: if d.rawString(key + 1).range.count > limit { ok = false }
                    default: ok = false
                    }
                    if seen[k] == r { ok = false }   // a repeated key
                    seen[k] = r
                    rowColumns.append(k)
                }
            }
            guard ok else { return false }
            var m = 0
            d.forEachChild(e) { key in
                let id = rowColumns[m]
                m += 1
                let tag = d.tag(key + 1)
                guard tag != .null else { return }
                if keyColumns[id] < 0 { keyColumns[id] = column(keyNames[id]) }
                let k = keyColumns[id]
                if tag == .string { put(.string(d.string(key + 1)), column: k, row: r) }
                else { put(.number(d.number(key + 1)), column: k, row: r) }
            }
            return true
        }

        let n = rows.count
        for k in fields.indices { while filled[k] < n { columns[k].append(nil); filled[k] += 1 } }
        let table = DataTable(count: n, columns: fields.indices.map { (fields[$0], columns[$0].column) })
        return (table, RowOrigins(file: rows.parent.file, inlineRowsAt: rows.parent.path, locations: locations, reported: reported))
    }

    private static func keyName(_ component: JSONPath.Component) -> String? {
        if case .key(let k) = component { return k }
        return nil
    }

    /// The `"columns"` types of a CSV table, each with the cursor that named it.
    static func columnTypes(_ c: JSONCursor?) -> [(name: String, type: CSVReader.ColumnType, cursor: JSONCursor)] {
        guard let cols = c?.object() else { return [] }
        var types: [(name: String, type: CSVReader.ColumnType, cursor: JSONCursor)] = []
        for (k, v) in cols.entries {
            if case .string = v.value {
                switch v.stringEnum(["number", "string", "date"]) {
                case "number": types.append((k, .number, v))
                case "string": types.append((k, .string, v))
                case "date": types.append((k, .date(nil), v))
                default: break
                }
            } else if case .object = v.value {
                if let vo = v.object(allowedKeys: ["date"]), let p = vo.required("date")?.string() {
                    types.append((k, .date(p), v))
                }
            } else {
                v.report("expected \"number\", \"string\", \"date\" or { \"date\": \"MMM d yyyy\" }, found \(v.value.kindDescription)")
            }
        }
        return types
    }

    /// Reads and types the CSV file at `path` (named by the cursor `f`); reports and
    /// returns nil on any problem.
    /// `"delimiter"`: one of `","`, `";"`, `"\t"`, `"|"`.
    static func csvDelimiter(_ c: JSONCursor) -> CSVDialect.Delimiter? {
        guard let s = c.string() else { return nil }
        switch s {
        case ",": return .comma
        case ";": return .semicolon
        case "\t": return .tab
        case "|": return .bar
        default:
            c.report("expected a delimiter \",\", \";\", \"\\t\" (a tab) or \"|\", found \(quotedForMessage(s))")
            return nil
        }
    }

    /// The rows of a CSV file, typed: `delimiter` between fields (nil: found from the file,
    /// `CSVDialect.delimiter(of:path:)`), numbers with a decimal point or comma as
    /// `decimal` says (`"."` or `","`; without it, a file delimited by semicolons whose
    /// text columns read as decimal-comma numbers is read with decimal commas).
    static func readCSV(_ f: JSONCursor, path: String,
                        types: [(name: String, type: CSVReader.ColumnType, cursor: JSONCursor)],
                        delimiter given: CSVDialect.Delimiter? = nil, decimal: JSONCursor? = nil)
        -> (rows: DataTable, locations: [UInt64], dates: [String: DateFormat?])? {
        let bytes: [UInt8]
        switch FileReading.contents(path, allowed: TimelineDecoder.context?.allowedFiles) {
        case .success(let b): bytes = b
        case .failure(let failure):
            f.report(failure.message(path: path, expected: "a CSV file with a header row"))
            return nil
        }
        // Its rows would take many times its size: refused before they are made.
        if let over = TimelineDecoder.context?.chargeCSV(bytes.count, path: path) {
            f.report(over)
            return nil
        }
        var dialect = CSVDialect(delimiter: given ?? CSVDialect.delimiter(of: bytes, path: path))
        var decimalGiven = false
        // A file of semicolons is most often a spreadsheet's in a language that writes
        // decimal commas: until its cells say otherwise, no comma groups thousands there.
        if dialect.delimiter == .semicolon { dialect.groupingCommas = false }
        if let decimal, let d = decimal.stringEnum([".", ","]) {
            decimalGiven = true
            dialect.decimalComma = d == ","
            dialect.groupingCommas = true
            if dialect.decimalComma && dialect.delimiter == .comma {
                decimal.report("numbers with a decimal comma need fields separated by something else; give \"delimiter\": \";\" (or \"\\t\")")
                return nil
            }
        }
        do throws(CSVError) {
            var typeMap: [String: CSVReader.ColumnType] = [:]
            for t in types { typeMap[t.name] = t.type }
            func read() throws(CSVError) -> CSVTable? {
                try CSVReader.typedTable(bytes, file: path, types: typeMap, maxTextLength: TimelineDecoder.labelLimit, dialect: dialect) { header in
                    var missing = false
                    for t in types where !header.contains(t.name) {
                        var message = "\(quotedForMessage(path)) has no column \(quotedForMessage(t.name))"
                        if let s = nearestCandidate(to: t.name, in: header) {
                            message += "; did you mean \(quotedForMessage(s))?"
                        } else {
                            message += "; its columns are " + quotedList(header)
                        }
                        t.cursor.report(message)
                        missing = true
                    }
                    return !missing
                }
            }
            guard var table = try read() else { return nil }
            // When an untyped column of a file of semicolons reads as decimal-comma numbers,
            // so does the whole file.
            if !decimalGiven && dialect.delimiter == .semicolon,
               table.header.contains(where: { name in
                   guard typeMap[name] == nil, let col = table.rows.column(name), col.holdsOnlyText else { return false }
                   return CSVReader.holdsDecimalCommaNumbers((0..<col.count).compactMap { col[$0]?.string })
               }) {
                dialect.decimalComma = true
                guard let again = try read() else { return nil }
                table = again
            }
            var dates: [String: DateFormat?] = [:]
            for (name, type) in typeMap { if case .date(let p) = type { dates.updateValue(p.map(DateFormat.init), forKey: name) } }
            // Untyped columns of dates in a common form are read as dates; a form whose
            // day and month could be either way round is left as text, with a warning.
            for column in table.header where typeMap[column] == nil {
                guard let values = table.rows.column(column), values.holdsOnlyText else { continue }
                let cells = (0..<values.count).map { values[$0]?.string }
                switch DateDetection.detect(cells) {
                case .dates(let pattern):
                    let format = DateFormat(pattern)
                    let parsed: [Double?] = cells.map { c -> Double? in
                        guard let c else { return nil }
                        let t = CSVReader.trim(c)
                        return t.isEmpty ? nil : format.parse(t)
                    }
                    // Every written cell must read as a date, or the column stays text.
                    guard !zip(cells, parsed).contains(where: { c, v in v == nil && !(c.map(CSVReader.trim)?.isEmpty ?? true) }) else { continue }
                    table.rows.setColumn(column, DataColumn(numbers: parsed))
                    dates.updateValue(format, forKey: column)
                case .ambiguous(let example, let patterns):
                    warn(f, "the column \(quotedForMessage(column)) holds dates such as \(quotedForMessage(example)), but whether the "
                         + "month or the day comes first cannot be told, so it is read as text; type it: \"columns\": { "
                         + "\(quotedForMessage(column)): { \"date\": \(quotedForMessage(patterns[0])) } }"
                         + (patterns.count > 1 ? " (or \(quotedForMessage(patterns[1])))" : ""))
                case .none: break
                }
            }
            return (table.rows, table.packedRowLocations, dates)
        } catch {
            // The CSV's own location, with the table's path so the reader knows which table.
            f.sink.report(DocumentError(file: error.file, path: JSONPath(Array(f.path.components.dropLast())),
                                        location: error.location, message: error.message))
            return nil
        }
    }

    /// `no row of data "week" has a field "when"; did you mean "x"?`.
    static func unknownFieldMessage(_ field: String, tableName: String, table: DecodedTable) -> String {
        var message = "no row of data \(quotedForMessage(tableName)) has a field \(quotedForMessage(field))"
        let fields = table.fields
        if let s = nearestCandidate(to: field, in: fields) {
            message += "; did you mean \(quotedForMessage(s))?"
        } else if fields.isEmpty {
            message += "; its rows have no fields"
        } else {
            message += "; its fields are " + quotedList(fields)
        }
        return message
    }

    /// Reports at `at` when no row of `table` has `field`; true when the field exists
    /// (or the table is invalid, whose error is reported already).
    @discardableResult
    static func checkField(_ field: String, at: JSONCursor, tableName: String, table: DecodedTable?) -> Bool {
        guard let table, table.isValid, !table.rows.isEmpty else { return true }
        if table.hasField(field) { return true }
        at.report(unknownFieldMessage(field, tableName: tableName, table: table))
        return false
    }
}

/// The table a chart plots, as its marks see it when they name fields.
struct ChartData {
    /// The table's name in the document's `"data"`.
    var name: String
    /// The table; nil when the chart names unknown data (reported already).
    var table: DecodedTable?
    /// The chart's data moves (`"time"`), so its texts may name the moment.
    var moving = false
    /// The chart's time reveals each key's history (`"reveal": true`), so marks may draw
    /// the keys' heads only.
    var reveals = false
    /// Fields the chart adds to its rows (a race's rank), known to exist.
    var added: Set<String> = []

    /// No table: nothing to check fields against.
    static let none = ChartData(name: "", table: nil)

    /// The string at `c` as a field name, reported when no row has it.
    func field(_ c: JSONCursor?) -> String? {
        guard let c, let name = c.string() else { return nil }
        if !added.contains(name) { TimelineDecoder.checkField(name, at: c, tableName: self.name, table: table) }
        return name
    }
}
