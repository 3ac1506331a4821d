import XCTest
import Motion

final class EasingParsingTests: XCTestCase {
    func testEveryNameParses() {
        for name in Easing.names { XCTAssertEqual(Easing.parse(name), Easing(name: name), name) }
        XCTAssertEqual(Easing.parse("  easeOutBounce "), .penner(.bounce, .out))
    }

    func testCSSKeywords() {
        XCTAssertEqual(Easing.parse("linear"), .linear)
        XCTAssertEqual(Easing.parse("ease"), .ease)
        XCTAssertEqual(Easing.parse("ease-in"), .easeIn)
        XCTAssertEqual(Easing.parse("ease-out"), .easeOut)
        XCTAssertEqual(Easing.parse("EASE-IN-OUT"), .easeInOut)
    }

    func testCubicBezier() {
        XCTAssertEqual(Easing.parse("cubic-bezier(0.25,0.1,0.25,1)"), .cubicBezier(0.25, 0.1, 0.25, 1))
        XCTAssertEqual(Easing.parse("cubic-bezier( .68 , -0.6, .32, 1.6 )"), .cubicBezier(0.68, -0.6, 0.32, 1.6))
        XCTAssertEqual(Easing.parse("cubic-bezier(0, 0, 1e0, 1E0)"), .cubicBezier(0, 0, 1, 1))
        for bad in ["cubic-bezier(1.1, 0, 0.5, 1)", "cubic-bezier(0.5, 0, -0.1, 1)", "cubic-bezier(0, 0, 1)",
                    "cubic-bezier(0, 0, 1, 1, 1)", "cubic-bezier(0, nan, 1, 1)", "cubic-bezier(0, inf, 1, 1)",
                    "cubic-bezier(0, 0x1, 1, 1)", "cubic-bezier(0,,1,1)", "cubic-bezier(0, 0, 1, 1"] {
            XCTAssertNil(Easing.parse(bad), bad)
        }
    }

    func testSteps() {
        XCTAssertEqual(Easing.parse("steps(4, jump-end)"), .steps(4, .jumpEnd))
        XCTAssertEqual(Easing.parse("steps(4)"), .steps(4, .jumpEnd))
        XCTAssertEqual(Easing.parse("steps(3, start)"), .steps(3, .jumpStart))
        XCTAssertEqual(Easing.parse("steps(3, end)"), .steps(3, .jumpEnd))
        XCTAssertEqual(Easing.parse("steps(2, jump-none)"), .steps(2, .jumpNone))
        XCTAssertEqual(Easing.parse("Steps(5, Jump-Both)"), .steps(5, .jumpBoth))
        for bad in ["steps(0)", "steps(1, jump-none)", "steps(-2)", "steps(2.5)", "steps(4, middle)",
                    "steps()", "steps(4, jump-end, 1)"] {
            XCTAssertNil(Easing.parse(bad), bad)
        }
    }

    func testLinearFunction() {
        let parsed = Easing.parse("linear(0, 0.25 75%, 1)")
        let built = PiecewiseLinear([.init(0), .init(0.25, at: 0.75), .init(1)]).map { Easing.piecewiseLinear($0) }
        XCTAssertEqual(parsed, built)
        XCTAssertEqual(Easing.parse("linear(0, 75% 0.25, 1)"), built, "the percentage may come first")
        for bad in ["linear()", "linear(0.5)", "linear(0% 0 100%)", "linear(0,)", "linear(0, 1 50% 60% 70%)",
                    "linear(0, 1 %)", "linear(0, a)"] {
            XCTAssertNil(Easing.parse(bad), bad)
        }
    }

    func testSprings() {
        XCTAssertEqual(Easing.parse("spring(duration: 0.5, bounce: 0.3)"), .spring(Spring(duration: 0.5, bounce: 0.3)))
        XCTAssertEqual(Easing.parse("spring(bounce: 0.3)"), .spring(.bouncy))
        XCTAssertEqual(Easing.parse("spring()"), .spring(.smooth))
        XCTAssertEqual(Easing.parse("spring(response: 0.4, dampingFraction: 0.6)"),
                       .spring(Spring(response: 0.4, dampingFraction: 0.6)))
        XCTAssertEqual(Easing.parse("interpolatingSpring(stiffness: 170, damping: 15)"),
                       .spring(Spring(stiffness: 170, damping: 15)))
        XCTAssertEqual(Easing.parse("interpolatingSpring(mass: 2, stiffness: 100, damping: 10, initialVelocity: 3)"),
                       .spring(Spring(mass: 2, stiffness: 100, damping: 10, initialVelocity: 3)))
        for bad in ["spring(duration: 0.5, response: 0.5)", "spring(bounce 0.3)", "spring(bounce: 0.3, bounce: 0.2)",
                    "interpolatingSpring(stiffness: 170)", "spring(speed: 2)", "Spring(bounce: 0.3)"] {
            XCTAssertNil(Easing.parse(bad), bad)
        }
    }

    func testGarbageIsRejected() {
        for bad in ["", " ", "bounce", "cubic-bezier", "linear(0, 1))", "(0, 1)", "steps(4) x", "easeinout"] {
            XCTAssertNil(Easing.parse(bad), bad)
        }
    }
}
