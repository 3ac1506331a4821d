import XCTest
import Foundation

/// Charts whose state changes over time, through the command line: `validate` says when
/// their plot is laid out again, and the race renders the same bytes on any thread count.
final class MovingChartTests: ChartreelTestCase {
    static func timeline(_ name: String) -> String { root.appendingPathComponent("timelines/\(name)").path }

    func testValidateListsThePerFrameLayout() throws {
        let race = try chartreel("validate", Self.timeline("bar-race.json"))
        XCTAssertEqual(race.status, 0, race.stderr)
        XCTAssertTrue(race.text.contains("plot  layout              per frame  0.500 s  16.500 s"), race.text)
        let zoom = try chartreel("validate", Self.timeline("axis-zoom.json"))
        XCTAssertTrue(zoom.text.contains("layout") && zoom.text.contains("1.600 s  3.100 s"), zoom.text)
        // A still chart has no such row.
        let still = try chartreel("validate", Self.document)
        XCTAssertFalse(still.text.contains("per frame"), still.text)
    }

    func testTheRaceIsTheSameOnOneThreadAndOnAll() throws {
        let doc = Self.timeline("bar-race.json")
        let one = try chartreel("render", doc, "-o", "-", "--format", "rgba", "--fps", "4", "--scale", "0.25", "--threads", "1", "-q")
        let all = try chartreel("render", doc, "-o", "-", "--format", "rgba", "--fps", "4", "--scale", "0.25", "-q")
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertEqual(one.stdout.count, 320 * 180 * 4 * 68)
        XCTAssertTrue(one.stdout == all.stdout)
    }

    /// The line race, the bubbles and the growing streamgraph: the same bytes on one
    /// thread and on all.
    func testTheMotionTimelinesAreTheSameOnOneThreadAndOnAll() throws {
        for name in ["line-race.json", "gapminder.json", "growing-streamgraph.json"] {
            let doc = Self.timeline(name)
            let args = ["render", doc, "-o", "-", "--format", "rgba", "--fps", "2", "--scale", "0.25", "-q"]
            let one = try chartreel(args + ["--threads", "1"]), all = try chartreel(args)
            XCTAssertEqual(one.status, 0, one.stderr)
            XCTAssertGreaterThan(one.stdout.count, 0, name)
            XCTAssertTrue(one.stdout == all.stdout, "\(name): one thread and all differ")
        }
    }
}
