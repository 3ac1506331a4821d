import Geometry
import Motion
import Scene

/// Trimming lines and areas the way a reader expects.
///
/// An area's trim reveals the area under the trimmed part of its top line: the top
/// boundary is the line trimmed by arc length (exactly as a line mark with the same trim
/// draws it), and the region closes straight down to the baseline (or back along its low
/// values) at the ends of that part. Trimming the closed outline itself would cut the
/// outline and fill a chord from the trimmed end back to the start.
///
/// When a narrowed domain hides part of a clipped line, a trim spends its time on the
/// part in view: 0…1 of the trim maps onto the stretch of the path inside the plot.
extension ChartSpec {
    /// The region of an area between fractions f0 and f1 of its top line's length.
    /// `top` is the top line (first point first); `low` the low boundary in the same
    /// direction (nil: a straight baseline at `base`, a y or, for horizontal areas, an x).
    static func trimmedArea(top: Path, low: [Point]?, base: Double, horizontal: Bool, from f0: Double, to f1: Double) -> Path {
        let measure = PathMeasure(top)
        var out = measure.trimmed(from: f0, to: f1)
        guard !out.isEmpty, let a = measure.position(atDistance: max(0, min(1, f0)) * measure.length),
              let b = measure.position(atDistance: max(0, min(1, f1)) * measure.length) else { return Path() }
        func key(_ p: Point) -> Double { horizontal ? p.y : p.x }
        if let low, low.count > 1 {
            // The low boundary between the keys of the cut's two ends, walked backwards.
            let ka = key(a), kb = key(b)
            let lo = min(ka, kb), hi = max(ka, kb)
            func at(_ k: Double) -> Point? {
                for i in 1..<low.count {
                    let p = low[i - 1], q = low[i]
                    let kp = key(p), kq = key(q)
                    guard min(kp, kq) <= k && k <= max(kp, kq) else { continue }
                    let t = kq == kp ? 0 : (k - kp) / (kq - kp)
                    return p.lerp(q, t)
                }
                return nil
            }
            var back: [Point] = []
            if let e = at(kb) { back.append(e) }
            for p in low.reversed() where key(p) > lo && key(p) < hi { back.append(p) }
            if let s = at(ka) { back.append(s) }
            // The low points run the same way as the top; walk them from b's end to a's.
            if kb < ka { back = Array(back.reversed()) }
            for p in back { out.line(to: p) }
        } else if horizontal {
            out.line(to: Point(base, b.y)); out.line(to: Point(base, a.y))
        } else {
            out.line(to: Point(b.x, base)); out.line(to: Point(a.x, base))
        }
        out.close()
        return out
    }

    /// The fractions of `path`'s length that lie inside `plot` along the key axis (x for
    /// vertical marks): the first and last distances where the path is in view. Nil when
    /// the whole path is in view or none of it is.
    static func visibleFractions(_ path: Path, plot: Rect, horizontal: Bool) -> (Double, Double)? {
        let lines = path.flattened(tolerance: 0.05)
        var total = 0.0
        var first: Double?, last: Double?
        let lo = horizontal ? plot.minY : plot.minX, hi = horizontal ? plot.maxY : plot.maxX
        func key(_ p: Point) -> Double { horizontal ? p.y : p.x }
        for line in lines {
            let pts = line.points
            guard pts.count > 1 else { continue }
            for i in 1..<pts.count {
                let p = pts[i - 1], q = pts[i]
                let len = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
                let kp = key(p), kq = key(q)
                // The part of this segment inside [lo, hi] along the key, as parameters.
                var t0 = 0.0, t1 = 1.0
                if kq != kp {
                    let ta = (lo - kp) / (kq - kp), tb = (hi - kp) / (kq - kp)
                    t0 = max(0, min(ta, tb)); t1 = min(1, max(ta, tb))
                } else if kp < lo || kp > hi { t0 = 1; t1 = 0 }
                if t0 <= t1 {
                    if first == nil { first = total + len * t0 }
                    last = total + len * t1
                }
                total += len
            }
        }
        guard total > 0, let f = first, let l = last else { return nil }
        let a = f / total, b = l / total
        if a <= 1e-9 && b >= 1 - 1e-9 { return nil }
        return (a, b)
    }
}

extension AnimatedValue {
    /// The same animation with every value v replaced by `offset + scale × v`.
    func mapped(scale k: Double, offset: Double) -> AnimatedValue {
        switch self {
        case .constant(let v): return .constant(offset + v * k)
        case .tween(var tw): tw.from = offset + tw.from * k; tw.to = offset + tw.to * k; return .tween(tw)
        case .keyframes(let kf):
            return Keyframes(kf.keyframes.map { Keyframe(time: $0.time, value: offset + $0.value * k, easing: $0.easing, hold: $0.hold) })
                .map { .keyframes($0) } ?? self
        }
    }

    /// Whether the value is 0 (for a trim start) and 1 (for an end) at every time: no trim.
    var isConstant0: Bool { if case .constant(let v) = self { return v == 0 }; return false }
    var isConstant1: Bool { if case .constant(let v) = self { return v == 1 }; return false }
}
