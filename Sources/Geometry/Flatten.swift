/// A run of connected points: one flattened subpath.
public struct Polyline: Hashable, Sendable {
    /// The vertices in order.
    public var points: [Point]
    /// True when the last point connects back to the first.
    public var closed: Bool

    /// Creates a polyline.
    public init(points: [Point], closed: Bool) { self.points = points; self.closed = closed }
}

extension Path {
    /// The path as polylines whose distance from the true curves is at most `tolerance`
    /// (in the units after `transform` is applied, i.e. device pixels when drawing).
    ///
    /// Curves are cut into equal parameter steps, the count given by Wang's formula:
    /// n = ⌈√(d(d−1)/8 · M / tolerance)⌉ with M the largest second difference of the
    /// control points. It bounds the deviation for any curve, needs no recursion and
    /// yields the same points on every run. Segments with non-finite coordinates are
    /// dropped (a degenerate path draws nothing rather than failing).
    public func flattened(tolerance: Double = 0.1, transform: Transform = .identity) -> [Polyline] {
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : 0.1
        var out: [Polyline] = []
        var current: [Point] = []
        var last = Point.zero
        // A lone move draws nothing; a zero-length segment keeps its point (it may get caps).
        var hasSegment = false
        func flush(closed: Bool) {
            if current.count > 1 || (current.count == 1 && hasSegment) {
                out.append(Polyline(points: current, closed: closed))
            }
            current = []
            hasSegment = false
        }
        for e in elements {
            switch e {
            case .move(let p):
                flush(closed: false)
                last = transform.apply(p)
                if last.isFinite { current = [last] }
            case .line(let p):
                let q = transform.apply(p)
                guard q.isFinite else { continue }
                if current.isEmpty { current = [last.isFinite ? last : q] }
                if q != current[current.count - 1] { current.append(q) }
                last = q; hasSegment = true
            case .quad(let c, let p):
                let c1 = transform.apply(c), q = transform.apply(p)
                guard c1.isFinite, q.isFinite, last.isFinite else { last = q; continue }
                if current.isEmpty { current = [last] }
                let m = (last - 2 * c1 + q).length
                let n = segmentCount(0.25 * m / tol)
                for i in 1..<n {
                    let t = Double(i) / Double(n), u = 1 - t
                    current.append(Point(u * u * last.x + 2 * u * t * c1.x + t * t * q.x,
                                         u * u * last.y + 2 * u * t * c1.y + t * t * q.y))
                }
                current.append(q); last = q; hasSegment = true
            case .cubic(let c1, let c2, let p):
                let a = transform.apply(c1), b = transform.apply(c2), q = transform.apply(p)
                guard a.isFinite, b.isFinite, q.isFinite, last.isFinite else { last = q; continue }
                if current.isEmpty { current = [last] }
                let m = max((last - 2 * a + b).length, (a - 2 * b + q).length)
                let n = segmentCount(0.75 * m / tol)
                appendCubic(last, a, b, q, n, &current)
                last = q; hasSegment = true
            case .close:
                if !current.isEmpty {
                    let start = current[0]
                    hasSegment = true
                    flush(closed: true)
                    last = start
                }
            }
        }
        flush(closed: false)
        return out
    }
}

/// ⌈√x⌉ clamped to 1…4096, so huge or NaN inputs cannot allocate without bound.
@inline(__always)
func segmentCount(_ x: Double) -> Int {
    guard x.isFinite, x > 1 else { return 1 }
    // Clamped as a Double: a finite x can still have a root beyond Int.max.
    return Int(min(4096, x.squareRoot().rounded(.up)))
}

/// Appends the points of a cubic at t = 1/n … 1 (the start is already in `out`).
@inline(__always)
func appendCubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ n: Int, _ out: inout [Point]) {
    if n > 1 {
        for i in 1..<n {
            let t = Double(i) / Double(n), u = 1 - t
            let uu = u * u, tt = t * t
            let w0 = uu * u, w1 = 3 * uu * t, w2 = 3 * u * tt, w3 = tt * t
            out.append(Point(w0 * p0.x + w1 * p1.x + w2 * p2.x + w3 * p3.x,
                             w0 * p0.y + w1 * p1.y + w2 * p2.y + w3 * p3.y))
        }
    }
    out.append(p3)
}
