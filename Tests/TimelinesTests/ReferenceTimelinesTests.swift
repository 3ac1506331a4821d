import XCTest
import Raster
import Scene
@testable import Timelines

/// The four reference charts decode, render, and end with the structure their charts have.
final class ReferenceTimelinesTests: XCTestCase {
    func load(_ name: String) throws -> Scene {
        try TimelineDecoder.load(path: AllTimelinesTests.dir.appendingPathComponent(name).path)
    }

    func children(_ scene: Scene, _ id: String) -> [Node] {
        guard case .group(let g)? = scene.node(id) else { XCTFail("no mark \(id)"); return [] }
        return g.children
    }

    func testFlightDelaysHasTenBarsAndFourSectors() throws {
        let s = try load("flight-delays.json")
        XCTAssertEqual(children(s, "bars").count, 10)
        XCTAssertEqual(children(s, "pie").count, 4)
        XCTAssertNotNil(s.node("legend"))
        XCTAssertNotNil(s.node("zero"))
        let f = s.frame(at: s.effectiveDuration)
        // The cancelled day is dark red (#8B0000) somewhere in the bar chart.
        var found = false
        for y in 0..<f.height { for x in 0..<(f.width / 2) { let p = f.pixel(x, y); if p.r == 0x8B && p.g == 0 && p.b == 0 { found = true } } }
        XCTAssertTrue(found)
    }

    func testBabyNamesHasOneRulerAndOneLabelPerName() throws {
        let s = try load("baby-names.json")
        XCTAssertEqual(children(s, "stream").count, 9)
        XCTAssertEqual(children(s, "rulers").count, 9)
        let labels = children(s, "labels").compactMap { n -> String? in if case .text(let t) = n { return t.string }; return nil }
        XCTAssertEqual(Set(labels), ["Mary", "Dorothy", "Linda", "Susan", "Lisa", "Jennifer", "Jessica", "Ashley", "Emma"])
    }

    func testCoffeeBookHasFourCardsSevenBarsAndSevenDots() throws {
        let s = try load("coffee-book.json")
        XCTAssertEqual(s.nodes.count, 4)
        XCTAssertEqual(children(s, "bars").count, 7)
        XCTAssertEqual(children(s, "dots").count, 7)
        guard case .text(let hi)? = s.node("max-label") else { return XCTFail() }
        XCTAssertEqual(hi.string, "140 mg")
        guard case .text(let zero)? = s.node("zero-label") else { return XCTFail() }
        XCTAssertEqual(zero.string, "0 mg")
        // Bars grow in sequence: bar 0 is full before bar 6 has started.
        guard case .shape(let first) = children(s, "bars")[0], case .shape(let last) = children(s, "bars")[6] else { return XCTFail() }
        XCTAssertLessThan(first.endTime, last.endTime)
    }

    func testCurvedLineRevealNowHasAxes() throws {
        let s = try load("curved-line-reveal.json")
        XCTAssertNotNil(s.node("axis-bottom")); XCTAssertNotNil(s.node("axis-leading"))
    }
}
