import XCTest
@testable import Geometry

final class DasherTests: XCTestCase {
    let line = [Polyline(points: [Point(0, 0), Point(40, 0), Point(100, 0)], closed: false)]

    func dashes(_ polys: [Polyline], _ dash: [Double], phase: Double = 0) -> [Polyline] {
        Dasher.dash(polys, pattern: DashPattern(dash, phase: phase)!)
    }

    /// (start x, end x) of each piece of a horizontal line.
    func spans(_ pieces: [Polyline]) -> [(Double, Double)] {
        pieces.map { ($0.points.first!.x, $0.points.last!.x) }
    }

    func assertSpans(_ pieces: [Polyline], _ expected: [(Double, Double)], file: StaticString = #filePath, line: UInt = #line) {
        let got = spans(pieces)
        XCTAssertEqual(got.count, expected.count, "\(got)", file: file, line: line)
        for (g, e) in zip(got, expected) {
            XCTAssertEqual(g.0, e.0, accuracy: 1e-9, "\(got)", file: file, line: line)
            XCTAssertEqual(g.1, e.1, accuracy: 1e-9, "\(got)", file: file, line: line)
        }
    }

    func testDashesAlongALineHaveThePatternLengths() {
        let pieces = dashes(line, [10, 5])
        assertSpans(pieces, [(0, 10), (15, 25), (30, 40), (45, 55), (60, 70), (75, 85), (90, 100)])
        // The vertex at 40 ends a dash and stays in it; every piece is open.
        XCTAssertEqual(pieces[2].points, [Point(30, 0), Point(40, 0)])
        XCTAssertTrue(pieces.allSatisfy { !$0.closed })
        let total = pieces.reduce(0) { $0 + length($1) }
        XCTAssertEqual(total, 70, accuracy: 1e-9)
        XCTAssertEqual(PathMeasure(path(pieces)).length, 70, accuracy: 1e-9)
    }

    func testPhaseShiftsThePattern() {
        assertSpans(dashes(line, [10, 5], phase: 3), [(0, 7), (12, 22), (27, 37), (42, 52), (57, 67), (72, 82), (87, 97)])
        // Phase inside the gap: the line starts off.
        assertSpans(dashes(line, [10, 5], phase: 12), [(3, 13), (18, 28), (33, 43), (48, 58), (63, 73), (78, 88), (93, 100)])
        // A negative phase wraps: −3 is 12 for a period of 15; whole periods change nothing.
        XCTAssertEqual(spans(dashes(line, [10, 5], phase: -3)).map(\.0), spans(dashes(line, [10, 5], phase: 12)).map(\.0))
        XCTAssertEqual(spans(dashes(line, [10, 5], phase: 3 + 15 * 7)).map(\.0), spans(dashes(line, [10, 5], phase: 3)).map(\.0))
    }

    func testOddArraysRepeatTwice() {
        XCTAssertEqual(DashPattern([10])!.intervals, [10, 10])
        XCTAssertEqual(DashPattern([4, 2, 1])!.intervals, [4, 2, 1, 4, 2, 1])
        XCTAssertEqual(DashPattern([4, 2, 1])!.period, 14)
        XCTAssertEqual(dashes(line, [10]), dashes(line, [10, 10]))
        XCTAssertEqual(dashes(line, [4, 2, 1], phase: 5), dashes(line, [4, 2, 1, 4, 2, 1], phase: 5))
        // [4, 2, 1] → on 4, off 2, on 1, off 4, on 2, off 1, …
        assertSpans(Array(dashes(line, [4, 2, 1]).prefix(4)), [(0, 4), (6, 7), (11, 13), (14, 18)])
    }

    func testSolidPatterns() {
        for bad: [Double] in [[], [0], [0, 0], [0, 0, 0], [-1, 5], [5, -1], [.nan, 3], [.infinity, 1], [1e308, 1e308]] {
            XCTAssertNil(DashPattern(bad), "\(bad)")
            let style = StrokeStyle(width: 4, cap: .round, dash: bad)
            XCTAssertEqual(Stroker.stroke(line, style: style), Stroker.stroke(line, style: StrokeStyle(width: 4, cap: .round)))
        }
        XCTAssertEqual(DashPattern([1, 2], phase: .nan)?.phase, 0)
        XCTAssertEqual(DashPattern([1, 2], phase: -.infinity)?.phase, 0)
    }

    func testDashLengthsAlongACircle() {
        let r = 50.0
        let circle = Path.circle(center: Point(50, 50), radius: r).flattened(tolerance: 0.001)
        let perimeter = length(circle[0])
        XCTAssertEqual(perimeter, 2 * .pi * r, accuracy: 2 * .pi * r * 3e-4)
        for (pattern, phase) in [([10.0, 10.0], 0.0), ([7, 3, 1, 3], 2.5), ([25, 5], 17)] {
            let p = DashPattern(pattern, phase: phase)!
            let pieces = Dasher.dash(circle, pattern: p)
            // Expected: the "on" measure of the pattern over [phase, phase + perimeter).
            var on = 0.0, pos = -p.phase, i = 0
            while pos < perimeter {
                let end = pos + p.intervals[i]
                if i % 2 == 0 { on += max(0, min(end, perimeter) - max(pos, 0)) }
                pos = end; i = (i + 1) % p.intervals.count
            }
            let measured = PathMeasure(path(pieces)).length
            XCTAssertEqual(measured, on, accuracy: 1e-6, "\(pattern) phase \(phase)")
            XCTAssertEqual(measured / perimeter, on / perimeter, accuracy: 1e-9)
        }
    }

    func testDashThroughTheClosingPointIsOnePiece() {
        // Perimeter 2π·50 ≈ 314.16 ≡ 14.16 (mod 20): phase 8 is on at the start (2 left)
        // and on at the end (2.16 in), so the dash over the start point is one piece.
        let c = Path.circle(center: Point(50, 50), radius: 50).flattened(tolerance: 0.001)
        let perimeter = length(c[0])
        let pieces = dashes(c, [10, 10], phase: 8)
        let tail = (perimeter + 8).truncatingRemainder(dividingBy: 20)
        let joined = pieces.last!
        XCTAssertEqual(length(joined), tail + 2, accuracy: 1e-6)
        XCTAssertTrue(joined.points.contains(Point(100, 50)), "passes through the start point")
        // No piece begins or ends at the start point (100, 50): no caps there.
        for p in pieces {
            XCTAssertGreaterThan((p.points.first! - Point(100, 50)).length, 1)
            XCTAssertGreaterThan((p.points.last! - Point(100, 50)).length, 1)
        }
        XCTAssertEqual(pieces.count, 16)
    }

    func testPatternCoveringAClosedPolylineKeepsItClosed() {
        let square = [Polyline(points: [Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)], closed: true)]
        let pieces = dashes(square, [100, 5])
        XCTAssertEqual(pieces, [Polyline(points: square[0].points, closed: true)])
        let style = StrokeStyle(width: 2, dash: [100, 5])
        XCTAssertEqual(Stroker.stroke(square, style: style), Stroker.stroke(square, style: StrokeStyle(width: 2)))
    }

    func testZeroLengthDashesAreDotsWithRoundCaps() {
        let l = [Polyline(points: [Point(0, 0), Point(50, 0)], closed: false)]
        let pieces = dashes(l, [0, 10])
        XCTAssertEqual(pieces.map(\.points), [0, 10, 20, 30, 40, 50].map { [Point(Double($0), 0)] })
        let dots = Stroker.stroke(l, style: StrokeStyle(width: 4, cap: .round, dash: [0, 10]), tolerance: 0.001)
        XCTAssertEqual(dots.count, 6)
        for (i, d) in dots.enumerated() {
            XCTAssertEqual(abs(signedArea([d])), .pi * 4, accuracy: 0.01)
            XCTAssertEqual(winding(Point(Double(i) * 10 + 1.5, 0.5), dots), 1)
        }
        XCTAssertEqual(winding(Point(5, 0), dots), 0, "gaps stay empty")
        XCTAssertTrue(Stroker.stroke(l, style: StrokeStyle(width: 4, cap: .butt, dash: [0, 10])).isEmpty)
    }

    func testSquareDotsFollowThePath() {
        let diagonal = [Polyline(points: [Point(0, 0), Point(30, 30)], closed: false)]
        let dots = Stroker.stroke(diagonal, style: StrokeStyle(width: 2, cap: .square, dash: [0, 100]))
        XCTAssertEqual(dots.count, 1)
        XCTAssertEqual(abs(signedArea(dots)), 4, accuracy: 1e-9)
        // A square turned 45°: its corners lie on the axes at distance √2 from the dot.
        for q in dots[0].points {
            XCTAssertEqual(q.length, 2.0.squareRoot(), accuracy: 1e-9)
            XCTAssertEqual(min(abs(q.x), abs(q.y)), 0, accuracy: 1e-9)
        }
    }

    func testDashedStrokeAreaAndCaps() {
        let butt = Stroker.stroke(line, style: StrokeStyle(width: 4, dash: [10, 5]))
        XCTAssertEqual(butt.count, 7)
        XCTAssertEqual(butt.reduce(0) { $0 + abs(signedArea([$1])) }, 70 * 4, accuracy: 1e-9)
        XCTAssertEqual(winding(Point(12, 0), butt), 0)
        // Square caps reach half the width past each dash end, into the gap.
        let square = Stroker.stroke(line, style: StrokeStyle(width: 4, cap: .square, dash: [10, 5]))
        XCTAssertEqual(abs(winding(Point(11.5, 0), square)), 1)
        XCTAssertEqual(winding(Point(12.5, 0), square), 0)
    }

    func testTooManyPiecesDrawsSolid() {
        let long = [Polyline(points: [Point(0, 0), Point(1e7, 0)], closed: false)]
        let pattern = DashPattern([0.001, 0.001])!
        XCTAssertGreaterThan(Dasher.pieceBound(long, pattern), Double(Dasher.maxPieces))
        XCTAssertEqual(Dasher.dash(long, pattern: pattern), long)
        let style = StrokeStyle(width: 2, dash: [0.001, 0.001])
        XCTAssertEqual(Stroker.stroke(long, style: style), Stroker.stroke(long, style: StrokeStyle(width: 2)))
        // Well under the bound it does dash (the line ends mid-gap, away from rounding).
        let ok = Dasher.dash([Polyline(points: [Point(0, 0), Point(999.999, 0)], closed: false)], pattern: DashPattern([0.002, 0.002])!)
        XCTAssertEqual(ok.count, 250_000)
        // Wide round caps cost many vertices each, so the stroker's bound is tighter.
        let wide = StrokeStyle(width: 2000, cap: .round, dash: [1, 1])
        let out = Stroker.stroke([Polyline(points: [Point(0, 0), Point(100_000, 0)], closed: false)], style: wide, tolerance: 0.01)
        XCTAssertEqual(out.count, 1, "stroked solid")
    }
}
