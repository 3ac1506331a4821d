#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns polylines into the closed outlines of their strokes.
///
/// Each side of a polyline is offset by half the width; on the outside of a turn the
/// join (miter, round or bevel) is inserted. On the inside, where the two offset lines
/// cross within the first half of both segments, the outline takes that crossing: the
/// exact boundary, no overlap. Otherwise (segments shorter than the cut back, a turn
/// near 180°) it passes through the vertex itself (the pivot), as Skia and Cairo do:
/// that inner loop lies within the stroke and has the body's orientation, so a non-zero
/// fill is still exactly the stroke's area, without intersection tests. Pivoting
/// everywhere was simpler, but the loop's winding of 2 along the edge is counted twice
/// by exact-area coverage: measured against Cairo it darkened the inner edge of thick
/// curved strokes by up to 117 levels (`CairoReferenceTests`, stroke-curve-thick), and
/// meeting the offset lines brought that to 28. Open subpaths give one outline (side,
/// cap, other side, cap); closed ones give two loops of opposite orientation.
///
/// A dashed style first cuts each polyline into its dashes (`Dasher`) and strokes
/// every dash as an open polyline, with caps at both ends. The pieces go straight to
/// the stroker without an intermediate array. A pattern that would make more than
/// `Dasher.maxPieces` dashes, or more than `maxDashVertices` outline vertices counting
/// the caps, is stroked solid: the result stays proportional to the input.
public enum Stroker {
    /// The most outline vertices a dashed stroke may produce (about 320 MB of points)
    /// before it is stroked solid instead.
    public static let maxDashVertices = 20_000_000

    /// The outlines of the stroke of `polylines`, to be filled with the non-zero rule.
    /// `tolerance` bounds the deviation of round caps and joins from true arcs.
    /// With `scratch`, the working arrays and the outlines' point arrays come from it
    /// (hand the outlines back with `StrokeScratch.recycle` when done): the outline is the
    /// same, only its memory is reused.
    public static func stroke(_ polylines: [Polyline], style: StrokeStyle, tolerance: Double = 0.1,
                              scratch: StrokeScratch? = nil) -> [Polyline] {
        let h = style.width / 2
        guard h > 0, h.isFinite else { return [] }
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : 0.1
        let scratch = scratch ?? StrokeScratch(keeping: 0)
        var out: [Polyline] = []
        let arcStep = Self.arcStep(radius: h, tolerance: tol)
        if let pattern = style.dashPattern {
            // Outline vertices one dash costs besides the path's own: two sides and two caps.
            let capVertices: Double
            switch style.cap {
            case .butt: capVertices = 0
            case .square: capVertices = 2
            case .round: capVertices = (Double.pi / arcStep).rounded(.up) + 1
            }
            let perPiece = 4 + 2 * capVertices
            let budget = min(Dasher.maxPieces, Int(Double(maxDashVertices) / perPiece))
            if Dasher.pieceBound(polylines, pattern) <= Double(budget) {
                var steps = budget
                for line in polylines {
                    Dasher.walk(line, pattern, budget: &steps) { pts, closed, ends in
                        strokeOne(pts, closed: closed, dotDirection: ends.dot, start: ends.start, end: ends.end,
                                  h: h, style: style, arcStep: arcStep, scratch: scratch, into: &out)
                    }
                }
                return out
            }
        }
        for line in polylines {
            var start: Point? = nil, end: Point? = nil
            if !line.closed && !line.curves.isEmpty && line.points.count >= 2 {
                var cursor = 0
                start = line.curveTangent(chord: 0, fraction: 0, cursor: &cursor)
                end = line.curveTangent(chord: line.points.count - 2, fraction: 1, cursor: &cursor)
            }
            strokeOne(line.points, closed: line.closed, dotDirection: Point(1, 0), start: start, end: end,
                      h: h, style: style, arcStep: arcStep, scratch: scratch, into: &out)
        }
        return out
    }

    /// Appends the outline of one polyline. `dotDirection` orients the square drawn
    /// when the polyline has no length (a zero-length dash lies along its path).
    /// `start` and `end` are the path's directions at the ends of an open polyline where
    /// they are not its first and last chords' (a curve's tangent, `Polyline.Curve`):
    /// caps and the end points of both sides take them, so a cap on a flattened curve
    /// is square to the curve, not to the last chord. Nil: the chord's direction.
    static func strokeOne(_ raw: [Point], closed: Bool, dotDirection: Point, start: Point? = nil, end: Point? = nil,
                          h: Double, style: StrokeStyle, arcStep: Double, scratch: StrokeScratch,
                          into out: inout [Polyline]) {
        var pts = scratch.takePoints()
        defer { scratch.points = pts }
        pts.reserveCapacity(raw.count)
        for p in raw where p.isFinite {
            if let last = pts.last, (p - last).length <= 1e-9 { continue }
            pts.append(p)
        }
        if closed, pts.count > 2, (pts[0] - pts[pts.count - 1]).length <= 1e-9 { pts.removeLast() }
        if pts.count == 1 {
            if let dot = Self.dot(at: pts[0], h: h, cap: style.cap, direction: dotDirection, arcStep: arcStep) {
                out.append(dot)
            }
            return
        }
        guard pts.count >= 2 else { return }
        let closedLoop = closed && pts.count >= 3
        var segments = Segments(pts, closed: closedLoop, scratch: scratch)
        defer { segments.giveBack(to: scratch) }
        if closedLoop {
            var a = scratch.takeOutline(), b = scratch.takeOutline()
            Self.side(segments, reversed: false, h: h, style: style, arcStep: arcStep, into: &a)
            Self.side(segments, reversed: true, h: h, style: style, arcStep: arcStep, into: &b)
            out.append(Polyline(points: a, closed: true))
            out.append(Polyline(points: b, closed: true))
        } else {
            var o = scratch.takeOutline()
            o.reserveCapacity(pts.count * 2 + 16)
            Self.side(segments, reversed: false, h: h, style: style, arcStep: arcStep, start: start, end: end, into: &o)
            let n = pts.count
            Self.cap(at: pts[n - 1], direction: end ?? unit(pts[n - 2], pts[n - 1]), h: h,
                     cap: style.cap, arcStep: arcStep, into: &o)
            Self.side(segments, reversed: true, h: h, style: style, arcStep: arcStep, start: end.map { -$0 },
                      end: start.map { -$0 }, into: &o)
            Self.cap(at: pts[0], direction: start.map { -$0 } ?? unit(pts[1], pts[0]), h: h,
                     cap: style.cap, arcStep: arcStep, into: &o)
            out.append(Polyline(points: o, closed: true))
        }
    }

    /// The unit vector from `a` to `b`. Points near ±1e308 can be finite while their
    /// difference or its squared length overflows, so the difference is halved and
    /// scaled by its largest component first; (1, 0) for coincident points.
    @inline(__always)
    static func unit(_ a: Point, _ b: Point) -> Point {
        var d = b - a
        if !d.isFinite { d = b * 0.5 - a * 0.5 }
        let m = max(abs(d.x), abs(d.y))
        guard m > 0, m.isFinite else { return Point(1, 0) }
        let x = d.x / m, y = d.y / m
        let l = (x * x + y * y).squareRoot()
        return Point(x / l, y / l)
    }

    /// The angle step that keeps a polygonal arc of radius `radius` within `tolerance` of the circle.
    static func arcStep(radius: Double, tolerance: Double) -> Double {
        let tol = max(1e-4, tolerance)
        if tol >= radius { return .pi / 2 }
        return max(0.01, 2 * acos(1 - tol / radius))
    }

    /// A polyline's vertices with the direction and length of each segment (segment i
    /// runs from vertex i to the next, the last of a closed one back to vertex 0),
    /// computed once for both sides of the stroke.
    struct Segments {
        let points: [Point]
        let closed: Bool
        var directions: [Point]
        var lengths: [Double]

        /// `scratch` lends the arrays of directions and lengths; `giveBack` returns them.
        init(_ points: [Point], closed: Bool, scratch: StrokeScratch) {
            self.points = points; self.closed = closed
            directions = StrokeScratch.take(&scratch.directions); lengths = StrokeScratch.take(&scratch.lengths)
            let n = points.count, count = closed ? n : n - 1
            directions.reserveCapacity(count); lengths.reserveCapacity(count)
            for i in 0..<max(0, count) {
                let a = points[i], b = points[i + 1 < n ? i + 1 : 0]
                directions.append(unit(a, b)); lengths.append((b - a).length)
            }
        }

        mutating func giveBack(to scratch: StrokeScratch) {
            scratch.directions = directions; scratch.lengths = lengths
            directions = []; lengths = []
        }
    }

    /// Appends the offset of one side of a polyline (the side of `Point.perpendicular`),
    /// with joins, walking it forwards or, `reversed`, backwards; an open side starts and
    /// ends square to `start` and `end` where given. Walked backwards, segment i is the
    /// forward segment n − 2 − i (mod n) turned round: unit(b, a) = −unit(a, b) exactly,
    /// so both walks see the values they would compute themselves.
    static func side(_ segments: Segments, reversed: Bool, h: Double, style: StrokeStyle, arcStep: Double,
                     start: Point? = nil, end: Point? = nil, into o: inout [Point]) {
        let pts = segments.points, closed = segments.closed
        let n = pts.count
        let segs = closed ? n : n - 1
        @inline(__always) func forward(_ i: Int) -> Int { reversed ? (i == n - 1 ? n - 1 : n - 2 - i) : i }
        @inline(__always) func point(_ i: Int) -> Point { pts[reversed ? n - 1 - i : i] }
        @inline(__always) func dir(_ i: Int) -> Point {
            let d = segments.directions[forward(i)]
            return reversed ? -d : d
        }
        @inline(__always) func len(_ i: Int) -> Double { segments.lengths[forward(i)] }
        var dPrev = closed ? dir(n - 1) : dir(0)
        var lPrev = closed ? len(n - 1) : len(0)
        let cosStep = style.join == .round ? cos(arcStep) : 2
        // A round join turning so little that its miter point lies within a quarter of
        // the arc tolerance of the arc is drawn as that one point (see `join`).
        let flat = h * (1 - cos(arcStep / 2)) / 4
        let dotMiter = style.join == .round ? 2 * (h / (h + flat)) * (h / (h + flat)) - 1 : 2
        if !closed { o.append(point(0) + (start ?? dPrev).perpendicular * h) }
        for i in 0..<segs {
            let d = dir(i), l = len(i)
            if closed || i > 0 {
                join(at: point(i), from: dPrev, to: d, h: h, style: style, arcStep: arcStep, cosStep: cosStep,
                     dotMiter: dotMiter, room: 0.5 * min(lPrev, l), into: &o)
            }
            dPrev = d; lPrev = l
        }
        if !closed { o.append(point(n - 1) + (end ?? dPrev).perpendicular * h) }
    }

    /// Appends the corner at `p` between directions `a` (incoming) and `b` (outgoing).
    /// `room` is how far the inner offset lines may be cut back from `p` along each
    /// segment without reaching past the middle of the shorter one.
    static func join(at p: Point, from a: Point, to b: Point, h: Double, style: StrokeStyle, arcStep: Double,
                     cosStep: Double = 2, dotMiter: Double = 2, room: Double = 0, into o: inout [Point]) {
        let na = a.perpendicular, nb = b.perpendicular
        let cross = a.cross(b), dot = a.dot(b)
        if abs(cross) < 1e-12 && dot > 0 {            // straight on
            o.append(p + na * h); return
        }
        if cross > 0 {
            // This side is the inside. Where the two offset lines meet within the first
            // half of both segments (a cut of h·tan(θ/2) from p), the outline takes that
            // point: the boundary of the union exactly, with no overlap. Otherwise it
            // pivots through p, a loop that overlaps the body (winding 2), which is still
            // inside for non-zero but which exact-area coverage counts twice in the pixels
            // along the edge: measured against Cairo, pivoting at every vertex of a
            // flattened curve darkened the inner edge of thick curved strokes by up to
            // 117 levels (CairoReferenceTests, stroke-curve-thick).
            let cosHalf = ((1 + dot) / 2).squareRoot()
            if cosHalf > 1e-6, h * ((1 - dot) / (1 + dot)).squareRoot() <= room, let bis = (na + nb).normalized {
                o.append(p + bis * (h / cosHalf)); return
            }
            o.append(p + na * h); o.append(p); o.append(p + nb * h); return
        }
        switch style.join {
        case .bevel:
            o.append(p + na * h); o.append(p + nb * h)
        case .miter:
            // Miter length over width is 1 / cos(θ/2) for a turn of θ.
            let cosHalf = ((1 + dot) / 2).squareRoot()
            if cosHalf > 1e-9 && 1 / cosHalf <= style.miterLimit, let bis = (na + nb).normalized {
                o.append(p + na * h); o.append(p + bis * (h / cosHalf)); o.append(p + nb * h)
            } else {
                o.append(p + na * h); o.append(p + nb * h)
            }
        case .round:
            // A turn within one arc step (every vertex of a flattened curve) is its two
            // end points: no atan2, cos or sin, which cost 3 % of a dashboard frame.
            if dot >= cosStep && cross < 0 {
                // Turning less still (the vertices of a finely flattened curve, a few
                // hundredths of a radian each): the meeting point of the two offset lines,
                // p + (na + nb)·h / (1 + cos θ), which is h·(1/cos(θ/2) − 1) outside the
                // arc, where the chord between the arc's ends is h·(1 − cos(θ/2)) inside
                // it. One outline vertex instead of two: a 3 px round-joined curve of 513
                // points went from 1,553 outline vertices to 1,043, and with them its edges.
                if dot >= dotMiter { o.append(p + (na + nb) * (h / (1 + dot))); return }
                o.append(p + na * h); o.append(p + nb * h); return
            }
            let sweep = atan2(na.cross(nb), na.dot(nb))  // negative: outward on this side
            arc(center: p, from: na * h, sweep: abs(cross) < 1e-12 ? -.pi : sweep, arcStep: arcStep, into: &o)
        }
    }

    /// Appends the points of an arc from `center + u`, turning by `sweep` radians, end included.
    static func arc(center: Point, from u: Point, sweep: Double, arcStep: Double, into o: inout [Point]) {
        let steps = max(1, Int((abs(sweep) / arcStep).rounded(.up)))
        o.append(center + u)
        let da = sweep / Double(steps)
        for i in 1...steps {
            let t = da * Double(i), c = cos(t), s = sin(t)
            o.append(Point(center.x + u.x * c - u.y * s, center.y + u.x * s + u.y * c))
        }
    }

    /// Appends the cap at end point `p` of a subpath ending in direction `d`,
    /// from the current side (`p + d⊥·h`) to the other (`p − d⊥·h`).
    static func cap(at p: Point, direction d: Point, h: Double, cap: LineCap, arcStep: Double, into o: inout [Point]) {
        let n = d.perpendicular
        switch cap {
        case .butt: break
        case .square:
            o.append(p + n * h + d * h); o.append(p - n * h + d * h)
        case .round:
            arc(center: p, from: n * h, sweep: -.pi, arcStep: arcStep, into: &o)
        }
    }

    /// The outline drawn for a zero-length subpath: a disc for round caps, a square
    /// along `direction` for square caps (axis-aligned for a lone point, whose
    /// direction is (1, 0)), nothing for butt caps.
    static func dot(at p: Point, h: Double, cap: LineCap, direction d: Point, arcStep: Double) -> Polyline? {
        switch cap {
        case .butt: return nil
        case .square:
            let u = d * h, v = d.perpendicular * h
            return Polyline(points: [p - u - v, p + u - v, p + u + v, p - u + v], closed: true)
        case .round:
            var o: [Point] = []
            arc(center: p, from: Point(h, 0), sweep: 2 * .pi, arcStep: arcStep, into: &o)
            o.removeLast()
            return Polyline(points: o, closed: true)
        }
    }
}

/// The arrays a stroke fills and empties on every call, kept from one call to the next.
/// A 100,000-point line's outline is tens of megabytes of points: allocated afresh for
/// every frame, the allocator maps them, the kernel faults in and zeroes every page, and
/// growing the outline copies it, which cost the 4K line chart a fifth of its frame
/// (6,000 page faults a frame). A canvas keeps one scratch for its strokes and hands each
/// outline back (`recycle`) once it is filled. Not for use by two threads at once.
public final class StrokeScratch {
    var points: [Point] = []
    var directions: [Point] = []
    var lengths: [Double] = []
    /// Emptied outline arrays, their storage kept, to be filled again.
    var outlines: [[Point]] = []
    /// How many outline arrays `recycle` keeps.
    let keeping: Int

    /// A scratch that keeps up to `keeping` outline arrays between strokes.
    public init(keeping: Int = 4) { self.keeping = keeping }

    /// `array` emptied with its storage, leaving `[]` in its place (so the storage is not
    /// shared and the caller can fill it without a copy).
    static func take<T>(_ array: inout [T]) -> [T] {
        var a = array
        array = []
        a.removeAll(keepingCapacity: true)
        return a
    }

    func takePoints() -> [Point] { Self.take(&points) }

    func takeOutline() -> [Point] {
        guard var o = outlines.popLast() else { return [] }
        o.removeAll(keepingCapacity: true)
        return o
    }

    /// Takes back the point arrays of `outlines` (a stroke's result; left empty), keeping
    /// the largest few for the next strokes. An array another value still shares is kept
    /// too but never written: the next stroke's `removeAll(keepingCapacity:)` gives it
    /// storage of its own (copy on write), so only the saving is lost.
    public func recycle(_ outlines: inout [Polyline]) {
        guard keeping > 0 else { outlines = []; return }
        for i in outlines.indices {
            let p = outlines[i].points
            outlines[i].points = []
            if p.capacity < 1024 { continue }
            if self.outlines.count < keeping {
                self.outlines.append(p)
            } else if let k = self.outlines.indices.min(by: { self.outlines[$0].capacity < self.outlines[$1].capacity }),
                      self.outlines[k].capacity < p.capacity {
                self.outlines[k] = p
            }
        }
        outlines = []
    }
}
