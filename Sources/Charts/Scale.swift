#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Maps a continuous data interval linearly onto a pixel interval.
public struct LinearScale: Hashable, Sendable {
    /// The data values at the two ends.
    public var domain: (Double, Double) { (d0, d1) }
    /// The pixel positions of the two ends.
    public var range: (Double, Double) { (r0, r1) }
    let d0: Double, d1: Double, r0: Double, r1: Double

    /// Creates a scale from `domain` onto `range`; the range may run backwards (y up).
    public init(domain: (Double, Double), range: (Double, Double)) {
        d0 = domain.0; d1 = domain.1; r0 = range.0; r1 = range.1
    }

    /// The pixel position of data value `v`. A zero-width domain maps everything to the range's middle.
    public func callAsFunction(_ v: Double) -> Double {
        let span = d1 - d0
        if span == 0 || !span.isFinite { return (r0 + r1) / 2 }
        return r0 + (v - d0) / span * (r1 - r0)
    }

    /// The data value at pixel position `p`.
    public func invert(_ p: Double) -> Double {
        let span = r1 - r0
        if span == 0 { return d0 }
        return d0 + (p - r0) / span * (d1 - d0)
    }
}

/// Maps positive data logarithmically (base 10) onto a pixel interval.
public struct LogScale: Hashable, Sendable {
    let inner: LinearScale
    /// The data values at the two ends (both > 0).
    public let domain: (Double, Double)
    /// Creates a scale; non-positive domain ends are raised to a tiny positive value.
    public init(domain: (Double, Double), range: (Double, Double)) {
        let a = domain.0 > 0 ? domain.0 : 1e-12, b = domain.1 > 0 ? domain.1 : 1e-12
        self.domain = (a, b)
        inner = LinearScale(domain: (log10(a), log10(b)), range: range)
    }
    public static func == (a: LogScale, b: LogScale) -> Bool { a.inner == b.inner }
    public func hash(into h: inout Hasher) { h.combine(inner) }
    /// The pixel position of `v` (non-positive values clamp to the bottom of the domain).
    public func callAsFunction(_ v: Double) -> Double { inner(log10(max(v, min(domain.0, domain.1)))) }
}

/// Places categories in equal bands along a pixel interval, with padding (d3's band scale).
public struct BandScale: Hashable, Sendable {
    /// The categories in order.
    public let domain: [String]
    /// Pixel positions of the ends.
    public let range: (Double, Double)
    /// Fraction of a step left empty between bands (0…1).
    public let paddingInner: Double
    /// Steps of empty space before the first and after the last band.
    public let paddingOuter: Double
    /// Where the bands sit when padding leaves spare room: 0 start, 0.5 centre, 1 end.
    public let align: Double
    /// Distance between the starts of successive bands.
    public let step: Double
    /// Width of one band.
    public let bandwidth: Double
    let start: Double
    let index: [String: Int]

    /// Creates a band scale.
    public init(domain: [String], range: (Double, Double), paddingInner: Double = 0.1, paddingOuter: Double = 0.1, align: Double = 0.5) {
        self.domain = domain; self.range = range
        self.paddingInner = min(1, max(0, paddingInner)); self.paddingOuter = max(0, paddingOuter); self.align = min(1, max(0, align))
        var idx: [String: Int] = [:]
        for (i, d) in domain.enumerated() where idx[d] == nil { idx[d] = i }
        index = idx
        let n = Double(domain.count)
        let reverse = range.1 < range.0
        let lo = reverse ? range.1 : range.0, hi = reverse ? range.0 : range.1
        let st = (hi - lo) / max(1, n - self.paddingInner + self.paddingOuter * 2)
        var s0 = lo + (hi - lo - st * (n - self.paddingInner)) * self.align
        if reverse { s0 = hi - (s0 - lo) - st * (1 - self.paddingInner) }
        start = s0
        step = reverse ? -st : st
        bandwidth = st * (1 - self.paddingInner)
    }

    public static func == (a: BandScale, b: BandScale) -> Bool {
        a.domain == b.domain && a.range == b.range && a.paddingInner == b.paddingInner && a.paddingOuter == b.paddingOuter && a.align == b.align
    }
    public func hash(into h: inout Hasher) { h.combine(domain); h.combine(paddingInner); h.combine(paddingOuter) }

    /// The start of the band of category `c`, or nil when it is not in the domain.
    public func callAsFunction(_ c: String) -> Double? { index[c].map { start + Double($0) * step } }
    /// The start of the band at position `i`.
    public func position(at i: Int) -> Double { start + Double(i) * step }
    /// The centre of the band of category `c`.
    public func center(_ c: String) -> Double? { self(c).map { $0 + bandwidth / 2 } }
}

/// Maps dates (seconds since the epoch, UTC) linearly onto pixels, with calendar ticks.
public struct TimeScale: Hashable, Sendable {
    let inner: LinearScale
    /// The first and last date.
    public var domain: (Double, Double) { inner.domain }
    /// Creates a time scale.
    public init(domain: (Double, Double), range: (Double, Double)) { inner = LinearScale(domain: domain, range: range) }
    /// The pixel position of date `v`.
    public func callAsFunction(_ v: Double) -> Double { inner(v) }
}

/// The kinds of scale an axis can use.
public enum ScaleType: String, Hashable, Sendable, CaseIterable {
    /// Linear numbers.
    case linear
    /// Base-10 logarithmic numbers.
    case log
    /// Categories in equal bands.
    case band
    /// Dates.
    case time
}

/// A position scale of any kind, as one value a chart can hold per axis.
public enum PositionScale: Sendable {
    case linear(LinearScale)
    case log(LogScale)
    case band(BandScale)
    case time(TimeScale)

    /// The pixel position of a numeric (or date) value; band scales take the index of a category.
    public func callAsFunction(_ v: Double) -> Double {
        switch self {
        case .linear(let s): return s(v)
        case .log(let s): return s(v)
        case .time(let s): return s(v)
        case .band(let s):
            // A fractional index (a row moving between named steps) lies between bands.
            let i = v.rounded(.down)
            return s.position(at: Int(i)) + (v - i) * s.step + s.bandwidth / 2
        }
    }
}
