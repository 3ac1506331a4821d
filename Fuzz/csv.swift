// Fuzz target: the CSV reader and the typing of its cells.
//
// The first byte picks how columns are typed (by content, all numbers, all ISO 8601
// dates, or all dates in a pattern) and, when its top bit is set, a dialect other than
// commas and decimal points (semicolons, with or without decimal commas; tabs with them); for a pattern, the first line of the rest is the
// pattern and the remainder the CSV, so date patterns are fuzzed too. Parsing and
// typing must either succeed or throw a `CSVError` whose row and column lie inside the
// text; every row of a parsed table has as many fields as the header.
import Charts
import Timelines

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let mode = data[0] % 4
    let dialects = [CSVDialect(delimiter: .semicolon), CSVDialect(delimiter: .semicolon, decimalComma: true), CSVDialect(delimiter: .tab, decimalComma: true)]
    let dialect = data[0] & 0x80 == 0 ? CSVDialect.standard : dialects[Int(data[0] >> 2) % dialects.count]
    var rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var pattern: String? = nil
    if mode == 3 {
        let nl = rest.firstIndex(of: 0x0A) ?? rest.count
        pattern = String(decoding: rest[..<nl], as: UTF8.self)
        rest = Array(rest[min(rest.count, nl + 1)...])
    }
    // Line ends as the reader counts them: LF, CRLF, or a lone CR.
    var lines = 1
    for (i, b) in rest.enumerated() where b == 0x0A || (b == 0x0D && (i + 1 == rest.count || rest[i + 1] != 0x0A)) {
        lines += 1
    }
    do {
        let text = try CSVReader.read(rest, file: "fuzz.csv", dialect: dialect)
        let (header, rows) = (text.header, text.rows)
        for r in rows where r.count != header.count { fatalError("ragged row accepted") }
        var types: [String: CSVReader.ColumnType] = [:]
        for name in header {
            switch mode {
            case 1: types[name] = .number
            case 2: types[name] = .date(nil)
            case 3: types[name] = .date(pattern)
            default: break
            }
        }
        let table = try CSVReader.table(text, types: types, file: "fuzz.csv", dialect: dialect)
        if table.count != rows.count { fatalError("\(rows.count) rows became \(table.count)") }
        // The flat reader the document decoder uses must give the same rows.
        do {
            guard let flat = try CSVReader.typedTable(rest, file: "fuzz.csv", types: types, dialect: dialect) else { fatalError("no table") }
            if flat.header != header || flat.rows.rows != table || flat.rowLocations != text.locations.map({ $0[0] }) {
                fatalError("typedTable differs from read + table")
            }
        } catch {
            fatalError("typedTable threw \(error) where read + table succeeded")
        }
        for row in table {
            for (_, v) in row { if case .number(let x) = v, !x.isFinite { fatalError("non-finite cell \(x)") } }
        }
    } catch {
        // Typed throws: every error here is a CSVError; its location must be inside the text.
        let e = error
        // The flat reader throws the same error.
        do {
            _ = try CSVReader.typedTable(rest, file: "fuzz.csv", types: typesFor(mode, pattern, rest, dialect), dialect: dialect)
            fatalError("typedTable accepted what read + table refused: \(e)")
        } catch {
            if error != e { fatalError("typedTable threw \(error), read + table \(e)") }
        }
        if e.location.line < 1 || e.location.line > lines + 1 { fatalError("error line \(e.location.line) outside 1...\(lines + 1): \(e)") }
        if e.location.column < 1 { fatalError("error column \(e.location.column): \(e)") }
        _ = e.description
    }
    return 0
}

/// The column types of `mode` for the header of `bytes` (when it has one), as the
/// target's main path gives them.
private func typesFor(_ mode: UInt8, _ pattern: String?, _ bytes: [UInt8], _ dialect: CSVDialect) -> [String: CSVReader.ColumnType] {
    guard mode != 0, let text = try? CSVReader.read(bytes, file: "fuzz.csv", dialect: dialect) else {
        // No header could be read: both readers stop before typing, types do not matter.
        return [:]
    }
    var types: [String: CSVReader.ColumnType] = [:]
    for name in text.header {
        switch mode {
        case 1: types[name] = .number
        case 2: types[name] = .date(nil)
        default: types[name] = .date(pattern)
        }
    }
    return types
}
