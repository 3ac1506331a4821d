import XCTest
@testable import Geometry

/// Geometry at the sizes of scripts/bench --load: a line of 100,000 points.
final class LoadTests: XCTestCase {
    /// A zigzag of `n` segments, each 3-4-5, so its length is exactly 5n.
    func zigzag(_ n: Int) -> Path {
        var p = Path()
        p.move(to: Point(0, 0))
        for i in 1...n { p.line(to: Point(Double(i) * 3, i % 2 == 0 ? 0 : 4)) }
        return p
    }

    /// The measure's table is built in place: one segment per element, no spare
    /// capacity from growing by doubling (which peaked at twice the table's 12 MB).
    func testMeasuringALongLineReservesItsTableOnce() {
        let n = 100_000
        let m = PathMeasure(zigzag(n))
        XCTAssertEqual(m.length, 5 * Double(n), accuracy: 1e-6)
        XCTAssertEqual(m.segments.count, n)
        XCTAssertLessThanOrEqual(m.segments.capacity, n + 1 + 16)
        // Halfway along is the end of segment n/2.
        XCTAssertEqual(m.position(atDistance: 2.5 * Double(n)), Point(1.5 * Double(n), 0))
    }
}
