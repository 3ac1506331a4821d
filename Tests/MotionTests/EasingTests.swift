import XCTest
import Motion

final class EasingTests: XCTestCase {
    static let named: [Easing] = [.linear, .easeIn, .easeOut, .easeInOut]
    static let all: [Easing] = named + [
        .ease, .cubicBezier(0.68, -0.6, 0.32, 1.6), .cubicBezier(1, 0, 0, 1),
        .penner(.elastic, .inOut), .penner(.back, .out), .spring(.bouncy), .spring(Spring(stiffness: 90, damping: 40)),
        .steps(3, .jumpEnd), .steps(3, .jumpNone), Easing.parse("linear(0, 0.3 20%, 1)")!,
    ]

    func testEveryEasingHasExactEndpoints() {
        for easing in EasingTests.all {
            XCTAssertEqual(easing(0), 0, "\(easing)")
            XCTAssertEqual(easing(1), 1, "\(easing)")
        }
    }

    /// Every easing reachable by name starts at exactly 0 and ends at exactly 1.
    func testEveryNamedEasingHasExactEndpoints() {
        for name in Easing.names {
            let easing = Easing(name: name)!
            XCTAssertEqual(easing(0), 0, name)
            XCTAssertEqual(easing(1), 1, name)
            XCTAssertEqual(easing(1e-300) - easing(0), easing(1e-300), name)
        }
    }

    /// A critically damped spring from rest (smooth) approaches 1 without
    /// turning back, so its normalized easing is monotonic; bouncy is not.
    func testSmoothSpringIsMonotonicAndBouncyIsNot() {
        let smooth = Easing.spring(.smooth), bouncy = Easing.spring(.bouncy)
        let smoothValues = (0...5000).map { smooth(Double($0) / 5000) }
        let bouncyValues = (0...5000).map { bouncy(Double($0) / 5000) }
        XCTAssertFalse(zip(smoothValues, smoothValues.dropFirst()).contains { $1 < $0 })
        XCTAssertTrue(zip(bouncyValues, bouncyValues.dropFirst()).contains { $1 < $0 })
    }

    func testInputIsClampedToUnitInterval() {
        for easing in EasingTests.all {
            XCTAssertEqual(easing(-0.5), 0, "\(easing)")
            XCTAssertEqual(easing(-.infinity), 0, "\(easing)")
            XCTAssertEqual(easing(.nan), 0, "\(easing)")
            XCTAssertEqual(easing(1.5), 1, "\(easing)")
            XCTAssertEqual(easing(.infinity), 1, "\(easing)")
        }
    }

    func testEaseInOutIsExactlyHalfAtHalf() {
        XCTAssertEqual(Easing.easeInOut(0.5), 0.5, accuracy: 1e-12)
    }

    /// easeInOut is symmetric about (0.5, 0.5).
    func testEaseInOutIsPointSymmetric() {
        for i in 0...1000 {
            let x = Double(i) / 1000
            XCTAssertEqual(Easing.easeInOut(x) + Easing.easeInOut(1 - x), 1, accuracy: 1e-6, "x = \(x)")
        }
    }

    /// easeOut's curve is easeIn's turned half a turn about (0.5, 0.5).
    func testEaseOutMirrorsEaseIn() {
        for i in 0...1000 {
            let x = Double(i) / 1000
            XCTAssertEqual(Easing.easeOut(x), 1 - Easing.easeIn(1 - x), accuracy: 1e-6, "x = \(x)")
        }
    }

    func testNamedCurvesAreMonotonicNonDecreasing() {
        for easing in EasingTests.named {
            var previous = easing(0)
            for i in 1...1000 {
                let value = easing(Double(i) / 1000)
                XCTAssertGreaterThanOrEqual(value, previous, "\(easing) at \(Double(i) / 1000)")
                previous = value
            }
        }
    }

    func testNamedCurvesUseSwiftUIControlPoints() {
        for i in 0...100 {
            let x = Double(i) / 100
            XCTAssertEqual(Easing.linear(x), x)
            XCTAssertEqual(Easing.easeIn(x), referenceBezier(0.42, 0, 1, 1, at: x), accuracy: 1e-6)
            XCTAssertEqual(Easing.easeOut(x), referenceBezier(0, 0, 0.58, 1, at: x), accuracy: 1e-6)
            XCTAssertEqual(Easing.easeInOut(x), referenceBezier(0.42, 0, 0.58, 1, at: x), accuracy: 1e-6)
            XCTAssertEqual(Easing.ease(x), referenceBezier(0.25, 0.1, 0.25, 1, at: x), accuracy: 1e-6)
        }
    }

    func testCubicBezierCaseMatchesCubicBezierType() {
        let easing = Easing.cubicBezier(0.3, 0.2, 0.1, 0.9)
        let curve = CubicBezier(0.3, 0.2, 0.1, 0.9)
        for i in 0...100 {
            XCTAssertEqual(easing(Double(i) / 100), curve(Double(i) / 100))
        }
    }

    func testNamesRoundTrip() {
        XCTAssertEqual(Array(Easing.names.prefix(8)),
                       ["linear", "ease", "easeIn", "easeOut", "easeInOut", "easeInSine", "easeOutSine", "easeInOutSine"])
        XCTAssertEqual(Array(Easing.names.suffix(3)), ["smooth", "snappy", "bouncy"])
        XCTAssertEqual(Easing.names.count, 5 + 30 + 3)
        XCTAssertEqual(Set(Easing.names).count, Easing.names.count)
        XCTAssertEqual(Easing(name: "bouncy"), .spring(.bouncy))
        XCTAssertEqual(Easing(name: "linear"), .linear)
        XCTAssertEqual(Easing(name: "easeIn"), .easeIn)
        XCTAssertEqual(Easing(name: "easeOut"), .easeOut)
        XCTAssertEqual(Easing(name: "easeInOut"), .easeInOut)
        XCTAssertEqual(Easing(name: "ease"), .cubicBezier(0.25, 0.1, 0.25, 1))
        for name in Easing.names { XCTAssertNotNil(Easing(name: name), name) }
    }

    func testUnknownNamesAreRejected() {
        for name in ["", "EaseIn", "ease-in", "easeinout", "spring", " linear"] {
            XCTAssertNil(Easing(name: name), name)
        }
    }

    func testCasesCompareByHowTheyAreWritten() {
        XCTAssertEqual(Easing.cubicBezier(0.42, 0, 1, 1), .cubicBezier(0.42, 0, 1, 1))
        XCTAssertNotEqual(Easing.easeIn, .cubicBezier(0.42, 0, 1, 1))
        XCTAssertEqual(Set<Easing>([.easeIn, .easeIn, .linear]).count, 2)
    }
}
