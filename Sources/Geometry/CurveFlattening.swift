/// Cutting a long cubic into chords spaced by its bending, each chord checked: the
/// centre lines of solid strokes (`Path.flattened(cutByBending:)` says why not fills
/// and dashes).
///
/// Why: equal parameter steps counted by Wang's formula bound a chord's deviation by
/// the largest second derivative anywhere on the curve, its tangential part included,
/// and spend that many steps everywhere. A chart's monotone cubic (level at the data
/// points, steep between them) bends near its ends and runs straight in the middle,
/// where its parameter speeds up: Wang gave curved-line's eight cubics 549 chords at a
/// stroke's 0.025 px, where chords that each come near the tolerance need about
/// ∫√(κ / 8·tol) ds of them (303), since a chord of length L deviates by about L²κ/8.
///
/// How:
/// 1. Density. The curve is cut into 16 equal parameter pieces; at each piece's middle
///    √κ·|B′| = √(|B′×B″| / |B′|) is the chords a unit of parameter needs, over
///    √(8·aim·tol). Their sum, rounded up, is the chord count.
/// 2. Placement. Chord ends go where the running sum (linear within each piece)
///    reaches equal shares of the total; the points are the cubic's own at those
///    parameters.
/// 3. The check. Each chord's deviation from its arc is computed, not estimated: the
///    arc between two parameters is a cubic whose inner control points come from the
///    ends' derivatives, its distance from the chord's line is 3s(1−s)((1−s)·e₁ +
///    s·e₂)/L, and the largest value of that is at a root of a quadratic. A chord over
///    the tolerance (where the density sampled at the pieces' middles missed a sharp
///    turn) is halved until it passes. Where a control point projects beyond the
///    chord's ends (the curve turns back) the hull's distance from the segment bounds
///    the arc instead.
///
/// 4. The pen. For a stroke's centre line the check holds the chord's deviation plus the
///    pen's share, half-width·(1 − cos(θ/2)) for a tangent turning by θ along the chord,
///    to the outline's tolerance (`penDeviation` says why that bounds the outline), and
///    the density asks √(1 + half-width·κ) more chords to match.
///
/// So every chord is within the tolerance, Wang's guarantee, with fewer chords:
/// curved-line's cubics 549 → 335 at 0.025 px (2 halvings); held to the outline's 0.05 px
/// under their 3 px pen (2026-12-08), the whole line's 554 of Wang's at 0.025 px are 243
/// (241 without the pen's share). The placement is cheap (two
/// square roots a piece, none a point); the check costs a derivative and some twenty
/// operations a point. Curves that would not save a quarter of Wang's count (circles'
/// arcs) keep equal steps (`worthBelow`), and so do short ones (`adaptiveAbove`), where
/// the pieces would cost more than the chords saved. Only +, ×, ÷ and square roots: the
/// same points on every machine.
enum CurveFlattening {
    /// Curves Wang's formula cuts into at most this many chords keep equal steps.
    static let adaptiveAbove = 12
    /// Equal parameter pieces whose middles sample the density (the lanes of the
    /// SIMD16 that holds them). On curved-line's cubics 8 gave 388 chords, 16 335, 32 332.
    static let pieces = 16
    /// The share of the tolerance the chord count aims at, leaving the check little to
    /// halve: on curved-line's cubics 0.8 gave 345 chords and no halvings, 0.85 335 and
    /// 2, 0.9 333 and 8 (each halving is a chord more, and a check more).
    static let aim = 0.85
    /// The share of Wang's count below which cutting by the bending is kept. A circle's
    /// arcs bend evenly and Wang is near its best there (a quarter circle of radius 100
    /// at 0.05 px: 27 chords against 26), so cutting them anew would only move every
    /// chord to the tolerance, and the Cairo references of hairline circles, arcs and
    /// dashes on circles (hairline-circles' mean 0.499 → 0.505 levels, over the suite's
    /// 0.5) moved with them; chart curves come out at about 0.6.
    static let worthBelow = 0.75

    /// Appends the points of the cubic after `p0` (already in `points`), and when
    /// `recording`, each interior point's parameter to `parameters`; returns the chords.
    /// Returns nil, appending nothing, when the bending asks for more than `worthBelow`
    /// of `equalSteps` (Wang's count) chords: there equal steps are kept.
    ///
    /// `pen` is the half-width of the stroke whose centre line this is (0 to bound the
    /// centre line alone): each chord is then held to d + pen·(1 − cos(θ/2)) ≤ `tol`,
    /// with d its deviation and θ the turn of the tangent along it, which bounds how far
    /// the outline's offset chords stray from the exact offset curves (see
    /// `penDeviation`), and the density asks for chords of that size.
    static func append(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, tolerance tol: Double, pen: Double = 0,
                       equalSteps: Int, points: inout [Point], parameters: inout [Double], recording: Bool) -> Int? {
        let c = Cubic(p0, p1, p2, p3)
        let h = pen > 0 && pen.isFinite ? pen : 0
        let m = pieces, w = 1 / Double(m)
        // The density of every piece at once, in one vector. (Written lane by lane into
        // vectors of starts and slopes, each store was followed by a load of the whole
        // vector, which the store cannot be forwarded to: a fifth of this function's time
        // on the dashboard's chart lines, perf.) A piece's start and slope are worked out
        // from it when the placement reaches the piece, in the same order of additions.
        let dens = densities(c, w, pen: h)
        @inline(__always) func bends(_ d: Double) -> Bool { d.isFinite && d > 0 }
        let scale = 1 / (8 * tol * aim).squareRoot()
        // Four of the pieces first: a curve that bends evenly (a circle's arc, a donut's)
        // is declined on their sum, before the total and the placement.
        let quick = 4 * (dens[1] + dens[5] + dens[9] + dens[13]) * scale
        if quick.isFinite && quick >= 1.1 * worthBelow * Double(equalSteps) { return nil }
        var total = 0.0
        for i in 0..<m where bends(dens[i]) { total += dens[i] }
        let chords = Int((total * scale).rounded(.up).clamped(1, 4096))
        guard Double(chords) < worthBelow * Double(equalSteps) else { return nil }
        reserve(&points, more: chords + 1)
        if recording { reserve(&parameters, more: chords) }
        // Halvings are limited, so that no curve gives more than 4,096 chords (huge or
        // degenerate input can fail every check).
        var halvings = 4096 - chords, made = 0
        var prevT = 0.0, prevP = p0, prevD = c.derivative(0)
        // The current piece: where the running sum starts, the parameter per unit of sum (0
        // for a piece that does not bend), where the next piece starts. Before the first
        // chord end (v > 0) the loop below enters piece 0, whose sum starts at 0.
        var i = -1, start = 0.0, slope = 0.0, next = 0.0
        var lo = 0.0, hi = 0.0
        let step = total / Double(chords)
        for k in 1..<max(1, chords) {
            let v = Double(k) * step
            while i < m - 1 && next <= v {
                i += 1
                let d = dens[i], bent = bends(d)
                start = next; slope = bent ? w / d : 0; next = i + 1 < m ? start + (bent ? d : 0) : .infinity
                lo = Double(i) * w; hi = Double(i + 1) * w
            }
            guard slope > 0 else { continue }
            let t = min(hi, lo + (v - start) * slope)
            guard t > prevT && t < 1 else { continue }
            let q = c.point(t), d = c.derivative(t)
            if within(prevP, prevD, q, d, t - prevT, tol, pen: h) {
                points.append(q)
                if recording { parameters.append(t) }
                made += 1
            } else {
                halve(c, prevT, prevP, prevD, t, q, d, tol, h, first: true, &halvings, &points, &parameters, recording, &made)
            }
            prevT = t; prevP = q; prevD = d
        }
        let d3 = c.derivative(1)
        if within(prevP, prevD, p3, d3, 1 - prevT, tol, pen: h) {
            points.append(p3)
            made += 1
        } else {
            halve(c, prevT, prevP, prevD, 1, p3, d3, tol, h, first: true, &halvings, &points, &parameters, recording, &made)
        }
        return made
    }

    /// The chord density at the middle of each of the 16 pieces: √(|B′×B″| / |B′|)·w, 0
    /// where the curve does not move. Lane by lane the operations of `Cubic.derivative`,
    /// `Cubic.second`, `Point.length` and `Point.cross` in their order, so each lane is the
    /// value those would give at its parameter.
    @inline(__always)
    static func densities(_ c: Cubic, _ w: Double, pen: Double = 0) -> SIMD16<Double> {
        let t = (SIMD16<Double>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) + 0.5) * w
        let t3 = 3 * t, t6 = 6 * t
        let dx = c.c1.x + (c.c2.x * 2 + c.c3.x * t3) * t, dy = c.c1.y + (c.c2.y * 2 + c.c3.y * t3) * t
        let ax = c.c2.x * 2 + c.c3.x * t6, ay = c.c2.y * 2 + c.c3.y * t6
        let speed = (dx * dx + dy * dy).squareRoot()
        var bend = dx * ay - dy * ax
        bend.replace(with: -bend, where: bend .< 0)
        var q = bend / speed
        // A pen of half-width h asks d·(1 + h·κ) of each chord (`penDeviation`, for a turn
        // of θ ≈ L·κ): √(1 + h·κ) more chords, with κ = |B′×B″| / |B′|³.
        if pen > 0 { q = q * (1 + pen * (bend / (speed * speed * speed))) }
        var d = q.squareRoot() * w
        d.replace(with: 0, where: .!(speed .> 0))
        return d
    }

    /// The chord from `ta` to `tb`, over the tolerance (`first`, as its caller found) or
    /// not yet checked: halved until its pieces pass, or the depth or halvings run out.
    @inline(never)
    private static func halve(_ c: Cubic, _ ta: Double, _ pa: Point, _ da: Point, _ tb: Double, _ pb: Point,
                              _ db: Point, _ tol: Double, _ h: Double, first: Bool, _ halvings: inout Int, _ points: inout [Point],
                              _ parameters: inout [Double], _ recording: Bool, _ made: inout Int, depth: Int = 0) {
        if depth < 24 && halvings > 0 && (first || !within(pa, da, pb, db, tb - ta, tol, pen: h)) {
            halvings -= 1
            let tm = (ta + tb) * 0.5
            let pm = c.point(tm), dm = c.derivative(tm)
            halve(c, ta, pa, da, tm, pm, dm, tol, h, first: false, &halvings, &points, &parameters, recording, &made,
                  depth: depth + 1)
            halve(c, tm, pm, dm, tb, pb, db, tol, h, first: false, &halvings, &points, &parameters, recording, &made,
                  depth: depth + 1)
            return
        }
        points.append(pb)
        // The curve's end point has parameter 1 by definition (see Polyline.Curve).
        if recording && tb < 1 { parameters.append(tb) }
        made += 1
    }

    /// Whether the arc from `pa` to `pb` (derivatives `da`, `db`, parameter span `dt`)
    /// stays within `tol` of the chord between them.
    @inline(__always)
    static func within(_ pa: Point, _ da: Point, _ pb: Point, _ db: Point, _ dt: Double, _ bound: Double,
                       pen: Double = 0) -> Bool {
        var tol = bound
        if pen > 0 {
            tol -= penDeviation(da, db, pen)
            guard tol > 0 else { return false }
        }
        let h = dt / 3
        let chord = pb - pa
        let v1 = da * h, v2 = chord - db * h     // the arc's inner control points, from pa
        let l2 = chord.dot(chord)
        let s1 = chord.dot(v1), s2 = chord.dot(v2)
        guard l2 > 0, s1 >= 0, s1 <= l2, s2 >= 0, s2 <= l2 else {
            // The arc may pass the chord's ends: the hull's distance from the segment.
            return distanceToSegment(pa + v1, pa, pb) <= tol && distanceToSegment(pa + v2, pa, pb) <= tol
        }
        // Distances from the chord's line, times L: the arc's is 3s(1−s)((1−s)e₁ + s·e₂).
        let e1 = chord.cross(v1), e2 = chord.cross(v2)
        let limit = tol * tol * l2
        if 0.5625 * max(e1 * e1, e2 * e2) <= limit { return true }     // (3/4)·max|e| bounds it
        // The largest, where the derivative 3(e₁−e₂)s² + (2e₂−4e₁)s + e₁ vanishes.
        let qa = 3 * (e1 - e2), qb = 2 * e2 - 4 * e1, qc = e1
        var worst = 0.0
        func at(_ s: Double) {
            if s > 0 && s < 1 { worst = max(worst, abs(3 * s * (1 - s) * ((1 - s) * e1 + s * e2))) }
        }
        if abs(qa) > 1e-12 * (abs(qb) + abs(qc)) {
            let disc = qb * qb - 4 * qa * qc
            if disc >= 0 {
                let r = disc.squareRoot()
                at((-qb + r) / (2 * qa)); at((-qb - r) / (2 * qa))
            }
        } else if qb != 0 {
            at(-qc / qb)
        }
        return worst * worst <= limit
    }

    /// How much farther than its centre line's chord a stroke's outline may stray from
    /// the exact offset curves, for a pen of half-width `pen` whose centre turns from
    /// direction `da` to `db` along the chord: pen·(1 − cos(θ/2)).
    ///
    /// Why this and not the (r + pen)/r of offsetting the chord's end points: the stroker
    /// offsets each chord parallel to itself, by the pen, and joins the offset chords
    /// where they meet (Stroker.join), so on an arc of radius r an offset chord's middle
    /// is inside the exact offset arc by the centre chord's own deviation d, and the
    /// meeting points are outside it by pen·(1/cos(θ/2) − 1) ≈ d·pen/r. The sum of the two
    /// bounds either; measured on chart curves, the outline strays by the centre line's
    /// deviation within 2 % for pens up to 3 px and within 12 % at 6 px
    /// (`OutlineDeviationTests`), where the old rule assumed (r + pen)/r and halved the
    /// tolerance for every pen.
    @inline(__always)
    static func penDeviation(_ da: Point, _ db: Point, _ pen: Double) -> Double {
        let lengths = (da.dot(da) * db.dot(db)).squareRoot()
        guard lengths > 0, lengths.isFinite else { return 0 }
        let cosTurn = max(-1, min(1, da.dot(db) / lengths))
        return pen * (1 - ((1 + cosTurn) * 0.5).squareRoot())
    }

    /// Room for `more` elements, grown geometrically. `reserveCapacity(count + more)`
    /// allocates exactly that: called once a curve, it copied the whole line so far at
    /// every curve (a chart line of 23 cubics, 23 copies; array growth was 2.6 % of the
    /// dashboard's frame by perf).
    @inline(__always)
    static func reserve<T>(_ a: inout [T], more: Int) {
        let need = a.count + more
        if need > a.capacity { a.reserveCapacity(Swift.max(need, 2 * a.capacity)) }
    }

    @inline(__always)
    static func distanceToSegment(_ q: Point, _ a: Point, _ b: Point) -> Double {
        let d = b - a, l2 = d.dot(d)
        let t = l2 > 0 ? min(1, max(0, (q - a).dot(d) / l2)) : 0
        return (a + d * t - q).length
    }

    /// A cubic in the power basis, for its point and derivatives at any parameter.
    struct Cubic {
        let p0: Point, c1: Point, c2: Point, c3: Point    // p0 + c1·t + c2·t² + c3·t³

        init(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
            self.p0 = p0
            c1 = (p1 - p0) * 3
            c2 = (p2 - 2 * p1 + p0) * 3
            c3 = p3 - 3 * p2 + 3 * p1 - p0
        }

        @inline(__always) func point(_ t: Double) -> Point { p0 + (c1 + (c2 + c3 * t) * t) * t }
        @inline(__always) func derivative(_ t: Double) -> Point { c1 + (c2 * 2 + c3 * (3 * t)) * t }
        @inline(__always) func second(_ t: Double) -> Point { c2 * 2 + c3 * (6 * t) }
    }
}

private extension Double {
    func clamped(_ lo: Double, _ hi: Double) -> Double { self.isNaN ? lo : Swift.min(hi, Swift.max(lo, self)) }
}
