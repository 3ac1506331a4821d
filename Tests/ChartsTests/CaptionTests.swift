import XCTest
import Geometry
import Motion
import Raster
import Scene
import Text
@testable import Charts

/// A chart's caption (a source line): under the plot, its axis labels and the legend,
/// within the canvas, wrapped at the chart's width, fading like the subtitle.
final class CaptionTests: XCTestCase {
    static let long = "Source: World Bank, World Development Indicators (SP.POP.TOTL), mid-year estimates; "
        + "the 2024 figures are provisional and will be revised"

    func chart(caption: CaptionSpec?, legend: Side = .bottom, width: Double = 400) throws -> ChartSpec {
        let style = ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true))
        let rows: [DataRow] = [(-2.0, -3.0), (0, 1), (4, 8), (8, 5)].map { ["x": .number($0.0), "y": .number($0.1)] }
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: width, height: 300), style: style, data: rows)
        c.axes = [AxisSpec(side: .bottom, title: "Year"), AxisSpec(side: .leading)]
        var m = LineMarkSpec(options: MarkOptions(id: "line"))
        m.stroke = (.solid(Color(r: 1, g: 0, b: 0)), StrokeStyle(width: 2))
        m.options.name = "Population"
        c.marks = [m]
        c.legend = LegendSpec(side: legend)
        c.title = TitleSpec("Population", subtitle: "Millions")
        c.caption = caption
        return c
    }

    /// The ink of `node` drawn alone on a `width` × `height` canvas, as pixel rows and columns.
    func ink(_ node: Node, width: Int = 400, height: Int = 300, at t: Double = 10) -> (xs: [Int], ys: [Int]) {
        let c = Canvas(width: width, height: height)
        node.render(at: t, on: c)
        var xs: [Int] = [], ys: [Int] = []
        for y in 0..<height { for x in 0..<width where c.pixmap.pixel(x, y).a > 0 { xs.append(x); ys.append(y) } }
        return (xs, ys)
    }

    func caption(in node: Node) throws -> TextNode {
        guard case .text(let t)? = node.find("caption") else { throw XCTSkip("no caption node") }
        return t
    }

    func testTheCaptionLiesUnderThePlotTheAxisLabelsAndTheLegendWithinTheCanvas() throws {
        var spec = CaptionSpec(Self.long)
        spec.textStyle = TextBlockStyle(overflow: .wrap)
        for side in [Side.bottom, .top, .trailing] {
            let c = try chart(caption: spec, legend: side)
            let l = c.state(at: 0)
            let node = c.build()
            let caption = try XCTUnwrap(node.find("caption"), "a caption node")
            let text = try self.caption(in: node)
            let captionInk = ink(caption)
            XCTAssertGreaterThan(captionInk.ys.count, 200, "the caption draws ink")
            let top = captionInk.ys.min()!
            // Below the plot and everything drawn under it: the x axis (ticks, labels, title)
            // and a bottom legend.
            XCTAssertGreaterThan(Double(top), l.plot.maxY)
            guard case .group(let g) = node else { return XCTFail("a group") }
            let axis = try XCTUnwrap(g.children.first { $0.id == "axis-bottom" } ?? node.find("axis-bottom"))
            XCTAssertGreaterThan(top, ink(axis).ys.max()!, "legend \(side): under the x axis' labels and title")
            if side == .bottom {
                XCTAssertGreaterThan(top, ink(try XCTUnwrap(node.find("legend"))).ys.max()!, "under the legend")
            }
            // Within the canvas and the chart's content width, on two or more lines none wider than it.
            XCTAssertLessThan(captionInk.ys.max()!, 300)
            XCTAssertGreaterThanOrEqual(captionInk.xs.min()!, Int(l.content.minX))
            XCTAssertLessThanOrEqual(captionInk.xs.max()!, Int(l.content.maxX.rounded(.up)))
            XCTAssertGreaterThanOrEqual(text.lineStrings.count, 2)
            for line in text.lineStrings {
                XCTAssertLessThanOrEqual(c.style.font.measure(line, size: c.style.captionSize).width, l.content.width, line)
            }
            // Its last line ends at the content's bottom.
            XCTAssertEqual(text.position.y, l.content.maxY, accuracy: 1e-9)
        }
    }

    func testThePlotGivesUpTheCaptionsLines() throws {
        let without = try chart(caption: nil).state(at: 0)
        let one = try chart(caption: CaptionSpec("Source: World Bank")).state(at: 0)
        var wrapped = CaptionSpec(Self.long)
        wrapped.textStyle = TextBlockStyle(overflow: .wrap)
        let two = try chart(caption: wrapped).state(at: 0)
        let font = try FontCache.font()
        let line = font.ascent(size: 11) + font.descent(size: 11)
        XCTAssertEqual(without.plot.maxY - one.plot.maxY, line + 10, accuracy: 1e-9)
        XCTAssertGreaterThan(one.plot.maxY - two.plot.maxY, line * 0.9, "a second line takes more")
        XCTAssertEqual(without.plot.minY, two.plot.minY, "the title block is where it was")
    }

    func testTheCaptionFadesInLikeTheSubtitle() throws {
        var spec = CaptionSpec("Source: World Bank")
        spec.opacity = .tween(Tween(from: 0, to: 1, animation: .easeInOut(duration: 1)))
        let node = try chart(caption: spec).build()
        let caption = try XCTUnwrap(node.find("caption"))
        XCTAssertTrue(ink(caption, at: 0).ys.isEmpty, "transparent at the start")
        let c = Canvas(width: 400, height: 300)
        caption.render(at: 0.5, on: c)
        let half = (0..<300).flatMap { y in (0..<400).map { c.pixmap.pixel($0, y).a } }.max()!
        XCTAssertGreaterThan(half, 0)
        XCTAssertLessThan(half, 255, "part way at 0.5 s")
        XCTAssertFalse(ink(caption, at: 2).ys.isEmpty)
    }

    func testAnUnwrappedCaptionIsOneLine() throws {
        let node = try chart(caption: CaptionSpec(Self.long), width: 900).build()
        XCTAssertEqual(try caption(in: node).lineStrings.count, 1)
    }
}
