import XCTest
import Motion

final class AnimationTests: XCTestCase {
    func testDefaultsAreSwiftUIs() {
        let animation = Animation()
        XCTAssertEqual(animation.duration, 0.35)
        XCTAssertEqual(animation.delay, 0)
        XCTAssertEqual(animation.speed, 1)
        XCTAssertEqual(animation.curve, .easeInOut)
        XCTAssertEqual(animation.start, 0)
        XCTAssertEqual(animation.end, 0.35)
    }

    func testProgressIsZeroUpToStart() {
        let animation = Animation(duration: 0.8, delay: 0.2)
        for t: Double in [-.infinity, -1, 0, 0.1, 0.2] {
            XCTAssertEqual(animation.progress(at: t), 0, "t = \(t)")
        }
        XCTAssertGreaterThan(animation.progress(at: 0.2000001), 0)
    }

    func testProgressIsOneFromEnd() {
        let animation = Animation(duration: 0.8, delay: 0.2)
        XCTAssertEqual(animation.end, 1.0, accuracy: 1e-15)
        for t in [animation.end, 1.0, 1.5, 100, .infinity] {
            XCTAssertEqual(animation.progress(at: t), 1, "t = \(t)")
        }
        XCTAssertLessThan(animation.progress(at: animation.end - 1e-6), 1)
    }

    func testDelayedAnimationIsHalfwayAtItsMiddle() {
        let animation = Animation(curve: .easeInOut, duration: 0.8, delay: 0.2)
        XCTAssertEqual(animation.progress(at: 0.6), 0.5, accuracy: 1e-9)
    }

    func testProgressFollowsCurveOfElapsedFraction() {
        let animation = Animation(curve: .easeIn, duration: 2, delay: 1)
        for i in 0...20 {
            let fraction = Double(i) / 20
            XCTAssertEqual(animation.progress(at: 1 + 2 * fraction), Easing.easeIn(fraction), accuracy: 1e-12)
        }
    }

    func testSpeedTwoHalvesActiveDuration() {
        let normal = Animation(curve: .easeInOut, duration: 0.8, delay: 0.2)
        let fast = normal.speed(2)
        XCTAssertEqual(fast.activeDuration, 0.4)
        XCTAssertEqual(fast.start, 0.2)
        XCTAssertEqual(fast.end, 0.6, accuracy: 1e-15)
        XCTAssertEqual(fast.progress(at: fast.end), 1)
        XCTAssertEqual(fast.progress(at: 0.6), 1, accuracy: 1e-12)
        for i in 0...10 {
            let elapsed = 0.04 * Double(i)
            XCTAssertEqual(fast.progress(at: 0.2 + elapsed), normal.progress(at: 0.2 + 2 * elapsed), accuracy: 1e-9)
        }
    }

    /// `speed` scales the animation, not its delay (SwiftUI's `speed(s).delay(d)`).
    func testSpeedDoesNotScaleDelay() {
        let animation = Animation(duration: 1, delay: 2, speed: 4)
        XCTAssertEqual(animation.start, 2)
        XCTAssertEqual(animation.end, 2.25)
        XCTAssertEqual(Animation(duration: 1).delay(2).speed(4), Animation(duration: 1).speed(4).delay(2))
    }

    func testZeroDurationStepsAtStart() {
        let step = Animation(curve: .linear, duration: 0, delay: 0.5)
        XCTAssertEqual(step.end, 0.5)
        XCTAssertEqual(step.progress(at: 0.4999999), 0)
        XCTAssertEqual(step.progress(at: 0.5), 1)
        XCTAssertEqual(step.progress(at: 0.6), 1)
    }

    /// Bad values cannot reach a render as NaN or an endless animation.
    func testInvalidTimingsActAsStepsWithFiniteEnd() {
        let bad = [
            Animation(duration: -1, delay: 0.5),
            Animation(duration: 1, delay: 0.5, speed: 0),
            Animation(duration: 1, delay: 0.5, speed: -2),
            Animation(duration: .nan, delay: 0.5),
            Animation(duration: .infinity, delay: 0.5),
            Animation(duration: 1, delay: 0.5, speed: .nan),
        ]
        for animation in bad {
            XCTAssertEqual(animation.activeDuration, 0, "\(animation)")
            XCTAssertEqual(animation.end, 0.5, "\(animation)")
            XCTAssertEqual(animation.progress(at: 0.4), 0, "\(animation)")
            XCTAssertEqual(animation.progress(at: 0.5), 1, "\(animation)")
        }
        let unstartable = Animation(duration: 1, delay: .nan)
        XCTAssertEqual(unstartable.start, 0)
        XCTAssertEqual(unstartable.end, 1)
        XCTAssertEqual(Animation(duration: 1).progress(at: .nan), 0)
    }

    func testModifiersComposeLikeSwiftUI() {
        let base = Animation.linear(duration: 1)
        XCTAssertEqual(base.delay(0.5).delay(0.25).delay, 0.75)
        XCTAssertEqual(base.speed(2).speed(3).speed, 6)
        XCTAssertEqual(base.delay(1).duration, 1)
        XCTAssertEqual(base.speed(2).duration, 1)
    }

    func testStaticConstructorsMirrorSwiftUI() {
        XCTAssertEqual(Animation.linear(duration: 2), Animation(curve: .linear, duration: 2))
        XCTAssertEqual(Animation.easeIn(duration: 2), Animation(curve: .easeIn, duration: 2))
        XCTAssertEqual(Animation.easeOut(duration: 2), Animation(curve: .easeOut, duration: 2))
        XCTAssertEqual(Animation.easeInOut(duration: 2), Animation(curve: .easeInOut, duration: 2))
        XCTAssertEqual(Animation.timingCurve(0.1, 0.2, 0.3, 0.4, duration: 2),
                       Animation(curve: .cubicBezier(0.1, 0.2, 0.3, 0.4), duration: 2))
        XCTAssertEqual(Animation.easeIn().duration, 0.35)
        XCTAssertEqual(Animation.timingCurve(0, 0, 1, 1).duration, 0.35)
    }

    func testLinearProgressIsElapsedFraction() {
        let animation = Animation.linear(duration: 4).delay(1)
        XCTAssertEqual(animation.progress(at: 2), 0.25)
        XCTAssertEqual(animation.progress(at: 3), 0.5)
        XCTAssertEqual(animation.progress(at: 4), 0.75)
    }
}
