import XCTest
@testable import Geometry
import TestSupport

/// A solid stroke's outline against the exact offset curves of its path.
///
/// Raster strokes a curve by cutting its centre line into chords (`Path.flattened`, cut
/// by its bending, each chord held to the outline's tolerance with the pen's share
/// counted in) and offsetting them (`Stroker`). What a user sees is the outline, so that
/// is what these tests hold to the tolerance: every point of the outline lies within it
/// of the exact boundary (the curves B(t) ± h·N(t) and the butt caps), and every point
/// of the exact boundary within it of the outline.
final class OutlineDeviationTests: XCTestCase {
    /// The tolerance Raster gives a stroke's outline on a 1:1 canvas (`Canvas.tolerance`).
    static let tolerance = 0.05

    struct Cubic {
        let p0, p1, p2, p3: Point
        func point(_ t: Double) -> Point {
            let u = 1 - t
            return p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)
        }
        func derivative(_ t: Double) -> Point {
            let u = 1 - t
            return (p1 - p0) * (3 * u * u) + (p2 - p1) * (6 * u * t) + (p3 - p2) * (3 * t * t)
        }
    }

    /// A chart's curved line through `ys`, `dx` apart: cubics level at local extremes and
    /// sloped by the neighbours' difference elsewhere (a monotone interpolation).
    static func chartLine(_ ys: [Double], dx: Double) -> [Cubic] {
        (0..<(ys.count - 1)).map { i in
            func slope(_ k: Int) -> Double {
                guard k > 0, k < ys.count - 1, (ys[k + 1] - ys[k]) * (ys[k] - ys[k - 1]) > 0 else { return 0 }
                return (ys[k + 1] - ys[k - 1]) / (2 * dx)
            }
            let x0 = 20 + Double(i) * dx, x1 = x0 + dx
            return Cubic(p0: Point(x0, ys[i]), p1: Point(x0 + dx / 3, ys[i] + slope(i) * dx / 3),
                         p2: Point(x1 - dx / 3, ys[i + 1] - slope(i + 1) * dx / 3), p3: Point(x1, ys[i + 1]))
        }
    }

    static func distanceToSegment(_ q: Point, _ a: Point, _ b: Point) -> Double {
        let d = b - a, l2 = d.dot(d)
        let t = l2 > 0 ? min(1, max(0, (q - a).dot(d) / l2)) : 0
        return (a + d * t - q).length
    }

    /// The nearest any edge of the closed polygon `poly` comes to `q`.
    static func distance(_ q: Point, toClosed poly: [Point]) -> Double {
        var best = Double.infinity
        for i in poly.indices { best = min(best, distanceToSegment(q, poly[i], poly[(i + 1) % poly.count])) }
        return best
    }

    /// How far the outline strays from the exact boundary, both ways, and the chords of
    /// its centre line, for the path of `cubics` stroked with half-width `pen`.
    /// `counted: false` cuts the centre line without the pen's share.
    func deviation(_ cubics: [Cubic], pen: Double, counted: Bool = true) -> (outline: Double, exact: Double, chords: Int) {
        var path = Path()
        path.move(to: cubics[0].p0)
        for c in cubics { path.cubic(to: c.p3, control1: c.p1, control2: c.p2) }
        let tol = Self.tolerance
        // As Canvas.stroke flattens a solid stroke's centre line.
        let centre = path.flattened(tolerance: tol / 2, cutByBending: true, bendingTolerance: tol,
                                    pen: counted ? pen : 0)
        let outline = Stroker.stroke(centre, style: StrokeStyle(width: 2 * pen, cap: .butt, join: .round),
                                     tolerance: tol)
        XCTAssertEqual(outline.count, 1)
        // The exact boundary, sampled finely enough that its chords are within 0.002 px.
        var left: [Point] = [], right: [Point] = []
        for c in cubics {
            for k in 0...300 {
                let t = Double(k) / 300
                guard let n = c.derivative(t).normalized?.perpendicular else { continue }
                left.append(c.point(t) + n * pen); right.append(c.point(t) - n * pen)
            }
        }
        let exact = left + right.reversed()
        let pts = outline[0].points
        var away = 0.0, missed = 0.0
        for i in pts.indices {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            for k in 0..<4 { away = max(away, Self.distance(a + (b - a) * (Double(k) / 4), toClosed: exact)) }
        }
        for q in exact { missed = max(missed, Self.distance(q, toClosed: pts)) }
        return (away, missed, centre[0].points.count - 1)
    }

    /// Chart lines through random values, pens from a hairline's to 6 px wide: the outline
    /// within the tolerance of the exact stroke both ways (with 0.003 px for the sampling
    /// of the exact curves).
    func testSolidCurvedStrokesOutlinesStayWithinTheTolerance() {
        var rng = SplitMix64(seed: 0x0ff5e7)
        for trial in 0..<6 {
            let ys = (0..<5).map { _ in 40 + 260 * rng.uniform() }
            let line = Self.chartLine(ys, dx: 60 + 80 * rng.uniform())
            for pen in [0.5, 1.5, 3] {
                let d = deviation(line, pen: pen)
                XCTAssertLessThanOrEqual(d.outline, Self.tolerance + 0.003, "trial \(trial) pen \(pen) \(ys)")
                XCTAssertLessThanOrEqual(d.exact, Self.tolerance + 0.003, "trial \(trial) pen \(pen) \(ys)")
            }
        }
        // A tight S (radius of curvature down to about 20 px) under a thick pen, where
        // the pen's share of each chord's allowance is largest.
        let s = [Cubic(p0: Point(0, 0), p1: Point(60, 0), p2: Point(0, 40), p3: Point(60, 40))]
        for pen in [1.5, 6] {
            let d = deviation(s, pen: pen)
            XCTAssertLessThanOrEqual(d.outline, Self.tolerance + 0.003, "S, pen \(pen)")
            XCTAssertLessThanOrEqual(d.exact, Self.tolerance + 0.003, "S, pen \(pen)")
        }
    }

    /// Without the pen's share a thick pen's outline strays past the tolerance (its offset
    /// chords' meeting points lie pen·(1/cos(θ/2) − 1) outside the exact offset, on top
    /// of the chord's own deviation): the share is what holds a 12 px stroke to it
    /// (measured 0.043 px with it, 0.052 without).
    func testThePensShareIsWhatHoldsAThickStroke() {
        let line = Self.chartLine([300, 120, 180, 60, 260, 240, 40, 200, 150], dx: 110)
        let with = deviation(line, pen: 6), without = deviation(line, pen: 6, counted: false)
        XCTAssertLessThanOrEqual(with.outline, Self.tolerance)
        XCTAssertGreaterThan(without.outline, Self.tolerance)
        XCTAssertLessThan(without.chords, with.chords)
    }
}
