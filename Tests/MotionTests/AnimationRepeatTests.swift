import XCTest
import Motion

final class AnimationRepeatTests: XCTestCase {
    func assertTable(_ animation: Animation, _ table: [(Double, Double)], file: StaticString = #filePath, line: UInt = #line) {
        for (t, expected) in table {
            XCTAssertEqual(animation.progress(at: t), expected, accuracy: 1e-12, "t = \(t)", file: file, line: line)
        }
    }

    /// DESIGN.md's timing test: frame i is at i / fps, and frame 36 at 60 fps
    /// of an animation with delay 0.2 s and duration 0.8 s is exactly halfway.
    func testFrame36At60FPSIsExactlyHalfway() {
        let fps = 60, frame = 36
        let t = Double(frame) / Double(fps)
        let animation = Animation(curve: .easeInOut, duration: 0.8, delay: 0.2)
        XCTAssertEqual(Easing.easeInOut(0.5), 0.5)
        XCTAssertEqual(animation.progress(at: t), Easing.easeInOut(0.5))
        XCTAssertEqual(animation.progress(at: t), 0.5)
        XCTAssertEqual(Tween(from: 0, to: 1, animation: animation).value(at: t), 0.5)
        XCTAssertEqual(Tween(from: 10, to: 30, animation: animation).value(at: t), 20)
        // The same holds at other frame rates whose frames land on the middle.
        for fps in [25, 30, 50, 100, 120] {
            let middle = Double(fps * 6 / 10) / Double(fps)
            XCTAssertEqual(animation.progress(at: middle), 0.5, "\(fps) fps")
        }
        // And with a linear curve, every frame is the exact decimal fraction.
        let linear = Animation(curve: .linear, duration: 0.8, delay: 0.2)
        for frame in 12...60 {
            XCTAssertEqual(linear.progress(at: Double(frame) / 60), Double(frame - 12) / 48, "frame \(frame)")
        }
    }

    /// SwiftUI's repeatCount(3, autoreverses: true): forward, back, forward.
    func testRepeatCountWithAutoreverseCountsReversePasses() {
        let animation = Animation.linear(duration: 1).repeatCount(3, autoreverses: true)
        XCTAssertEqual(animation.end, 3)
        assertTable(animation, [(0, 0), (0.25, 0.25), (0.75, 0.75), (1, 1), (1.25, 0.75), (1.75, 0.25),
                                (2, 0), (2.25, 0.25), (2.9, 0.9), (3, 1), (10, 1)])
    }

    /// An even count ends on a reverse pass: progress returns to 0, and then
    /// the to-value shows after the end (SwiftUI), unless `.lastPass` is asked for.
    func testEvenCountEndsOnReversePass() {
        let animation = Animation.linear(duration: 1).delay(1).repeatCount(2)
        XCTAssertEqual(animation.start, 1)
        XCTAssertEqual(animation.end, 3)
        assertTable(animation, [(1, 0), (1.5, 0.5), (2, 1), (2.5, 0.5), (2.99, 0.01), (3, 1)])
        assertTable(animation.fill(after: .lastPass), [(2.99, 0.01), (3, 0), (5, 0)])
        assertTable(animation.fill(after: .from), [(3, 0), (5, 0)])
    }

    /// Without autoreverse every pass starts again from 0.
    func testRepeatWithoutAutoreverseRestarts() {
        let animation = Animation.linear(duration: 0.5).repeatCount(3, autoreverses: false)
        XCTAssertEqual(animation.end, 1.5)
        assertTable(animation, [(0.25, 0.5), (0.4999, 0.9998), (0.5, 0), (0.75, 0.5), (1, 0), (1.25, 0.5), (1.5, 1)])
    }

    /// The curve is applied to the directed fraction, so a reverse pass
    /// retraces the forward one.
    func testReversePassRetracesCurve() {
        let animation = Animation.easeIn(duration: 1).repeatCount(2)
        // (At x = 0 the end shows the after-value instead.)
        for i in 1...20 {
            let x = Double(i) / 20
            XCTAssertEqual(animation.progress(at: 2 - x), animation.progress(at: x), accuracy: 1e-15, "\(x)")
        }
    }

    func testRepeatForeverHasInfiniteEndAndFiniteDisplayEnd() {
        let back = Animation.linear(duration: 2).delay(0.5).repeatForever()
        XCTAssertEqual(back.end, .infinity)
        XCTAssertEqual(back.displayEnd, 4.5)
        assertTable(back, [(0.5, 0), (1.5, 0.5), (2.5, 1), (3.5, 0.5), (4.5, 0), (1000.5, 0), (1001.5, 0.5),
                           (1002.5, 1), (1003, 0.75)])
        let loop = Animation.linear(duration: 2).repeatForever(autoreverses: false)
        XCTAssertEqual(loop.displayEnd, 2)
        assertTable(loop, [(1, 0.5), (2, 0), (3, 0.5), (3999, 0.5)])
        XCTAssertEqual(AnimatedValue.tween(Tween(from: 0, to: 1, animation: back)).endTime, .infinity)
        XCTAssertEqual(AnimatedValue.tween(Tween(from: 0, to: 1, animation: back)).displayEnd, 4.5)
    }

    /// Speed shortens every pass, not the delay; passes alternate direction.
    func testRepeatWithSpeed() {
        let animation = Animation.linear(duration: 1).delay(1).speed(2).repeatCount(4)
        XCTAssertEqual(animation.end, 3)
        assertTable(animation, [(1.25, 0.5), (1.75, 0.5), (2.25, 0.5), (2.5, 1), (2.75, 0.5), (3, 1)])
    }

    func testCountsBelowOneAndZeroLengthPasses() {
        XCTAssertEqual(Animation.linear(duration: 1).repeatCount(0).end, 1)
        XCTAssertEqual(Animation.linear(duration: 1).repeatCount(-4).end, 1)
        let step = Animation.linear(duration: 0).delay(1).repeatForever()
        XCTAssertEqual(step.end, 1)
        XCTAssertEqual(step.progress(at: 0.9), 0)
        XCTAssertEqual(step.progress(at: 1), 1)
    }

    /// `before: .to` shows the to-value until the start, then replays from 0.
    func testBeforeStartFill() {
        let animation = Animation.linear(duration: 1).delay(1).fill(before: .to)
        assertTable(animation, [(0, 1), (1, 1), (1.25, 0.25), (2, 1)])
        XCTAssertEqual(Animation.linear(duration: 1).fill(before: .to, after: .from).progress(at: 5), 0)
    }

    // MARK: Springs

    func testSpringAnimationRunsInSecondsUntilSettled() {
        let spring = Spring.bouncy
        let animation = Animation(curve: .spring(spring), delay: 0.5)
        XCTAssertEqual(animation.duration, spring.settlingTime)
        XCTAssertEqual(animation.end, 0.5 + spring.settlingTime, accuracy: 2e-9)
        for i in 1..<40 {
            let elapsed = Double(i) / 40 * spring.settlingTime
            XCTAssertEqual(animation.progress(at: 0.5 + elapsed), spring.value(at: elapsed), accuracy: 1e-8)
        }
        XCTAssertEqual(animation.progress(at: 0.5), 0)
        XCTAssertEqual(animation.progress(at: animation.end), 1)
        XCTAssertEqual(Animation.bouncy, Animation(curve: .spring(.bouncy)))
        XCTAssertEqual(Animation.spring(duration: 0.5, bounce: 0.3), .bouncy)
        XCTAssertEqual(Animation.interpolatingSpring(stiffness: 170, damping: 15).duration,
                       Spring(stiffness: 170, damping: 15).settlingTime)
    }

    /// Speed makes the spring run faster in seconds, so it settles sooner.
    func testSpringWithSpeed() {
        let spring = Spring.snappy
        let animation = Animation(curve: .spring(spring)).speed(2)
        XCTAssertEqual(animation.end, spring.settlingTime / 2, accuracy: 2e-9)
        XCTAssertEqual(animation.progress(at: 0.1), spring.value(at: 0.2), accuracy: 1e-8)
    }

    /// An explicit duration cuts the spring off, and the to-value takes over.
    func testSpringWithShorterExplicitDuration() {
        let spring = Spring.bouncy
        var animation = Animation(curve: .spring(spring), duration: 0.3)
        XCTAssertEqual(animation.progress(at: 0.2), spring.value(at: 0.2), accuracy: 1e-8)
        XCTAssertEqual(animation.progress(at: 0.3), 1)
        animation.after = .lastPass
        XCTAssertEqual(animation.progress(at: 0.3), spring.value(at: 0.3), accuracy: 1e-12)
    }

    /// Setting a spring curve on a default animation gives it the settling
    /// time, as a document decoder that starts from Animation() does.
    func testDefaultDurationFollowsCurve() {
        var animation = Animation()
        XCTAssertEqual(animation.duration, Animation.defaultDuration)
        animation.curve = .spring(.smooth)
        XCTAssertEqual(animation.duration, Spring.smooth.settlingTime)
        animation.duration = 2
        animation.curve = .spring(.bouncy)
        XCTAssertEqual(animation.duration, 2)
    }

    /// A spring without damping never settles: it runs until the video ends.
    func testUndampedSpringRunsForever() {
        let animation = Animation(curve: .spring(Spring(stiffness: 4 * Double.pi * Double.pi, damping: 0)))
        XCTAssertEqual(animation.end, .infinity)
        XCTAssertEqual(animation.progress(at: 100.5), 2, accuracy: 1e-9)
    }

    func testRepeatingSpringReversesInTime() {
        let spring = Spring.smooth
        let animation = Animation(curve: .spring(spring), duration: 1).repeatCount(2)
        XCTAssertEqual(animation.progress(at: 1.25), spring.value(at: 0.75), accuracy: 1e-9)
    }

    /// isConstant never claims a constant value where sampling finds a change.
    func testIsConstantAgreesWithSamplingForRepeats() {
        let values: [AnimatedValue] = [
            .tween(Tween(from: 0, to: 1, animation: .linear(duration: 1).delay(1).repeatCount(3))),
            .tween(Tween(from: 0, to: 1, animation: .linear(duration: 1).repeatForever())),
            .tween(Tween(from: 0, to: 1, animation: Animation.linear(duration: 1).delay(1).fill(before: .to, after: .from))),
        ]
        let edges = [-1.0, 0, 0.5, 1, 1.5, 2, 3, 4, 5]
        for value in values {
            for t0 in edges {
                for t1 in edges where t0 <= t1 {
                    let samples = (0...60).map { value.value(at: t0 + (t1 - t0) * Double($0) / 60) }
                    if value.isConstant(between: t0, and: t1) {
                        XCTAssertEqual(Set(samples).count, 1, "\(value) [\(t0), \(t1)]")
                    }
                }
            }
        }
        XCTAssertTrue(values[0].isConstant(between: 4, and: 100))
        XCTAssertFalse(values[1].isConstant(between: 400, and: 401))
    }
}
