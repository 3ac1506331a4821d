#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How numbers become label text, like Foundation's and d3's number formats.
///
/// Rounding is to nearest with ties to even on the exact binary value (C's `%.*f`),
/// so 0.125 with two digits prints "0.12" as `printf` and NumberFormatter do.
public struct NumberFormat: Hashable, Sendable {
    /// How the number is scaled and what marks it.
    public enum Notation: String, Hashable, Sendable {
        /// The number as it is.
        case standard
        /// Multiplied by 100 and followed by "%".
        case percent
        /// Divided by 10³, 10⁶, 10⁹ or 10¹² and followed by k, M, B or T (1.2k, 3.4M).
        case compact
    }

    /// How a value is cut to its fraction digits.
    public enum Rounding: String, Hashable, Sendable, CaseIterable {
        /// To the nearest, ties to even (`printf`).
        case nearest
        /// Down, towards −∞: a counter at 1999.7 reads 1999.
        case floor
        /// Up, towards +∞.
        case ceiling
    }

    /// Scaling and marks.
    public var notation: Notation
    /// A factor applied before anything else: 0.001 shows thousands as millions
    /// (with `suffix: "M"`), 100 a fraction as a percentage.
    public var scale: Double = 1
    /// How the value is cut to `maxFractionDigits`; nil: to the nearest, except in a
    /// counting label (`"animate": { "count": … }`), which floors so that a year counter
    /// does not show the next year halfway.
    public var rounding: Rounding?
    /// Fewest digits after the decimal point (trailing zeros kept up to here).
    public var minFractionDigits: Int
    /// Most digits after the decimal point.
    public var maxFractionDigits: Int
    /// Separate thousands in the integer part.
    public var grouping: Bool
    /// The grouping separator.
    public var groupSeparator: String
    /// Text before the number ("$").
    public var prefix: String
    /// Text after the number, e.g. " mg".
    public var suffix: String

    /// Creates a format. The default prints at most 2 fraction digits, like the seed charts.
    public init(notation: Notation = .standard, minFractionDigits: Int = 0, maxFractionDigits: Int = 2,
                grouping: Bool = false, groupSeparator: String = ",", prefix: String = "", suffix: String = "") {
        self.notation = notation
        self.minFractionDigits = max(0, min(minFractionDigits, 17))
        self.maxFractionDigits = max(self.minFractionDigits, min(maxFractionDigits, 17))
        self.grouping = grouping; self.groupSeparator = groupSeparator; self.prefix = prefix; self.suffix = suffix
    }

    /// `v` as text.
    public func format(_ v: Double) -> String {
        guard v.isFinite else { return v.isNaN ? "NaN" : (v < 0 ? "-∞" : "∞") }
        var value = v * scale
        var mark = ""
        switch notation {
        case .standard: break
        case .percent: value *= 100; mark = "%"
        case .compact:
            let units: [(Double, String)] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")]
            for (scale, name) in units {
                // Pick the unit the rounded value reaches, so 999.96k prints as 1M.
                let scaled = value / scale
                if abs(Self.rounded(scaled, maxFractionDigits)) >= 1 { value = scaled; mark = name; break }
            }
        }
        if let rounding, rounding != .nearest {
            // Cut to the digits shown first, with a whisker of tolerance so 2.3
            // (2.2999…) shown with one digit stays 2.3.
            var p = 1.0
            for _ in 0..<maxFractionDigits { p *= 10 }
            let scaled = value * p
            let cut = rounding == .floor ? (scaled + 1e-9 * max(1, abs(scaled))).rounded(.down)
                                         : (scaled - 1e-9 * max(1, abs(scaled))).rounded(.up)
            value = cut / p
        }
        var text = Self.fixed(value, maxFractionDigits)
        // Trim trailing zeros down to the minimum.
        if let dot = text.firstIndex(of: ".") {
            var end = text.endIndex
            let minEnd = text.index(dot, offsetBy: minFractionDigits + 1, limitedBy: text.endIndex) ?? text.endIndex
            while end > minEnd, text[text.index(before: end)] == "0" { end = text.index(before: end) }
            if end == text.index(after: dot) && minFractionDigits == 0 { end = dot }
            text = String(text[..<end])
        }
        if text.hasPrefix("-") && text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { text.removeFirst() }
        if grouping { text = Self.group(text, groupSeparator) }
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        return (negative ? "−" : "") + prefix + text + mark + suffix
    }

    static func rounded(_ v: Double, _ digits: Int) -> Double { Double(fixed(v, digits)) ?? v }

    /// The format a counting label uses: `rounding`, or floor when none is given.
    public var counting: NumberFormat {
        var f = self
        if f.rounding == nil { f.rounding = .floor }
        return f
    }

    /// `v` with exactly `digits` fraction digits, correctly rounded.
    static func fixed(_ v: Double, _ digits: Int) -> String {
        var buf = [CChar](repeating: 0, count: 400)
        _ = withVaList([Int32(digits), v]) { vsnprintf(&buf, buf.count, "%.*f", $0) }
        return String(cString: buf)
    }

    static func group(_ s: String, _ sep: String) -> String {
        var sign = "", body = Substring(s)
        if body.hasPrefix("-") { sign = "-"; body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let int = Array(parts[0])
        var out = ""
        for (i, c) in int.enumerated() {
            if i > 0 && (int.count - i) % 3 == 0 { out += sep }
            out.append(c)
        }
        return sign + out + (parts.count > 1 ? "." + parts[1] : "")
    }
}

/// Date label patterns in the Unicode (LDML) style people know from DateFormatter:
/// `yyyy`, `yy`, `MMMMM` (the month's initial), `MMMM`, `MMM`, `MM`, `M`, `dd`, `d`, `EEEE`, `EEE`, `HH`, `H`, `mm`, `ss`,
/// and text in single quotes. Always UTC and English month names, so output is the
/// same on every machine.
public struct DateFormat: Hashable, Sendable {
    /// The pattern.
    public var pattern: String
    /// Creates a format from a pattern such as `MMM d` or `yyyy`.
    public init(_ pattern: String) { self.pattern = pattern }

    /// The finest calendar unit the pattern writes (`yyyy`: years, `MMM yyyy`: months,
    /// `MMM d`: days); nil when it writes none. Ticks finer than it would repeat a label
    /// ("2016 2016 2016 2016" for quarters under `yyyy`).
    public var finestUnit: TimeTicks.Unit? {
        var finest: TimeTicks.Unit? = nil
        var quoted = false
        for c in pattern {
            if c == "'" { quoted.toggle(); continue }
            guard !quoted else { continue }
            let unit: TimeTicks.Unit?
            switch c {
            case "y": unit = .year
            case "M": unit = .month
            case "d", "E": unit = .day
            case "H", "h", "a": unit = .hour
            case "m": unit = .minute
            case "s": unit = .second
            default: unit = nil
            }
            guard let unit else { continue }
            if finest.map({ TimeTicks.Interval(unit: unit).seconds < TimeTicks.Interval(unit: $0).seconds }) ?? true { finest = unit }
        }
        return finest
    }

    /// The date at `seconds` since the epoch as text.
    public func format(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "" }
        let d = CivilDate(seconds: seconds)
        var out = ""
        let chars = Array(pattern)
        var i = 0
        func pad(_ v: Int, _ n: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, n - s.count)) + s }
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                i += 1
                while i < chars.count && chars[i] != "'" { out.append(chars[i]); i += 1 }
                i += 1
                continue
            }
            var n = 1
            while i + n < chars.count && chars[i + n] == c { n += 1 }
            switch c {
            case "y": out += n == 2 ? pad(((d.year % 100) + 100) % 100, 2) : pad(d.year, n)
            case "M":
                switch n {
                case 1: out += String(d.month)
                case 2: out += pad(d.month, 2)
                case 3: out += String(CivilDate.monthNames[d.month - 1].prefix(3))
                case 5: out += String(CivilDate.monthNames[d.month - 1].prefix(1))
                default: out += CivilDate.monthNames[d.month - 1]
                }
            case "d": out += pad(d.day, n)
            case "E": out += n >= 4 ? CivilDate.weekdayNames[d.weekday] : String(CivilDate.weekdayNames[d.weekday].prefix(3))
            case "H": out += pad(d.hour, n)
            case "h": out += pad(d.hour % 12 == 0 ? 12 : d.hour % 12, n)
            case "a": out += d.hour < 12 ? "AM" : "PM"
            case "m": out += pad(d.minute, n)
            case "s": out += pad(Int(d.second), n)
            default: out += String(repeating: c, count: n)
            }
            i += n
        }
        return out
    }
}

extension DateFormat {
    /// Reads a date written in this pattern (numbers, `MMM`/`MMMM` month names, quoted text,
    /// other characters literally); nil when the text does not match. Missing fields
    /// default to January 1, 00:00 UTC.
    public func parse(_ text: String) -> Double? {
        let p = Array(pattern), s = Array(text)
        var i = 0, j = 0
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0.0
        var pm: Bool? = nil
        func number(_ maxDigits: Int) -> Int? {
            var v = 0, n = 0
            while j < s.count, n < maxDigits, let d = s[j].wholeNumberValue, s[j].isASCII { v = v * 10 + d; j += 1; n += 1 }
            return n > 0 ? v : nil
        }
        while i < p.count {
            let c = p[i]
            if c == "'" {
                i += 1
                while i < p.count && p[i] != "'" { guard j < s.count, s[j] == p[i] else { return nil }; i += 1; j += 1 }
                i += 1; continue
            }
            var n = 1
            while i + n < p.count && p[i + n] == c { n += 1 }
            switch c {
            case "y": guard let v = number(n == 2 ? 2 : 4) else { return nil }; year = n == 2 ? 2000 + v : v
            case "M":
                if n >= 3 {
                    let rest = String(s[j...]).lowercased()
                    guard let k = CivilDate.monthNames.firstIndex(where: { rest.hasPrefix(n == 3 ? String($0.prefix(3)).lowercased() : $0.lowercased()) }) else { return nil }
                    month = k + 1; j += n == 3 ? 3 : CivilDate.monthNames[k].count
                } else { guard let v = number(2) else { return nil }; month = v }
            case "d": guard let v = number(2) else { return nil }; day = v
            case "H", "h": guard let v = number(2) else { return nil }; hour = v
            case "m": guard let v = number(2) else { return nil }; minute = v
            case "s": guard let v = number(2) else { return nil }; second = Double(v)
            case "a":
                let rest = String(s[j...]).uppercased()
                if rest.hasPrefix("AM") { pm = false } else if rest.hasPrefix("PM") { pm = true } else { return nil }
                j += 2
            case "E":
                let rest = String(s[j...]).lowercased()
                guard let name = CivilDate.weekdayNames.first(where: { rest.hasPrefix(n >= 4 ? $0.lowercased() : String($0.prefix(3)).lowercased()) }) else { return nil }
                j += n >= 4 ? name.count : 3
            default:
                for _ in 0..<n { guard j < s.count, s[j] == c else { return nil }; j += 1 }
            }
            i += n
        }
        guard j == s.count, (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(year: year, month: month),
              hour < 24, minute < 60, second < 61 else { return nil }
        if let pm { hour = hour % 12 + (pm ? 12 : 0) }
        return CivilDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second).seconds
    }
}
