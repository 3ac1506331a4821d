import XCTest
@testable import Geometry

/// Caps and dash ends on flattened curves take the curve's tangent, not a chord's.
final class CurveTangentTests: XCTestCase {
    /// How far `t` is from the tangent of the circle about `c` at `p` (the sine of the angle).
    func offTangent(_ t: Point, at p: Point, center c: Point) -> Double {
        let r = p - c
        return abs(t.dot(r)) / r.length
    }

    func testFlattenedCurvesRecordTheirChordsAndExactTangents() {
        let c = Point(40, 40)
        let polys = Path.circle(center: c, radius: 28).flattened(tolerance: 0.0125)
        XCTAssertEqual(polys.count, 1)
        let line = polys[0]
        XCTAssertEqual(line.curves.count, 4)
        var next = 0, worst = 0.0
        for curve in line.curves {
            XCTAssertEqual(curve.first, next)
            next = curve.first + curve.segments
            for i in 0...curve.segments {
                let t = curve.tangent(at: line.parameter(of: curve.first + i, in: curve))!
                XCTAssertEqual(t.length, 1, accuracy: 1e-12)
                worst = max(worst, offTangent(t, at: line.points[curve.first + i], center: c))
            }
        }
        XCTAssertEqual(next, line.points.count - 1)
        // The cubic quarter circle's own tangent error (1.2e-3 rad), far below a chord's half turn (0.026 rad).
        XCTAssertLessThan(worst, 2e-3)
        // A straight path records no curves.
        XCTAssertTrue(Path.rect(Rect(x: 0, y: 0, width: 5, height: 5)).flattened().allSatisfy(\.curves.isEmpty))
        // Without the records (fills), the same points and nothing else.
        var mixed = Path.circle(center: c, radius: 28)
        mixed.move(to: Point(0, 0)); mixed.quad(to: Point(10, 0), control: Point(5, 9)); mixed.line(to: Point(12, 3))
        let kept = mixed.flattened(tolerance: 0.05), bare = mixed.flattened(tolerance: 0.05, keepingCurves: false)
        XCTAssertEqual(kept.map(\.curves.count), [4, 1])
        XCTAssertEqual(bare.map(\.points), kept.map(\.points))
        XCTAssertEqual(bare.map(\.closed), kept.map(\.closed))
        XCTAssertTrue(bare.allSatisfy(\.curves.isEmpty))
    }

    func testButtEndsOfACurveAreSquareToItsTangent() {
        let arc = Path.arc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        let polys = arc.flattened(tolerance: 0.05)
        let style = StrokeStyle(width: 4, cap: .butt)
        // The exact ends: the arc starts at (10, 0) heading +y and ends at (0, 10) heading −x.
        let ends = [Point(12, 0), Point(8, 0), Point(0, 12), Point(0, 8)]
        func nearest(_ q: Point, _ outline: [Polyline]) -> Double {
            outline.flatMap(\.points).map { ($0 - q).length }.min()!
        }
        let outline = Stroker.stroke(polys, style: style, tolerance: 0.05)
        for q in ends { XCTAssertLessThan(nearest(q, outline), 1e-9, "\(q)") }
        // Without the curve record the ends are square to the chords, measurably off.
        let chords = Stroker.stroke(polys.map { Polyline(points: $0.points, closed: false) }, style: style, tolerance: 0.05)
        XCTAssertGreaterThan(nearest(Point(12, 0), chords), 0.01)
    }

    func testDashEndsOnACircleFollowItsTangent() {
        let c = Point(40, 40)
        let line = Path.circle(center: c, radius: 28).flattened(tolerance: 0.0125)[0]
        var budget = 1000, pieces = 0, worstTangent = 0.0, worstChord = 0.0
        Dasher.walk(line, DashPattern([9, 7])!, budget: &budget) { pts, closed, ends in
            XCTAssertFalse(closed)
            pieces += 1
            let s = ends.start!, e = ends.end!
            let a = pts[0], b = pts[pts.count - 1]
            // Along the direction of travel.
            XCTAssertGreaterThan(s.dot(pts[1] - a), 0)
            XCTAssertGreaterThan(e.dot(b - pts[pts.count - 2]), 0)
            worstTangent = max(worstTangent, offTangent(s, at: a, center: c), offTangent(e, at: b, center: c))
            worstChord = max(worstChord, offTangent((b - pts[pts.count - 2]).normalized!, at: b, center: c))
        }
        XCTAssertEqual(pieces, 11)
        XCTAssertLessThan(worstTangent, 2e-3)
        XCTAssertGreaterThan(worstChord, 5e-3)
        print(String(format: "dash ends on a radius-28 circle: tangent off by %.2e, last chord by %.2e", worstTangent, worstChord))
    }
}
