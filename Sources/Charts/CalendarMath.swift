/// Civil (proleptic Gregorian, UTC) date arithmetic on seconds since 1970-01-01T00:00:00Z.
///
/// Dates in ChartReel are plain `Double` seconds in UTC: no time zones, no locale, so a
/// document renders the same everywhere. The day ↔ civil conversion is the closed-form
/// era/day-of-era algorithm (exact for every day in ±5.8 million years).
public struct CivilDate: Hashable, Sendable {
    public var year: Int, month: Int, day: Int
    public var hour: Int = 0, minute: Int = 0, second: Double = 0

    /// Creates a date from its fields (month 1…12, day 1…31).
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Double = 0) {
        self.year = year; self.month = month; self.day = day; self.hour = hour; self.minute = minute; self.second = second
    }

    /// Days since 1970-01-01 of a civil date.
    public static func days(year y0: Int, month m: Int, day d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day number (days since 1970-01-01).
    public static func civil(days z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The date at `seconds` since the epoch (UTC).
    public init(seconds: Double) {
        let days = Int((seconds / 86_400).rounded(.down))
        let c = CivilDate.civil(days: days)
        let rest = seconds - Double(days) * 86_400
        year = c.year; month = c.month; day = c.day
        hour = Int(rest / 3600); minute = Int((rest - Double(hour) * 3600) / 60)
        second = rest - Double(hour) * 3600 - Double(minute) * 60
    }

    /// Seconds since the epoch (UTC).
    public var seconds: Double {
        Double(CivilDate.days(year: year, month: month, day: day)) * 86_400 + Double(hour) * 3600 + Double(minute) * 60 + second
    }

    /// Day of the week, 0 = Sunday.
    public var weekday: Int {
        let d = CivilDate.days(year: year, month: month, day: day)
        return ((d % 7) + 11) % 7   // 1970-01-01 was a Thursday (4)
    }

    /// Parses ISO 8601 dates: `2024-03-05`, `2024-03-05T14:30`, `2024-03-05T14:30:15Z`,
    /// `2024-03-05 14:30:15.5`, with an optional `Z` or `±hh:mm` offset (converted to UTC),
    /// and a month alone, `2024-03`, as its first day (how monthly data is often written).
    public static func parseISO(_ s: String) -> Double? {
        let b = Array(s.utf8)
        var i = 0
        func num(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool { if i < b.count && b[i] == c { i += 1; return true }; return false }
        guard let y = num(4), expect(45), let m = num(2), (1...12).contains(m) else { return nil }
        if i == b.count { return CivilDate(year: y, month: m, day: 1).seconds }
        guard expect(45), let d = num(2), d >= 1, d <= daysIn(year: y, month: m) else { return nil }
        var hh = 0, mm = 0, ss = 0.0
        if i < b.count && (b[i] == 84 || b[i] == 32) {
            i += 1
            guard let h = num(2), expect(58), let mi = num(2), h < 24, mi < 60 else { return nil }
            hh = h; mm = mi
            if expect(58) {
                guard let sec = num(2), sec < 61 else { return nil }
                ss = Double(sec)
                if expect(46) {
                    var scale = 0.1
                    var any = false
                    while i < b.count, b[i] >= 48, b[i] <= 57 { ss += Double(b[i] - 48) * scale; scale /= 10; i += 1; any = true }
                    if !any { return nil }
                }
            }
        }
        var offset = 0.0
        if i < b.count {
            if b[i] == 90 { i += 1 } else if b[i] == 43 || b[i] == 45 {
                let sign = b[i] == 45 ? -1.0 : 1.0
                i += 1
                guard let oh = num(2) else { return nil }
                _ = expect(58)
                guard let om = num(2) else { return nil }
                offset = sign * Double(oh * 3600 + om * 60)
            }
        }
        guard i == b.count else { return nil }
        return CivilDate(year: y, month: m, day: d, hour: hh, minute: mm, second: ss).seconds - offset
    }

    /// An ISO 8601 text of `seconds` that `parseISO` reads back to within a microsecond:
    /// `2024-03-05T14:30:15.250000Z`.
    public static func isoText(_ seconds: Double) -> String {
        let micros = (seconds * 1_000_000).rounded()
        let whole = (micros / 1_000_000).rounded(.down)
        let d = CivilDate(seconds: whole)
        let frac = Int(micros - whole * 1_000_000)
        func pad(_ v: Int, _ n: Int) -> String { let t = String(v); return String(repeating: "0", count: max(0, n - t.count)) + t }
        return "\(pad(d.year, 4))-\(pad(d.month, 2))-\(pad(d.day, 2))T\(pad(d.hour, 2)):\(pad(d.minute, 2)):\(pad(Int(d.second.rounded()), 2)).\(pad(frac, 6))Z"
    }

    /// Number of days in a month.
    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
}
