#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// "Nice" tick values, as d3-array's `ticks`, `tickIncrement` and d3-scale's `nice` compute them.
///
/// Steps are 1, 2 or 5 × 10ⁿ, chosen by comparing the raw step with √50, √10 and √2.
/// AxisTick values are integers divided (not multiplied) by a power of ten when the step is
/// below 1, so 0.1 + 0.2 never prints 0.30000000000000004: the third tick of 0…1 is
/// 3 / 10, the double nearest to 0.3.
public enum NiceTicks {
    static let e10 = 50.0.squareRoot(), e5 = 10.0.squareRoot(), e2 = 2.0.squareRoot()

    /// (i1, i2, inc) such that ticks are i/inc (inc < 0 means divide by −inc) for i in i1…i2.
    static func spec(_ start: Double, _ stop: Double, _ count: Double) -> (Double, Double, Double) {
        let step = (stop - start) / max(0, count)
        let power = log10(step).rounded(.down)
        let error = step / pow(10, power)
        let factor: Double = error >= e10 ? 10 : error >= e5 ? 5 : error >= e2 ? 2 : 1
        var i1: Double, i2: Double, inc: Double
        if power < 0 {
            inc = pow(10, -power) / factor
            i1 = (start * inc).rounded(); i2 = (stop * inc).rounded()
            if i1 / inc < start { i1 += 1 }
            if i2 / inc > stop { i2 -= 1 }
            inc = -inc
        } else {
            inc = pow(10, power) * factor
            i1 = (start / inc).rounded(); i2 = (stop / inc).rounded()
            if i1 * inc < start { i1 += 1 }
            if i2 * inc > stop { i2 -= 1 }
        }
        if i2 < i1 && 0.5 <= count && count < 2 { return spec(start, stop, count * 2) }
        return (i1, i2, inc)
    }

    /// About `count` nice values covering `start…stop` (either order), in that order.
    public static func ticks(_ start: Double, _ stop: Double, count: Int = 10) -> [Double] {
        guard count > 0, start.isFinite, stop.isFinite else { return [] }
        if start == stop { return [start] }
        let reverse = stop < start
        let (a, b) = reverse ? (stop, start) : (start, stop)
        let (i1, i2, inc) = spec(a, b, Double(count))
        guard i2 >= i1, i2 - i1 < 100_000 else { return [] }
        var out: [Double] = []
        out.reserveCapacity(Int(i2 - i1) + 1)
        var i = i1
        while i <= i2 {
            out.append(inc < 0 ? i / -inc : i * inc)
            i += 1
        }
        return reverse ? out.reversed() : out
    }

    /// d3's `tickIncrement`: the step as a positive power-of-ten multiple, or the negated
    /// reciprocal when the step is below 1 (so it stays an exact integer).
    public static func increment(_ start: Double, _ stop: Double, count: Int) -> Double {
        let step = (stop - start) / Double(max(0, count))
        let power = log10(step).rounded(.down)
        let error = step / pow(10, power)
        let factor: Double = error >= e10 ? 10 : error >= e5 ? 5 : error >= e2 ? 2 : 1
        return power >= 0 ? factor * pow(10, power) : -pow(10, -power) / factor
    }

    /// The distance between successive ticks of `ticks(start, stop, count)`.
    public static func step(_ start: Double, _ stop: Double, count: Int = 10) -> Double {
        let inc = increment(min(start, stop), max(start, stop), count: count)
        return inc < 0 ? 1 / -inc : inc
    }

    /// d3-scale's `nice`: the domain widened to whole steps, repeated until the step settles.
    public static func nice(_ start: Double, _ stop: Double, count: Int = 10) -> (Double, Double) {
        guard start.isFinite, stop.isFinite, start != stop, count > 0 else { return (start, stop) }
        let reverse = stop < start
        var a = reverse ? stop : start, b = reverse ? start : stop
        var prestep = Double.nan
        for _ in 0..<10 {
            let step = increment(a, b, count: count)
            if step == prestep { break }
            if step > 0 {
                a = (a / step).rounded(.down) * step; b = (b / step).rounded(.up) * step
            } else if step < 0 {
                a = (a * step).rounded(.up) / step; b = (b * step).rounded(.down) / step
            } else { break }
            prestep = step
        }
        return reverse ? (b, a) : (a, b)
    }

    /// The number of fraction digits that shows every tick of step `step` exactly.
    public static func fractionDigits(forStep step: Double) -> Int {
        guard step > 0, step.isFinite else { return 0 }
        return max(0, min(15, Int(-log10(step).rounded(.down) + (step < 1 ? 0 : 0))))
    }

    /// Log-scale ticks (base 10): every power of ten, plus 2…9 × 10ⁿ when the domain spans
    /// few decades (as d3's log scale does).
    public static func logTicks(_ start: Double, _ stop: Double, count: Int = 10) -> [Double] {
        guard start > 0, stop > 0, start.isFinite, stop.isFinite else { return [] }
        let lo = min(start, stop), hi = max(start, stop)
        let i = log10(lo).rounded(.down), j = log10(hi).rounded(.up)
        var out: [Double] = []
        if j - i < Double(count) {
            var p = i
            while p <= j {
                let base = pow(10, p)
                for k in 1...9 {
                    let v = p < 0 ? Double(k) / pow(10, -p) : Double(k) * base
                    if v >= lo && v <= hi { out.append(v) }
                }
                p += 1
            }
            if out.count * 2 < count { return ticks(lo, hi, count: count) }
        } else {
            let powers = ticks(i, j, count: min(Int(j - i), count))
            out = powers.map { $0 < 0 ? 1 / pow(10, -$0) : pow(10, $0) }.filter { $0 >= lo && $0 <= hi }
        }
        return stop < start ? out.reversed() : out
    }
}
