/// Arc-length measurement of a path, and trimming by fractions of that length.
///
/// Each curve is sampled into a table of (parameter, cumulative length) with enough
/// samples that chords stay within 0.01 units of the curve, so lengths are accurate
/// to better than 1e-4 relative for the curves charts draw. Trimming maps a length
/// back to a curve parameter by binary search in the table and cuts the curve with
/// de Casteljau's construction, so a trimmed path is still made of exact curves and
/// can be flattened, transformed and stroked like any other.
public struct PathMeasure: Sendable {
    enum Kind: Sendable { case line, quad, cubic }

    struct Segment: Sendable {
        var kind: Kind
        var p0: Point, p1: Point, p2: Point, p3: Point
        /// Starts a new subpath (the trimmed output moves here first).
        var startsSubpath: Bool
        /// Is the closing segment of a closed subpath.
        var closes: Bool
        /// Index of the subpath the segment belongs to (0 for the first).
        var subpath: Int
        var length: Double
        /// Cumulative length of the whole path at the segment's start.
        var offset: Double
        /// For curves: parameters and cumulative lengths within the segment (first (0,0)).
        var ts: [Double]
        var ls: [Double]
    }

    var segments: [Segment] = []
    /// Cumulative length at the start of each subpath, indexed by `Segment.subpath`.
    var subpathOffsets: [Double] = []
    /// The total arc length of every subpath.
    public private(set) var length: Double = 0

    /// Measures `path`. Segments with non-finite points, or so long that their length
    /// (or the running total) overflows, are left out: they cannot be drawn anyway.
    public init(_ path: Path) {
        var start = Point.zero, current = Point.zero
        var newSubpath = true
        var total = 0.0
        func add(_ kind: Kind, _ a: Point, _ b: Point, _ c: Point, _ d: Point, closes: Bool = false) {
            guard a.isFinite, b.isFinite, c.isFinite, d.isFinite else { return }
            var s = Segment(kind: kind, p0: a, p1: b, p2: c, p3: d, startsSubpath: newSubpath, closes: closes,
                            subpath: subpathOffsets.count - (newSubpath ? 0 : 1),
                            length: 0, offset: total, ts: [], ls: [])
            switch kind {
            case .line:
                s.length = (d - a).length
            case .quad, .cubic:
                let ctrl = (b - a).length + (c - b).length + (d - c).length
                // The sample count is taken from a clamped Double: converting an
                // overflowed (infinite) estimate to Int would trap.
                let n = Int(max(8, min(1024, (ctrl / 0.5).rounded(.up))))
                s.ts.reserveCapacity(n + 1); s.ls.reserveCapacity(n + 1)
                s.ts.append(0); s.ls.append(0)
                var prev = a, acc = 0.0
                for i in 1...n {
                    let t = Double(i) / Double(n)
                    let q = Self.point(s, t)
                    acc += (q - prev).length
                    s.ts.append(t); s.ls.append(acc)
                    prev = q
                }
                s.length = acc
            }
            guard s.length.isFinite, (total + s.length).isFinite else { return }
            if newSubpath { subpathOffsets.append(total) }
            total += s.length
            segments.append(s)
            newSubpath = false
        }
        // At most one segment per element: reserved up front, a 100,000-point line's
        // table (12 MB) is built in place instead of through a dozen doublings that
        // peak at twice its size.
        segments.reserveCapacity(path.elements.count)
        for e in path.elements {
            switch e {
            case .move(let p):
                start = p; current = p; newSubpath = true
            case .line(let p):
                add(.line, current, current, p, p); current = p
            case .quad(let c, let p):
                // Elevated to a cubic so trimming handles one curve kind.
                let c1 = current + (c - current) * (2.0 / 3.0), c2 = p + (c - p) * (2.0 / 3.0)
                add(.quad, current, c1, c2, p); current = p
            case .cubic(let c1, let c2, let p):
                add(.cubic, current, c1, c2, p); current = p
            case .close:
                add(.line, current, current, start, start, closes: true)
                current = start; newSubpath = true
            }
        }
        length = total
    }

    /// True when the path is one closed subpath, so its end meets its start and a
    /// window wrapping past the end can continue from the start without a seam.
    var isSingleClosedSubpath: Bool {
        guard let first = segments.first, let last = segments.last else { return false }
        return last.closes && first.subpath == last.subpath
    }

    @inline(__always)
    static func point(_ s: Segment, _ t: Double) -> Point {
        let u = 1 - t
        let w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t
        return Point(w0 * s.p0.x + w1 * s.p1.x + w2 * s.p2.x + w3 * s.p3.x,
                     w0 * s.p0.y + w1 * s.p1.y + w2 * s.p2.y + w3 * s.p3.y)
    }

    /// The curve parameter at which segment `s` has covered `l` of its own length.
    static func parameter(_ s: Segment, atLength l: Double) -> Double {
        if s.length <= 0 { return 0 }
        if s.kind == .line { return min(1, max(0, l / s.length)) }
        if l <= 0 { return 0 }
        if l >= s.length { return 1 }
        var lo = 0, hi = s.ls.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if s.ls[mid] < l { lo = mid } else { hi = mid }
        }
        let span = s.ls[hi] - s.ls[lo]
        let f = span > 0 ? (l - s.ls[lo]) / span : 0
        return s.ts[lo] + (s.ts[hi] - s.ts[lo]) * f
    }

    /// The point at distance `distance` along the path (clamped to its ends); nil for an empty path.
    public func position(atDistance distance: Double) -> Point? {
        guard let first = segments.first else { return nil }
        let d = min(max(distance.isNaN ? 0 : distance, 0), length)
        for s in segments where d <= s.offset + s.length {
            let t = Self.parameter(s, atLength: d - s.offset)
            return s.kind == .line ? s.p0.lerp(s.p3, t) : Self.point(s, t)
        }
        let last = segments.last ?? first
        return last.p3
    }

    /// The part of the path between fractions `from` and `to` of its total length,
    /// SwiftUI's `trim(from:to:)`: every subpath in order counts, and nothing is drawn
    /// when `from >= to`. Fractions are clamped to 0…1.
    public func trimmed(from: Double, to: Double) -> Path {
        let f = min(max(from.isNaN ? 0 : from, 0), 1), t = min(max(to.isNaN ? 0 : to, 0), 1)
        var out = Path()
        guard f < t, length > 0 else { return out }
        appendRange(f * length, t * length, into: &out, continuing: false)
        return out
    }

    /// Appends the part of the path between lengths `a < b` to `out`.
    ///
    /// A subpath kept from its start through its closing segment is closed again, so it
    /// gets joins, not caps, where it began. With `continuing`, the first piece carries
    /// on the subpath `out` ends with instead of starting a new one: the caller has
    /// checked that `out` ends where the path starts (a closed path's wrapped trim).
    func appendRange(_ a: Double, _ b: Double, into out: inout Path, continuing: Bool) {
        var penAt: Point? = continuing ? out.currentPoint : nil
        var penSubpath = continuing ? (segments.first?.subpath ?? -1) : -1
        // True while the output subpath began at the start of its source subpath.
        var fromSubpathStart = false
        for s in segments {
            let s0 = s.offset, s1 = s.offset + s.length
            if s0 > b { break }
            if s1 < a { continue }
            if s.length == 0 {
                // A zero-length closing segment (the curves already came back to the
                // start) still closes a subpath that is kept whole.
                if s.closes && fromSubpathStart && s.subpath == penSubpath && penAt == s.p0 {
                    out.close(); penAt = nil; penSubpath = -1
                }
                continue
            }
            let la = max(0, a - s0), lb = min(s.length, b - s0)
            if lb <= la { continue }
            let ta = Self.parameter(s, atLength: la), tb = Self.parameter(s, atLength: lb)
            let (c0, c1, c2, c3): (Point, Point, Point, Point)
            if s.kind == .line {
                // Exact end points where the piece reaches them, so a wrapped trim meets
                // its own start bit for bit.
                c0 = ta <= 0 ? s.p0 : s.p0.lerp(s.p3, ta)
                c3 = tb >= 1 ? s.p3 : s.p0.lerp(s.p3, tb)
                c1 = s.p0; c2 = s.p3
            } else {
                (c0, c1, c2, c3) = Self.subcurve(s, ta, tb)
            }
            if penAt == nil || s.subpath != penSubpath || penAt! != c0 {
                out.move(to: c0)
                fromSubpathStart = la <= 0 && s0 <= subpathOffsets[s.subpath]
            }
            if s.kind == .line {
                if s.closes && lb >= s.length && fromSubpathStart {
                    out.close(); penAt = nil; penSubpath = -1
                    continue
                }
                out.line(to: c3)
            } else {
                out.cubic(to: c3, control1: c1, control2: c2)
            }
            penAt = c3; penSubpath = s.subpath
        }
    }

    /// The piece of segment `s` between parameters `t0 < t1`, by de Casteljau subdivision.
    static func subcurve(_ s: Segment, _ t0: Double, _ t1: Double) -> (Point, Point, Point, Point) {
        // Split at t1, keep the first part; then split that at t0/t1, keep the second.
        func split(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> ((Point, Point, Point, Point), (Point, Point, Point, Point)) {
            let a = p0.lerp(p1, t), b = p1.lerp(p2, t), c = p2.lerp(p3, t)
            let d = a.lerp(b, t), e = b.lerp(c, t), f = d.lerp(e, t)
            return ((p0, a, d, f), (f, e, c, p3))
        }
        var q = (s.p0, s.p1, s.p2, s.p3)
        if t1 < 1 { q = split(q.0, q.1, q.2, q.3, t1).0 }
        if t0 > 0 {
            let r = t1 > 0 ? t0 / t1 : 0
            q = split(q.0, q.1, q.2, q.3, r).1
        }
        return q
    }
}
