#if canImport(Glibc)
import Glibc
#endif
import Raster
import Synchronization

/// The moment a chart whose data moves is showing, for text that names it.
public struct Moment: Sendable, Equatable {
    /// The data time shown (a year, or a date in seconds).
    public var time: Double
    /// Whether the time field holds dates (seconds since the epoch) rather than numbers.
    public var isDate: Bool
    /// The name of the step shown, when the time field names its steps ("2020-Q1").
    public var name: String?
    /// Creates a moment.
    public init(time: Double, isDate: Bool, name: String? = nil) { self.time = time; self.isDate = isDate; self.name = name }
}

/// Text with placeholders for the moment shown: `"{time}"`, `"{time:yyyy}"`,
/// `"Week of {time:MMM d}"`, `"{time:.1f}"`, and `"{sum:field}"` / `"{sum:field:,.0f}"`
/// for the total of a field over the rows shown, and in a text mark `"{field:name}"` /
/// `"{field:value:.1f}"` for a field of the label's own row. Numbers take a small part of
/// d3-format (`NumberSpec`): `.1f`, `,.0f`, `,d`, `.1%`, `$,.2f`. `{{` and `}}` write braces.
///
/// A time is floored, never rounded: a year label at 1999.7 reads "1999", the year whose
/// data is on screen. `{time}` writes a number time as a whole number and a date as
/// `yyyy-MM-dd`; a date pattern on a number time reads it as a (fractional) year.
public struct MomentTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case literal(String)
        /// The time: nil for the default form, else a date pattern or `.Nf`.
        case time(String?)
        /// A field's total over the rows shown, in a number form.
        case sum(field: String, spec: NumberSpec)
        /// A field of the row a label stands for (text marks), in a number form for numbers
        /// (nil: whole, thousands separated).
        case field(String, spec: NumberSpec?)
    }

    /// What is wrong with a template, at a character offset of the text.
    public struct Problem: Error, Equatable, Sendable {
        /// Offset in characters of the placeholder's `{`.
        public var offset: Int
        /// What is wrong.
        public var message: String
    }

    let parts: [Part]

    /// Templates parsed before, by their text (nil for text that does not parse), shared
    /// by the rendering threads: a chart of moving data fills the same few templates (its
    /// title, every label of a mark) at every frame, and parsing them again was a tenth
    /// of building a 1,000-key race's frame (perf). Cleared when full.
    private static let parsed = Mutex<[String: MomentTemplate?]>([:])
    static let parsedCapacity = 256

    /// The template of `text`, parsed once; nil when it does not parse.
    static func cached(_ text: String) -> MomentTemplate? {
        if case .some(let hit) = parsed.withLock({ $0[text] }) { return hit }
        let made = try? MomentTemplate(text)
        parsed.withLock { table in
            if table.count >= parsedCapacity { table.removeAll(keepingCapacity: true) }
            table[text] = .some(made)
        }
        return made
    }

    /// Parses `text`; throws the first malformed placeholder.
    public init(_ text: String) throws(Problem) {
        var parts: [Part] = []
        var literal = ""
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "{" && i + 1 < chars.count && chars[i + 1] == "{" { literal.append("{"); i += 2; continue }
            if c == "}" && i + 1 < chars.count && chars[i + 1] == "}" { literal.append("}"); i += 2; continue }
            if c == "}" { throw Problem(offset: i, message: "a \"}\" without its \"{\"; write \"}}\" for a brace") }
            guard c == "{" else { literal.append(c); i += 1; continue }
            guard let close = chars[(i + 1)...].firstIndex(of: "}") else {
                throw Problem(offset: i, message: "a \"{\" without its \"}\"; write \"{{\" for a brace")
            }
            let body = String(chars[(i + 1)..<close])
            if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
            parts.append(try Self.placeholder(body, at: i))
            i = close + 1
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    static func placeholder(_ body: String, at offset: Int) throws(Problem) -> Part {
        let pieces = body.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch pieces[0] {
        case "time":
            guard pieces.count > 1 else { return .time(nil) }
            let f = pieces[1...].joined(separator: ":")
            if f.hasPrefix(".") { _ = try spec(f, at: offset) }
            else if f.isEmpty { throw Problem(offset: offset, message: "{time:} needs a format after the colon, such as {time:yyyy}") }
            return .time(f)
        case "sum":
            guard pieces.count > 1, !pieces[1].isEmpty else {
                throw Problem(offset: offset, message: "{sum} needs a field: {sum:value} or {sum:value:.0f}")
            }
            return .sum(field: pieces[1], spec: pieces.count > 2 ? try spec(pieces[2], at: offset) : NumberSpec(digits: 0))
        case "field":
            guard pieces.count > 1, !pieces[1].isEmpty else {
                throw Problem(offset: offset, message: "{field} needs a field: {field:name} or {field:value:.0f}")
            }
            return .field(pieces[1], spec: pieces.count > 2 ? try spec(pieces[2], at: offset) : nil)
        default:
            throw Problem(offset: offset, message: "unknown placeholder {\(body)}; the placeholders are {time}, {time:FORMAT}, {sum:FIELD} and {field:FIELD}")
        }
    }

    /// The number form `f` names; throws when it is not one.
    static func spec(_ f: String, at offset: Int) throws(Problem) -> NumberSpec {
        guard let s = NumberSpec(f) else {
            throw Problem(offset: offset, message: "expected a number format such as .0f, .2f, ,.0f (thousands separated), ,d, .1% or $,.2f, found \"\(f)\"")
        }
        return s
    }

    /// Whether the text has any placeholder (and so changes with the moment).
    public var isDynamic: Bool { parts.contains { if case .literal = $0 { return false }; return true } }

    /// The text for `moment` (nil: no moving data, placeholders write nothing), the rows
    /// shown, and the row a label stands for.
    public func render(_ moment: Moment?, rows: [DataRow], row: DataRow? = nil) -> String {
        render(moment, rows: DataTable(rows: rows), row: row.map { DataTable(rows: [$0])[0] })
    }

    /// The text for `moment`, the rows shown (a table), and the row a label stands for.
    public func render(_ moment: Moment?, rows: DataTable, row: DataTable.Row? = nil) -> String {
        var out = ""
        for p in parts {
            switch p {
            case .literal(let s): out += s
            case .time(let f):
                guard let m = moment else { continue }
                out += Self.time(m, f)
            case .sum(let field, let spec):
                var total = 0.0
                if let c = rows.column(field) { for i in 0..<rows.count { total += c.number(at: i) ?? 0 } }
                out += Self.floored(total, spec)
            case .field(let name, let spec):
                switch row?[name] {
                case .string(let v)?: out += v
                case .number(let v)?: out += (spec ?? NumberSpec(digits: 0, grouping: true)).format.format(v)
                case nil: break
                }
            }
        }
        return out
    }

    static func time(_ m: Moment, _ f: String?) -> String {
        if let name = m.name { return name }
        if let f, f.hasPrefix(".") { return floored(m.time, NumberSpec(f) ?? NumberSpec(digits: 0)) }
        if m.isDate { return DateFormat(f ?? "yyyy-MM-dd").format(m.time) }
        guard let f else { return floored(m.time, NumberSpec(digits: 0)) }
        // A number time under a date pattern is a fractional year; one beyond the calendar's
        // reach (a fuzzed 10^90) is written as the number instead.
        let year = m.time.rounded(.down)
        guard abs(year) <= 1_000_000 else { return floored(m.time, NumberSpec(digits: 0)) }
        let start = CivilDate(year: Int(year), month: 1, day: 1).seconds
        let end = CivilDate(year: Int(year) + 1, month: 1, day: 1).seconds
        return DateFormat(f).format(start + (end - start) * (m.time - year))
    }

    /// `v` cut (towards −∞) to the form's fraction digits (of the percentage, for `%`)
    /// and written in the form.
    static func floored(_ v: Double, _ spec: NumberSpec) -> String {
        guard v.isFinite else { return "" }
        var scale = 1.0
        for _ in 0..<spec.digits { scale *= 10 }
        let shown = spec.percent ? v * 100 : v
        // A whisker of tolerance so 2.3 (2.29999…) written with one digit stays 2.3.
        let cut = (shown * scale + 1e-9).rounded(.down) / scale
        var f = spec.format
        f.notation = .standard
        if spec.percent { f.suffix = "%" }
        return f.format(cut)
    }
}

/// A number's form in a placeholder: a small part of d3-format, which people bring from
/// D3, Observable, Flourish and Python's `format` (bar_chart_race's `{x:,.0f}`).
/// `[$][,](.N)(f|%)` or `[$][,]d`: `$` writes a dollar sign before the digits, `,`
/// separates thousands, `.N` gives exactly N fraction digits (0…17), `f` a plain number,
/// `%` the number × 100 followed by "%", `d` a whole number.
public struct NumberSpec: Sendable, Hashable {
    /// Fraction digits, exactly.
    public var digits: Int
    /// Thousands separated by commas.
    public var grouping: Bool = false
    /// A percentage: × 100 and "%".
    public var percent: Bool = false
    /// A dollar sign before the digits (after the minus sign).
    public var currency: Bool = false

    /// Creates a form.
    public init(digits: Int, grouping: Bool = false, percent: Bool = false, currency: Bool = false) {
        self.digits = digits; self.grouping = grouping; self.percent = percent; self.currency = currency
    }

    /// The form written as `f` (`".1f"`, `",.0f"`, `",d"`, `".1%"`, `"$,.2f"`); nil when it is not one.
    public init?(_ f: String) {
        var s = Substring(f)
        if s.first == "$" { currency = true; s = s.dropFirst() }
        if s.first == "," { grouping = true; s = s.dropFirst() }
        if s == "d" { digits = 0; return }
        guard s.first == ".", let type = s.last, type == "f" || type == "%",
              case let count = s.dropFirst().dropLast(), !count.isEmpty, count.count <= 2,
              count.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(count), n <= 17 else { return nil }
        digits = n
        percent = type == "%"
    }

    /// The number format that writes this form, rounding to the nearest.
    public var format: NumberFormat {
        NumberFormat(notation: percent ? .percent : .standard, minFractionDigits: digits, maxFractionDigits: digits,
                     grouping: grouping, prefix: currency ? "$" : "")
    }
}
