import XCTest
@testable import Geometry

final class StrokerTests: XCTestCase {
    /// Signed area of a closed polygon (shoelace).
    func area(_ p: Polyline) -> Double {
        var a = 0.0
        for i in 0..<p.points.count {
            let u = p.points[i], v = p.points[(i + 1) % p.points.count]
            a += u.x * v.y - v.x * u.y
        }
        return a / 2
    }

    /// Winding number of `q` with respect to closed polygons.
    func winding(_ q: Point, _ polys: [Polyline]) -> Int {
        var w = 0
        for p in polys {
            for i in 0..<p.points.count {
                let a = p.points[i], b = p.points[(i + 1) % p.points.count]
                let side = (b - a).cross(q - a)
                if a.y <= q.y && b.y > q.y && side > 0 { w += 1 }
                if a.y > q.y && b.y <= q.y && side < 0 { w -= 1 }
            }
        }
        return w
    }

    func outline(_ pts: [Point], _ style: StrokeStyle, closed: Bool = false) -> [Polyline] {
        Stroker.stroke([Polyline(points: pts, closed: closed)], style: style, tolerance: 0.001)
    }

    func testButtCapLineHasWidthTimesLength() {
        let o = outline([Point(0, 0), Point(100, 0)], StrokeStyle(width: 4, cap: .butt))
        XCTAssertEqual(o.count, 1)
        XCTAssertEqual(abs(area(o[0])), 400, accuracy: 1e-9)
    }

    func testSquareAndRoundCapsAddTheirArea() {
        let sq = outline([Point(0, 0), Point(100, 0)], StrokeStyle(width: 4, cap: .square))
        XCTAssertEqual(abs(area(sq[0])), 4 * 104, accuracy: 1e-9)
        let rd = outline([Point(0, 0), Point(100, 0)], StrokeStyle(width: 4, cap: .round))
        XCTAssertEqual(abs(area(rd[0])), 400 + .pi * 4, accuracy: 0.01)
    }

    func testMiterLimitTurnsSharpMitersIntoBevels() {
        let pts = [Point(0, 0), Point(100, 0), Point(0, 10)]   // a very sharp turn
        let miter = outline(pts, StrokeStyle(width: 4, join: .miter, miterLimit: 100))
        let limited = outline(pts, StrokeStyle(width: 4, join: .miter, miterLimit: 4))
        let bevel = outline(pts, StrokeStyle(width: 4, join: .bevel))
        let maxX = { (o: [Polyline]) in o[0].points.map(\.x).max()! }
        XCTAssertGreaterThan(maxX(miter), 120)
        XCTAssertEqual(maxX(limited), maxX(bevel), accuracy: 1e-9)
    }

    func testClosedSquareGivesTwoOppositeLoops() {
        let o = outline([Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)], StrokeStyle(width: 2, join: .miter), closed: true)
        XCTAssertEqual(o.count, 2)
        let a = area(o[0]), b = area(o[1])
        XCTAssertLessThan(a * b, 0, "loops must have opposite orientation")
        // Non-zero winding is the stroke band exactly: inside the band, not in the hole or outside.
        for (p, inside) in [(Point(-0.5, 5), true), (Point(5, 10.5), true), (Point(-0.9, -0.9), true),
                            (Point(0.9, 0.9), true), (Point(5, 5), false), (Point(1.5, 1.5), false),
                            (Point(-1.5, 5), false), (Point(11.2, 11.2), false)] {
            XCTAssertEqual(winding(p, o) != 0, inside, "\(p)")
        }
    }

    func testZeroLengthSubpathWithRoundCapIsADot() {
        let o = outline([Point(5, 5)], StrokeStyle(width: 6, cap: .round))
        XCTAssertEqual(abs(area(o[0])), .pi * 9, accuracy: 0.02)
        XCTAssertTrue(outline([Point(5, 5)], StrokeStyle(width: 6, cap: .butt)).isEmpty)
    }

    func testDegenerateWidthsDrawNothing() {
        XCTAssertTrue(outline([Point(0, 0), Point(1, 1)], StrokeStyle(width: 0)).isEmpty)
        XCTAssertTrue(outline([Point(0, 0), Point(1, 1)], StrokeStyle(width: .nan)).isEmpty)
        XCTAssertTrue(outline([Point(0, 0), Point(1, 1)], StrokeStyle(width: -3)).isEmpty)
    }
}
