/// Calendar-aware ticks for dates (seconds since the epoch, UTC), as d3-time picks them:
/// the interval from seconds to years whose length is closest (by ratio) to the span
/// divided by the wanted count; ticks fall on calendar boundaries (midnight, the 1st of
/// the month, Sunday for weeks, January for years).
public enum TimeTicks {
    /// A calendar unit.
    public enum Unit: String, Hashable, Sendable, CaseIterable { case second, minute, hour, day, week, month, year }

    /// An interval: `step` × `unit`.
    public struct Interval: Hashable, Sendable {
        public var unit: Unit
        public var step: Int
        /// `step` × `unit`.
        public init(unit: Unit, step: Int = 1) { self.unit = unit; self.step = step }
        /// Approximate length in seconds, for choosing between intervals.
        public var seconds: Double {
            let base: Double
            switch unit {
            case .second: base = 1
            case .minute: base = 60
            case .hour: base = 3600
            case .day: base = 86_400
            case .week: base = 604_800
            case .month: base = 2_592_000
            case .year: base = 31_536_000
            }
            return base * Double(step)
        }
        /// A date label pattern that suits the interval and reads one way only: ticks of
        /// days, weeks or months over more than one calendar year carry the year written
        /// out ("Jan 12, 2014", "Apr 2014"), since "Jan 12" alone reads as January 2012 as
        /// easily as January 12.
        public func labelPattern(from start: Double, to stop: Double) -> String {
            guard start.isFinite, stop.isFinite,
                  CivilDate(seconds: min(start, stop)).year != CivilDate(seconds: max(start, stop)).year else { return labelPattern }
            switch unit {
            case .day, .week: return "MMM d, yyyy"
            case .month: return "MMM yyyy"
            default: return labelPattern
            }
        }

        /// A date label pattern that suits the interval within one year.
        public var labelPattern: String {
            switch unit {
            case .second: return "HH:mm:ss"
            case .minute, .hour: return "HH:mm"
            case .day, .week: return "MMM d"
            case .month: return "MMM"
            case .year: return "yyyy"
            }
        }
    }

    static let intervals: [Interval] = [
        .init(unit: .second, step: 1), .init(unit: .second, step: 5), .init(unit: .second, step: 15), .init(unit: .second, step: 30),
        .init(unit: .minute, step: 1), .init(unit: .minute, step: 5), .init(unit: .minute, step: 15), .init(unit: .minute, step: 30),
        .init(unit: .hour, step: 1), .init(unit: .hour, step: 3), .init(unit: .hour, step: 6), .init(unit: .hour, step: 12),
        .init(unit: .day, step: 1), .init(unit: .day, step: 2), .init(unit: .week, step: 1),
        .init(unit: .month, step: 1), .init(unit: .month, step: 3), .init(unit: .year, step: 1),
    ]

    /// The interval for about `count` ticks over `start…stop`.
    public static func interval(_ start: Double, _ stop: Double, count: Int) -> Interval {
        let target = abs(stop - start) / Double(max(1, count))
        var i = 0
        while i < intervals.count && intervals[i].seconds <= target { i += 1 }
        if i == intervals.count {
            let years = NiceTicks.step(start / 31_536_000, stop / 31_536_000, count: count)
            return Interval(unit: .year, step: max(1, Int(years.rounded())))
        }
        if i == 0 { return intervals[0] }
        return target / intervals[i - 1].seconds < intervals[i].seconds / target ? intervals[i - 1] : intervals[i]
    }

    /// Ticks within `start…stop` (ascending) on the calendar boundaries of `interval`.
    public static func ticks(_ start: Double, _ stop: Double, interval iv: Interval) -> [Double] {
        let lo = min(start, stop), hi = max(start, stop)
        guard lo.isFinite, hi.isFinite else { return [] }
        var out: [Double] = []
        func add(_ t: Double) -> Bool {
            if t > hi || out.count > 10_000 { return false }
            if t >= lo { out.append(t) }
            return true
        }
        switch iv.unit {
        case .second, .minute, .hour:
            let len = iv.seconds
            var t = (lo / len).rounded(.down) * len
            while add(t) { t += len }
        case .day:
            var d = CivilDate(seconds: lo)
            d.hour = 0; d.minute = 0; d.second = 0
            var day = CivilDate.days(year: d.year, month: d.month, day: d.day)
            while true {
                let c = CivilDate.civil(days: day)
                if (c.day - 1) % iv.step == 0 {
                    // d3 restarts the count each month, so days 1, 3, 5 … for a step of 2.
                    if !add(Double(day) * 86_400) { break }
                }
                day += 1
            }
        case .week:
            let first = Int((lo / 86_400).rounded(.down))
            var day = first - ((first % 7) + 11) % 7   // back to Sunday
            while add(Double(day) * 86_400) { day += 7 * iv.step }
        case .month:
            let d = CivilDate(seconds: lo)
            var y = d.year, m = d.month
            while (m - 1) % iv.step != 0 { m -= 1 }
            while add(CivilDate(year: y, month: m, day: 1).seconds) {
                m += iv.step
                while m > 12 { m -= 12; y += 1 }
            }
        case .year:
            let d = CivilDate(seconds: lo)
            var y = d.year - ((d.year % iv.step) + iv.step) % iv.step
            while add(CivilDate(year: y, month: 1, day: 1).seconds) { y += iv.step }
        }
        return out
    }
}
