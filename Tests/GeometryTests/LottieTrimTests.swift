import XCTest
@testable import Geometry

final class LottieTrimTests: XCTestCase {
    let circle = Path.circle(center: Point(50, 50), radius: 40)

    /// An open S-curve with a straight tail.
    var open: Path {
        var p = Path()
        p.move(to: Point(0, 0))
        p.cubic(to: Point(200, 0), control1: Point(50, 150), control2: Point(150, -150))
        p.line(to: Point(200, 100))
        return p
    }

    func testOffsetWrapsTheWindow() {
        let m = PathMeasure(circle)
        let L = m.length
        // All of these show [0.8, 1] ∪ [0, 0.2] of the circle.
        let variants = [m.trimmed(start: 0.3, end: 0.7, offset: 0.5),
                        m.trimmed(start: 0, end: 0.4, offset: 0.8),
                        m.trimmed(start: 0.3, end: 0.7, offset: -0.5),
                        m.trimmed(start: 0.3, end: 0.7, offset: 1.5),
                        m.trimmed(start: 0.7, end: 0.3, offset: 0.5)]   // start > end: swapped
        for (i, t) in variants.enumerated() {
            let tm = PathMeasure(t)
            XCTAssertEqual(tm.length, 0.4 * L, accuracy: L * 1e-4, "variant \(i)")
            XCTAssertPointEqual(tm.position(atDistance: 0), m.position(atDistance: 0.8 * L)!, accuracy: 1e-6, "variant \(i)")
            XCTAssertPointEqual(t.currentPoint, m.position(atDistance: 0.2 * L)!, accuracy: 1e-6, "variant \(i)")
            XCTAssertEqual(subpathCount(t), 1, "variant \(i)")
        }
    }

    func testClosedCircleTrimmedAcrossItsStartIsOneContinuousSubpath() {
        let m = PathMeasure(circle)
        let t = m.trimmed(start: 0.9, end: 1.0, offset: 0.05)   // [0.95, 1.05]
        XCTAssertEqual(subpathCount(t), 1)
        XCTAssertNotEqual(t.elements.last, .close)
        let polys = t.flattened(tolerance: 0.01)
        XCTAssertEqual(polys.count, 1)
        XCTAssertFalse(polys[0].closed)
        // The circle's start (90, 50) is an interior vertex of that one polyline, so a
        // stroke has no caps there: its butt-capped outline covers both sides of it.
        let start = Point(90, 50)
        let idx = polys[0].points.firstIndex(of: start)
        XCTAssertNotNil(idx)
        XCTAssertTrue(idx! > 0 && idx! < polys[0].points.count - 1)
        let outline = Stroker.stroke(polys, style: StrokeStyle(width: 6, cap: .butt), tolerance: 0.01)
        XCTAssertEqual(outline.count, 1)
        for q in [Point(92.9, 50), Point(87.1, 50), Point(92.9, 49.5), Point(87.1, 50.5)] {
            XCTAssertEqual(winding(q, outline) != 0, true, "\(q)")
        }
        XCTAssertEqual(PathMeasure(t).length, 0.1 * m.length, accuracy: m.length * 1e-4)
        // The same across a rectangle's closing line: one piece around the corner at (0, 0).
        let rect = PathMeasure(Path.rect(Rect(x: 0, y: 0, width: 30, height: 10)))
        let r = rect.trimmed(start: 0, end: 0.25, offset: 0.875)   // from 70 to 10 of 80
        XCTAssertEqual(r.elements, [.move(Point(0, 10)), .line(Point(0, 0)), .line(Point(10, 0))])
    }

    func testTrimmedLengthIsTheFraction() {
        for path in [circle, open, Path.roundedRect(Rect(x: 0, y: 0, width: 100, height: 60), cornerRadius: 12, style: .continuous)] {
            let m = PathMeasure(path)
            for (s, e, o) in [(0.0, 0.25, 0.0), (0.1, 0.6, 0.7), (0.5, 0.9, 0.3), (0.2, 0.21, 0.795), (0.0, 0.999, 0.5), (0.4, 0.6, -2.25)] {
                let t = PathMeasure(m.trimmed(start: s, end: e, offset: o))
                XCTAssertEqual(t.length, (e - s) * m.length, accuracy: m.length * 1e-4, "\(s) \(e) \(o)")
            }
        }
    }

    func testOpenPathWrapsToItsStartAsASeparatePiece() {
        let m = PathMeasure(open)
        let L = m.length
        let t = m.trimmed(start: 0.7, end: 0.9, offset: 0.2)   // [0.9, 1] ∪ [0, 0.1]
        XCTAssertEqual(subpathCount(t), 2)
        let pieces = t.flattened(tolerance: 0.01)
        XCTAssertEqual(pieces.count, 2)
        XCTAssertPointEqual(pieces[0].points.first, m.position(atDistance: 0.9 * L)!, accuracy: 1e-6)
        XCTAssertPointEqual(pieces[0].points.last, Point(200, 100), accuracy: 1e-9)
        XCTAssertPointEqual(pieces[1].points.first, Point(0, 0), accuracy: 1e-9)
        XCTAssertPointEqual(pieces[1].points.last, m.position(atDistance: 0.1 * L)!, accuracy: 1e-6)
        XCTAssertEqual(PathMeasure(t).length, 0.2 * L, accuracy: L * 1e-4)
    }

    func testSeveralClosedSubpathsWrapWithoutJoining() {
        var p = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10))
        p.append(contentsOf: Path.rect(Rect(x: 100, y: 0, width: 10, height: 10)))
        let m = PathMeasure(p)
        XCTAssertEqual(m.length, 80)
        let t = m.trimmed(start: 0, end: 0.25, offset: 0.875)   // [70, 80] ∪ [0, 10]
        XCTAssertEqual(subpathCount(t), 2)
        XCTAssertEqual(t.elements.first, .move(Point(100, 10)))
        XCTAssertEqual(t.currentPoint, Point(10, 0))
    }

    func testWholeAndEmptyWindows() {
        let m = PathMeasure(circle)
        let whole = m.trimmed(start: 0, end: 1, offset: 0.37)
        XCTAssertEqual(whole.elements.last, .close, "a whole closed path keeps its joins")
        XCTAssertEqual(subpathCount(whole), 1)
        XCTAssertEqual(PathMeasure(whole).length, m.length, accuracy: 1e-9)
        XCTAssertTrue(m.trimmed(start: 0.4, end: 0.4, offset: 0.3).isEmpty)
        XCTAssertTrue(m.trimmed(start: .nan, end: .nan, offset: .nan).isEmpty)
        XCTAssertEqual(PathMeasure(m.trimmed(start: -1, end: 0.5, offset: .infinity)).length, 0.5 * m.length, accuracy: 1e-6)
        XCTAssertTrue(PathMeasure(Path()).trimmed(start: 0, end: 1, offset: 0.5).isEmpty)
    }

    func testSwiftUITrimStillNeverWraps() {
        let m = PathMeasure(circle)
        let t = m.trimmed(from: 0.8, to: 1.2)   // clamped to [0.8, 1]
        XCTAssertEqual(PathMeasure(t).length, 0.2 * m.length, accuracy: m.length * 1e-4)
        XCTAssertPointEqual(t.currentPoint, Point(90, 50), accuracy: 1e-9)
        XCTAssertTrue(m.trimmed(from: 0.9, to: 0.1).isEmpty)
        // A whole circle, whose curves return to the start before the close, stays closed.
        XCTAssertEqual(m.trimmed(from: 0, to: 1).elements.last, .close)
    }
}
