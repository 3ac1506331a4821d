import XCTest
import Geometry
import Raster
import Scene
import Charts
@testable import Timelines

/// A mark's `"stroke"` object keeps the mark's own defaults for the keys it leaves out: a
/// line given only a width stays round-capped, round-joined and in the palette's first
/// colour (it turned butt-capped, miter-joined and black), a rule given only a dash stays
/// grey; marks without a stroke of their own take the plain defaults.
final class StrokeDefaultsTests: XCTestCase {
    func stroke(_ mark: String) throws -> (paint: NodePaint, style: StrokeStyle) {
        let text = """
        { "canvas": { "width": 300, "height": 200 }, "duration": 0.1,
          "data": { "t": { "values": [ { "x": 1, "y": 2 }, { "x": 2, "y": 5 }, { "x": 3, "y": 3 } ] } },
          "charts": [ { "data": "t", "marks": [ \(mark) ] } ] }
        """
        let scene = try TimelineDecoder.decode(Array(text.utf8), file: "stroke.json")
        func first(_ n: Node) -> (paint: NodePaint, style: StrokeStyle)? {
            switch n {
            case .shape(let s): return s.stroke
            case .group(let g): return g.children.lazy.compactMap(first).first
            case .text: return nil
            }
        }
        return try XCTUnwrap(scene.node("m").flatMap(first), "no stroked shape in the mark")
    }

    func solid(_ p: NodePaint) -> Color? { if case .solid(let c) = p { return c } else { return nil } }

    func testALineGivenOnlyAWidthKeepsItsCapsJoinsAndColour() throws {
        let s = try stroke(#"{ "id": "m", "type": "line", "stroke": { "width": 3 } }"#)
        XCTAssertEqual(s.style.width, 3)
        XCTAssertEqual(s.style.cap, .round)
        XCTAssertEqual(s.style.join, .round)
        XCTAssertEqual(solid(s.paint), Palette.color(0))
        // The same as a line that says nothing, but for the width.
        let plain = try stroke(#"{ "id": "m", "type": "line" }"#)
        XCTAssertEqual(plain.style.cap, s.style.cap)
        XCTAssertEqual(plain.style.join, s.style.join)
        XCTAssertEqual(solid(plain.paint), solid(s.paint))
    }

    func testWhatAStrokeSaysWins() throws {
        let s = try stroke(##"{ "id": "m", "type": "line", "stroke": { "width": 3, "cap": "butt", "join": "miter", "paint": "#FF0000" } }"##)
        XCTAssertEqual(s.style.cap, .butt)
        XCTAssertEqual(s.style.join, .miter)
        XCTAssertEqual(solid(s.paint), Color(hex: "#FF0000"))
    }

    func testARuleGivenADashStaysGreyAndAnAreaTakesThePlainDefaults() throws {
        let rule = try stroke(#"{ "id": "m", "type": "rule", "orientation": "horizontal", "stroke": { "dash": [4, 2] } }"#)
        XCTAssertEqual(rule.style.dash, [4, 2])
        XCTAssertEqual(solid(rule.paint), solid(RuleMarkSpec.defaultStroke.paint))
        XCTAssertEqual(rule.style.width, RuleMarkSpec.defaultStroke.style.width)
        let area = try stroke(#"{ "id": "m", "type": "area", "stroke": { "width": 2 } }"#)
        XCTAssertEqual(area.style.cap, .butt)
        XCTAssertEqual(area.style.join, .miter)
        XCTAssertEqual(solid(area.paint), .black)
    }
}
