extension PathMeasure {
    /// The part of the path a Lottie trim-paths modifier shows: fractions `start` and
    /// `end` of the whole length, both moved by `offset` turns (Lottie's offset in
    /// degrees divided by 360), in Lottie's "simultaneously" mode (one window over all
    /// subpaths in order).
    ///
    /// Rules, in the order they apply (they follow lottie-web's trim modifier):
    /// - NaN counts as 0; `start` and `end` are clamped to 0…1; when `start > end` the
    ///   two are swapped, so the window is the same either way round.
    /// - `end − start` of 1 shows the whole path, whatever the offset; 0 shows nothing.
    /// - The offset is taken modulo 1 (negative offsets wrap too), and the window
    ///   [start + offset, end + offset] wraps past the end of the path to its start.
    /// - When the path is one closed subpath, the wrapped window is one continuous
    ///   piece across the closing point (a join, not two caps, where the path starts).
    ///   On an open path, or one with several subpaths, the part past the end starts
    ///   again at the beginning of the first subpath as a separate piece.
    ///
    /// SwiftUI's `trimmed(from:to:)` is unaffected: it never wraps.
    public func trimmed(start: Double, end: Double, offset: Double) -> Path {
        var s = min(max(start.isNaN ? 0 : start, 0), 1)
        var e = min(max(end.isNaN ? 0 : end, 0), 1)
        if s > e { swap(&s, &e) }
        var out = Path()
        guard e > s, length > 0 else { return out }
        if e - s >= 1 {
            appendRange(0, length, into: &out, continuing: false)
            return out
        }
        var o = offset.isFinite ? offset.truncatingRemainder(dividingBy: 1) : 0
        if o < 0 { o += 1 }
        s += o; e += o
        if s >= 1 { s -= 1; e -= 1 }
        if e <= 1 {
            appendRange(s * length, e * length, into: &out, continuing: false)
            return out
        }
        // The window runs past the end: the tail of the path, then its head.
        appendRange(s * length, length, into: &out, continuing: false)
        let joined = isSingleClosedSubpath && !out.isEmpty
        appendRange(0, (e - 1) * length, into: &out, continuing: joined)
        return out
    }
}
