import XCTest
import Motion

/// CSS `steps()` and `linear()` against the examples and algorithm of CSS
/// Easing Functions Level 2.
final class StepsAndLinearTests: XCTestCase {
    func assertTable(_ easing: Easing, _ table: [(Double, Double)], file: StaticString = #filePath, line: UInt = #line) {
        for (x, expected) in table {
            XCTAssertEqual(easing(x), expected, accuracy: 1e-15, "\(easing) at \(x)", file: file, line: line)
        }
    }

    func testJumpEndHoldsEachStepUntilItsEnd() {
        assertTable(.steps(4, .jumpEnd), [(0, 0), (0.1, 0), (0.2499, 0), (0.25, 0.25), (0.3, 0.25), (0.5, 0.5),
                                          (0.74, 0.5), (0.75, 0.75), (0.99, 0.75), (1, 1)])
    }

    /// The first rise is at 0 (with the before flag clear, as inside an animation).
    func testJumpStartRisesAtZero() {
        assertTable(.steps(4, .jumpStart), [(0, 0.25), (0.1, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1),
                                            (0.99, 1), (1, 1)])
    }

    /// n − 1 jumps, none at 0 or 1: steps(4, jump-none) is 0, 1/3, 2/3, 1.
    func testJumpNoneHasNoRiseAtEitherEnd() {
        assertTable(.steps(4, .jumpNone), [(0, 0), (0.24, 0), (0.25, 1.0 / 3), (0.5, 2.0 / 3), (0.74, 2.0 / 3),
                                           (0.75, 1), (1, 1)])
    }

    /// n + 1 jumps: steps(4, jump-both) is 1/5 … 4/5, then 1 at the end.
    func testJumpBothRisesAtBothEnds() {
        assertTable(.steps(4, .jumpBoth), [(0, 0.2), (0.2, 0.2), (0.25, 0.4), (0.5, 0.6), (0.75, 0.8),
                                           (0.99, 0.8), (1, 1)])
    }

    /// step-start and step-end are steps(1, jump-start) and steps(1, jump-end).
    func testStepKeywords() {
        XCTAssertEqual(Easing.parse("step-start"), .steps(1, .jumpStart))
        XCTAssertEqual(Easing.parse("step-end"), .steps(1, .jumpEnd))
        assertTable(.steps(1, .jumpStart), [(0, 1), (0.5, 1), (1, 1)])
        assertTable(.steps(1, .jumpEnd), [(0, 0), (0.999, 0), (1, 1)])
    }

    /// Counts below CSS's minimum are raised to it instead of dividing by zero.
    func testInvalidCountsAreRaised() {
        XCTAssertEqual(Easing.steps(0, .jumpEnd)(0.5), Easing.steps(1, .jumpEnd)(0.5))
        XCTAssertEqual(Easing.steps(1, .jumpNone)(0.75), Easing.steps(2, .jumpNone)(0.75))
        XCTAssertEqual(Easing.steps(-3, .jumpNone)(0.25), 0)
    }

    /// Inside an animation the before flag is set up to the start: a
    /// jump-start step shows 0 there and its first step just after.
    func testAnimationShowsBottomOfFirstStepAtItsStart() {
        let animation = Animation(curve: .steps(4, .jumpStart), duration: 1, delay: 1)
        XCTAssertEqual(animation.progress(at: 1), 0)
        XCTAssertEqual(animation.progress(at: 1.000001), 0.25)
        XCTAssertEqual(animation.progress(at: 1.5), 0.75)
        XCTAssertEqual(animation.progress(at: 2), 1)
    }

    // MARK: linear()

    func points(_ curve: PiecewiseLinear) -> [Double] {
        curve.points.flatMap { [$0.input, $0.output] }
    }

    /// linear(0, 0.25, 1): the middle stop gets input 50 %.
    func testMissingPositionsAreSpreadEvenly() {
        let curve = PiecewiseLinear(outputs: [0, 0.25, 1])!
        XCTAssertEqual(points(curve), [0, 0, 0.5, 0.25, 1, 1])
        assertTable(.piecewiseLinear(curve), [(0, 0), (0.25, 0.125), (0.5, 0.25), (0.75, 0.625), (1, 1)])
        // linear(0, 0.7, 0.87, 0.98, 1) is 0 %, 25 %, 50 %, 75 %, 100 %.
        let five = PiecewiseLinear(outputs: [0, 0.7, 0.87, 0.98, 1])!
        XCTAssertEqual(five.points.map(\.input), [0, 0.25, 0.5, 0.75, 1])
    }

    /// A run of missing positions between two given ones is spread over that span.
    func testRunBetweenGivenPositions() {
        let curve = Easing.parse("linear(0, 0.1, 0.2 50%, 0.3, 0.4, 1)")!
        guard case let .piecewiseLinear(linear) = curve else { return XCTFail("\(curve)") }
        let inputs = linear.points.map(\.input)
        XCTAssertEqual(inputs[0], 0)
        XCTAssertEqual(inputs[1], 0.25, accuracy: 1e-15)
        XCTAssertEqual(inputs[2], 0.5)
        XCTAssertEqual(inputs[3], 2.0 / 3, accuracy: 1e-15)
        XCTAssertEqual(inputs[4], 5.0 / 6, accuracy: 1e-15)
        XCTAssertEqual(inputs[5], 1)
    }

    /// The spec's example linear(0, 0.25 75%, 1): 75 % of the time to reach 0.25.
    func testGivenPosition() {
        let curve = Easing.parse("linear(0, 0.25 75%, 1)")!
        assertTable(curve, [(0, 0), (0.375, 0.125), (0.75, 0.25), (0.875, 0.625), (1, 1)])
    }

    /// linear(0, 0.25 25% 75%, 1) equals linear(0, 0.25 25%, 0.25 75%, 1): a flat run.
    func testTwoPositionsMakeAFlatRun() {
        let double = Easing.parse("linear(0, 0.25 25% 75%, 1)")!
        let spelled = Easing.parse("linear(0, 0.25 25%, 0.25 75%, 1)")!
        XCTAssertEqual(double, spelled)
        assertTable(double, [(0.125, 0.125), (0.25, 0.25), (0.5, 0.25), (0.75, 0.25), (0.875, 0.625)])
    }

    /// The spec's serialization note: linear(0 20%, 0.5 10%, 1) becomes
    /// linear(0 20%, 0.5 20%, 1 100%), and where two points share an input the
    /// later one wins, also before the first point.
    func testPositionsNeverDecrease() {
        guard case let .piecewiseLinear(curve) = Easing.parse("linear(0 20%, 0.5 10%, 1)")! else { return XCTFail() }
        XCTAssertEqual(points(curve), [0.2, 0, 0.2, 0.5, 1, 1])
        assertTable(.piecewiseLinear(curve), [(0, 0.5), (0.1, 0.5), (0.2, 0.5), (0.6, 0.75), (1, 1)])
    }

    /// Outside the given points the line through the nearest two continues.
    func testExtrapolatesBeyondTheOuterPoints() {
        let curve = Easing.parse("linear(0 10%, 1 90%)")!
        assertTable(curve, [(0, -0.125), (0.1, 0), (0.5, 0.5), (0.9, 1), (1, 1.125)])
    }

    /// The spec's hand-made bounce: its stops resolve to the documented points.
    func testSpecBounceExample() {
        let text = "linear(0, 0.063, 0.25, 0.563, 1 36.4%, 0.812, 0.75, 0.813, 1 72.7%, 0.953, 0.938, 0.953, 1 90.9%, 0.984, 1 100% 100%)"
        guard case let .piecewiseLinear(curve) = Easing.parse(text)! else { return XCTFail() }
        XCTAssertEqual(curve.points.count, 16)
        XCTAssertEqual(curve.points[1].input, 0.091, accuracy: 1e-12)
        XCTAssertEqual(curve.points[4].input, 0.364, accuracy: 1e-12)
        XCTAssertEqual(curve.points[5].input, 0.364 + 0.363 / 4, accuracy: 1e-12)
        XCTAssertEqual(curve.points[14].input, 1, accuracy: 1e-12)
        XCTAssertEqual(curve.points[15].input, 1, accuracy: 1e-12)
        let easing = Easing.piecewiseLinear(curve)
        XCTAssertEqual(easing(0.364), 1, accuracy: 1e-12)
        XCTAssertEqual(easing(0.727), 1, accuracy: 1e-12)
        XCTAssertEqual(easing(1), 1)
    }

    func testFewerThanTwoStopsOrNonFiniteValuesAreRejected() {
        XCTAssertNil(PiecewiseLinear([]))
        XCTAssertNil(PiecewiseLinear([.init(0.5)]))
        XCTAssertNil(PiecewiseLinear([.init(0), .init(.nan)]))
        XCTAssertNil(PiecewiseLinear([.init(0, at: .infinity), .init(1)]))
        XCTAssertNil(PiecewiseLinear([.init(0, at: nil, through: 0.5), .init(1)]))
    }

    func testLinearOfZeroOneIsIdentity() {
        let identity = Easing.parse("linear(0, 1)")!
        for i in 0...100 { XCTAssertEqual(identity(Double(i) / 100), Double(i) / 100, accuracy: 1e-15) }
    }
}
