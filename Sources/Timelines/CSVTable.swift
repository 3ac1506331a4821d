import Charts

/// A CSV file read straight into typed rows, for big files.
///
/// `CSVReader.read` keeps every cell as a `String` with its own location (an array of
/// each per row) before `CSVReader.table` types them: for 1,000,000 rows of two numbers
/// that was ~180 MB besides the rows themselves (scripts/bench --load). Here the text is
/// split once into byte ranges in three flat arrays (17 bytes a cell), the columns are
/// typed from those ranges, and each cell becomes its value with no other copy; a cell's
/// line and column are worked out from its byte offset only when it has an error. The
/// rows, the errors and their locations are those of `read` followed by `table`, which
/// stay as the plain reference (`CSVTableTests` and the csv fuzz target compare them).
public struct CSVTable: Sendable {
    /// The column names from the first row (an empty name becomes `column<N>`).
    public var header: [String]
    /// The data rows, typed, by column.
    public var rows: DataTable
    /// Where each row starts (its first cell), parallel to `rows`.
    public var rowLocations: [SourceLocation] { packedRowLocations.map(SourceLocation.init(packed:)) }
    /// The same, each line and column in one 64-bit number (8 bytes a row, not 16).
    var packedRowLocations: [UInt64]
}

extension SourceLocation {
    /// A location from a line (high 32 bits) and column (low 32 bits).
    init(packed: UInt64) { self.init(line: Int(packed >> 32), column: Int(packed & 0xFFFF_FFFF)) }
    /// The line and column in one number; both are below 2^32 in a file the CSV reader takes.
    var packed: UInt64 { UInt64(line) << 32 | UInt64(column) }
}

extension CSVReader {
    /// The typed rows of `bytes`: `read` then `table` in one pass, without keeping the
    /// cells as strings. `checkHeader` sees the column names once the text is known to be
    /// a table (where `read` would return) and before any cell is typed; when it returns
    /// false, so does this (nil).
    /// - Throws: what `read` and `table` throw, at the same locations.
    public static func typedTable(_ bytes: [UInt8], file: String, types: [String: ColumnType],
                                  maxTextLength: Int = DocumentLimits().maxLabelLength, dialect: CSVDialect = .standard,
                                  checkHeader: ([String]) -> Bool = { _ in true }) throws(CSVError) -> CSVTable? {
        var start = 0
        // Cells are kept as 32-bit offsets (8 bytes a cell, not 16).
        guard bytes.count < Int(UInt32.max) else {
            throw CSVError(file: file, location: SourceLocation(line: 1, column: 1),
                           message: "the file is \(bytes.count) bytes, over the 4 GB a CSV file can be (4,294,967,294 bytes)")
        }
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        if let bad = firstInvalidUTF8(bytes, from: start) {
            throw CSVError(file: file, location: location(of: bad, in: bytes, from: start),
                           message: "invalid UTF-8 (byte 0x\(hex2(bytes[bad]))); save the file as UTF-8")
        }
        let cells = try CSVCells(bytes, from: start, file: file, delimiter: dialect.delimiter)
        func at(_ cell: Int) -> SourceLocation { location(of: Int(cells.starts[cell]), in: bytes, from: start) }
        guard cells.rowCount > 0 else {
            throw CSVError(file: file, location: SourceLocation(line: 1, column: 1),
                           message: "the file is empty; expected a header row such as \"x,y\"")
        }
        let names = cells.row(0).enumerated().map { k, c in cells.text(c, bytes) ?? "column\(k + 1)" }
        var seen: [String: Int] = [:]
        for (k, n) in names.enumerated() {
            if let first = seen[n] {
                throw CSVError(file: file, location: at(cells.row(0).lowerBound + k),
                               message: "duplicate column name \"\(n)\" (also column \(first + 1))")
            }
            seen[n] = k
        }
        for r in 1..<max(1, cells.rowCount) where cells.row(r).count != names.count {
            let row = cells.row(r)
            let cell = row.count > names.count ? row.lowerBound + names.count : row.lowerBound
            var message = "expected \(names.count) \(names.count == 1 ? "field" : "fields") as in the header, found \(row.count)"
            if names.count == 1 {
                message += oneColumnHint(dialect)
            }
            throw CSVError(file: file, location: at(cell), message: message)
        }
        if cells.rowCount == 1 {
            throw CSVError(file: file, location: SourceLocation(line: cells.lastLine, column: 1), message: "no data rows after the header")
        }
        guard checkHeader(names) else { return nil }
        // Column kinds: given, or numbers when every non-empty cell is one. A column found
        // to be numbers keeps the numbers read while looking (read once, not twice).
        var kinds: [ColumnType] = []
        var found = [[Double]?](repeating: nil, count: names.count)
        for (k, name) in names.enumerated() {
            if let t = types[name] { kinds.append(t); continue }
            var any = false, numeric = true, filled = 0, percents = 0
            var values: [Double] = []
            values.reserveCapacity(cells.rowCount - 1)
            for r in 1..<cells.rowCount {
                guard let s = cells.text(cells.row(r).lowerBound + k, bytes) else { values.append(DataColumn.missingValue); continue }
                any = true
                let t = trim(s)
                guard let v = number(t, dialect) else { numeric = false; break }
                filled += 1
                if t.utf8.last == UInt8(ascii: "%") { percents += 1 }
                values.append(v)
            }
            // Per cent cells are fractions (12% is 0.12): a column that mixes them with
            // bare numbers says two things at once, and stays text.
            if percents > 0 && percents < filled { numeric = false }
            kinds.append(any && numeric ? .number : .string)
            if any && numeric { found[k] = values }
        }
        // Row by row (the errors come in the order `read` + `table` give them), each
        // cell appended to its column.
        var columns = [DataColumn.Builder](repeating: DataColumn.Builder(), count: names.count)
        for k in columns.indices where found[k] == nil { columns[k].reserveCapacity(cells.rowCount - 1) }
        for r in 1..<cells.rowCount {
            for (k, cell) in cells.row(r).enumerated() where found[k] == nil {
                guard let cellText = cells.text(cell, bytes) else { columns[k].append(nil); continue }
                switch kinds[k] {
                case .string:
                    if cellText.utf8.count > maxTextLength, case let n = cellText.unicodeScalars.count, n > maxTextLength {
                        throw CSVError(file: file, location: at(cell),
                                       message: "a text of \(n) characters in column \(quotedForMessage(names[k])), over the "
                                       + "limit of \(maxTextLength) characters on a label's length (the label limit)")
                    }
                    columns[k].append(.string(cellText))
                case .number:
                    guard let v = number(trim(cellText), dialect) else {
                        throw CSVError(file: file, location: at(cell),
                                       message: "expected a number in column \"\(names[k])\", found \(quotedForMessage(cellText))")
                    }
                    columns[k].append(number: v)
                case .date(let pattern):
                    let v = pattern.map { DateFormat($0).parse(trim(cellText)) } ?? CivilDate.parseISO(trim(cellText))
                    guard let v else {
                        let like = pattern.map { " like \"\($0)\"" } ?? " in ISO 8601 (2024-03-05)"
                        throw CSVError(file: file, location: at(cell),
                                       message: "expected a date\(like) in column \"\(names[k])\", found \(quotedForMessage(cellText))")
                    }
                    columns[k].append(number: v)
                }
            }
        }
        let rows = DataTable(count: cells.rowCount - 1, columns: names.indices.map { k in
            (names[k], found[k].map { DataColumn(numbers: $0) } ?? columns[k].column)
        })
        var locations = cells.rowLocations
        locations.removeFirst()
        return CSVTable(header: names, rows: rows, packedRowLocations: locations)
    }
}

/// The cells of a CSV text as byte ranges, split by the rules of `CSVReader.read`.
struct CSVCells {
    /// Where each cell starts: its first byte, or its opening quote.
    var starts: [UInt32] = []
    /// Where each cell's text ends (exclusive; a quoted cell's closing quote).
    var ends: [UInt32] = []
    /// Per cell: 1 quoted, 2 holds doubled quotes to undo.
    var flags: [UInt8] = []
    /// The index of each record's first cell, and one past the last record's.
    var rowStarts: [UInt32] = [0]
    /// Where each record starts.
    var rowLocations: [UInt64] = []
    /// The line the text ends on.
    var lastLine = 1

    var rowCount: Int { rowStarts.count - 1 }
    func row(_ r: Int) -> Range<Int> { Int(rowStarts[r])..<Int(rowStarts[r + 1]) }

    /// The text of cell `c`, or nil for an empty, unquoted cell (a missing value).
    func text(_ c: Int, _ bytes: [UInt8]) -> String? {
        let quoted = flags[c] & 1 != 0
        let from = Int(starts[c]) + (quoted ? 1 : 0), to = Int(ends[c])
        if from == to && !quoted { return nil }
        guard flags[c] & 2 != 0 else {
            return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[from..<to]), as: UTF8.self) }
        }
        // Undo the doubled quotes byte by byte: inside a quoted cell every quote is one of
        // a pair. (String's replacingOccurrences matches whole Characters, so a pair whose
        // second quote carries a combining mark, "" + U+064C, was left doubled.)
        var unquoted: [UInt8] = []
        unquoted.reserveCapacity(to - from)
        var i = from
        while i < to {
            unquoted.append(bytes[i])
            i += bytes[i] == 0x22 ? 2 : 1
        }
        return String(decoding: unquoted, as: UTF8.self)
    }

    /// Splits `bytes` from `start` (after a byte order mark) at `delimiter`.
    init(_ bytes: [UInt8], from start: Int, file: String, delimiter: CSVDialect.Delimiter = .comma) throws(CSVError) {
        // One copy of the loop per delimiter, each comparing with a constant, so the
        // byte dispatch stays a jump table (a delimiter in a variable cost 13–26 % more
        // instructions splitting a comma file, callgrind).
        switch delimiter {
        case .comma: try split(bytes, from: start, file: file, Comma.self)
        case .semicolon: try split(bytes, from: start, file: file, Semicolon.self)
        case .tab: try split(bytes, from: start, file: file, Tab.self)
        case .bar: try split(bytes, from: start, file: file, Bar.self)
        }
    }

    private enum Comma: DelimiterByte { static var byte: UInt8 { 0x2C } }
    private enum Semicolon: DelimiterByte { static var byte: UInt8 { 0x3B } }
    private enum Tab: DelimiterByte { static var byte: UInt8 { 0x09 } }
    private enum Bar: DelimiterByte { static var byte: UInt8 { 0x7C } }

    private mutating func split<D: DelimiterByte>(_ bytes: [UInt8], from start: Int, file: String, _: D.Type) throws(CSVError) {
        var line = 1, column = 1
        var cellStart = start
        var rowStart = SourceLocation(line: 1, column: 1)
        var quoted = false, wasQuoted = false, doubled = false
        var quoteStart = rowStart
        var closeAt = 0
        let count = bytes.count
        func endField(_ end: Int) {
            starts.append(UInt32(truncatingIfNeeded: cellStart)); ends.append(UInt32(truncatingIfNeeded: wasQuoted ? closeAt : end))
            flags.append((wasQuoted ? 1 : 0) | (doubled ? 2 : 0))
            wasQuoted = false; doubled = false
        }
        func endRecord(_ end: Int) {
            endField(end)
            let first = Int(rowStarts[rowStarts.count - 1])
            // A blank line (one empty, unquoted cell) is no record.
            if starts.count - first == 1 && flags[first] & 1 == 0 && ends[first] == starts[first] {
                starts.removeLast(); ends.removeLast(); flags.removeLast()
            } else {
                rowStarts.append(UInt32(truncatingIfNeeded: starts.count))
                rowLocations.append(rowStart.packed)
            }
        }
        try bytes.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) throws(CSVError) in
            var i = start
            while i < count {
                let c = b[i]
                if c & 0xC0 != 0x80 { column += 1 }
                if quoted {
                    if c == 0x22 {
                        if i + 1 < count && b[i + 1] == 0x22 { doubled = true; i += 2; column += 1; continue }
                        quoted = false
                        closeAt = i
                    } else if c == 0x0A || (c == 0x0D && !(i + 1 < count && b[i + 1] == 0x0A)) {
                        line += 1; column = 1
                    }
                    i += 1; continue
                }
                switch c {
                case 0x22:
                    if i == cellStart && !wasQuoted {
                        quoted = true; wasQuoted = true; quoteStart = SourceLocation(line: line, column: column - 1)
                    } else {
                        throw CSVError(file: file, location: SourceLocation(line: line, column: column - 1),
                                       message: "a quote inside an unquoted field; quote the whole field and double the quote (\"\")")
                    }
                case D.byte:
                    endField(i)
                    cellStart = i + 1
                case 0x0D, 0x0A:
                    let end = i
                    if c == 0x0D && i + 1 < count && b[i + 1] == 0x0A { i += 1 }
                    endRecord(end)
                    line += 1; column = 1
                    cellStart = i + 1
                    rowStart = SourceLocation(line: line, column: 1)
                default:
                    if wasQuoted {
                        throw CSVError(file: file, location: SourceLocation(line: line, column: column - 1),
                                       message: "text after a closing quote; quote the whole field and double any quote inside it (\"\")")
                    }
                }
                i += 1
            }
        }
        if quoted {
            throw CSVError(file: file, location: quoteStart, message: "unterminated quoted field: no closing quote before the end of the file")
        }
        let first = Int(rowStarts[rowStarts.count - 1])
        if cellStart < count || wasQuoted || starts.count > first { endRecord(count) }
        lastLine = line
    }
}

/// A delimiter known when the splitting loop is compiled.
private protocol DelimiterByte { static var byte: UInt8 { get } }
