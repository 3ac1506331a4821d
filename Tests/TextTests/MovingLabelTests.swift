import Foundation
import Geometry
import Raster
@testable import Scene
@testable import Text
import XCTest

/// A race's value label, a new string on most frames and a new place on every frame,
/// drawn at its quarter pixel from its glyphs' kept cells (`TextNode.subpixelSteps`,
/// Canvas+SnappedPieces.swift), against the whole label's outline through the same
/// snapped fill with a cache of its own: the same bytes, frame after frame.
final class MovingLabelTests: XCTestCase {
    func testMovingCountingLabelsDrawTheBytesOfTheirWholeOutline() throws {
        var r = CounterLineTests.Seeded(state: 2718)
        let fonts = [dejaVu, try Font(path: Noto.latin)]
        let names = ["Key 17", "Lagos", "Ho Chi Minh City", "São Paulo", "Zürich", "AV Wa", "key-0042"]
        var value = 1234.5
        var x = 180.0, y = 30.0
        var drawn = 0
        for frame in 0..<400 {
            let font = fonts[(frame / 100) % 2]
            let name = names[(frame / 37) % names.count]
            value += r.unit() * 40
            x += r.unit() * 3
            if x > 330 { x = 150 + r.unit() * 20 }
            if frame % 25 == 0 { y = 20 + r.unit() * 20 }
            let text = name + " " + String(format: "%.1f", value)
            let size = frame % 150 < 120 ? 15.0 : 19.25
            let inside = frame % 3 != 0
            var node = TextNode(text, font: font, size: size, color: inside ? .white : Color(r: 0.1, g: 0.1, b: 0.15),
                                position: Point(x, y), anchor: TextAnchor(inside ? .trailing : .leading, .center),
                                options: .tabularFigures)
            node.subpixelSteps = 4
            if frame % 20 == 13 { node.opacity = .constant(0.6) }
            let background = Color(r: 0.2, g: 0.4, b: 0.7)
            let a = Canvas(width: 360, height: 56, background: background)
            let b = Canvas(width: 360, height: 56, background: background)
            if frame % 9 == 4 {
                // Under a clip mask: both draw afresh at the rounded place.
                for c in [a, b] { c.clip(to: Rect(x: 0.5, y: 0.5, width: 359, height: 55)) }
            }
            node.render(at: 0, on: a)
            // The reference: the general layout's outline, one path, a cache of its own.
            let block = TextBlock(text, font: font, size: size, options: .tabularFigures, keepShaping: false)
            b.save()
            b.concatenate(node.transform)
            b.fill(block.path(at: .zero), paint: .solid(node.color), rule: .nonZero, opacity: frame % 20 == 13 ? 0.6 : 1,
                   cache: CoverageCache(), subpixelSteps: 4)
            b.restore()
            XCTAssertTrue(a.pixmap.data == b.pixmap.data, "frame \(frame): \"\(text)\" at \(x), \(y)")
            if a.pixmap.data != Canvas(width: 360, height: 56, background: background).pixmap.data { drawn += 1 }
        }
        XCTAssertEqual(drawn, 400, "every label drew ink")
    }

    func testALayoutsGlyphsAreTheBlocksPath() throws {
        // The outlines are built from the placed glyphs when first needed: the path the
        // block gives, element for element (printable ASCII through the lean layout, the
        // rest through the general one: other scripts, fallback fonts, several lines).
        let strings = ["12,345.6", "Key 17 1234.5", "AV Wa ffi", "São Paulo 12.0", "مرحبا 12", "日本語 7", "two\nlines here",
                       "wrapped text that is long enough to wrap", "  ", "", "x"]
        for s in strings {
            for style in [TextBlockStyle.singleLine, TextBlockStyle(maxWidth: 90, alignment: .center)] {
                let node = TextNode(s, font: dejaVu, size: 15, position: .zero, options: .tabularFigures, style: style)
                let block = TextBlock(s, font: dejaVu, size: 15, options: .tabularFigures, style: style)
                XCTAssertEqual(node.glyphs, block.path(at: .zero), "\"\(s)\" \(style)")
                XCTAssertEqual(node.glyphs, node.laidOut.glyphs, "built once, the same path")
                XCTAssertEqual(node.metrics.width.bitPattern, block.metrics.width.bitPattern, s)
                XCTAssertEqual(node.lineStrings, block.strings, s)
            }
        }
    }
}
