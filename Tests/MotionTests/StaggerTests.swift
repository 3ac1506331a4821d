import XCTest
import Motion

final class StaggerTests: XCTestCase {
    func testOrders() {
        let cases: [(Stagger, Int, [Double])] = [
            (Stagger(.each(0.1)), 5, [0, 0.1, 0.2, 0.3, 0.4]),
            (Stagger(.each(0.1), from: .end), 5, [0.4, 0.3, 0.2, 0.1, 0]),
            (Stagger(.each(0.1), from: .center), 5, [0.2, 0.1, 0, 0.1, 0.2]),
            (Stagger(.each(0.1), from: .center), 4, [0.1, 0, 0, 0.1]),
            (Stagger(.each(0.1), from: .edges), 5, [0, 0.1, 0.2, 0.1, 0]),
            (Stagger(.each(0.1), from: .edges), 4, [0, 0.1, 0.1, 0]),
            (Stagger(.amount(1)), 5, [0, 0.25, 0.5, 0.75, 1]),
            (Stagger(.amount(1), from: .center), 5, [1, 0.5, 0, 0.5, 1]),
            (Stagger(.amount(0.9), from: .end), 4, [0.9, 0.6, 0.3, 0]),
            (Stagger(.each(0.1), from: .ascending([3, 1, 2, 1])), 4, [0.3, 0, 0.2, 0.1]),
            (Stagger(.each(0.1), from: .descending([3, 1, 2, 1])), 4, [0, 0.2, 0.1, 0.3]),
            (Stagger(.each(0.5), from: .ascending([2, .nan, 1])), 4, [0.5, 1, 0, 1.5]),
            (Stagger(.amount(2)), 1, [0]),
            (Stagger(.each(0.2)), 0, []),
            (Stagger(.each(-0.1)), 3, [0, -0.1, -0.2]),
            (Stagger(.each(.nan)), 3, [0, 0, 0]),
        ]
        for (stagger, count, expected) in cases {
            XCTAssertEqual(stagger.offsets(count: count), expected, "\(stagger) × \(count)")
        }
    }

    /// index × step is exact for decimal steps: the 7th of 0.1 s apart starts at 0.6, not 0.6000000000000001.
    func testDecimalStepsAreExact() {
        let offsets = Stagger(.each(0.1)).offsets(count: 10)
        XCTAssertEqual(offsets[3], 0.3)
        XCTAssertEqual(offsets[6], 0.6)
        XCTAssertNotEqual(6 * 0.1, 0.6)
    }
}
