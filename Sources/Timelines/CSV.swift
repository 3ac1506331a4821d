import Charts

/// An error in a CSV file: the file, the 1-based row (the header is row 1) and column.
public struct CSVError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var row: Int
    public var column: Int?
    public var message: String
    public var description: String {
        "\(file):\(row)\(column.map { ":\($0)" } ?? ""): \(message)"
    }
}

/// Reads CSV text (RFC 4180): a header row, fields separated by commas, quoted fields
/// with commas, newlines and doubled quotes, empty cells, LF or CRLF line ends, UTF-8
/// with or without a byte-order mark.
public enum CSVReader {
    /// The header and the rows of `text`; every row must have as many fields as the header.
    public static func parse(_ bytes: [UInt8], file: String) throws -> (header: [String], rows: [[String?]]) {
        var i = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        var records: [[String?]] = []
        var record: [String?] = []
        var field: [UInt8] = []
        var quoted = false, wasQuoted = false
        var line = 1, recordLine = 1
        var lines: [Int] = []
        func endField() {
            record.append(field.isEmpty && !wasQuoted ? nil : String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true); wasQuoted = false
        }
        func endRecord() {
            endField()
            if !(record.count == 1 && record[0] == nil) { records.append(record); lines.append(recordLine) }
            record = []
        }
        while i < bytes.count {
            let c = bytes[i]
            if quoted {
                if c == 0x22 {
                    if i + 1 < bytes.count && bytes[i + 1] == 0x22 { field.append(0x22); i += 2; continue }
                    quoted = false
                } else {
                    if c == 0x0A { line += 1 }
                    field.append(c)
                }
                i += 1; continue
            }
            switch c {
            case 0x22:
                if field.isEmpty && !wasQuoted { quoted = true; wasQuoted = true }
                else { throw CSVError(file: file, row: line, column: record.count + 1, message: "a quote inside an unquoted field; quote the whole field and double the quote (\"\")") }
            case 0x2C: endField()
            case 0x0D:
                if i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
                endRecord(); line += 1; recordLine = line
            case 0x0A: endRecord(); line += 1; recordLine = line
            default:
                if wasQuoted { throw CSVError(file: file, row: line, column: record.count + 1, message: "text after a closing quote") }
                field.append(c)
            }
            i += 1
        }
        if quoted { throw CSVError(file: file, row: recordLine, column: record.count + 1, message: "unterminated quoted field") }
        if !field.isEmpty || wasQuoted || !record.isEmpty { endRecord() }
        guard let header = records.first else { throw CSVError(file: file, row: 1, column: nil, message: "the file is empty; expected a header row") }
        let names = header.enumerated().map { $0.element ?? "column\($0.offset + 1)" }
        var seen = Set<String>()
        for (k, n) in names.enumerated() {
            if !seen.insert(n).inserted { throw CSVError(file: file, row: 1, column: k + 1, message: "duplicate column name \"\(n)\"") }
        }
        let rows = Array(records.dropFirst())
        for (k, r) in rows.enumerated() where r.count != names.count {
            throw CSVError(file: file, row: lines[k + 1], column: nil,
                           message: "expected \(names.count) fields as in the header, found \(r.count)")
        }
        if rows.isEmpty { throw CSVError(file: file, row: 2, column: nil, message: "no data rows after the header") }
        return (names, rows)
    }

    /// How a column's text becomes values.
    public enum ColumnType: Hashable, Sendable {
        /// Numbers (decimal, with optional exponent).
        case number
        /// Text as it is.
        case string
        /// ISO 8601 dates, or dates in a pattern such as `MMM d yyyy`; stored as seconds (UTC).
        case date(String?)
    }

    /// Types the cells: by the given column types, or by content (a column whose every
    /// non-empty cell is a number is numeric; otherwise text). Bad cells name row and column.
    public static func table(header: [String], rows: [[String?]], types: [String: ColumnType], file: String) throws -> [DataRow] {
        var kinds: [ColumnType] = []
        for (k, name) in header.enumerated() {
            if let t = types[name] { kinds.append(t); continue }
            let cells = rows.compactMap { $0[k] }
            kinds.append(!cells.isEmpty && cells.allSatisfy { Double(trim($0)) != nil } ? .number : .string)
        }
        var out: [DataRow] = []
        out.reserveCapacity(rows.count)
        for (r, row) in rows.enumerated() {
            var d: DataRow = [:]
            for (k, cell) in row.enumerated() {
                guard let text = cell else { continue }
                switch kinds[k] {
                case .string: d[header[k]] = .string(text)
                case .number:
                    guard let v = Double(trim(text)), v.isFinite else {
                        throw CSVError(file: file, row: r + 2, column: k + 1, message: "expected a number in column \"\(header[k])\", found \"\(text)\"")
                    }
                    d[header[k]] = .number(v)
                case .date(let pattern):
                    let v = pattern.map { DateFormat($0).parse(trim(text)) } ?? CivilDate.parseISO(trim(text))
                    guard let v else {
                        throw CSVError(file: file, row: r + 2, column: k + 1,
                                       message: "expected a date\(pattern.map { " like \"\($0)\"" } ?? " in ISO 8601 (2024-03-05)") in column \"\(header[k])\", found \"\(text)\"")
                    }
                    d[header[k]] = .number(v)
                }
            }
            out.append(d)
        }
        return out
    }

    static func trim(_ s: String) -> String {
        var t = Substring(s)
        while t.first == " " { t = t.dropFirst() }
        while t.last == " " { t = t.dropLast() }
        return String(t)
    }
}
