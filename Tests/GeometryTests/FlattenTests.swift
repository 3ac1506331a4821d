import XCTest
@testable import Geometry
import TestSupport

final class FlattenTests: XCTestCase {
    /// The exact cubic at t, for checking the polyline against the curve.
    func cubic(_ p: [Point], _ t: Double) -> Point {
        let u = 1 - t
        return p[0] * (u * u * u) + p[1] * (3 * u * u * t) + p[2] * (3 * u * t * t) + p[3] * (t * t * t)
    }

    func distanceToPolyline(_ q: Point, _ pts: [Point]) -> Double {
        var best = Double.infinity
        for i in 1..<pts.count {
            let a = pts[i - 1], b = pts[i], d = b - a
            let len2 = d.dot(d)
            let t = len2 > 0 ? min(1, max(0, (q - a).dot(d) / len2)) : 0
            best = min(best, (a + d * t - q).length)
        }
        return best
    }

    func testCubicStaysWithinTolerance() {
        let ctrl = [Point(10, 300), Point(50, -200), Point(400, 500), Point(500, 20)]
        var path = Path()
        path.move(to: ctrl[0]); path.cubic(to: ctrl[3], control1: ctrl[1], control2: ctrl[2])
        for tol in [0.25, 0.1] {
            let polys = path.flattened(tolerance: tol)
            XCTAssertEqual(polys.count, 1)
            let pts = polys[0].points
            XCTAssertEqual(pts.first, ctrl[0]); XCTAssertEqual(pts.last, ctrl[3])
            var worst = 0.0
            for i in 0...2000 { worst = max(worst, distanceToPolyline(cubic(ctrl, Double(i) / 2000), pts)) }
            XCTAssertLessThanOrEqual(worst, tol, "tolerance \(tol)")
        }
    }

    func testSubpathsAndClose() {
        var p = Path()
        p.move(to: Point(0, 0)); p.line(to: Point(10, 0)); p.line(to: Point(10, 10)); p.close()
        p.move(to: Point(20, 20)); p.line(to: Point(30, 20))
        let polys = p.flattened()
        XCTAssertEqual(polys.count, 2)
        XCTAssertTrue(polys[0].closed); XCTAssertFalse(polys[1].closed)
        XCTAssertEqual(polys[1].points, [Point(20, 20), Point(30, 20)])
    }

    /// Each subpath's polyline keeps its buffer as handed over: the same points, curves and
    /// parameters as that subpath flattened on its own, whatever came before or after it.
    func testEverySubpathIsFlattenedAsOnItsOwn() {
        var rng = SplitMix64(seed: 20)
        for _ in 0..<200 {
            var whole = Path()
            var parts: [Path] = []
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                var part = Path()
                func pt() -> Point { Point(Double.random(in: -50...250, using: &rng), Double.random(in: -50...250, using: &rng)) }
                let start = pt()
                whole.move(to: start); part.move(to: start)
                for _ in 0..<Int.random(in: 1...12, using: &rng) {
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: let q = pt(); whole.line(to: q); part.line(to: q)
                    case 1: let c = pt(), q = pt(); whole.quad(to: q, control: c); part.quad(to: q, control: c)
                    default:
                        let a = pt(), b = pt(), q = pt()
                        whole.cubic(to: q, control1: a, control2: b); part.cubic(to: q, control1: a, control2: b)
                    }
                }
                if Bool.random(using: &rng) { whole.close(); part.close() }
                parts.append(part)
            }
            for bending in [false, true] {
                let got = whole.flattened(tolerance: 0.05, cutByBending: bending)
                let want = parts.flatMap { $0.flattened(tolerance: 0.05, cutByBending: bending) }
                XCTAssertEqual(got.count, want.count)
                for (g, w) in zip(got, want) {
                    XCTAssertEqual(g.points, w.points); XCTAssertEqual(g.closed, w.closed)
                    XCTAssertEqual(g.parameters, w.parameters); XCTAssertEqual(g.curves.count, w.curves.count)
                }
            }
        }
    }

    func testNonFiniteAndHugeInputDoNotExplode() {
        var p = Path()
        p.move(to: Point(.nan, 0)); p.line(to: Point(1, 1))
        p.move(to: Point(0, 0)); p.cubic(to: Point(1e30, -1e30), control1: Point(.infinity, 0), control2: Point(1e30, 1e30))
        p.move(to: Point(0, 0)); p.cubic(to: Point(1e30, 5), control1: Point(-1e30, 1e30), control2: Point(1e30, -1e30))
        let polys = p.flattened(tolerance: 0.1)
        XCTAssertLessThan(polys.reduce(0) { $0 + $1.points.count }, 10_000)
    }

    func testTransformAppliesBeforeFlattening() {
        let p = Path.circle(center: Point(0, 0), radius: 1)
        let polys = p.flattened(tolerance: 0.1, transform: .scale(100, 100))
        for q in polys[0].points { XCTAssertEqual(q.length, 100, accuracy: 0.1) }
        XCTAssertGreaterThan(polys[0].points.count, 16)
    }
}

final class SVGPathTests: XCTestCase {
    func testCommandsAbsoluteRelativeAndImplicit() throws {
        let p = try Path(svg: "M10 10 L 20 10 l0,10 H 10 v -10 Z m 30 0 h10 10 c 0 10, 10 10, 10 0 s 10 -10 10 0 Q 90 0 100 10 T 120 10")
        XCTAssertEqual(p.elements[0], .move(Point(10, 10)))
        XCTAssertEqual(p.elements[1], .line(Point(20, 10)))
        XCTAssertEqual(p.elements[2], .line(Point(20, 20)))
        XCTAssertEqual(p.elements[3], .line(Point(10, 20)))
        XCTAssertEqual(p.elements[4], .line(Point(10, 10)))
        XCTAssertEqual(p.elements[5], .close)
        XCTAssertEqual(p.elements[6], .move(Point(40, 10)))
        XCTAssertEqual(p.elements[8], .line(Point(60, 10)))          // implicit repeated h
        XCTAssertEqual(p.elements[9], .cubic(Point(60, 20), Point(70, 20), Point(70, 10)))
        XCTAssertEqual(p.elements[10], .cubic(Point(70, 0), Point(80, 0), Point(80, 10)))   // reflected control
        XCTAssertEqual(p.elements[12], .quad(Point(110, 20), Point(120, 10)))             // reflected quad control
    }

    func testArcsBecomeCubicsOnTheEllipse() throws {
        // A half circle of radius 50 from (0,50) to (100,50), sweeping clockwise through the top (y down).
        let p = try Path(svg: "M 0 50 A 50 50 0 0 1 100 50")
        let pts = p.flattened(tolerance: 0.01)[0].points
        for q in pts { XCTAssertEqual(q.distance(to: Point(50, 50)), 50, accuracy: 0.02) }
        XCTAssertLessThan(pts.map(\.y).min()!, 0.1)   // passes the top
        XCTAssertEqual(pts.last!, Point(100, 50))
        // Radii too small are scaled up to reach the end point.
        let small = try Path(svg: "M 0 0 A 1 1 0 0 0 10 0")
        XCTAssertEqual(small.currentPoint, Point(10, 0))
    }

    func testErrorsSayWhere() {
        XCTAssertThrowsError(try Path(svg: "L 10 10")) { e in XCTAssertTrue("\(e)".contains("must start with M")) }
        XCTAssertThrowsError(try Path(svg: "M 10 x")) { e in XCTAssertTrue("\(e)".contains("character 6")) }
        XCTAssertThrowsError(try Path(svg: "M 0 0 K 1 1"))
    }
}

/// Long curves are cut where they bend (CurveFlattening), every chord within the tolerance.
final class CurveFlatteningTests: XCTestCase {
    func cubic(_ p: [Point], _ t: Double) -> Point {
        let u = 1 - t
        return p[0] * (u * u * u) + p[1] * (3 * u * u * t) + p[2] * (3 * u * t * t) + p[3] * (t * t * t)
    }

    /// The largest distance from the curve to the polyline, sampled densely along each
    /// chord's own arc (so a chord is measured against the arc it stands for).
    func worstDeviation(_ p: [Point], _ line: Polyline) -> Double {
        guard let c = line.curves.first else { return .infinity }
        var worst = 0.0
        for k in 0..<c.segments {
            let t0 = line.parameter(of: k, in: c), t1 = line.parameter(of: k + 1, in: c)
            let a = line.points[k], b = line.points[k + 1], d = b - a, l2 = d.dot(d)
            for j in 0...32 {
                let q = cubic(p, t0 + (t1 - t0) * Double(j) / 32)
                let s = l2 > 0 ? min(1, max(0, (q - a).dot(d) / l2)) : 0
                worst = max(worst, (a + d * s - q).length)
            }
        }
        return worst
    }

    func wang(_ p: [Point], _ tol: Double) -> Int {
        let m = max((p[0] - 2 * p[1] + p[2]).length, (p[1] - 2 * p[2] + p[3]).length)
        return Int((0.75 * m / tol).squareRoot().rounded(.up))
    }

    func flatten(_ p: [Point], _ tol: Double, pen: Double = 0) -> Polyline {
        var path = Path()
        path.move(to: p[0]); path.cubic(to: p[3], control1: p[1], control2: p[2])
        return path.flattened(tolerance: tol, cutByBending: true, pen: pen)[0]
    }

    /// A chart's monotone cubic (level at both data points): far fewer chords than
    /// Wang's equal steps, each within the tolerance, on the curve at its parameters.
    func testAChartCurveTakesFewerChordsWithinTheTolerance() {
        for p in [[Point(40, 560), Point(85, 560), Point(85, 386.7), Point(130, 386.7)],
                  [Point(220, 421.3), Point(265, 421.3), Point(265, 40), Point(310, 40)],
                  [Point(0, 0), Point(300, 0), Point(0, 40), Point(300, 40)]] {
            for tol in [0.025, 0.05, 0.2] {
                let line = flatten(p, tol)
                XCTAssertEqual(line.curves.count, 1)
                let c = line.curves[0]
                XCTAssertGreaterThanOrEqual(c.parameters, 0, "cut by its bending")
                XCTAssertEqual(c.segments, line.points.count - 1)
                XCTAssertLessThan(Double(c.segments), 0.75 * Double(wang(p, tol)), "\(p) at \(tol)")
                XCTAssertEqual(line.points.first, p[0]); XCTAssertEqual(line.points.last, p[3])
                XCTAssertLessThanOrEqual(worstDeviation(p, line), tol, "\(p) at \(tol)")
                var prev = 0.0
                for k in 1..<c.segments {
                    let t = line.parameter(of: k, in: c)
                    XCTAssertGreaterThan(t, prev); prev = t
                    XCTAssertEqual(line.points[k].distance(to: cubic(p, t)), 0, accuracy: 1e-9)
                }
                XCTAssertLessThan(prev, 1)
            }
        }
    }

    /// Random cubics, loops and cusps included: every chord within the tolerance, and no
    /// more chords than Wang's equal steps would take.
    func testRandomCubicsStayWithinTheTolerance() {
        var rng = SplitMix64(seed: 0x5eed_18)
        var adaptive = 0, total = 0, chords = 0, wangChords = 0
        for i in 0..<1500 {
            let size = i % 3 == 0 ? 8.0 : 300.0
            var p = (0..<4).map { _ in Point(rng.uniform() * size, rng.uniform() * size) }
            if i % 10 == 0 { p[2] = p[0]; p[3] = p[1] }                        // out and back: a cusp
            let tol = [0.025, 0.05, 0.1][i % 3]
            let line = flatten(p, tol)
            total += 1
            if line.curves[0].parameters >= 0 { adaptive += 1 }
            chords += line.points.count - 1; wangChords += max(1, wang(p, tol))
            XCTAssertLessThanOrEqual(line.points.count - 1, max(1, wang(p, tol)), "\(p)")
            XCTAssertLessThanOrEqual(worstDeviation(p, line), tol * (1 + 1e-9), "\(p) at \(tol)")
            // Under a pen each chord leaves the pen its share (OutlineDeviationTests): the
            // chords alone stay within the tolerance.
            let penned = flatten(p, tol, pen: 2)
            XCTAssertLessThanOrEqual(worstDeviation(p, penned), tol * (1 + 1e-9), "\(p) at \(tol), pen 2")
        }
        XCTAssertGreaterThan(adaptive, total / 2)
        XCTAssertLessThan(Double(chords), 0.8 * Double(wangChords))
    }

    /// The sixteen pieces' densities, taken at once in a vector, are each the value the
    /// scalar formula gives at its piece's middle (√(|B′×B″| / |B′|)·w, 0 where B′ = 0,
    /// and with a pen of half-width h √(|B′×B″| / |B′| · (1 + h·|B′×B″| / |B′|³))·w),
    /// bit for bit, on random, tiny, huge, degenerate and non-finite cubics: the cut, and
    /// so every frame, does not depend on how they are computed.
    func testThePiecesDensitiesAreTheScalarFormulasBitForBit() {
        var rng = SplitMix64(seed: 0xde75)
        let w = 1 / Double(CurveFlattening.pieces)
        func scalar(_ c: CurveFlattening.Cubic, _ i: Int, pen: Double) -> Double {
            let t = (Double(i) + 0.5) * w
            let d = c.derivative(t), a = c.second(t)
            let speed = d.length, bend = abs(d.cross(a))
            var q = bend / speed
            if pen > 0 { q = q * (1 + pen * (bend / (speed * speed * speed))) }
            return speed > 0 ? q.squareRoot() * w : 0
        }
        var cases: [[Point]] = [[Point(0, 0), Point(0, 0), Point(0, 0), Point(0, 0)],
                                [Point(0, 0), Point(1e300, 1e300), Point(-1e300, 0), Point(3, 4)],
                                [Point(0, 0), Point(.infinity, 0), Point(1, 1), Point(2, 2)],
                                [Point(0, 0), Point(.nan, 0), Point(1, 1), Point(2, 2)],
                                [Point(1, 1), Point(2, 2), Point(3, 3), Point(4, 4)]]
        for i in 0..<2000 {
            let size = [1e-6, 1.0, 300.0, 1e12][i % 4]
            cases.append((0..<4).map { _ in Point((rng.uniform() - 0.5) * size, (rng.uniform() - 0.5) * size) })
        }
        var compared = 0
        for p in cases {
            let c = CurveFlattening.Cubic(p[0], p[1], p[2], p[3])
            for pen in [0, 1.5] {
                let v = CurveFlattening.densities(c, w, pen: pen)
                for i in 0..<CurveFlattening.pieces {
                    let e = scalar(c, i, pen: pen)
                    // The same value; a zero may carry either sign (both are "does not bend").
                    let same = v[i].bitPattern == e.bitPattern || (v[i] == 0 && e == 0) || (v[i].isNaN && e.isNaN)
                    XCTAssertTrue(same, "\(p) pen \(pen) piece \(i): \(v[i]) against \(e)")
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, cases.count * 32)
    }

    /// A circle's arcs bend evenly: they keep Wang's equal steps (and their points), as
    /// every curve of a fill does.
    func testCirclesAndFillsKeepEqualSteps() {
        let line = Path.circle(center: Point(0, 0), radius: 100).flattened(tolerance: 0.05, cutByBending: true)[0]
        XCTAssertEqual(line.curves.count, 4)
        XCTAssertTrue(line.curves.allSatisfy { $0.parameters < 0 })
        XCTAssertTrue(line.parameters.isEmpty)
        // And fills (the default) keep equal steps everywhere.
        var path = Path()
        path.move(to: Point(40, 560)); path.cubic(to: Point(130, 386.7), control1: Point(85, 560), control2: Point(85, 386.7))
        let fill = path.flattened(tolerance: 0.05)[0]
        XCTAssertEqual(fill.curves[0].parameters, -1)
        XCTAssertEqual(fill.points.count - 1, wang([Point(40, 560), Point(85, 560), Point(85, 386.7), Point(130, 386.7)], 0.05))
    }

    /// Huge, tiny and non-finite curves: no trap, a bounded count, points in order.
    func testDegenerateAndHugeCurvesStayBounded() {
        let cases: [[Point]] = [
            [Point(0, 0), Point(1e30, -1e30), Point(-1e30, 1e30), Point(1e30, 5)],
            [Point(0, 0), Point(1e308, 0), Point(-1e308, 1e308), Point(1e308, -1e308)],
            [Point(0, 0), Point(1e-300, 0), Point(0, 1e-300), Point(1e-300, 1e-300)],
            [Point(5, 5), Point(5, 5), Point(5, 5), Point(5, 5)],
            [Point(0, 0), Point(100, 0), Point(200, 0), Point(-300, 0)],              // on a line, turning back
            [Point(0, 0), Point(.greatestFiniteMagnitude, 1), Point(1, .greatestFiniteMagnitude), Point(2, 2)],
        ]
        for p in cases {
            for tol in [1e-9, 0.025, 1e6] {
                var path = Path()
                path.move(to: p[0]); path.cubic(to: p[3], control1: p[1], control2: p[2])
                let lines = path.flattened(tolerance: tol, cutByBending: true)
                let count = lines.reduce(0) { $0 + $1.points.count }
                XCTAssertLessThanOrEqual(count, 4097, "\(p) at \(tol)")
                for line in lines {
                    for c in line.curves where c.parameters >= 0 {
                        var prev = 0.0
                        for k in c.first + 1 ..< c.first + c.segments {
                            let t = line.parameter(of: k, in: c)
                            XCTAssertGreaterThan(t, prev); XCTAssertLessThan(t, 1); prev = t
                        }
                    }
                }
            }
        }
        // The straight cubic that turns back keeps its far end (300 px beyond the last point).
        var back = Path()
        back.move(to: Point(0, 0)); back.cubic(to: Point(-300, 0), control1: Point(100, 0), control2: Point(200, 0))
        let pts = back.flattened(tolerance: 0.05, cutByBending: true)[0].points
        XCTAssertGreaterThan(pts.map(\.x).max()!, 60)
    }

    /// Dash ends and caps read the curve's tangent at the recorded parameters.
    func testTangentsOnACurveCutByItsBending() {
        let p = [Point(40, 560), Point(85, 560), Point(85, 386.7), Point(130, 386.7)]
        let line = flatten(p, 0.025)
        let c = line.curves[0]
        var cursor = 0
        for k in stride(from: 0, to: c.segments, by: 7) {
            let t0 = line.parameter(of: k, in: c), t1 = line.parameter(of: k + 1, in: c)
            let got = line.curveTangent(chord: k, fraction: 0.5, cursor: &cursor)!
            let want = c.tangent(at: (t0 + t1) / 2)!
            XCTAssertEqual(got.x, want.x, accuracy: 1e-12); XCTAssertEqual(got.y, want.y, accuracy: 1e-12)
        }
        var fresh = 0
        XCTAssertEqual(line.curveTangent(chord: c.segments - 1, fraction: 1, cursor: &fresh), c.tangent(at: 1))
    }
}

