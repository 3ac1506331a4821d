import XCTest
import Motion

final class AnimatedValueTests: XCTestCase {
    let fade = Tween(from: 0, to: 1, animation: .easeInOut(duration: 1).delay(0.5))

    func testConstantIsTheSameAtEveryTime() {
        let value = AnimatedValue.constant(3)
        for t in [-1.0, 0, 0.5, 100] { XCTAssertEqual(value.value(at: t), 3) }
        XCTAssertEqual(value.endTime, 0)
        XCTAssertFalse(value.isAnimated)
        XCTAssertTrue(value.isConstant(between: -10, and: 10))
    }

    func testTweenCaseFollowsTween() {
        let value = AnimatedValue.tween(fade)
        for i in 0...40 {
            let t = Double(i) / 20
            XCTAssertEqual(value.value(at: t), fade.value(at: t))
        }
        XCTAssertEqual(value.endTime, 1.5)
        XCTAssertTrue(value.isAnimated)
    }

    func testTweenToSameValueIsNotAnimated() {
        let value = AnimatedValue.tween(Tween(from: 2, to: 2, animation: .linear(duration: 1)))
        XCTAssertFalse(value.isAnimated)
        XCTAssertTrue(value.isConstant(between: 0, and: 1))
        XCTAssertEqual(value.endTime, 1)
    }

    func testIsConstantOutsideActiveInterval() {
        let value = AnimatedValue.tween(fade)
        XCTAssertTrue(value.isConstant(between: -5, and: 0.5))
        XCTAssertTrue(value.isConstant(between: 1.5, and: 9))
        XCTAssertTrue(value.isConstant(between: 0.7, and: 0.6), "empty interval")
        XCTAssertTrue(value.isConstant(between: 0.8, and: 0.8), "one time")
        XCTAssertFalse(value.isConstant(between: 0, and: 0.51))
        XCTAssertFalse(value.isConstant(between: 1.49, and: 2))
        XCTAssertFalse(value.isConstant(between: 0.8, and: 0.8000001))
        XCTAssertFalse(value.isConstant(between: 0, and: 2))
        XCTAssertFalse(value.isConstant(between: .nan, and: 1))
    }

    /// A step changes at its start, where it already shows `to`.
    func testIsConstantAroundStep() {
        let value = AnimatedValue.tween(Tween(from: 0, to: 1, animation: .linear(duration: 0).delay(1)))
        XCTAssertTrue(value.isConstant(between: 0, and: 0.999))
        XCTAssertTrue(value.isConstant(between: 1, and: 2))
        XCTAssertFalse(value.isConstant(between: 0.5, and: 1))
    }

    /// Whenever isConstant says so, sampling the interval finds one value.
    func testIsConstantAgreesWithSampling() {
        let values: [AnimatedValue] = [
            .tween(fade), .tween(Tween(from: 0, to: 1, animation: .linear(duration: 0).delay(1))),
        ]
        let edges = [-1.0, 0, 0.5, 0.75, 1, 1.25, 1.5, 2]
        for value in values {
            for t0 in edges {
                for t1 in edges where t0 <= t1 {
                    let samples = (0...50).map { value.value(at: t0 + (t1 - t0) * Double($0) / 50) }
                    let sampledConstant = Set(samples).count == 1
                    if value.isConstant(between: t0, and: t1) {
                        XCTAssertTrue(sampledConstant, "\(value) [\(t0), \(t1)]")
                    } else {
                        XCTAssertFalse(sampledConstant, "\(value) [\(t0), \(t1)]")
                    }
                }
            }
        }
    }
}
