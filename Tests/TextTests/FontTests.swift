import Foundation
import Geometry
import Text
import XCTest

final class FontTests: XCTestCase {
    func testVerticalMetricsAreTheFacesAtSize() {
        // DejaVu Sans hhea: ascender 1901, descender -483, line gap 0; 2048 units per em.
        XCTAssertEqual(dejaVu.ascent(size: 2048), 1901)
        XCTAssertEqual(dejaVu.descent(size: 2048), 483)
        XCTAssertEqual(dejaVu.lineHeight(size: 2048), 2384)
        XCTAssertEqual(dejaVu.ascent(size: 32), 1901.0 * 32 / 2048, accuracy: 1e-12)
    }

    func testMissingCharacterMapsToNotdef() {
        XCTAssertNotEqual(dejaVu.glyphIndex(for: "A"), 0)
        XCTAssertEqual(dejaVu.glyphIndex(for: "\u{10FFFD}"), 0)
        // .notdef has ink, so a missing character is visible.
        XCTAssertFalse(path(for: "\u{10FFFD}", font: dejaVu, size: 32, at: .zero).isEmpty)
    }

    func testSpaceHasAdvanceButNoOutline() {
        let space = dejaVu.glyphIndex(for: " ")
        XCTAssertTrue(dejaVu.glyphPath(glyph: space, size: 32, origin: .zero).isEmpty)
        XCTAssertGreaterThan(dejaVu.advance(glyph: space, size: 32), 0)
        XCTAssertEqual(Text.measure("  ", font: dejaVu, size: 32).bounds, .null)
    }

    func testOHasTwoContoursAndLHasOne() {
        let o = dejaVu.glyphPath(glyph: dejaVu.glyphIndex(for: "O"), size: 32, origin: .zero)
        let l = dejaVu.glyphPath(glyph: dejaVu.glyphIndex(for: "l"), size: 32, origin: .zero)
        XCTAssertEqual(subpathCount(o), 2)
        XCTAssertEqual(subpathCount(l), 1)
        // Every contour is closed.
        XCTAssertEqual(o.elements.filter { $0 == .close }.count, 2)
    }

    func testGlyphIsFlippedAboveTheBaselineAtTheOrigin() {
        let origin = Point(100, 200)
        let b = dejaVu.glyphPath(glyph: dejaVu.glyphIndex(for: "l"), size: 32, origin: origin).controlBounds
        // 'l' stands on the baseline and reaches up (y down means smaller y).
        XCTAssertEqual(b.maxY, origin.y, accuracy: 1e-9)
        XCTAssertLessThan(b.minY, origin.y - 20)
        XCTAssertGreaterThan(b.minX, origin.x)
        XCTAssertLessThan(b.maxX, origin.x + dejaVu.advance(glyph: dejaVu.glyphIndex(for: "l"), size: 32))
    }

    func testKerningPairs() {
        let a = dejaVu.glyphIndex(for: "A"), v = dejaVu.glyphIndex(for: "V")
        let t = dejaVu.glyphIndex(for: "T"), o = dejaVu.glyphIndex(for: "o")
        // DejaVu Sans ships a TrueType 'kern' table (besides GPOS), so FT_HAS_KERNING is true.
        XCTAssertTrue(dejaVu.hasKerning)
        if dejaVu.hasKerning {
            XCTAssertLessThan(dejaVu.kerning(left: a, right: v, size: 32), 0)
            XCTAssertLessThan(dejaVu.kerning(left: t, right: o, size: 32), 0)
            // Kerning scales linearly with size.
            XCTAssertEqual(dejaVu.kerning(left: a, right: v, size: 64), 2 * dejaVu.kerning(left: a, right: v, size: 32), accuracy: 1e-12)
        } else {
            XCTAssertEqual(dejaVu.kerning(left: a, right: v, size: 32), 0)
        }
        // Most pairs are not in the table: straight stems are not kerned.
        let h = dejaVu.glyphIndex(for: "H")
        XCTAssertEqual(dejaVu.kerning(left: h, right: h, size: 32), 0)
    }

    func testAdvanceScalesWithSize() {
        let g = dejaVu.glyphIndex(for: "m")
        XCTAssertEqual(dejaVu.advance(glyph: g, size: 64), 2 * dejaVu.advance(glyph: g, size: 32), accuracy: 1e-12)
    }
}
