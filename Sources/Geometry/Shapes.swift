#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shape of a rounded rectangle's corners, as SwiftUI's `RoundedCornerStyle`.
public enum RoundedCornerStyle: String, Hashable, Sendable, CaseIterable {
    /// Quarter circles of the corner radius, meeting the edges with a jump in curvature.
    case circular
    /// Smooth corners whose curvature grows from zero at the edges to that of the
    /// corner radius at their middle (the look of Apple's continuous corners).
    case continuous
}

/// The SwiftUI shapes as path constructors.
///
/// Conventions shared by all of them:
/// - Coordinates are pixels with y down (DESIGN.md), so "clockwise" means clockwise as
///   seen on screen. Closed shapes run clockwise on screen; the start point, which is
///   where a trim begins, is given for each.
/// - Angles are radians; 0 points along +x (3 o'clock) and angles grow clockwise on
///   screen: π/2 is 6 o'clock, π is 9 o'clock, −π/2 (or 3π/2) is 12 o'clock. The point
///   at angle θ on a circle of radius r about c is (c.x + r·cos θ, c.y + r·sin θ).
/// - Curved parts are cubic Béziers of at most 90° of arc each, with control arms of
///   4/3·tan(θ/4)·r; a 90° piece strays at most 0.027 % of the radius from the circle.
/// - Degenerate input (a rectangle with no area, a radius that is not positive, a
///   non-finite coordinate, an arc of zero sweep) gives an empty path, never a trap. A
///   rectangle with a negative width or height is standardized first, as CGRect is.
extension Path {
    /// A rectangle (SwiftUI's `Rectangle`), starting at its top-left corner.
    public static func rect(_ r: Rect) -> Path {
        guard let r = drawable(r) else { return Path() }
        var p = Path()
        p.move(to: Point(r.minX, r.minY)); p.line(to: Point(r.maxX, r.minY))
        p.line(to: Point(r.maxX, r.maxY)); p.line(to: Point(r.minX, r.maxY)); p.close()
        return p
    }

    /// A rectangle with rounded corners (SwiftUI's `RoundedRectangle`), starting on the
    /// top edge where the top-left corner ends.
    ///
    /// The radius is clamped to half the shorter side (NaN or negative counts as 0, a
    /// plain rectangle). A continuous corner reaches 1.528·r along each edge; when the
    /// rectangle is too small for that, the corner shrinks as a whole (its radius
    /// becomes half the shorter side / 1.528), so it keeps its shape and stays smooth.
    /// See `docs/geometry.md` for the construction.
    public static func roundedRect(_ r: Rect, cornerRadius: Double, style: RoundedCornerStyle = .circular) -> Path {
        guard let r = drawable(r) else { return Path() }
        let half = min(r.width, r.height) / 2
        var radius = cornerRadius.isNaN ? 0 : max(0, min(cornerRadius, half))
        let corner: [Point]
        switch style {
        case .circular:
            corner = CornerShape.circular
        case .continuous:
            corner = CornerShape.continuous
            radius = min(radius, half / CornerShape.continuousExtent)
        }
        guard radius > 0 else { return rect(r) }
        // How far along each edge a corner reaches from its vertex.
        let reach = corner[0].y * radius
        let tl = Point(r.minX, r.minY), tr = Point(r.maxX, r.minY)
        let br = Point(r.maxX, r.maxY), bl = Point(r.minX, r.maxY)
        let right = Point(1, 0), down = Point(0, 1)
        var p = Path()
        p.move(to: Point(r.minX + reach, r.minY))
        // Each corner: its vertex, the direction back along the edge that comes in, and
        // the direction along the edge that goes out.
        for (v, back, out) in [(tr, -right, down), (br, -down, -right), (bl, right, -down), (tl, down, right)] {
            let edgeEnd = v + back * reach
            if p.currentPoint != edgeEnd { p.line(to: edgeEnd) }
            let map = { (q: Point) in v + out * (q.x * radius) + back * (q.y * radius) }
            var i = 1
            while i + 2 < corner.count {
                p.cubic(to: map(corner[i + 2]), control1: map(corner[i]), control2: map(corner[i + 1]))
                i += 3
            }
        }
        p.close()
        return p
    }

    /// A capsule (SwiftUI's `Capsule`): a rectangle whose shorter sides are half
    /// circles, the radius half the shorter side; a circle for a square.
    public static func capsule(in r: Rect) -> Path {
        guard let s = drawable(r) else { return Path() }
        return roundedRect(s, cornerRadius: min(s.width, s.height) / 2, style: .circular)
    }

    /// An ellipse inscribed in `r` (SwiftUI's `Ellipse`), as four cubic quarter arcs
    /// starting at 3 o'clock; a circle when `r` is square.
    public static func ellipse(in r: Rect) -> Path {
        guard let r = drawable(r) else { return Path() }
        // 4/3·tan(π/8): the control distance that makes a cubic quarter circle
        // deviate from the true arc by at most 0.027 % of the radius.
        let k = 0.5522847498307936
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
        var p = Path()
        p.move(to: Point(cx + rx, cy))
        p.cubic(to: Point(cx, cy + ry), control1: Point(cx + rx, cy + k * ry), control2: Point(cx + k * rx, cy + ry))
        p.cubic(to: Point(cx - rx, cy), control1: Point(cx - k * rx, cy + ry), control2: Point(cx - rx, cy + k * ry))
        p.cubic(to: Point(cx, cy - ry), control1: Point(cx - rx, cy - k * ry), control2: Point(cx - k * rx, cy - ry))
        p.cubic(to: Point(cx + rx, cy), control1: Point(cx + k * rx, cy - ry), control2: Point(cx + rx, cy - k * ry))
        p.close()
        return p
    }

    /// A circle of radius `radius` about `center` (SwiftUI's `Circle`), starting at 3 o'clock.
    public static func circle(center: Point, radius: Double) -> Path {
        guard center.isFinite, radius > 0, radius.isFinite else { return Path() }
        return ellipse(in: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }

    /// An open circular arc from `startAngle` to `endAngle` (radians, 0 at 3 o'clock).
    ///
    /// `clockwise` is as seen on screen: true sweeps through growing angles (from
    /// 3 o'clock down to 6 o'clock), false through falling ones (3 o'clock up to
    /// 12 o'clock). This is the visual sense; SwiftUI's `Path.addArc(…clockwise:)`
    /// names the opposite direction (its flag refers to a y-up space), so a call
    /// ported from SwiftUI flips the flag to draw the same arc.
    ///
    /// The sweep is `endAngle − startAngle` clockwise (`startAngle − endAngle`
    /// counter-clockwise). One of 2π or more is a full circle, which is closed; a
    /// negative one goes the long way round, wrapped into 0 ..< 2π as Core Graphics
    /// does (clockwise from 0 to −π/2 sweeps 3π/2); a sweep of 0, or a multiple of 2π
    /// reached that way, draws nothing.
    public static func arc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) -> Path {
        guard center.isFinite, radius > 0, radius.isFinite,
              let sweep = arcSweep(from: startAngle, to: endAngle, clockwise: clockwise) else { return Path() }
        var p = Path()
        let start = arcPoint(center, radius, startAngle)
        p.move(to: start)
        p.appendArc(center: center, radius: radius, from: startAngle, sweep: clockwise ? sweep : -sweep,
                    endingAt: sweep >= 2 * .pi ? start : nil)
        if sweep >= 2 * .pi { p.close() }
        return p
    }

    /// A pie slice, or with `innerRadius > 0` a ring (donut) sector: the region between
    /// the circles of `innerRadius` and `radius` swept from `startAngle` to `endAngle`.
    ///
    /// Angles, direction and sweep follow `arc(center:radius:startAngle:endAngle:clockwise:)`.
    /// A pie slice starts at the centre, goes out along `startAngle`, round the arc and
    /// back; a ring sector starts on the outer circle at `startAngle`, runs along it,
    /// in to the inner circle and back along that. A full turn is a circle (or a ring:
    /// the outer circle and the inner one in the opposite direction, so both fill rules
    /// leave the hole open). The area is sweep/2·(R² − r²). `innerRadius` below 0 or NaN
    /// counts as 0; at or above `radius` the sector has no area and the path is empty.
    public static func wedge(center: Point, radius: Double, innerRadius: Double = 0,
                             startAngle: Double, endAngle: Double, clockwise: Bool) -> Path {
        let inner = innerRadius.isNaN ? 0 : max(0, innerRadius)
        guard center.isFinite, radius > 0, radius.isFinite, inner < radius,
              let sweep = arcSweep(from: startAngle, to: endAngle, clockwise: clockwise) else { return Path() }
        let signed = clockwise ? sweep : -sweep
        let full = sweep >= 2 * .pi
        let outerStart = arcPoint(center, radius, startAngle)
        var p = Path()
        if full {
            p.move(to: outerStart)
            p.appendArc(center: center, radius: radius, from: startAngle, sweep: signed, endingAt: outerStart)
            p.close()
            if inner > 0 {
                let innerStart = arcPoint(center, inner, startAngle)
                p.move(to: innerStart)
                p.appendArc(center: center, radius: inner, from: startAngle, sweep: -signed, endingAt: innerStart)
                p.close()
            }
        } else if inner == 0 {
            p.move(to: center)
            p.line(to: outerStart)
            p.appendArc(center: center, radius: radius, from: startAngle, sweep: signed, endingAt: nil)
            p.close()
        } else {
            let endAngle = startAngle + signed
            p.move(to: outerStart)
            p.appendArc(center: center, radius: radius, from: startAngle, sweep: signed, endingAt: nil)
            p.line(to: arcPoint(center, inner, endAngle))
            p.appendArc(center: center, radius: inner, from: endAngle, sweep: -signed, endingAt: nil)
            p.close()
        }
        return p
    }
}

extension Path {
    /// `r` standardized, or nil when it has a non-finite component or no area.
    static func drawable(_ r: Rect) -> Rect? {
        guard r.isFinite else { return nil }
        let s = r.standardized
        guard s.width > 0, s.height > 0, s.maxX.isFinite, s.maxY.isFinite else { return nil }
        return s
    }

    /// The point at `angle` on the circle of `radius` about `center`.
    @inline(__always)
    static func arcPoint(_ center: Point, _ radius: Double, _ angle: Double) -> Point {
        Point(center.x + radius * cos(angle), center.y + radius * sin(angle))
    }

    /// The unsigned sweep of an arc in (0, 2π], or nil when it draws nothing
    /// (rules in `arc(center:radius:startAngle:endAngle:clockwise:)`).
    static func arcSweep(from a0: Double, to a1: Double, clockwise: Bool) -> Double? {
        guard a0.isFinite, a1.isFinite else { return nil }
        let twoPi = 2 * Double.pi
        var d = clockwise ? a1 - a0 : a0 - a1
        if !d.isFinite {
            // Both angles are finite but so far apart that their difference overflows:
            // many turns forwards is a full circle; backwards, reduce each angle first.
            if d > 0 { return twoPi }
            let r0 = a0.truncatingRemainder(dividingBy: twoPi), r1 = a1.truncatingRemainder(dividingBy: twoPi)
            d = clockwise ? r1 - r0 : r0 - r1
            d = d.truncatingRemainder(dividingBy: twoPi)
            if d < 0 { d += twoPi }
            return d > 0 && d < twoPi ? d : nil
        }
        if d >= twoPi { return twoPi }
        if d < 0 {
            d = d.truncatingRemainder(dividingBy: twoPi)
            if d < 0 { d += twoPi }
        }
        guard d > 0 else { return nil }
        return min(d, twoPi)
    }

    /// Appends an arc from the current point (which must be at `from` on the circle)
    /// turning by `sweep` radians (positive: clockwise on screen, |sweep| ≤ 2π), as
    /// cubics of at most 90° each. `endingAt` pins the last point (a full circle must
    /// end exactly where it began, which cos and sin of a + 2π do not promise).
    mutating func appendArc(center: Point, radius: Double, from a0: Double, sweep: Double, endingAt end: Point?) {
        // The small allowance keeps an exact quarter turn, computed with rounding, one piece.
        let n = max(1, min(4, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up))))
        let step = sweep / Double(n)
        let k = 4.0 / 3.0 * tan(step / 4) * radius   // signed, like the step
        var t0 = a0
        var p0 = Self.arcPoint(center, radius, t0)
        for i in 1...n {
            let t1 = i == n ? a0 + sweep : a0 + step * Double(i)
            let p1 = i == n ? (end ?? Self.arcPoint(center, radius, t1)) : Self.arcPoint(center, radius, t1)
            let c1 = Point(p0.x - k * sin(t0), p0.y + k * cos(t0))
            let c2 = Point(p1.x + k * sin(t1), p1.y - k * cos(t1))
            cubic(to: p1, control1: c1, control2: c2)
            t0 = t1; p0 = p1
        }
    }
}

/// The corner curves of rounded rectangles, for a corner radius of 1 in a frame where
/// the corner's vertex is the origin, the incoming edge runs along x = 0 towards it
/// and the outgoing edge leaves along y = 0. Each array is a start point followed by
/// cubics (control, control, end), running from (0, e) to (e, 0).
enum CornerShape {
    /// How far along each edge a continuous corner reaches, in units of its radius.
    static let continuousExtent = 1.528

    /// A quarter circle about (1, 1).
    static let circular: [Point] = {
        let k = 0.5522847498307936
        return [Point(0, 1), Point(0, 1 - k), Point(1 - k, 0), Point(1, 0)]
    }()

    /// Three cubics: a transition whose curvature grows from 0 at the edge to 1, an
    /// arc of radius 1, and the mirror image of the transition. Derivation and the
    /// reasons for the constants are in docs/geometry.md ("Continuous corners").
    static let continuous: [Point] = {
        let extent = continuousExtent
        let gamma = 33.0 * Double.pi / 180   // how far each transition turns
        let inset = 1.04                     // the arc's centre is (inset, inset)
        // The middle arc: from angle π + γ to 3π/2 − γ about the centre, one cubic.
        let a1 = Point(inset - cos(gamma), inset - sin(gamma))
        let t1 = Point(sin(gamma), -cos(gamma))           // direction of travel at a1
        let a2 = Point(a1.y, a1.x)
        let t2 = Point(cos(gamma), -sin(gamma))
        let k = 4.0 / 3.0 * tan((Double.pi / 2 - 2 * gamma) / 4)
        let m1 = a1 + t1 * k, m2 = a2 - t2 * k
        // Curvature of that cubic at its ends, (2/3)·h/a² (a: the end control arm,
        // h: the distance of the other control point from the end tangent). The
        // transitions match it exactly rather than the circle's 1, so the joints are G2
        // however the arc cubic rounds.
        let arm = (a2 - m2).length
        let kappa = 2.0 / 3.0 * abs((a2 - m2).cross(m1 - m2)) / (arm * arm * arm)
        // Transition: p0 and p1, p2 on the edge x = 0 (zero curvature at the edge);
        // p2 where the arc's tangent at a1 meets the edge (tangent continuity); the
        // distance p1p2 from the same curvature formula at a1 (curvature continuity).
        let a = a1.x / sin(gamma)                          // |p2 a1|
        let p2 = Point(0, a1.y + a * cos(gamma))
        let p1 = Point(0, p2.y + 3 * a * a * kappa / (2 * sin(gamma)))
        let p0 = Point(0, extent)
        let mirror = { (q: Point) in Point(q.y, q.x) }
        return [p0, p1, p2, a1, m1, m2, a2, mirror(p2), mirror(p1), mirror(p0)]
    }()
}
