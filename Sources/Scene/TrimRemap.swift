/// Maps a trim fraction of one path onto another path drawn in its place.
///
/// A decimated line (`Charts`' M4) has far fewer points than the data and a shorter
/// length, since the zigzags inside a pixel column are gone; a trim of 0.5 must still end
/// where half of the original line's length ends, or the line would draw itself at a
/// different pace. The remap is piecewise linear through the points both paths share:
/// `from[k]` is a shared point's fraction of the original length, `to[k]` the same
/// point's fraction of the drawn path's length. Between shared points (within one
/// decimation column) it interpolates, so the head of a trimmed line is placed within a
/// column of where the original's would be.
public struct TrimRemap: Sendable, Hashable {
    /// Fractions of the original path's length at the shared points, non-decreasing, 0 … 1.
    public let from: [Double]
    /// Fractions of the drawn path's length at the same points, non-decreasing, 0 … 1.
    public let to: [Double]

    /// A remap through `from`/`to` (equal counts, at least two, both starting at 0 and
    /// ending at 1); nil otherwise.
    public init?(from: [Double], to: [Double]) {
        guard from.count == to.count, from.count >= 2 else { return nil }
        self.from = from
        self.to = to
    }

    /// The drawn path's fraction for the original's fraction `f`; 0 and below, 1 and
    /// above pass unchanged (the trim clamps them), and so does NaN.
    public func callAsFunction(_ f: Double) -> Double {
        guard f > 0 && f < 1 else { return f }
        // The last shared point at or before f.
        var lo = 0, hi = from.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if from[mid] <= f { lo = mid } else { hi = mid }
        }
        let span = from[hi] - from[lo]
        guard span > 0 else { return to[hi] }
        return to[lo] + (to[hi] - to[lo]) * (f - from[lo]) / span
    }
}
