#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the ends of open subpaths are drawn.
public enum LineCap: String, Hashable, Sendable, CaseIterable {
    /// The stroke stops flat at the end point.
    case butt
    /// A half disc of the stroke's width closes the end.
    case round
    /// The stroke goes on for half its width past the end, flat.
    case square
}

/// How corners between segments are drawn.
public enum LineJoin: String, Hashable, Sendable, CaseIterable {
    /// Outer edges extended to meet, unless that is longer than the miter limit (then bevel).
    case miter
    /// A circular arc around the corner.
    case round
    /// The outer corners joined by a straight line.
    case bevel
}

/// The parameters of a stroke, as in SwiftUI's `StrokeStyle`.
public struct StrokeStyle: Hashable, Sendable {
    /// Stroke width in user units; 0 or less draws nothing.
    public var width: Double
    /// End caps of open subpaths.
    public var cap: LineCap
    /// Corners.
    public var join: LineJoin
    /// Largest miter length as a multiple of the width before a miter becomes a bevel
    /// (10, as in Core Graphics and SwiftUI).
    public var miterLimit: Double

    /// Creates a stroke style.
    public init(width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 10) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
    }
}

/// Turns polylines into the closed outlines of their strokes.
///
/// Each side of a polyline is offset by half the width; on the outside of a turn the
/// join (miter, round or bevel) is inserted, on the inside the outline passes through
/// the vertex itself (the pivot), as Skia and Cairo do. That inner loop lies within the
/// stroke and has the same orientation as the body, so a non-zero fill of the result is
/// exactly the stroke's area, with no intersection tests and no special cases for
/// segments shorter than the width. Open subpaths give one outline (side, cap, other
/// side, cap); closed ones give two loops of opposite orientation.
public enum Stroker {
    /// The outlines of the stroke of `polylines`, to be filled with the non-zero rule.
    /// `tolerance` bounds the deviation of round caps and joins from true arcs.
    public static func stroke(_ polylines: [Polyline], style: StrokeStyle, tolerance: Double = 0.1) -> [Polyline] {
        let h = style.width / 2
        guard h > 0, h.isFinite else { return [] }
        var out: [Polyline] = []
        let arcStep = Self.arcStep(radius: h, tolerance: tolerance)
        for line in polylines {
            var pts: [Point] = []
            pts.reserveCapacity(line.points.count)
            for p in line.points where p.isFinite {
                if let last = pts.last, (p - last).length <= 1e-9 { continue }
                pts.append(p)
            }
            if line.closed, pts.count > 2, (pts[0] - pts[pts.count - 1]).length <= 1e-9 { pts.removeLast() }
            if pts.count == 1 {
                if let dot = Self.dot(at: pts[0], h: h, cap: style.cap, arcStep: arcStep) { out.append(dot) }
                continue
            }
            guard pts.count >= 2 else { continue }
            if line.closed && pts.count >= 3 {
                var a: [Point] = [], b: [Point] = []
                Self.side(pts, closed: true, h: h, style: style, arcStep: arcStep, into: &a)
                Self.side(pts.reversed(), closed: true, h: h, style: style, arcStep: arcStep, into: &b)
                out.append(Polyline(points: a, closed: true))
                out.append(Polyline(points: b, closed: true))
            } else {
                var o: [Point] = []
                o.reserveCapacity(pts.count * 2 + 16)
                Self.side(pts, closed: false, h: h, style: style, arcStep: arcStep, into: &o)
                let n = pts.count
                Self.cap(at: pts[n - 1], direction: (pts[n - 1] - pts[n - 2]).normalized!, h: h,
                         cap: style.cap, arcStep: arcStep, into: &o)
                let rev = Array(pts.reversed())
                Self.side(rev, closed: false, h: h, style: style, arcStep: arcStep, into: &o)
                Self.cap(at: pts[0], direction: (pts[0] - pts[1]).normalized!, h: h,
                         cap: style.cap, arcStep: arcStep, into: &o)
                out.append(Polyline(points: o, closed: true))
            }
        }
        return out
    }

    /// The angle step that keeps a polygonal arc of radius `radius` within `tolerance` of the circle.
    static func arcStep(radius: Double, tolerance: Double) -> Double {
        let tol = max(1e-4, tolerance)
        if tol >= radius { return .pi / 2 }
        return max(0.01, 2 * acos(1 - tol / radius))
    }

    /// Appends the offset of one side of `pts` (the side of `Point.perpendicular`), with joins.
    static func side(_ pts: [Point], closed: Bool, h: Double, style: StrokeStyle, arcStep: Double, into o: inout [Point]) {
        let n = pts.count
        let segs = closed ? n : n - 1
        @inline(__always) func dir(_ i: Int) -> Point {
            (pts[(i + 1) % n] - pts[i]).normalized ?? Point(1, 0)
        }
        var dPrev = closed ? dir(n - 1) : dir(0)
        if !closed { o.append(pts[0] + dPrev.perpendicular * h) }
        for i in 0..<segs {
            let d = dir(i)
            if closed || i > 0 {
                join(at: pts[i], from: dPrev, to: d, h: h, style: style, arcStep: arcStep, into: &o)
            }
            dPrev = d
        }
        if !closed { o.append(pts[n - 1] + dPrev.perpendicular * h) }
    }

    /// Appends the corner at `p` between directions `a` (incoming) and `b` (outgoing).
    static func join(at p: Point, from a: Point, to b: Point, h: Double, style: StrokeStyle, arcStep: Double, into o: inout [Point]) {
        let na = a.perpendicular, nb = b.perpendicular
        let cross = a.cross(b), dot = a.dot(b)
        if abs(cross) < 1e-12 && dot > 0 {            // straight on
            o.append(p + na * h); return
        }
        if cross > 0 {                                  // this side is the inside: pivot through p
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

    /// The outline drawn for a zero-length subpath: a disc for round caps, a square for square caps.
    static func dot(at p: Point, h: Double, cap: LineCap, arcStep: Double) -> Polyline? {
        switch cap {
        case .butt: return nil
        case .square:
            return Polyline(points: [Point(p.x - h, p.y - h), Point(p.x + h, p.y - h),
                                     Point(p.x + h, p.y + h), Point(p.x - h, p.y + h)], closed: true)
        case .round:
            var o: [Point] = []
            arc(center: p, from: Point(h, 0), sweep: 2 * .pi, arcStep: arcStep, into: &o)
            o.removeLast()
            return Polyline(points: o, closed: true)
        }
    }
}
