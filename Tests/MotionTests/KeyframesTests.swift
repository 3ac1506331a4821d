import XCTest
import Motion

final class KeyframesTests: XCTestCase {
    /// 0 → 10 linearly over [0, 1], 10 → 20 with easeIn over [1, 3], hold 20
    /// over [3, 4], jump to 5 at 4 and 5 → 0 with easeOutBounce over [4, 5].
    let track = Keyframes([
        Keyframe(time: 0, value: 0),
        Keyframe(time: 1, value: 10, easing: .easeIn),
        Keyframe(time: 3, value: 20, hold: true),
        Keyframe(time: 4, value: 5, easing: .penner(.bounce, .out)),
        Keyframe(time: 5, value: 0),
    ])!

    func testValuesBetweenKeyframesUseTheStartingKeyframesEasing() {
        XCTAssertEqual(track.value(at: 0.5), 5)
        XCTAssertEqual(track.value(at: 2), 10 + 10 * Easing.easeIn(0.5), accuracy: 1e-12)
        XCTAssertEqual(track.value(at: 4.5), 5 - 5 * Easing.penner(.bounce, .out)(0.5), accuracy: 1e-12)
    }

    func testKeyframeTimesShowTheirValuesExactly() {
        XCTAssertEqual(track.value(at: 0), 0)
        XCTAssertEqual(track.value(at: 1), 10)
        XCTAssertEqual(track.value(at: 3), 20)
        XCTAssertEqual(track.value(at: 4), 5)
        XCTAssertEqual(track.value(at: 5), 0)
    }

    /// A hold keyframe keeps its value up to the next keyframe, then steps.
    func testHoldIsAStep() {
        for t in [3.0, 3.25, 3.5, 3.999999] { XCTAssertEqual(track.value(at: t), 20, "t = \(t)") }
        XCTAssertEqual(track.value(at: 4), 5)
    }

    func testBeforeFirstAndAfterLastHold() {
        XCTAssertEqual(track.value(at: -3), 0)
        XCTAssertEqual(track.value(at: .nan), 0)
        XCTAssertEqual(track.value(at: 6), 0)
        XCTAssertEqual(track.value(at: .infinity), 0)
        XCTAssertEqual(track.startTime, 0)
        XCTAssertEqual(track.endTime, 5)
        XCTAssertEqual(AnimatedValue.keyframes(track).endTime, 5)
        XCTAssertEqual(AnimatedValue.keyframes(track).displayEnd, 5)
    }

    /// Keyframes are sorted by time; two at one time make a jump, the later given winning.
    func testSortingAndDuplicateTimes() {
        let jump = Keyframes([
            Keyframe(time: 2, value: 1),
            Keyframe(time: 1, value: 0),
            Keyframe(time: 1, value: 7),
        ])!
        XCTAssertEqual(jump.keyframes.map(\.value), [0, 7, 1])
        XCTAssertEqual(jump.value(at: 0.999), 0)
        XCTAssertEqual(jump.value(at: 1), 7)
        XCTAssertEqual(jump.value(at: 1.5), 4)
    }

    func testInvalidTracksAreRejected() {
        XCTAssertNil(Keyframes([]))
        XCTAssertNil(Keyframes([Keyframe(time: .nan, value: 1)]))
        XCTAssertNil(Keyframes([Keyframe(time: 0, value: .infinity)]))
        let single = Keyframes([Keyframe(time: 2, value: 3)])!
        XCTAssertEqual(single.value(at: 0), 3)
        XCTAssertEqual(single.value(at: 9), 3)
        XCTAssertFalse(AnimatedValue.keyframes(single).isAnimated)
    }

    func testShiftedMovesEveryKeyframe() {
        let later = track.shifted(by: 0.5)
        for t in stride(from: -1.0, through: 6, by: 0.125) {
            XCTAssertEqual(later.value(at: t + 0.5), track.value(at: t), accuracy: 1e-12, "t = \(t)")
        }
    }

    /// The same exactness as animations: frame 36 at 60 fps between keyframes
    /// at 0.2 s and 1.0 s is exactly halfway.
    func testFrameExactFraction() {
        let ramp = Keyframes([Keyframe(time: 0.2, value: 0, easing: .easeInOut), Keyframe(time: 1.0, value: 100)])!
        XCTAssertEqual(ramp.value(at: Double(36) / 60), 50)
    }

    /// Steps and springs as segment easings, normalized to the segment.
    func testOtherEasingsInSegments() {
        let stepped = Keyframes([Keyframe(time: 0, value: 0, easing: .steps(4, .jumpEnd)), Keyframe(time: 2, value: 8)])!
        XCTAssertEqual(stepped.value(at: 0.49), 0)
        XCTAssertEqual(stepped.value(at: 0.5), 2)
        XCTAssertEqual(stepped.value(at: 1.99), 6)
        XCTAssertEqual(stepped.value(at: 2), 8)
        let sprung = Keyframes([Keyframe(time: 0, value: 0, easing: .spring(.bouncy)), Keyframe(time: 2, value: 1)])!
        XCTAssertEqual(sprung.value(at: 1), Spring.bouncy.value(at: Spring.bouncy.settlingTime / 2), accuracy: 1e-9)
    }

    func testIsConstantAgreesWithSampling() {
        let flat = Keyframes([
            Keyframe(time: 0, value: 1), Keyframe(time: 1, value: 1, easing: .penner(.elastic, .out)),
            Keyframe(time: 2, value: 1), Keyframe(time: 3, value: 4),
        ])!
        let edges = [-1.0, 0, 0.5, 1, 2, 2.5, 3, 3.25, 3.5, 4, 4.5, 5, 6]
        for keyframes in [track, flat] {
            let value = AnimatedValue.keyframes(keyframes)
            for t0 in edges {
                for t1 in edges where t0 <= t1 {
                    let samples = (0...80).map { value.value(at: t0 + (t1 - t0) * Double($0) / 80) }
                    let sampledConstant = Set(samples).count == 1
                    XCTAssertEqual(value.isConstant(between: t0, and: t1), sampledConstant, "\(keyframes) [\(t0), \(t1)]")
                }
            }
        }
        XCTAssertFalse(AnimatedValue.keyframes(track).isConstant(between: .nan, and: 2))
    }
}
