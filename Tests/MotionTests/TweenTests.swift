import XCTest
import Motion

final class TweenTests: XCTestCase {
    /// from + (to - from) * 1 does not give `to` back for these values
    /// (1 - 1e16 rounds to -1e16), so the exact endpoints need the special case.
    func testEndpointsAreExactWhereInterpolationWouldRound() {
        let from = 1e16, to = 1.0
        XCTAssertNotEqual(from + (to - from) * 1, to)
        let tween = Tween(from: from, to: to, animation: .linear(duration: 1).delay(1))
        XCTAssertEqual(tween.value(at: 0), from)
        XCTAssertEqual(tween.value(at: 1), from)
        XCTAssertEqual(tween.value(at: 2), to)
        XCTAssertEqual(tween.value(at: 50), to)
    }

    func testEndpointsAreExactForOrdinaryValues() {
        let tween = Tween(from: 0.1, to: 0.7, animation: .easeInOut(duration: 0.8).delay(0.2))
        XCTAssertEqual(tween.value(at: 0.2), 0.1)
        XCTAssertEqual(tween.value(at: 1.0), 0.7)
    }

    func testValueInterpolatesByProgress() {
        let tween = Tween(from: 10, to: 20, animation: .easeInOut(duration: 0.8).delay(0.2))
        XCTAssertEqual(tween.value(at: 0.6), 15, accuracy: 1e-8)
        let linear = Tween(from: -4, to: 4, animation: .linear(duration: 2))
        XCTAssertEqual(linear.value(at: 0.5), -2)
        XCTAssertEqual(linear.value(at: 1.5), 2)
    }

    /// A curve that overshoots takes the value past `to` and back.
    func testOvershootLeavesRange() {
        let tween = Tween(from: 0, to: 100, animation: .timingCurve(0.68, -0.6, 0.32, 1.6, duration: 1))
        let values = (0...100).map { tween.value(at: Double($0) / 100) }
        XCTAssertLessThan(values.min()!, 0)
        XCTAssertGreaterThan(values.max()!, 100)
        XCTAssertEqual(values.last, 100)
    }
}
