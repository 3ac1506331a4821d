import XCTest
import Geometry
import Raster
import Text
@testable import Scene
@testable import Charts

/// `insideEnd` labels on horizontal bars: the colour that reads on the bar, and bars
/// below zero, whose end is on the left.
final class InsideLabelTests: XCTestCase {
    let gold = Color(hex: "#E7BA52")!, navy = Color(hex: "#1F3A93")!, yellow = Color(hex: "#F0E442")!

    /// Bars of 300×200 with x over −100…100 (zero at x = 150), one band per row.
    func chart(_ rows: [(String, Double)], colors: [Color], insideColor: Color? = nil) throws -> (ChartSpec, TextMarkSpec) {
        let data: [DataRow] = rows.map { ["k": .string($0.0), "v": .number($0.1)] }
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 300, height: 200),
                          style: ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)), data: data)
        c.inset = 0
        c.x = Channel(field: "v"); c.x.domain = (-100, 100)
        c.y = Channel(field: "k")
        var bars = BarMarkSpec(options: MarkOptions(id: "bars"))
        bars.orientation = .horizontal
        bars.options.color = .category(field: "k", colors: colors, domain: nil)
        var label = TextMarkSpec(options: MarkOptions(id: "labels"))
        label.field = "k"
        label.position = .insideEnd
        label.insideColor = insideColor
        c.marks = [bars, label]
        return (c, label)
    }

    func labels(_ c: ChartSpec, _ label: TextMarkSpec) -> [TextNode] {
        label.nodes(in: c, state: c.state(at: 0)).compactMap { n -> TextNode? in
            if case .text(let t) = n { return t }
            if case .group(let g) = n, case .text(let t)? = g.children.first { return t }
            return nil
        }
    }

    func testTheInsideColourIsTheOneThatReadsOnTheBar() throws {
        let (c, label) = try chart([("Goldtown", 90), ("Navyville", 80), ("Lemonford", 70)], colors: [gold, navy, yellow])
        let l = labels(c, label)
        XCTAssertEqual(l.count, 3)
        let dark = c.style.textColor
        XCTAssertLessThan(Palette.luminance(dark), 0.2, "the default text colour is dark")
        XCTAssertEqual(l[0].color, dark, "dark on gold")
        XCTAssertEqual(l[1].color, .white, "white on navy")
        XCTAssertEqual(l[2].color, dark, "dark on yellow")
        // Inside the bar's end, anchored at its trailing edge.
        for t in l { XCTAssertEqual(t.anchor.horizontal, .trailing) }
        // An explicit colour is kept on every bar.
        let red = Color(r: 1, g: 0, b: 0)
        let (c2, label2) = try chart([("Goldtown", 90), ("Navyville", 80)], colors: [gold, navy], insideColor: red)
        XCTAssertEqual(labels(c2, label2).map(\.color), [red, red])
    }

    func testContrastChoiceFollowsTheWCAGRatio() {
        XCTAssertEqual(Palette.readable(on: .black, light: .white, dark: .black), .white)
        XCTAssertEqual(Palette.readable(on: .white, light: .white, dark: .black), .black)
        // Mid grey #777777 (luminance 0.184) is just past the crossing at 0.179: dark wins.
        XCTAssertEqual(Palette.readable(on: Color(hex: "#777777")!, light: .white, dark: .black), .black)
        XCTAssertEqual(Palette.readable(on: Color(hex: "#747474")!, light: .white, dark: .black), .white)
        XCTAssertEqual(Palette.luminance(.white), 1, accuracy: 1e-12)
        XCTAssertEqual(Palette.luminance(Color(r: 0, g: 1, b: 0)), 0.7152, accuracy: 1e-12)
    }

    func testABarBelowZeroHasItsLabelOnItsLeftEnd() throws {
        let (c, label) = try chart([("Longneg", -90), ("Short", -4), ("Pos", 4)], colors: [navy, navy, navy])
        let l = labels(c, label)
        let state = c.state(at: 0)
        let off = label.offset
        // Fits: inside the bar from its left end, reading rightwards, in the inside colour.
        XCTAssertEqual(l[0].anchor.horizontal, .leading)
        XCTAssertEqual(l[0].position.x, state.x(-90) + off, accuracy: 1e-9)
        XCTAssertEqual(l[0].color, .white)
        // Does not fit: before the bar's left end, in the label's own colour.
        XCTAssertEqual(l[1].anchor.horizontal, .trailing)
        XCTAssertEqual(l[1].position.x, state.x(-4) - off, accuracy: 1e-9)
        XCTAssertEqual(l[1].color, c.style.textColor)
        // A short bar above zero: after its end, as before.
        XCTAssertEqual(l[2].anchor.horizontal, .leading)
        XCTAssertEqual(l[2].position.x, state.x(4) + off, accuracy: 1e-9)

        // In pixels: the short negative bar is one colour (no label over it), and the label
        // has ink left of it.
        let scene = Scene(width: 300, height: 200, background: .white, nodes: [c.build()])
        let f = scene.frame(at: 0)
        let bar = navy.premultiplied
        let rows = (0..<200).filter { f.pixel(148, $0) == bar && f.pixel(140, $0) != bar }
        XCTAssertFalse(rows.isEmpty, "the short bar runs from x 144 to 150")
        let y0 = rows.min()!, y1 = rows.max()!
        for y in y0...y1 { for x in 145..<149 { XCTAssertEqual(f.pixel(x, y), bar, "bar pixel (\(x), \(y)) is not covered") } }
        let ink = (y0...y1).contains { y in (0..<140).contains { x in f.pixel(x, y) != PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255) } }
        XCTAssertTrue(ink, "the label is drawn left of the bar")
    }

    func testTheDefaultColoursDoNotRepeatWithin24Keys() {
        let colours = (0..<24).map { Palette.color($0) }
        XCTAssertEqual(Set(colours).count, 24)
        XCTAssertEqual(Array(colours.prefix(8)), Palette.categorical, "the first eight are unchanged")
        XCTAssertEqual(Palette.color(24), Palette.color(0))
        XCTAssertEqual(Palette.color(-1), Palette.color(23))
        // Shades darker and tints lighter than their base colour.
        for i in 0..<8 {
            XCTAssertLessThan(Palette.luminance(Palette.color(8 + i)), Palette.luminance(Palette.color(i)))
            XCTAssertGreaterThan(Palette.luminance(Palette.color(16 + i)), Palette.luminance(Palette.color(i)))
        }
    }
}
