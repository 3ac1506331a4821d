import Foundation
import Geometry
import Motion
import Raster
@testable import Scene
@testable import Text
import XCTest

/// The lean layout of a counter's value (`TextBlock.printableASCIILine`,
/// `LaidOutText.line`) against the general one: the same numbers bit for bit, and the
/// same bytes on the canvas.
final class CounterLineTests: XCTestCase {
    /// A small seeded generator (the tests' sequences do not depend on the run).
    struct Seeded {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }

    /// Strings a counter shows, and printable ASCII with ligatures, kerning pairs and
    /// scripts changing (digits are Common, letters Latin).
    func randomString(_ r: inout Seeded) -> String {
        switch r.below(4) {
        case 0: return String(r.below(10_000_000))
        case 1:
            let digits = String(r.below(1_000_000_000))
            return String(digits.reversed().enumerated().map { $0 > 0 && $0 % 3 == 0 ? "\($1)," : "\($1)" }.reversed().joined())
        case 2: return ["$", "-", "+", "", "~"][r.below(5)] + String(format: "%.\(r.below(4))f", r.unit() * 1e5) + ["", "%", " km", " AV", " fi"][r.below(5)]
        default:
            let alphabet = Array(" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~")
            return String((0..<(1 + r.below(14))).map { _ in alphabet[r.below(alphabet.count)] })
        }
    }

    func bits(_ m: TextMetrics) -> [UInt64] {
        [m.width, m.ascent, m.descent, m.bounds.x, m.bounds.y, m.bounds.width, m.bounds.height].map(\.bitPattern)
    }

    func testPrintableASCIILineMatchesTheGeneralLayoutBitForBit() throws {
        let fonts = [dejaVu, try Font(path: Noto.latin)]
        let options: [ShapingOptions] = [
            .default, .tabularFigures, ShapingOptions(features: ["tnum", "-kern"]), ShapingOptions(features: ["-liga", "tnum"]),
            ShapingOptions(features: ["tnum"], language: "tr"), ShapingOptions(features: ["tnum"], direction: .leftToRight),
            ShapingOptions(features: ["onum", "tnum"], language: "de"),
        ]
        let styles: [TextBlockStyle] = [
            .singleLine, TextBlockStyle(alignment: .center), TextBlockStyle(alignment: .trailing), TextBlockStyle(alignment: .end),
            TextBlockStyle(alignment: .start), TextBlockStyle(lineHeight: 1.7), TextBlockStyle(overflow: .truncate),
            TextBlockStyle(maxLines: 0), TextBlockStyle(maxLines: 2, lineHeight: 0.8, alignment: .center),
        ]
        var r = Seeded(state: 17)
        var compared = 0
        for _ in 0..<3000 {
            let s = randomString(&r)
            let font = fonts[r.below(fonts.count)], o = options[r.below(options.count)], style = styles[r.below(styles.count)]
            let size = [15, 19.5, 7.25, 64][r.below(4)] + (r.below(2) == 0 ? 0 : r.unit() * 30)
            let block = TextBlock(s, font: font, size: size, options: o, style: style, keepShaping: false)
            guard let lean = TextBlock.printableASCIILine(s, font: font, size: size, options: o, style: style) else {
                return XCTFail("no lean layout for \"\(s)\"")
            }
            let general = block.outlineGlyphs(at: .zero)
            XCTAssertEqual(bits(lean.metrics), bits(block.metrics), "\"\(s)\" size \(size) \(o) \(style)")
            XCTAssertEqual(lean.outlines.count, general.count, s)
            for (a, b) in zip(lean.outlines, general) {
                XCTAssertTrue(a.font === b.font && a.glyph == b.glyph, s)
                XCTAssertEqual(a.origin.x.bitPattern, b.origin.x.bitPattern, "\"\(s)\" glyph \(a.glyph)")
                XCTAssertEqual(a.origin.y.bitPattern, b.origin.y.bitPattern, "\"\(s)\" glyph \(a.glyph)")
            }
            compared += 1
        }
        XCTAssertEqual(compared, 3000)
    }

    func testLeanLayoutDeclinesWhatItDoesNotCover() throws {
        let emoji = try Font(path: Noto.emoji)
        XCTAssertNil(TextBlock.printableASCIILine("", font: dejaVu, size: 15, options: .tabularFigures, style: .singleLine))
        XCTAssertNil(TextBlock.printableASCIILine("12\n34", font: dejaVu, size: 15, options: .tabularFigures, style: .singleLine))
        XCTAssertNil(TextBlock.printableASCIILine("1\t2", font: dejaVu, size: 15, options: .tabularFigures, style: .singleLine))
        XCTAssertNil(TextBlock.printableASCIILine("€12", font: dejaVu, size: 15, options: .tabularFigures, style: .singleLine))
        XCTAssertNil(TextBlock.printableASCIILine("1234", font: dejaVu, size: 15, options: .tabularFigures,
                                                  style: TextBlockStyle(maxWidth: 400)))
        XCTAssertNil(TextBlock.printableASCIILine("1234", font: dejaVu, size: 15,
                                                  options: ShapingOptions(features: ["tnum"], direction: .rightToLeft), style: .singleLine))
        XCTAssertNil(TextBlock.printableASCIILine("1234", font: emoji, size: 15, options: .tabularFigures, style: .singleLine))
        XCTAssertNotNil(TextBlock.printableASCIILine("1234", font: dejaVu, size: 15, options: .tabularFigures, style: .singleLine))
    }

    func testCounterThroughTheLeanLayoutDrawsTheBytesOfTheGeneralOne() throws {
        // The counter's value at each frame drawn by the node (lean layout) and by a node
        // made from the general counting layout, on random places, anchors, rotations,
        // opacities, pills and values; a frame's bytes are compared whole.
        var r = Seeded(state: 4711)
        let anchors: [TextAnchor] = [TextAnchor(.trailing, .baseline), TextAnchor(.leading, .top), TextAnchor(.center, .center),
                                     TextAnchor(.trailing, .bottom)]
        var drawn = 0
        for k in 0..<120 {
            let position = Point(60 + r.unit() * 120, 14 + r.unit() * 30)
            let anchor = anchors[r.below(anchors.count)]
            let rotation = r.below(4) == 0 ? r.unit() * 0.3 : 0
            let background = r.below(4) == 0 ? TextBackground(color: Color(r: 0.9, g: 0.85, b: 1)) : nil
            let opacity = r.below(3) == 0 ? 0.3 + r.unit() * 0.6 : 1
            let size = 11 + r.unit() * 16
            let value = Double(r.below(2_000_000)) - (k % 5 == 0 ? 1_000_000 : 0)
            let plainFormat: @Sendable (Double) -> String = { v in String(Int(v)) }
            let percentFormat: @Sendable (Double) -> String = { v in "\(Int(v) / 10_000).\(abs(Int(v)) % 10)%" }
            let format = k % 2 == 0 ? plainFormat : percentFormat
            var node = TextNode("0", font: dejaVu, size: size, color: Color(r: 0.1, g: 0.1, b: 0.15), position: position,
                                anchor: anchor, rotation: rotation, background: background)
            node.opacity = .constant(opacity)
            node.counter = (AnimatedValue.constant(value), format)
            var general = TextNode(id: nil, format(value), font: dejaVu, size: size, color: Color(r: 0.1, g: 0.1, b: 0.15),
                                   position: position, anchor: anchor, rotation: rotation, background: background,
                                   options: .tabularFigures, style: .singleLine, counting: true)
            general.opacity = .constant(opacity)
            XCTAssertNotNil(general.laidOut.pieces, "the general counting layout")
            let lean = try XCTUnwrap(LaidOutText.line(format(value), font: dejaVu, size: size, options: .tabularFigures,
                                                      style: .singleLine))
            XCTAssertEqual(bits(lean.metrics), bits(general.metrics))
            let a = Canvas(width: 240, height: 60, background: .white), b = Canvas(width: 240, height: 60, background: .white)
            node.render(at: 0, on: a)
            general.render(at: 0, on: b)
            XCTAssertTrue(a.pixmap.data == b.pixmap.data, "\(format(value)) at \(position) anchored \(anchor)")
            XCTAssertNotEqual(a.pixmap.data, Canvas(width: 240, height: 60, background: .white).pixmap.data, "ink")
            drawn += 1
        }
        XCTAssertEqual(drawn, 120)
    }

    func testCountersOfRandomValuesDrawTheBytesOfTheWholeLabel() throws {
        // A counter through the lean layout, drawn glyph by glyph from kept cells, against
        // a plain node with the same string, which fills the whole label: random values,
        // sizes and fractional places, both fonts, two opacities; every frame's bytes.
        var r = Seeded(state: 90210)
        let fonts = [dejaVu, try Font(path: Noto.latin)]
        for k in 0..<300 {
            let font = fonts[k % 2]
            let size = [15, 12.5, 21.75][k % 3] + (k % 4 == 3 ? r.unit() * 6 : 0)
            let position = Point(150 + Double(r.below(64)) / 16, 30 + Double(r.below(32)) / 16)
            let opacity = k % 5 == 4 ? 0.7 : 1
            let value = Double(r.below(10_000_000))
            let format: @Sendable (Double) -> String = { String(Int($0)) }
            var node = TextNode("0", font: font, size: size, color: Color(r: 0.1, g: 0.1, b: 0.12), position: position,
                                anchor: TextAnchor(.trailing, .baseline))
            node.opacity = .constant(opacity)
            node.counter = (AnimatedValue.constant(value), format)
            XCTAssertNotNil(LaidOutText.line(format(value), font: font, size: size, options: .tabularFigures, style: .singleLine))
            var plain = TextNode(format(value), font: font, size: size, color: Color(r: 0.1, g: 0.1, b: 0.12), position: position,
                                 anchor: TextAnchor(.trailing, .baseline), options: .tabularFigures)
            plain.opacity = .constant(opacity)
            let a = Canvas(width: 180, height: 50, background: .white), b = Canvas(width: 180, height: 50, background: .white)
            node.render(at: 0, on: a)
            plain.render(at: 0, on: b)
            XCTAssertTrue(a.pixmap.data == b.pixmap.data, "\(format(value)) at \(position), size \(size)")
            XCTAssertNotEqual(a.pixmap.data, Canvas(width: 180, height: 50, background: .white).pixmap.data, "ink")
        }
    }
}
