import XCTest
@testable import Geometry

final class PathMeasureTests: XCTestCase {
    func testLengthOfLinesAndCircle() {
        var p = Path()
        p.move(to: Point(0, 0)); p.line(to: Point(30, 40)); p.line(to: Point(30, 0))
        XCTAssertEqual(PathMeasure(p).length, 90, accuracy: 1e-12)
        let c = Path.circle(center: Point(50, 50), radius: 40)
        // The cubic approximation of a circle is 0.027 % long at most.
        XCTAssertEqual(PathMeasure(c).length, 2 * .pi * 40, accuracy: 2 * .pi * 40 * 3e-4)
    }

    func testTrimmedLengthIsTheFractionAsked() {
        var p = Path()
        p.move(to: Point(0, 0))
        p.cubic(to: Point(200, 0), control1: Point(50, 150), control2: Point(150, -150))
        p.line(to: Point(200, 100))
        p.move(to: Point(0, 200)); p.cubic(to: Point(300, 200), control1: Point(100, 100), control2: Point(200, 300))
        let m = PathMeasure(p)
        for (a, b) in [(0.0, 0.5), (0.1, 0.9), (0.25, 0.3), (0.0, 1.0), (0.6, 0.61), (0.3, 0.8)] {
            let t = PathMeasure(m.trimmed(from: a, to: b))
            XCTAssertEqual(t.length, (b - a) * m.length, accuracy: m.length * 1e-4, "trim \(a)…\(b)")
        }
    }

    func testTrimEndsAtTheRightPoint() {
        var p = Path()
        p.move(to: Point(0, 0)); p.line(to: Point(100, 0)); p.line(to: Point(100, 100))
        let m = PathMeasure(p)
        let t = m.trimmed(from: 0, to: 0.75)
        XCTAssertEqual(t.currentPoint!.x, 100, accuracy: 1e-9)
        XCTAssertEqual(t.currentPoint!.y, 50, accuracy: 1e-9)
        XCTAssertEqual(m.position(atDistance: 150), Point(100, 50))
    }

    func testEmptyTrimDrawsNothing() {
        let m = PathMeasure(Path.circle(center: Point(0, 0), radius: 10))
        XCTAssertTrue(m.trimmed(from: 0, to: 0).isEmpty)
        XCTAssertTrue(m.trimmed(from: 0.7, to: 0.2).isEmpty)
        XCTAssertTrue(m.trimmed(from: .nan, to: .nan).isEmpty)
    }

    func testWholeClosedSubpathStaysClosed() {
        let m = PathMeasure(Path.rect(Rect(x: 0, y: 0, width: 10, height: 10)))
        let t = m.trimmed(from: 0, to: 1)
        XCTAssertEqual(t.elements.last, .close)
        let half = m.trimmed(from: 0, to: 0.5)
        XCTAssertNotEqual(half.elements.last, .close)
    }
}
