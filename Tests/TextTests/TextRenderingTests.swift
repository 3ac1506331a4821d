import Foundation
import Geometry
import Motion
import Raster
@testable import Scene
import Text
import XCTest

/// Labels drawn through Scene's TextNode: right-to-left order, fallback ink, colour emoji,
/// wrapping and counters.
final class TextRenderingTests: XCTestCase {
    func render(_ node: TextNode, width: Int, height: Int, background: Color = .clear, at t: Double = 0) -> Pixmap {
        let canvas = Canvas(width: width, height: height, background: background)
        node.render(at: t, on: canvas)
        return canvas.pixmap
    }

    /// Pixels with alpha above `threshold`.
    func inked(_ p: Pixmap, threshold: UInt8 = 128) -> Set<Int> {
        var out = Set<Int>()
        for y in 0..<p.height { for x in 0..<p.width where p.pixel(x, y).a > threshold { out.insert(y * p.width + x) } }
        return out
    }

    func testRightToLeftLabelDrawsItsFirstLetterAtTheRight() throws {
        let font = try Font(path: Noto.hebrew)
        let label = "שלום"
        let full = TextNode(label, font: font, size: 40, position: Point(10, 50))
        let whole = inked(render(full, width: 200, height: 70))
        // The first letter alone, its right edge where the label's right edge is …
        let first = TextNode("ש", font: font, size: 40, position: Point(10 + full.metrics.width, 50), anchor: TextAnchor(.trailing, .baseline))
        let right = inked(render(first, width: 200, height: 70))
        // … and at the label's left edge.
        let leftNode = TextNode("ש", font: font, size: 40, position: Point(10, 50))
        let left = inked(render(leftNode, width: 200, height: 70))
        XCTAssertGreaterThan(right.count, 50)
        XCTAssertGreaterThan(Double(right.intersection(whole).count) / Double(right.count), 0.95, "the first letter is at the right")
        XCTAssertLessThan(Double(left.intersection(whole).count) / Double(left.count), 0.8, "and not at the left")
    }

    func testFallbackLabelHasInkForEveryCharacter() throws {
        let label = "Aα Жب ש क ก 中 あ 한"
        let node = TextNode(label, font: dejaVu, size: 28, position: Point(5, 40))
        let pixmap = render(node, width: Int(node.metrics.width) + 10, height: 60)
        let line = TextLine(label, font: dejaVu, size: 28)
        XCTAssertEqual(line.missing, [])
        let scalars = Array(label.unicodeScalars)
        var checked = 0
        for g in line.glyphs where scalars[g.cluster] != " " {
            XCTAssertNotEqual(g.glyph, 0, "\(scalars[g.cluster]) has a glyph")
            let b = g.font.glyphPath(glyph: g.glyph, size: 28, origin: Point(5 + g.position.x, 40 + g.position.y)).controlBounds
            var ink = 0
            for y in max(0, Int(b.minY))..<min(60, Int(b.maxY.rounded(.up))) {
                for x in max(0, Int(b.minX))..<min(pixmap.width, Int(b.maxX.rounded(.up))) where pixmap.pixel(x, y).a > 200 { ink += 1 }
            }
            XCTAssertGreaterThan(ink, 3, "ink for \(scalars[g.cluster]) in \(g.font.familyName)")
            checked += 1
        }
        XCTAssertEqual(checked, label.unicodeScalars.filter { $0 != " " }.count)
    }

    func testEmojiLabelHasTheEmojisColours() throws {
        // Japan's flag: white with a red disc; a grinning face: yellow.
        var node = TextNode("🇯🇵 😀", font: dejaVu, size: 48, position: Point(4, 52))
        XCTAssertEqual(node.colorGlyphs.count, 2)
        let p = render(node, width: Int(node.metrics.width) + 8, height: 70, background: .black)
        var red = 0, white = 0, yellow = 0
        for y in 0..<p.height { for x in 0..<p.width {
            let c = p.pixel(x, y)
            if c.r > 180 && c.g < 80 && c.b < 90 { red += 1 }
            if c.r > 230 && c.g > 230 && c.b > 230 { white += 1 }
            if c.r > 220 && c.g > 160 && c.b < 100 { yellow += 1 }
        } }
        XCTAssertGreaterThan(red, 100); XCTAssertGreaterThan(white, 200); XCTAssertGreaterThan(yellow, 200)
        // Under half opacity the emoji are half as opaque (on a transparent canvas).
        node.opacity = .constant(0.5)
        let half = render(node, width: Int(node.metrics.width) + 8, height: 70)
        let maxAlpha = (0..<half.height).flatMap { y in (0..<half.width).map { half.pixel($0, y).a } }.max()!
        XCTAssertEqual(Int(maxAlpha), 128, accuracy: 2)
    }

    func testWrappedSubtitleStaysWithinItsWidth() throws {
        let text = "Population of the world's largest countries, 1950 to 2025, in millions of people, from the United Nations' estimates"
        let style = TextBlockStyle(maxWidth: 220, lineHeight: 1.2)
        let node = TextNode(text, font: dejaVu, size: 14, position: Point(10, 20), style: style)
        XCTAssertGreaterThan(node.lineStrings.count, 2)
        XCTAssertEqual(node.lineStrings.joined(separator: " "), text, "no text lost")
        for s in node.lineStrings { XCTAssertLessThanOrEqual(dejaVu.measure(s, size: 14).width, 220, s) }
        XCTAssertEqual(node.metrics.descent, Double(node.lineStrings.count - 1) * 1.2 * dejaVu.lineHeight(size: 14) + dejaVu.descent(size: 14), accuracy: 1e-9)
        let p = render(node, width: 300, height: 200)
        let xs = inked(p, threshold: 0).map { $0 % p.width }
        XCTAssertGreaterThanOrEqual(xs.min()!, 10)
        XCTAssertLessThanOrEqual(xs.max()!, 10 + 220 + 1)
        // Truncation: one line ending in an ellipsis, within the width.
        let cut = TextNode(text, font: dejaVu, size: 14, position: Point(10, 20), style: TextBlockStyle(maxWidth: 220, overflow: .truncate))
        XCTAssertEqual(cut.lineStrings.count, 1)
        XCTAssertTrue(cut.lineStrings[0].hasSuffix("…"))
        XCTAssertLessThanOrEqual(cut.metrics.width, 220)
        // Thai has no spaces between words: ICU's dictionary still finds breaks.
        let thai = TextNode("ประเทศไทยเป็นประเทศในเอเชียตะวันออกเฉียงใต้", font: dejaVu, size: 16, position: .zero,
                            style: TextBlockStyle(maxWidth: 120))
        XCTAssertGreaterThan(thai.lineStrings.count, 1)
        for s in thai.lineStrings { XCTAssertLessThanOrEqual(dejaVu.measure(s, size: 16).width, 120, s) }
    }

    func testCounterDigitsStayInPlace() throws {
        // A right-aligned counter from 1,000 to 9,999: every digit column keeps its x.
        var node = TextNode("0", font: dejaVu, size: 30, position: Point(190, 40), anchor: TextAnchor(.trailing, .baseline))
        node.counter = (AnimatedValue.constant(0), { String(Int($0)) })
        var columns: [[Double]] = []
        for v in [1000.0, 1111, 4747, 8888, 9999] {
            let s = String(Int(v))
            let line = TextLine(s, font: dejaVu, size: 30, options: .tabularFigures)
            columns.append(line.glyphs.map { 190 - line.metrics.width + $0.position.x })
        }
        for c in columns { XCTAssertEqual(c, columns[0]) }
        // And rendered: the ink of "1111" lies in the cells "8888" fills.
        func frame(_ v: Double) -> Set<Int> {
            var n = node
            n.counter = (AnimatedValue.constant(v), { String(Int($0)) })
            return inked(render(n, width: 200, height: 50), threshold: 0)
        }
        let ones = frame(1111), eights = frame(8888)
        XCTAssertFalse(ones.isEmpty)
        // Each "1" sits in the cell of its digit: a tabular digit's advance from the label's left end.
        let w = TextLine("8888", font: dejaVu, size: 30, options: .tabularFigures).metrics.width
        let cellXs = ones.map { Double($0 % 200) + 0.5 - (190 - w) }
        XCTAssertTrue(cellXs.allSatisfy { $0 >= 0 && $0 <= w }, "ink within the counter's box")
        let xs1 = ones.map { $0 % 200 }, xs8 = eights.map { $0 % 200 }
        XCTAssertEqual(Double(xs1.max()!), Double(xs8.max()!), accuracy: 4, "right edges agree")
    }

    func testCounterDrawnGlyphByGlyphGivesTheBytesOfTheWholeLabel() throws {
        // A counter's glyphs are filled from cells kept per glyph and place
        // (Canvas.fill(pieces:)); a plain node with the same string and tabular figures
        // fills the whole label. Same bytes on every frame, for new cells and kept ones,
        // in several anchors, fractional places, a rotation, opacity with a pill, a wrapped
        // two-line format and a format with fallback glyphs.
        let formats: [@Sendable (Double) -> String] = [
            { String(Int($0)) },
            { v in "€" + String(Int(v)).reversed().enumerated().map { $0 > 0 && $0 % 3 == 0 ? "\($1)," : "\($1)" }.reversed().joined() },
            { "\(Int($0)) 万人 ١٢" },
            { "\(Int($0))\n\(Int($0) % 97) km" },
        ]
        let cases: [(TextAnchor, Point, Double, TextBackground?, Double, Int)] = [
            (TextAnchor(.trailing, .baseline), Point(190.37, 40.5), 0, nil, 1, 0),
            (TextAnchor(.leading, .baseline), Point(10.125, 38), 0, nil, 1, 1),
            (TextAnchor(.center, .center), Point(100.5, 30.3), 0.12, nil, 1, 0),
            (TextAnchor(.trailing, .top), Point(188, 6.7), 0, TextBackground(color: Color(r: 0.9, g: 0.9, b: 1)), 0.6, 1),
            (TextAnchor(.leading, .baseline), Point(12.6, 30), 0, nil, 0.8, 2),
            (TextAnchor(.leading, .top), Point(12.6, 4.2), 0, nil, 1, 3),
        ]
        var frames = 0
        for (anchor, position, rotation, background, opacity, f) in cases {
            var node = TextNode("0", font: dejaVu, size: 19.5, color: Color(r: 0.1, g: 0.1, b: 0.15), position: position,
                                anchor: anchor, rotation: rotation, background: background)
            node.opacity = .constant(opacity)
            for v in [0.0, 7, 42, 1234, 1235, 1243, 99_999, 1234, 1_000_000, 1_000_000, 999_999] {
                node.counter = (AnimatedValue.constant(v), formats[f])
                let plain = TextNode(formats[f](v), font: dejaVu, size: 19.5, color: Color(r: 0.1, g: 0.1, b: 0.15),
                                     position: position, anchor: anchor, rotation: rotation, background: background,
                                     options: .tabularFigures)
                var p = plain
                p.opacity = .constant(opacity)
                let a = render(node, width: 200, height: 60, background: .white)
                let b = render(p, width: 200, height: 60, background: .white)
                XCTAssertTrue(a.data == b.data, "\(formats[f](v)) anchored \(anchor) at \(position)")
                XCTAssertNotEqual(a.data, Canvas(width: 200, height: 60, background: .white).pixmap.data, "ink")
                frames += 1
            }
        }
        XCTAssertEqual(frames, 66)
    }

    func testReplayedCoverageGivesTheBytesOfAFreshFill() throws {
        // A node draws through its coverage cache: the second frame replays the first's
        // spans. Compare with a new node (empty cache) on every frame, over a background,
        // at two opacities and after a move (a new key).
        var node = TextNode("Caffeine 🇯🇵 مصر", font: dejaVu, size: 22, position: Point(7.3, 30.6))
        for (opacity, dx) in [(1.0, 0.0), (1.0, 0.0), (0.6, 0.0), (1.0, 3.25), (1.0, 0.0)] {
            node.opacity = .constant(opacity)
            node.position.x = 7.3 + dx
            let fresh = TextNode("Caffeine 🇯🇵 مصر", font: dejaVu, size: 22, position: node.position)
            var f = fresh
            f.opacity = .constant(opacity)
            let a = render(node, width: 260, height: 44, background: Color(r: 0.9, g: 0.8, b: 0.7))
            let b = render(f, width: 260, height: 44, background: Color(r: 0.9, g: 0.8, b: 0.7))
            XCTAssertEqual(a, b, "opacity \(opacity), moved \(dx)")
        }
    }

    func testNodesMadeAnewShareTheirLayoutAndItsCoverage() throws {
        // A chart makes its labels anew at every frame: the same text, font, size and
        // options find the layout (and its recorded coverage) of the frame before.
        let a = TextNode("Caffeine 🇯🇵", font: dejaVu, size: 17, position: Point(3, 20))
        let b = TextNode("Caffeine 🇯🇵", font: dejaVu, size: 17, position: Point(40.5, 9))
        XCTAssertTrue(a.laidOut === b.laidOut)
        XCTAssertFalse(a.laidOut === TextNode("Caffeine 🇯🇵", font: dejaVu, size: 18, position: Point(3, 20)).laidOut)
        XCTAssertFalse(a.laidOut === TextNode("Caffeine 🇯🇵", font: dejaVu, size: 17, position: Point(3, 20),
                                              options: .tabularFigures).laidOut)
        // Drawn twice (recorded, then replayed as a block) it gives the first frame's bytes.
        let first = render(b, width: 160, height: 30, background: .white)
        XCTAssertTrue(render(b, width: 160, height: 30, background: .white) == first)
        XCTAssertTrue(render(b, width: 160, height: 30, background: .white) == first)
    }

    func testAMovingLabelSitsAtItsRoundedPlace() throws {
        // subpixelSteps 4: a label at x 7.3 is drawn at 7.25 (within a level of the exact
        // fill there), and the same at every visit whatever was drawn in between.
        var moving = TextNode("Brasil 216", font: dejaVu, size: 15, position: Point(7.3, 20.1))
        moving.subpixelSteps = 4
        let exact = TextNode("Brasil 216", font: dejaVu, size: 15, position: Point(7.25, 20.0))
        let first = render(moving, width: 120, height: 30, background: .white)
        let d = zip(first.data, render(exact, width: 120, height: 30, background: .white).data).map { abs(Int($0) - Int($1)) }.max()!
        XCTAssertLessThanOrEqual(d, 1)
        for x in [9.8, 31.05, 7.3] {
            moving.position.x = x
            _ = render(moving, width: 120, height: 30, background: .white)
        }
        XCTAssertTrue(render(moving, width: 120, height: 30, background: .white) == first)
    }

    func testWrappedLinesTakeTheirParagraphsDirectionAndStartFollowsIt() throws {
        // A Hebrew paragraph whose second line starts with Latin words: that line is still
        // right to left, and with "start" it sits at the block's right edge (rendered: its
        // ink reaches the right end of the block, not the left).
        let text = "שלום עולם Hello world"
        let style = TextBlockStyle(maxWidth: 100, overflow: .wrap, alignment: .start)
        let block = TextBlock(text, font: dejaVu, size: 16, style: style)
        XCTAssertEqual(block.strings.count, 2, "\(block.strings)")
        XCTAssertTrue(block.lines[0].line.isRightToLeft)
        XCTAssertTrue(block.lines[1].line.isRightToLeft, "the Latin line keeps the paragraph's direction")
        for (line, origin) in block.lines {
            XCTAssertEqual(origin.x, block.metrics.width - line.metrics.width, accuracy: 1e-9, "start is the right edge")
        }
        let end = TextBlock(text, font: dejaVu, size: 16, style: TextBlockStyle(maxWidth: 100, overflow: .wrap, alignment: .end))
        XCTAssertTrue(end.lines.allSatisfy { $0.origin.x == 0 }, "end is the left edge")
        // Left to right, start and end are leading and trailing.
        let latin = TextBlock("Caffeine per cup of coffee", font: dejaVu, size: 16,
                              style: TextBlockStyle(maxWidth: 100, overflow: .wrap, alignment: .start))
        XCTAssertGreaterThan(latin.lines.count, 1)
        XCTAssertTrue(latin.lines.allSatisfy { $0.origin.x == 0 })
        let latinEnd = TextBlock("Caffeine per cup of coffee", font: dejaVu, size: 16,
                                 style: TextBlockStyle(maxWidth: 100, overflow: .wrap, alignment: .end))
        XCTAssertTrue(latinEnd.lines.allSatisfy { abs($0.origin.x + $0.line.metrics.width - latinEnd.metrics.width) < 1e-9 })
        // The frame: the second line's ink ends at the block's right edge.
        let node = TextNode(text, font: dejaVu, size: 16, color: .black, position: Point(10, 20), style: style)
        let p = render(node, width: 140, height: 50)
        let advance = dejaVu.lineHeight(size: 16)
        let rowY = Int((20 + advance - 5).rounded())
        let xs = (0..<p.width).filter { p.pixel($0, rowY).a > 100 }
        XCTAssertFalse(xs.isEmpty, "second line has ink")
        XCTAssertEqual(Double(xs.max()!), 10 + node.metrics.width, accuracy: 3)
        XCTAssertGreaterThan(Double(xs.min()!), 10 + node.metrics.width - block.lines[1].line.metrics.width - 3)
    }

    func testImagePaintInterpolatesBetweenTexelCentres() throws {
        // A 2x1 image, red then blue, stretched over 20x10 px: the left quarter is red, the
        // right quarter blue, the middle a premultiplied mix.
        let red = PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255), blue = PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255)
        var image = Pixmap(width: 2, height: 1)
        image.data = [red.r, red.g, red.b, red.a, blue.r, blue.g, blue.b, blue.a]
        let canvas = Canvas(width: 20, height: 10)
        let rect = Rect(x: 0, y: 0, width: 20, height: 10)
        canvas.fill(Path.rect(rect), paint: .image(ImagePaint(pixmap: image, rect: rect)))
        let p = canvas.pixmap
        XCTAssertEqual(p.pixel(2, 5), red)
        XCTAssertEqual(p.pixel(17, 5), blue)
        let mid = p.pixel(10, 5)
        // u = 10.5 / 10 − 0.5 = 0.55 texels from the red centre: 45 % red, 55 % blue.
        XCTAssertEqual(Int(mid.r), 115, accuracy: 1); XCTAssertEqual(Int(mid.b), 139, accuracy: 1)
        XCTAssertEqual(p.pixel(10, 0).a, 255, "edge rows are the edge texels, not faded")
    }
}
