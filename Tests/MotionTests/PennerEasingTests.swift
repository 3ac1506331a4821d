import XCTest
#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif
import Motion

// The easings.net formulas, written here again from the published page with
// glibc's pow, sin, cos and sqrt, sharing no code with Motion's (which use
// their own elementary functions and multiply out the powers).
enum EasingsNet {
    static let pi = Double.pi

    static func formula(_ name: String) -> (Double) -> Double {
        switch name {
        case "easeInSine": return { 1 - cos(($0 * pi) / 2) }
        case "easeOutSine": return { sin(($0 * pi) / 2) }
        case "easeInOutSine": return { -(cos(pi * $0) - 1) / 2 }
        case "easeInQuad": return { $0 * $0 }
        case "easeOutQuad": return { 1 - (1 - $0) * (1 - $0) }
        case "easeInOutQuad": return { $0 < 0.5 ? 2 * $0 * $0 : 1 - pow(-2 * $0 + 2, 2) / 2 }
        case "easeInCubic": return { $0 * $0 * $0 }
        case "easeOutCubic": return { 1 - pow(1 - $0, 3) }
        case "easeInOutCubic": return { $0 < 0.5 ? 4 * $0 * $0 * $0 : 1 - pow(-2 * $0 + 2, 3) / 2 }
        case "easeInQuart": return { $0 * $0 * $0 * $0 }
        case "easeOutQuart": return { 1 - pow(1 - $0, 4) }
        case "easeInOutQuart": return { $0 < 0.5 ? 8 * $0 * $0 * $0 * $0 : 1 - pow(-2 * $0 + 2, 4) / 2 }
        case "easeInQuint": return { $0 * $0 * $0 * $0 * $0 }
        case "easeOutQuint": return { 1 - pow(1 - $0, 5) }
        case "easeInOutQuint": return { $0 < 0.5 ? 16 * $0 * $0 * $0 * $0 * $0 : 1 - pow(-2 * $0 + 2, 5) / 2 }
        case "easeInExpo": return { $0 == 0 ? 0 : pow(2, 10 * $0 - 10) }
        case "easeOutExpo": return { $0 == 1 ? 1 : 1 - pow(2, -10 * $0) }
        case "easeInOutExpo":
            return { x in
                x == 0 ? 0 : x == 1 ? 1 : x < 0.5 ? pow(2, 20 * x - 10) / 2 : (2 - pow(2, -20 * x + 10)) / 2
            }
        case "easeInCirc": return { 1 - sqrt(1 - pow($0, 2)) }
        case "easeOutCirc": return { sqrt(1 - pow($0 - 1, 2)) }
        case "easeInOutCirc":
            return { x in
                x < 0.5 ? (1 - sqrt(1 - pow(2 * x, 2))) / 2 : (sqrt(1 - pow(-2 * x + 2, 2)) + 1) / 2
            }
        case "easeInBack":
            return { x in
                let c1 = 1.70158, c3 = c1 + 1
                return c3 * x * x * x - c1 * x * x
            }
        case "easeOutBack":
            return { x in
                let c1 = 1.70158, c3 = c1 + 1
                return 1 + c3 * pow(x - 1, 3) + c1 * pow(x - 1, 2)
            }
        case "easeInOutBack":
            return { x in
                let c1 = 1.70158, c2 = c1 * 1.525
                return x < 0.5
                    ? (pow(2 * x, 2) * ((c2 + 1) * 2 * x - c2)) / 2
                    : (pow(2 * x - 2, 2) * ((c2 + 1) * (x * 2 - 2) + c2) + 2) / 2
            }
        case "easeInElastic":
            return { x in
                let c4 = (2 * pi) / 3
                return x == 0 ? 0 : x == 1 ? 1 : -pow(2, 10 * x - 10) * sin((x * 10 - 10.75) * c4)
            }
        case "easeOutElastic":
            return { x in
                let c4 = (2 * pi) / 3
                return x == 0 ? 0 : x == 1 ? 1 : pow(2, -10 * x) * sin((x * 10 - 0.75) * c4) + 1
            }
        case "easeInOutElastic":
            return { x in
                let c5 = (2 * pi) / 4.5
                if x == 0 { return 0 }
                if x == 1 { return 1 }
                return x < 0.5
                    ? -(pow(2, 20 * x - 10) * sin((20 * x - 11.125) * c5)) / 2
                    : (pow(2, -20 * x + 10) * sin((20 * x - 11.125) * c5)) / 2 + 1
            }
        case "easeOutBounce": return bounceOut
        case "easeInBounce": return { 1 - bounceOut(1 - $0) }
        case "easeInOutBounce":
            return { x in x < 0.5 ? (1 - bounceOut(1 - 2 * x)) / 2 : (1 + bounceOut(2 * x - 1)) / 2 }
        default: fatalError("no formula for \(name)")
        }
    }

    static func bounceOut(_ x0: Double) -> Double {
        let n1 = 7.5625, d1 = 2.75
        var x = x0
        if x < 1 / d1 {
            return n1 * x * x
        } else if x < 2 / d1 {
            x -= 1.5 / d1
            return n1 * x * x + 0.75
        } else if x < 2.5 / d1 {
            x -= 2.25 / d1
            return n1 * x * x + 0.9375
        } else {
            x -= 2.625 / d1
            return n1 * x * x + 0.984375
        }
    }
}

final class PennerEasingTests: XCTestCase {
    static let families = ["Sine", "Quad", "Cubic", "Quart", "Quint", "Expo", "Circ", "Back", "Elastic", "Bounce"]
    static let pennerNames = families.flatMap { f in ["easeIn" + f, "easeOut" + f, "easeInOut" + f] }

    func testEveryPennerNameResolves() {
        XCTAssertEqual(PennerEasingTests.pennerNames.count, 30)
        for name in PennerEasingTests.pennerNames {
            XCTAssertNotNil(Easing(name: name), name)
            XCTAssertTrue(Easing.names.contains(name), name)
        }
        XCTAssertEqual(Easing(name: "easeInOutSine"), .penner(.sine, .inOut))
        XCTAssertEqual(Easing(name: "easeOutBounce"), .penner(.bounce, .out))
        XCTAssertEqual(Easing(name: "easeInExpo"), .penner(.expo, .in))
    }

    func testEndpointsAreExact() {
        for name in PennerEasingTests.pennerNames {
            let easing = Easing(name: name)!
            XCTAssertEqual(easing(0), 0, name)
            XCTAssertEqual(easing(1), 1, name)
            XCTAssertEqual(easing(-1), 0, name)
            XCTAssertEqual(easing(2), 1, name)
        }
    }

    /// 999 interior points, including 0.5 where the inOut forms switch halves.
    func testMatchesPublishedFormulas() {
        for name in PennerEasingTests.pennerNames {
            let easing = Easing(name: name)!, reference = EasingsNet.formula(name)
            var worst = 0.0, worstAt = 0.0
            for i in 1..<1000 {
                let x = Double(i) / 1000
                let error = abs(easing(x) - reference(x))
                if error > worst { worst = error; worstAt = x }
            }
            XCTAssertLessThan(worst, 1e-14, "\(name) at \(worstAt)")
        }
    }

    /// A few values worked out by hand, so the reference itself is checked.
    func testHandComputedValues() {
        XCTAssertEqual(Easing(name: "easeInQuad")!(0.5), 0.25)
        XCTAssertEqual(Easing(name: "easeOutCubic")!(0.5), 0.875)
        XCTAssertEqual(Easing(name: "easeInOutQuint")!(0.25), 16 * pow(0.25, 5))
        XCTAssertEqual(Easing(name: "easeInExpo")!(0.5), 1.0 / 32)
        XCTAssertEqual(Easing(name: "easeInOutExpo")!(0.5), 0.5)
        XCTAssertEqual(Easing(name: "easeOutSine")!(1.0 / 3), 0.5, accuracy: 1e-15)
        XCTAssertEqual(Easing(name: "easeInOutSine")!(0.5), 0.5, accuracy: 1e-15)
        XCTAssertEqual(Easing(name: "easeOutCirc")!(0.5), 0.75.squareRoot(), accuracy: 1e-15)
        XCTAssertEqual(Easing(name: "easeOutBounce")!(1 / 2.75), 1, accuracy: 1e-15)
        XCTAssertEqual(Easing(name: "easeOutBounce")!(2 / 2.75), 1, accuracy: 1e-15)
        // easeInBack dips to its minimum −0.1 (Penner's 10 % overshoot) at x = 2 c1 / (3 c3).
        let c1 = 1.70158, c3 = c1 + 1
        XCTAssertEqual(Easing(name: "easeInBack")!(2 * c1 / (3 * c3)), -0.1, accuracy: 1e-4)
    }

    func testOutIsInTurnedHalfATurn() {
        for family in EasingFamily.allCases where family != .elastic {
            for i in 0...200 {
                let x = Double(i) / 200
                let out = Easing.penner(family, .out)(x), inverse = 1 - Easing.penner(family, .in)(1 - x)
                XCTAssertEqual(out, inverse, accuracy: 1e-12, "\(family) at \(x)")
            }
        }
    }

    func testMonotonicFamiliesAreMonotonic() {
        let monotonic: [EasingFamily] = [.sine, .quad, .cubic, .quart, .quint, .expo, .circ]
        for family in monotonic {
            for direction in EasingDirection.allCases {
                let easing = Easing.penner(family, direction)
                var previous = easing(0)
                for i in 1...10_000 {
                    let value = easing(Double(i) / 10_000)
                    XCTAssertGreaterThanOrEqual(value, previous, "\(easing) at \(Double(i) / 10_000)")
                    previous = value
                }
            }
        }
    }

    /// back, elastic and bounce are not monotonic: each turns back somewhere.
    func testOscillatingFamiliesTurnBack() {
        for family in [EasingFamily.back, .elastic, .bounce] {
            for direction in EasingDirection.allCases {
                let easing = Easing.penner(family, direction)
                let values = (0...10_000).map { easing(Double($0) / 10_000) }
                let decreases = zip(values, values.dropFirst()).contains { $1 < $0 }
                XCTAssertTrue(decreases, "\(easing)")
            }
        }
        // back and elastic leave 0...1; bounce stays inside.
        XCTAssertLessThan((0...1000).map { Easing.penner(.back, .in)(Double($0) / 1000) }.min()!, 0)
        XCTAssertGreaterThan((0...1000).map { Easing.penner(.elastic, .out)(Double($0) / 1000) }.max()!, 1)
        for i in 0...1000 {
            let v = Easing.penner(.bounce, .out)(Double(i) / 1000)
            XCTAssertTrue((0...1).contains(v), "bounce at \(Double(i) / 1000)")
        }
    }

    /// easings.net's expo special cases: without them 2^(10·0 − 10) would be 1/1024.
    func testExpoSpecialCases() {
        XCTAssertEqual(Easing.penner(.expo, .in)(0), 0)
        XCTAssertEqual(Easing.penner(.expo, .out)(1), 1)
        XCTAssertEqual(Easing.penner(.expo, .in)(1e-12), pow(2, 1e-11 - 10), accuracy: 1e-18)
        XCTAssertEqual(Easing.penner(.expo, .out)(1 - 1e-12), 1 - pow(2, -10 + 1e-11), accuracy: 1e-15)
    }
}
