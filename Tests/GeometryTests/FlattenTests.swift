import XCTest
@testable import Geometry

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
