import Charts

/// An error in a CSV file, located like a compiler diagnostic: the file, the line and
/// the column (in Unicode scalars, as an editor shows them) where the problem starts.
///
/// Lines are physical lines, so a quoted field that spans lines moves the rows after
/// it down; for ordinary files the line is the row number with the header as row 1.
public struct CSVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The CSV file's path as the document resolved it.
    public var file: String
    /// Where the offending field, quote or byte is (1-based line and column).
    public var location: SourceLocation
    /// What is wrong, saying what was found and what was expected.
    public var message: String

    /// Creates an error.
    public init(file: String, location: SourceLocation, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    /// `names.csv:12:7: expected a number in column "count", found "n/a"`.
    public var description: String { "\(file):\(location): \(message)" }
}

/// A CSV text split into cells, with the location of every cell for messages.
public struct CSVText: Sendable {
    /// The column names from the first row (an empty name becomes `column<N>`).
    public var header: [String]
    /// The data rows; nil is an empty, unquoted cell (a missing value).
    public var rows: [[String?]]
    /// Where each cell of each row starts, parallel to `rows`.
    public var locations: [[SourceLocation]]
}

/// How a CSV file separates its fields and writes its numbers: RFC 4180's commas and
/// decimal points, or the semicolons and decimal commas of spreadsheets set to most
/// European languages, or tabs (TSV).
public struct CSVDialect: Hashable, Sendable {
    /// What separates fields.
    public enum Delimiter: UInt8, Hashable, Sendable, CaseIterable {
        case comma = 0x2C, semicolon = 0x3B, tab = 0x09, bar = 0x7C

        /// The delimiter as people name it.
        public var name: String {
            switch self {
            case .comma: return "comma"
            case .semicolon: return "semicolon"
            case .tab: return "tab"
            case .bar: return "bar"
            }
        }
    }

    /// The byte between fields.
    public var delimiter: Delimiter
    /// Numbers written with a decimal comma: "1,5", and "1.234,5" where dots group thousands.
    public var decimalComma: Bool
    /// With a decimal point, commas may group thousands ("1,234,567.5"). Off while a file
    /// of semicolons is first read, where a comma is more likely a decimal comma.
    public var groupingCommas = true
    /// Creates a dialect.
    public init(delimiter: Delimiter = .comma, decimalComma: Bool = false) { self.delimiter = delimiter; self.decimalComma = decimalComma }
    /// Commas and decimal points.
    public static let standard = CSVDialect()

    /// The delimiter a file most likely uses: a tab for `.tsv` and `.tab` files; else a
    /// comma when the first line (outside quotes) has one; else a semicolon, tab or bar,
    /// whichever it has most of; else a comma (a table of one column).
    public static func delimiter(of bytes: [UInt8], path: String) -> Delimiter {
        let lower = path.lowercased()
        if lower.hasSuffix(".tsv") || lower.hasSuffix(".tab") { return .tab }
        var counts: [Delimiter: Int] = [:]
        var quoted = false
        for c in bytes.prefix(1 << 16) {
            if c == 0x22 { quoted.toggle(); continue }
            if quoted { continue }
            if c == 0x0A || c == 0x0D { break }
            if let d = Delimiter(rawValue: c) { counts[d, default: 0] += 1 }
        }
        if counts[.comma] != nil { return .comma }
        let most = [Delimiter.semicolon, .tab, .bar].max { counts[$0, default: 0] < counts[$1, default: 0] }!
        return counts[most] != nil ? most : .comma
    }
}

/// Reads CSV text (RFC 4180): a header row, fields separated by commas, quoted fields
/// with commas, newlines and doubled quotes, empty cells, LF, CRLF or CR line ends, UTF-8
/// with or without a byte-order mark.
///
/// Every problem throws a `CSVError` at the character that causes it, so a ragged row,
/// a stray quote or a Latin-1 byte is found by line and column, not by searching.
public enum CSVReader {
    /// The header and the rows of `bytes`; every row must have as many fields as the header.
    public static func parse(_ bytes: [UInt8], file: String, dialect: CSVDialect = .standard) throws(CSVError) -> (header: [String], rows: [[String?]]) {
        let text = try read(bytes, file: file, dialect: dialect)
        return (text.header, text.rows)
    }

    /// The cells of `bytes` with their locations.
    /// - Throws: `CSVError` for text that is not UTF-8, an unterminated or misplaced
    ///   quote, an empty file, a header without rows, a duplicate column name, or a row
    ///   whose field count differs from the header's.
    public static func read(_ bytes: [UInt8], file: String, dialect: CSVDialect = .standard) throws(CSVError) -> CSVText {
        let delimiter = dialect.delimiter.rawValue
        var start = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        if let bad = firstInvalidUTF8(bytes, from: start) {
            throw CSVError(file: file, location: location(of: bad, in: bytes, from: start),
                           message: "invalid UTF-8 (byte 0x\(hex2(bytes[bad]))); save the file as UTF-8")
        }
        var records: [[String?]] = []
        var recordLocations: [[SourceLocation]] = []
        var record: [String?] = []
        var cellLocations: [SourceLocation] = []
        var field: [UInt8] = []
        var quoted = false, wasQuoted = false
        var line = 1, column = 1
        var fieldStart = SourceLocation(line: 1, column: 1)
        var quoteStart = fieldStart
        func endField() {
            record.append(field.isEmpty && !wasQuoted ? nil : String(decoding: field, as: UTF8.self))
            cellLocations.append(fieldStart)
            field.removeAll(keepingCapacity: true); wasQuoted = false
        }
        func endRecord() {
            endField()
            // A blank line is no record.
            if !(record.count == 1 && record[0] == nil) {
                records.append(record)
                recordLocations.append(cellLocations)
            }
            record = []; cellLocations = []
        }
        var i = start
        while i < bytes.count {
            let c = bytes[i]
            let here = SourceLocation(line: line, column: column)
            // Columns count Unicode scalars: continuation bytes do not advance them.
            if c & 0xC0 != 0x80 { column += 1 }
            if quoted {
                if c == 0x22 {
                    if i + 1 < bytes.count && bytes[i + 1] == 0x22 { field.append(0x22); i += 2; column += 1; continue }
                    quoted = false
                } else {
                    field.append(c)
                    if c == 0x0A || (c == 0x0D && !(i + 1 < bytes.count && bytes[i + 1] == 0x0A)) { line += 1; column = 1 }
                }
                i += 1; continue
            }
            switch c {
            case 0x22:
                if field.isEmpty && !wasQuoted { quoted = true; wasQuoted = true; quoteStart = here }
                else {
                    throw CSVError(file: file, location: here,
                                   message: "a quote inside an unquoted field; quote the whole field and double the quote (\"\")")
                }
            case delimiter:
                endField()
                fieldStart = SourceLocation(line: line, column: column)
            case 0x0D, 0x0A:
                if c == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
                endRecord()
                line += 1; column = 1
                fieldStart = SourceLocation(line: line, column: column)
            default:
                if wasQuoted {
                    throw CSVError(file: file, location: here,
                                   message: "text after a closing quote; quote the whole field and double any quote inside it (\"\")")
                }
                field.append(c)
            }
            i += 1
        }
        if quoted {
            throw CSVError(file: file, location: quoteStart, message: "unterminated quoted field: no closing quote before the end of the file")
        }
        if !field.isEmpty || wasQuoted || !record.isEmpty { endRecord() }
        guard let header = records.first else {
            throw CSVError(file: file, location: SourceLocation(line: 1, column: 1),
                           message: "the file is empty; expected a header row such as \"x,y\"")
        }
        let names = header.enumerated().map { $0.element ?? "column\($0.offset + 1)" }
        var seen: [String: Int] = [:]
        for (k, n) in names.enumerated() {
            if let first = seen[n] {
                throw CSVError(file: file, location: recordLocations[0][k],
                               message: "duplicate column name \"\(n)\" (also column \(first + 1))")
            }
            seen[n] = k
        }
        let rows = Array(records.dropFirst())
        let locations = Array(recordLocations.dropFirst())
        for (k, r) in rows.enumerated() where r.count != names.count {
            // Point at the first extra field, or at the row when fields are missing.
            let at = r.count > names.count ? locations[k][names.count] : locations[k][0]
            var message = "expected \(names.count) \(names.count == 1 ? "field" : "fields") as in the header, found \(r.count)"
            if names.count == 1 {
                // One column and a row with commas: most likely not comma-separated at all
                // (/etc/passwd, a TSV), which "expected 1 field" alone does not say.
                message += Self.oneColumnHint(dialect)
            }
            throw CSVError(file: file, location: at, message: message)
        }
        if rows.isEmpty {
            throw CSVError(file: file, location: SourceLocation(line: line, column: 1),
                           message: "no data rows after the header")
        }
        return CSVText(header: names, rows: rows, locations: locations)
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
    /// non-empty cell is a number is numeric; otherwise text). A bad cell throws at its
    /// location, and so does a text cell longer than `maxTextLength` Unicode scalars (text
    /// may be drawn as a label: `DocumentLimits.maxLabelLength`).
    public static func table(_ text: CSVText, types: [String: ColumnType], file: String,
                             maxTextLength: Int = DocumentLimits().maxLabelLength, dialect: CSVDialect = .standard) throws(CSVError) -> [DataRow] {
        let header = text.header
        var kinds: [ColumnType] = []
        for (k, name) in header.enumerated() {
            if let t = types[name] { kinds.append(t); continue }
            let cells = text.rows.compactMap { $0[k] }
            let percents = cells.count { trim($0).hasSuffix("%") }
            kinds.append(!cells.isEmpty && cells.allSatisfy { number(trim($0), dialect) != nil }
                         && (percents == 0 || percents == cells.count) ? .number : .string)
        }
        var out: [DataRow] = []
        out.reserveCapacity(text.rows.count)
        for (r, row) in text.rows.enumerated() {
            var d: DataRow = [:]
            for (k, cell) in row.enumerated() {
                guard let cellText = cell else { continue }
                switch kinds[k] {
                case .string:
                    if cellText.utf8.count > maxTextLength, case let n = cellText.unicodeScalars.count, n > maxTextLength {
                        throw CSVError(file: file, location: text.locations[r][k],
                                       message: "a text of \(n) characters in column \(quotedForMessage(header[k])), over the "
                                       + "limit of \(maxTextLength) characters on a label's length (the label limit)")
                    }
                    d[header[k]] = .string(cellText)
                case .number:
                    guard let v = number(trim(cellText), dialect) else {
                        throw CSVError(file: file, location: text.locations[r][k],
                                       message: "expected a number in column \"\(header[k])\", found \(quotedForMessage(cellText))")
                    }
                    d[header[k]] = .number(v)
                case .date(let pattern):
                    let v = pattern.map { DateFormat($0).parse(trim(cellText)) } ?? CivilDate.parseISO(trim(cellText))
                    guard let v else {
                        let like = pattern.map { " like \"\($0)\"" } ?? " in ISO 8601 (2024-03-05)"
                        throw CSVError(file: file, location: text.locations[r][k],
                                       message: "expected a date\(like) in column \"\(header[k])\", found \(quotedForMessage(cellText))")
                    }
                    d[header[k]] = .number(v)
                }
            }
            out.append(d)
        }
        return out
    }

    /// What a one-column table's ragged row most likely means.
    static func oneColumnHint(_ dialect: CSVDialect) -> String {
        "; the header (line 1) has no \(dialect.delimiter.name), so this may not be a table with \(dialect.delimiter.name)s between its fields: "
            + "give the table \"delimiter\" (\";\", \"\\t\" or \"|\")"
    }

    /// A finite number as spreadsheets write them: with a decimal point and commas that
    /// may group thousands ("1,234,567.5", as a US spreadsheet quotes it), or, when
    /// `decimalComma`, with a decimal comma and dots that may group thousands ("1.234,5",
    /// "2,25"). Groups are 1 to 3 digits, then exactly 3; anything else is not a number.
    static func number(_ s: String, decimalComma: Bool, groupingCommas: Bool = true) -> Double? {
        // Most cells are plain numbers (a comma never is one): the plain reading first.
        if !decimalComma {
            if let v = number(s) { return v }
            guard groupingCommas, s.utf8.contains(0x2C) else { return nil }
        }
        let point: Character = decimalComma ? "," : ".", group: Character = decimalComma ? "." : ","
        let parts = s.split(separator: point, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        var whole = parts[0], sign = ""
        if let first = whole.first, first == "-" || first == "+" { sign = String(first); whole = whole.dropFirst() }
        if whole.contains(group) {
            let groups = whole.split(separator: group, omittingEmptySubsequences: false)
            guard (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }),
                  groups.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
            whole = Substring(groups.joined())
        }
        if parts.count == 2 {
            // A fraction: digits, optionally an exponent ("1,5E3").
            guard let f = parts[1].first, f.isASCII && f.isNumber else { return nil }
            return number(sign + whole + "." + parts[1])
        }
        return number(sign + whole)
    }

    /// A number in `dialect`: plain, grouped, or with a unit (`unitNumber`).
    static func number(_ s: String, _ dialect: CSVDialect) -> Double? {
        number(s, decimalComma: dialect.decimalComma, groupingCommas: dialect.groupingCommas)
            ?? unitNumber(s, decimalComma: dialect.decimalComma, groupingCommas: dialect.groupingCommas)
    }

    /// Currency signs a spreadsheet writes before or after an amount.
    static let currencySigns: Set<Character> = ["$", "€", "£", "¥"]

    /// A number as spreadsheets write it with a unit: a currency sign before it, after the
    /// sign ("$1,234.50", "-$5"), or after it ("1.234,50 €"), read as the amount; or a per
    /// cent sign after it ("12.5%", "12,5 %"), read as the fraction it stands for (0.125),
    /// as a spreadsheet holds it, so `{field:share:.1%}` and a percent axis write "12.5%".
    /// nil for anything else (a sign alone, two units, "%5").
    static func unitNumber(_ s: String, decimalComma: Bool, groupingCommas: Bool) -> Double? {
        guard let last = s.last, let first = s.first else { return nil }
        let spaces: Set<Character> = [" ", "\u{00A0}", "\u{202F}"]
        func bare(_ t: Substring) -> Double? {
            guard let f = t.first, f != " " else { return nil }
            return number(String(t), decimalComma: decimalComma, groupingCommas: groupingCommas)
        }
        if last == "%" || currencySigns.contains(last) {
            var t = s.dropLast()
            while let l = t.last, spaces.contains(l) { t = t.dropLast() }
            guard let v = bare(t) else { return nil }
            return last == "%" ? v / 100 : v
        }
        var t = Substring(s), negative = false
        if first == "-" || first == "+" { negative = first == "-"; t = t.dropFirst() }
        guard let c = t.first, currencySigns.contains(c) else { return nil }
        t = t.dropFirst()
        while let f = t.first, spaces.contains(f) { t = t.dropFirst() }
        guard let v = bare(t) else { return nil }
        return negative ? -v : v
    }

    /// Whether a column read as text holds numbers written with a decimal comma: every
    /// cell reads as one and at least one has the comma.
    static func holdsDecimalCommaNumbers(_ cells: [String]) -> Bool {
        !cells.isEmpty && cells.contains { $0.contains(",") } && cells.allSatisfy { number(trim($0), decimalComma: true) != nil }
    }

    /// A finite decimal number; Swift's `Double(_:)` alone would also take `nan`,
    /// `inf` and hexadecimal, which no spreadsheet writes as a number.
    static func number(_ s: String) -> Double? {
        guard let first = s.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
                || first == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
              !s.utf8.contains(where: { $0 | 0x20 == UInt8(ascii: "x") || $0 | 0x20 == UInt8(ascii: "n") || $0 | 0x20 == UInt8(ascii: "i") }),
              let v = Double(s), v.isFinite else { return nil }
        return v
    }

    static func trim(_ s: String) -> String {
        // Most cells have no space at either end: the bytes say so without walking
        // characters (a space that starts or ends the text is the byte 0x20).
        if s.utf8.first != 0x20 && s.utf8.last != 0x20 { return s }
        var t = Substring(s)
        while t.first == " " { t = t.dropFirst() }
        while t.last == " " { t = t.dropLast() }
        return String(t)
    }

    /// The offset of the first byte that is not part of well-formed UTF-8, if any.
    static func firstInvalidUTF8(_ bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i < bytes.count {
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            for k in 1..<length {
                guard i + k < bytes.count else { return i }
                let b = bytes[i + k]
                if k == 1 ? !(low...high).contains(b) : !(0x80...0xBF).contains(b) { return i }
            }
            i += length
        }
        return nil
    }

    /// The line and column of byte `offset` (columns in Unicode scalars).
    static func location(of offset: Int, in bytes: [UInt8], from start: Int) -> SourceLocation {
        var line = 1, column = 1
        var i = start
        while i < offset {
            let c = bytes[i]
            if c == 0x0A || (c == 0x0D && !(i + 1 < bytes.count && bytes[i + 1] == 0x0A)) {
                line += 1; column = 1
            } else if c & 0xC0 != 0x80 && c != 0x0D {
                column += 1
            }
            i += 1
        }
        return SourceLocation(line: line, column: column)
    }
}
