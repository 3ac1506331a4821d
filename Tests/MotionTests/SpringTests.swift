import XCTest
import Motion

/// x'' = (−k (x − 1) − c x') / m from x(0) = 0, x'(0) = v0, integrated with
/// classical Runge-Kutta at a step of 1e-5 s: a reference that shares nothing
/// with Spring's closed form (its error is below 1e-12 at these stiffnesses).
func integratedSpring(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double,
                      times: [Double]) -> [Double] {
    let h = 1e-5
    var x = 0.0, v = initialVelocity, steps = 0
    func accel(_ x: Double, _ v: Double) -> Double { (-stiffness * (x - 1) - damping * v) / mass }
    var result: [Double] = []
    for target in times {
        // Count steps rather than add up h, so no step is lost to rounding.
        while steps < Int((target / h).rounded()) {
            let k1x = v, k1v = accel(x, v)
            let k2x = v + h / 2 * k1v, k2v = accel(x + h / 2 * k1x, v + h / 2 * k1v)
            let k3x = v + h / 2 * k2v, k3v = accel(x + h / 2 * k2x, v + h / 2 * k2v)
            let k4x = v + h * k3v, k4v = accel(x + h * k3x, v + h * k3v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            steps += 1
        }
        result.append(x)
    }
    return result
}

final class SpringTests: XCTestCase {
    /// Springs across the regimes, with and without initial velocity.
    static let springs: [Spring] = [
        .smooth, .snappy, .bouncy,
        Spring(response: 0.5, dampingFraction: 0.825),
        Spring(duration: 0.8, bounce: 0.9),
        Spring(duration: 0.5, bounce: -0.5),
        Spring(stiffness: 170, damping: 15),
        Spring(mass: 3, stiffness: 200, damping: 10, initialVelocity: 4),
        Spring(stiffness: 100, damping: 20),  // critically damped exactly: c² = 4km
        Spring(stiffness: 100, damping: 20, initialVelocity: 12),
        Spring(stiffness: 100, damping: 20, initialVelocity: -5),
        Spring(stiffness: 100, damping: 20 * (1 - 1e-9)),
        Spring(stiffness: 100, damping: 20 * (1 + 1e-9)),
        Spring(stiffness: 100, damping: 60, initialVelocity: 30),
        Spring(stiffness: 100, damping: 60, initialVelocity: -30),
        Spring(stiffness: 50, damping: 2, initialVelocity: -10),
        Spring(stiffness: 400, damping: 5, initialVelocity: 20),
    ]

    /// The mapping SwiftUI documents: k = (2π/response)², c = 4πζ/response.
    func testSwiftUIParameterMapping() {
        let spring = Spring(duration: 0.5, bounce: 0.3)
        XCTAssertEqual(spring.mass, 1)
        XCTAssertEqual(spring.stiffness, 157.9, accuracy: 0.05)
        XCTAssertEqual(spring.damping, 17.6, accuracy: 0.05)
        XCTAssertEqual(spring.stiffness, 16 * Double.pi * Double.pi, accuracy: 1e-12)
        XCTAssertEqual(spring.damping, 4 * Double.pi * 0.7 / 0.5, accuracy: 1e-12)
        XCTAssertEqual(spring.dampingRatio, 0.7, accuracy: 1e-12)
        XCTAssertEqual(spring.response, 0.5, accuracy: 1e-12)
        XCTAssertEqual(spring.bounce, 0.3, accuracy: 1e-12)
        // Negative bounce: ζ = 1 / (1 + bounce).
        XCTAssertEqual(Spring.dampingRatio(bounce: -0.5), 2)
        XCTAssertEqual(Spring(duration: 0.5, bounce: -0.5).dampingRatio, 2, accuracy: 1e-12)
        XCTAssertEqual(Spring(duration: 0.5, bounce: -0.5).bounce, -0.5, accuracy: 1e-12)
        // dampingFraction is ζ itself.
        let physical = Spring(response: 0.4, dampingFraction: 0.6)
        XCTAssertEqual(physical.stiffness, pow2(2 * Double.pi / 0.4), accuracy: 1e-9)
        XCTAssertEqual(physical.damping, 4 * Double.pi * 0.6 / 0.4, accuracy: 1e-12)
    }

    func pow2(_ x: Double) -> Double { x * x }

    /// ln 1000, the decay factor from |y| = 1 to 0.001.
    let log1000 = 6.907755278982137

    func testPresetsAreSwiftUIs() {
        XCTAssertEqual(Spring.smooth, Spring(duration: 0.5, bounce: 0))
        XCTAssertEqual(Spring.snappy, Spring(duration: 0.5, bounce: 0.15))
        XCTAssertEqual(Spring.bouncy, Spring(duration: 0.5, bounce: 0.3))
        XCTAssertEqual(Spring.smooth.dampingRatio, 1, accuracy: 1e-12)
        XCTAssertEqual(Spring.snappy.dampingRatio, 0.85, accuracy: 1e-12)
        XCTAssertEqual(Spring.bouncy.dampingRatio, 0.7, accuracy: 1e-12)
        XCTAssertEqual(Spring(), .smooth)
    }

    /// The closed form agrees with numerical integration of the equation.
    func testClosedFormMatchesIntegration() {
        let times = (1...300).map { Double($0) / 100 }
        for spring in SpringTests.springs {
            let reference = integratedSpring(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
                                             initialVelocity: spring.initialVelocity, times: times)
            for (t, expected) in zip(times, reference) {
                XCTAssertEqual(spring.value(at: t), expected, accuracy: 1e-9, "\(spring) at \(t)")
            }
        }
    }

    func testStartsAtZeroAndSettlesToOne() {
        for spring in SpringTests.springs {
            XCTAssertEqual(spring.value(at: 0), 0)
            XCTAssertEqual(spring.value(at: -1), 0)
            XCTAssertTrue(spring.settlingTime.isFinite && spring.settlingTime > 0, "\(spring)")
            XCTAssertEqual(spring.value(at: spring.settlingTime * 20 + 50), 1, accuracy: 1e-12, "\(spring)")
        }
    }

    /// The definition: after the settling time |x − 1| < 0.001 for good, and
    /// just before it not.
    func testSettlingTimeDefinitionHolds() {
        for spring in SpringTests.springs {
            let settle = spring.settlingTime
            XCTAssertGreaterThanOrEqual(abs(spring.value(at: settle.nextDown) - 1), 0.001, "\(spring)")
            XCTAssertGreaterThanOrEqual(abs(spring.value(at: settle - 1e-9) - 1), 0.001, "\(spring)")
            XCTAssertLessThan(abs(spring.value(at: settle) - 1), 0.001, "\(spring)")
            // Densely after it: 20,000 samples over the next five settling times.
            for i in 1...20_000 {
                let t = settle + Double(i) / 4000 * settle
                XCTAssertLessThan(abs(spring.value(at: t) - 1), 0.001, "\(spring) at \(t)")
            }
        }
    }

    /// Against a brute-force scan: the last sample at 1e-5 s steps where
    /// |x − 1| ≥ 0.001 lies within one step before the settling time.
    func testSettlingTimeMatchesBruteForceScan() {
        for spring in SpringTests.springs {
            let step = 1e-5
            var last = 0.0
            var t = 0.0
            while t < spring.settlingTime * 1.5 + 0.1 {
                if abs(spring.value(at: t) - 1) >= 0.001 { last = t }
                t += step
            }
            XCTAssertLessThanOrEqual(last, spring.settlingTime, "\(spring)")
            XCTAssertGreaterThan(last, spring.settlingTime - step * 1.01, "\(spring)")
        }
    }

    /// An under-damped spring passes its target; critically and over-damped
    /// ones (bounce ≤ 0) never do from rest.
    func testOvershootOnlyWithBounce() {
        func peak(_ spring: Spring) -> Double {
            (0...20_000).map { spring.value(at: Double($0) / 20_000 * spring.settlingTime * 2) }.max()!
        }
        for bounce in [0.05, 0.15, 0.3, 0.6] {
            XCTAssertGreaterThan(peak(Spring(duration: 0.5, bounce: bounce)), 1, "bounce \(bounce)")
        }
        for bounce in [0.0, -0.2, -0.6] {
            XCTAssertLessThanOrEqual(peak(Spring(duration: 0.5, bounce: bounce)), 1, "bounce \(bounce)")
        }
        // The first overshoot of an under-damped spring from rest is e^(−ζπ/√(1−ζ²)).
        let bouncy = Spring.bouncy
        let zeta = 0.7
        XCTAssertEqual(peak(bouncy) - 1, exp(-zeta * Double.pi / (1 - zeta * zeta).squareRoot()), accuracy: 1e-6)
    }

    /// Stiffer, quicker springs settle sooner. smooth is critically damped
    /// with ω0 = 4π: |x − 1| = (1 + u) e^(−u) for u = ω0 t, which falls to
    /// 0.001 at u = 9.2335 (solved by hand with Newton's method).
    func testSettlingTimesAreSensible() {
        XCTAssertEqual(Spring.smooth.settlingTime, 9.2335 / (4 * Double.pi), accuracy: 1e-3)
        XCTAssertLessThan(Spring(duration: 0.25, bounce: 0).settlingTime, Spring.smooth.settlingTime)
        XCTAssertGreaterThan(Spring.bouncy.settlingTime, Spring.smooth.settlingTime)
    }

    /// Very light damping: thousands of oscillations before settling. The
    /// definition still holds; with damping so light that ωt leaves the
    /// accurate range of sin and cos, the search stays bounded.
    func testLightlyDampedSprings() {
        let light = Spring(stiffness: 100, damping: 0.01)
        XCTAssertEqual(light.settlingTime, log1000 / 0.005, accuracy: 1)
        XCTAssertGreaterThanOrEqual(abs(light.value(at: light.settlingTime.nextDown) - 1), 0.001)
        for i in 0...100_000 {
            let t = light.settlingTime + Double(i) / 1000
            XCTAssertLessThan(abs(light.value(at: t) - 1), 0.001, "t = \(t)")
        }
        let feeble = Spring(stiffness: 100, damping: 1e-7)
        XCTAssertTrue(feeble.settlingTime.isFinite)
        XCTAssertGreaterThan(feeble.settlingTime, 1e8)
    }

    func testDegenerateParameters() {
        let jump = Spring(stiffness: 0, damping: 1)
        XCTAssertEqual(jump.settlingTime, 0)
        XCTAssertEqual(jump.value(at: 0), 0)
        XCTAssertEqual(jump.value(at: 1e-9), 1)
        XCTAssertEqual(Spring(response: 0, dampingFraction: 1).settlingTime, 0)
        XCTAssertEqual(Spring(stiffness: 100, damping: .infinity).settlingTime, 0)
        XCTAssertEqual(Spring(stiffness: .nan, damping: 1).settlingTime, 0)

        let undamped = Spring(stiffness: 4 * Double.pi * Double.pi, damping: 0)
        XCTAssertEqual(undamped.settlingTime, .infinity)
        XCTAssertEqual(undamped.value(at: 0.5), 2, accuracy: 1e-12, "1 − cos(2π t) at t = 1/2")
        XCTAssertEqual(undamped.value(at: 1), 0, accuracy: 1e-12)
        XCTAssertEqual(Spring(stiffness: 10, damping: -5), Spring(stiffness: 10, damping: 0))
        XCTAssertEqual(Spring(mass: -1, stiffness: 10, damping: 2), Spring(mass: 1, stiffness: 10, damping: 2))
        XCTAssertEqual(Spring(duration: 0.5, bounce: 5), Spring(duration: 0.5, bounce: 1))
    }

    /// As an easing of a fraction, a spring spans its settling time.
    func testNormalizedEasing() {
        for spring in [Spring.bouncy, .smooth, Spring(stiffness: 100, damping: 60, initialVelocity: 30)] {
            let easing = Easing.spring(spring)
            XCTAssertEqual(easing(0), 0)
            XCTAssertEqual(easing(1), 1)
            for i in 1..<100 {
                let x = Double(i) / 100
                XCTAssertEqual(easing(x), spring.value(at: x * spring.settlingTime), "\(x)")
            }
        }
    }
}
