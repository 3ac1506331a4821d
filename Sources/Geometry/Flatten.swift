/// A run of connected points: one flattened subpath.
public struct Polyline: Hashable, Sendable {
    /// The vertices in order.
    public var points: [Point]
    /// True when the last point connects back to the first.
    public var closed: Bool
    /// The curves whose chords these points are, in order (empty for straight lines), so
    /// a stroke can take the curve's own tangent where it ends or a dash cuts a chord.
    public var curves: [Curve]
    /// The parameters of the interior points of curves cut by their bending (see
    /// `Curve.parameters`).
    public var parameters: [Double]

    /// Creates a polyline.
    public init(points: [Point], closed: Bool, curves: [Curve] = [], parameters: [Double] = []) {
        self.points = points; self.closed = closed; self.curves = curves; self.parameters = parameters
    }

    /// A curve that `Path.flattened` cut into `segments` chords: its points are
    /// `points[first ... first + segments]`, from t = 0 to t = 1. A short curve is cut
    /// into equal parameter steps (t = i / segments, `parameters` −1); a long one where
    /// its bending says (CurveFlattening.swift), the parameters of its interior points
    /// recorded in the polyline's `parameters` from index `parameters`.
    ///
    /// Why the stroker needs it: a chord of a flattened curve turns by its whole angle δ
    /// from one end to the other, so a cap or dash end drawn along the last chord is off
    /// the curve's tangent by δ/2: 0.026 rad on a radius-28 circle flattened to 0.0125
    /// (a stroke's tolerance), which swings a 4-wide square cap's corners by 0.07 px.
    /// With the curve at hand the tangent is exact: the derivative at t = 0 and t = 1
    /// where a subpath starts or ends, and where a dash cuts chord k at fraction f, the
    /// derivative at t = (k + f) / segments, whose error is second order in δ. Measured
    /// on that circle the dash ends' tangents are within 1.2e-3 rad of the circle's, which
    /// is the cubic quarter circle's own error. Blending the neighbouring chords'
    /// directions is also second order, but it needs to know which vertices are corners
    /// (a dash ending beside a real corner must not lean) and has no neighbour at a
    /// subpath's ends, so the curve is recorded instead: one entry per curve, not per
    /// point. Against the Cairo references (CairoReferenceTests) this took
    /// dash-circle-square from 19 to 11 levels at worst (mean 0.21 to 0.15) and
    /// stroke-curve-thick-miter, butt caps on a cubic, from 20 to 17 (3 to 1 pixels off
    /// by more than 16).
    public struct Curve: Hashable, Sendable {
        /// Index in `points` of the curve's start.
        public var first: Int
        /// The curve's chords.
        public var segments: Int
        /// Index in the polyline's `parameters` of the curve's first interior point, or −1
        /// for equal parameter steps.
        public var parameters: Int
        /// Control points of the cubic (a quadratic raised to a cubic), in the points' space.
        public var p0: Point, p1: Point, p2: Point, p3: Point

        /// Creates a curve record.
        public init(first: Int, segments: Int, parameters: Int = -1, _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
            self.first = first; self.segments = segments; self.parameters = parameters
            self.p0 = p0; self.p1 = p1; self.p2 = p2; self.p3 = p3
        }

        /// The unit tangent at parameter `t`; nil where the derivative vanishes (a control
        /// point on an end point), where the chord's direction is the better guess.
        public func tangent(at t: Double) -> Point? {
            let u = 1 - t
            let d = (p1 - p0) * (u * u) + (p2 - p1) * (2 * u * t) + (p3 - p2) * (t * t)
            let l = d.length
            guard l > 1e-9 * max((p3 - p0).length, (p1 - p0).length, (p2 - p3).length), l.isFinite else { return nil }
            return Point(d.x / l, d.y / l)
        }
    }

    /// The curve's tangent at fraction `f` along chord `k` (from `points[k]` to
    /// `points[k + 1]`), or nil when that chord is a straight segment. `cursor` is an
    /// index into `curves` that a caller walking the chords in order keeps between calls.
    @inline(__always)
    public func curveTangent(chord k: Int, fraction f: Double, cursor: inout Int) -> Point? {
        while cursor < curves.count && curves[cursor].first + curves[cursor].segments <= k { cursor += 1 }
        guard cursor < curves.count else { return nil }
        let c = curves[cursor]
        guard c.first <= k, c.first + c.segments < points.count,
              c.parameters < 0 || c.parameters + c.segments - 1 <= parameters.count else { return nil }
        let t0 = parameter(of: k, in: c), t1 = parameter(of: k + 1, in: c)
        return c.tangent(at: t0 + (t1 - t0) * min(1, max(0, f)))
    }

    /// The parameter on curve `c` of `points[k]`, for `c.first ≤ k ≤ c.first + c.segments`.
    @inline(__always)
    public func parameter(of k: Int, in c: Curve) -> Double {
        let i = k - c.first
        if i <= 0 { return 0 }
        if i >= c.segments { return 1 }
        return c.parameters < 0 ? Double(i) / Double(c.segments) : parameters[c.parameters + i - 1]
    }
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
    ///
    /// `cutByBending: true` (a solid stroke's centre line) cuts long curves where they
    /// bend instead, each chord checked against the same tolerance (CurveFlattening.swift):
    /// a chart's curves take about 40 % fewer chords. Not for fills and dashes: at the
    /// same bound every chord then lies near the tolerance inside a convex curve, so a
    /// filled shape loses a little area and a dash pattern measured along the chords
    /// drifts a little, and against Cairo linear-vertical-area's mean went 0.085 →
    /// 0.087 levels and dash-phase-round's 0.165 → 0.181, while solid curved strokes got
    /// closer (stroke-curve-thin 0.147 → 0.112, gradient-stroke 0.168 → 0.129).
    ///
    /// `bendingTolerance` and `pen` (a stroke's half-width) are what a stroke's centre line
    /// cut by its bending is held to instead: each chord's deviation plus how far its
    /// offset chords can stray further (`CurveFlattening.penDeviation`) within that
    /// tolerance, which bounds the outline itself. Curves that keep equal steps keep
    /// `tolerance`.
    ///
    /// `keepingCurves: false` leaves `Polyline.curves` empty: fills and clips never read
    /// them, and for a label's glyphs (a dozen quadratics a contour) growing that array
    /// was a fifth of the flattening (perf, curved-line's tick labels).
    public func flattened(tolerance: Double = 0.1, transform: Transform = .identity,
                          keepingCurves: Bool = true, cutByBending: Bool = false, bendingTolerance: Double? = nil,
                          pen: Double = 0) -> [Polyline] {
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : 0.1
        let bent = bendingTolerance.map { $0 > 0 && $0.isFinite ? $0 : tol } ?? tol
        var out: [Polyline] = []
        out.reserveCapacity(4)
        // The subpath being flattened, in a buffer reserved up front and handed to its
        // polyline: grown point by point, a glyph's contour reallocated its array several
        // times (Path.flattened was a third of the allocations of a 1,000-key race's frame).
        var current: [Point] = []
        current.reserveCapacity(64)
        var curves: [Polyline.Curve] = []
        var parameters: [Double] = []
        var last = Point.zero
        // A lone move draws nothing; a zero-length segment keeps its point (it may get caps).
        var hasSegment = false
        func flush(closed: Bool, final: Bool = false) {
            if current.count > 1 || (current.count == 1 && hasSegment) {
                // The buffers go to the polyline as they are and the next subpath starts new
                // ones: emptying a buffer the polyline shares allocated a copy of its whole
                // capacity, after every subpath, the last one included.
                out.append(Polyline(points: current, closed: closed, curves: curves.isEmpty ? [] : curves,
                                    parameters: parameters.isEmpty ? [] : parameters))
                current = []; curves = []; parameters = []
                if !final { current.reserveCapacity(64) }
            } else {
                current.removeAll(keepingCapacity: true)
                curves.removeAll(keepingCapacity: true)
                parameters.removeAll(keepingCapacity: true)
            }
            hasSegment = false
        }
        for e in elements {
            switch e {
            case .move(let p):
                flush(closed: false)
                last = transform.apply(p)
                if last.isFinite { current.append(last) }
            case .line(let p):
                let q = transform.apply(p)
                guard q.isFinite else { continue }
                if current.isEmpty { current.append(last.isFinite ? last : q) }
                if q != current[current.count - 1] { current.append(q) }
                last = q; hasSegment = true
            case .quad(let c, let p):
                let c1 = transform.apply(c), q = transform.apply(p)
                guard c1.isFinite, q.isFinite, last.isFinite else { last = q; continue }
                if current.isEmpty { current.append(last) }
                let m = (last - 2 * c1 + q).length
                let n = segmentCount(0.25 * m / tol)
                let a = last + (c1 - last) * (2.0 / 3), b = q + (c1 - q) * (2.0 / 3)   // the same curve as a cubic
                if !(cutByBending && cutAdaptively(last, a, b, q, wang: bent == tol ? n : segmentCount(0.25 * m / bent),
                                                   bent, pen, keepingCurves, &current, &parameters, &curves)) {
                    if keepingCurves { curves.append(Polyline.Curve(first: current.count - 1, segments: n, last, a, b, q)) }
                    for i in 1..<n {
                        let t = Double(i) / Double(n), u = 1 - t
                        current.append(Point(u * u * last.x + 2 * u * t * c1.x + t * t * q.x,
                                             u * u * last.y + 2 * u * t * c1.y + t * t * q.y))
                    }
                    current.append(q)
                }
                last = q; hasSegment = true
            case .cubic(let c1, let c2, let p):
                let a = transform.apply(c1), b = transform.apply(c2), q = transform.apply(p)
                guard a.isFinite, b.isFinite, q.isFinite, last.isFinite else { last = q; continue }
                if current.isEmpty { current.append(last) }
                let m = max((last - 2 * a + b).length, (a - 2 * b + q).length)
                let n = segmentCount(0.75 * m / tol)
                if !(cutByBending && cutAdaptively(last, a, b, q, wang: bent == tol ? n : segmentCount(0.75 * m / bent),
                                                   bent, pen, keepingCurves, &current, &parameters, &curves)) {
                    if keepingCurves { curves.append(Polyline.Curve(first: current.count - 1, segments: n, last, a, b, q)) }
                    appendCubic(last, a, b, q, n, &current)
                }
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
        flush(closed: false, final: true)
        return out
    }
}

/// A curve that Wang's formula cuts into many chords (over `adaptiveAbove`), cut where
/// it bends if that saves enough of them (false: nothing appended). A function of its
/// own, not a closure over `flattened`'s buffers: passed on from a closure, they were
/// checked for exclusive access at run time (swift_beginAccess, more instructions than
/// the flattening saved).
private func cutAdaptively(_ p0: Point, _ a: Point, _ b: Point, _ q: Point, wang n: Int, _ tol: Double,
                           _ pen: Double, _ keepingCurves: Bool, _ current: inout [Point], _ parameters: inout [Double],
                           _ curves: inout [Polyline.Curve]) -> Bool {
    guard n > CurveFlattening.adaptiveAbove else { return false }
    let first = current.count - 1, start = parameters.count
    guard let made = CurveFlattening.append(p0, a, b, q, tolerance: tol, pen: pen, equalSteps: n, points: &current,
                                            parameters: &parameters, recording: keepingCurves) else { return false }
    if keepingCurves { curves.append(Polyline.Curve(first: first, segments: made, parameters: start, p0, a, b, q)) }
    return true
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
