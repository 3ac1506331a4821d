import XCTest
import Raster
import Scene
import Charts
import Text
@testable import Timelines

/// Guide colours left unset follow what lies under them: on a dark canvas (or card) the
/// title, axis labels, legend and grid take light counterparts, so a dark background
/// does not leave the title dark grey on near-black; colours a document gives stay.
final class BackdropTests: XCTestCase {
    func scene(canvas: String, chart: String = "", style: String = "", grid: String = ##"{ "y": true }"##) throws -> Scene {
        let text = """
        { "canvas": { "width": 400, "height": 300, "background": "\(canvas)" }, "duration": 0.1,
          "data": { "t": { "values": [ { "x": 1, "y": 2 }, { "x": 2, "y": 5 }, { "x": 3, "y": 3 } ] } },
          "charts": [ { "data": "t", "title": "TITLE LINE", "grid": \(grid), \(chart) \(style)
                        "axes": [ { "side": "bottom", "title": "x" }, { "side": "leading" } ],
                        "marks": [ { "id": "line", "type": "line" } ] } ] }
        """
        return try TimelineDecoder.decode(Array(text.utf8), file: "backdrop.json")
    }

    func textColor(_ s: Scene, _ id: String) -> Color? {
        guard case .text(let t)? = s.node(id) else { return nil }
        return t.color
    }

    func gridColor(_ s: Scene) -> Color? {
        guard case .shape(let g)? = s.node("grid"), case .solid(let c)? = g.stroke?.paint else { return nil }
        return c
    }

    /// The lightest and darkest luminance of the pixels in the title's box (top left).
    func titleInk(_ s: Scene) -> (lightest: Double, darkest: Double) {
        let f = s.frame(at: s.effectiveDuration)
        var lo = 1.0, hi = 0.0
        for y in 2..<28 {
            for x in 2..<160 {
                let p = f.pixel(x, y)
                let l = Palette.luminance(Color(r: Double(p.r) / 255, g: Double(p.g) / 255, b: Double(p.b) / 255))
                lo = min(lo, l); hi = max(hi, l)
            }
        }
        return (hi, lo)
    }

    func testADarkCanvasGetsLightGuidesAndALightOneKeepsTheDefaults() throws {
        let dark = try scene(canvas: "#111827"), light = try scene(canvas: "#FFFFFF")
        XCTAssertEqual(textColor(dark, "title"), ChartStyle.onDark.text)
        XCTAssertEqual(gridColor(dark), ChartStyle.onDark.grid)
        XCTAssertEqual(textColor(light, "title"), Color(r: 0.2, g: 0.2, b: 0.2))
        XCTAssertEqual(gridColor(light), GridSpec.defaultColor)
        // In pixels: the title's ink is light on the dark canvas (its background is about
        // 0.01) and dark on the white one.
        XCTAssertGreaterThan(titleInk(dark).lightest, 0.6)
        XCTAssertLessThan(titleInk(light).darkest, 0.1)
        // A mid grey reads better with dark text; a deep blue with light text.
        XCTAssertEqual(textColor(try scene(canvas: "#9A9A9A"), "title"), Color(r: 0.2, g: 0.2, b: 0.2))
        XCTAssertEqual(textColor(try scene(canvas: "#1F3A93"), "title"), ChartStyle.onDark.text)
        // A transparent canvas is taken over white, as a viewer shows it.
        XCTAssertEqual(textColor(try scene(canvas: "#00000000"), "title"), Color(r: 0.2, g: 0.2, b: 0.2))
    }

    func testGivenColoursStayOnAnyBackdrop() throws {
        let s = try scene(canvas: "#111827", style: ##""style": { "textColor": "#333333", "axisColor": "#FF0000" },"##,
                          grid: ##"{ "y": true, "color": "#E8E8E8" }"##)
        XCTAssertEqual(textColor(s, "title"), Color(hex: "#333333"))
        XCTAssertEqual(gridColor(s), Color(hex: "#E8E8E8"))
        guard case .shape(let line)? = s.node("axis-line"), case .solid(let axis)? = line.stroke?.paint else { return XCTFail("no axis line") }
        XCTAssertEqual(axis, Color(hex: "#FF0000"))
        XCTAssertEqual(textColor(s, "axis-title"), Color(hex: "#333333"))
        // The colour left unset still follows the canvas.
        var given = ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true))
        given.textColor = Color(hex: "#333333")!
        let onDark = given.onBackdrop(Color(hex: "#111827")!)
        XCTAssertEqual(onDark.textColor, Color(hex: "#333333"))
        XCTAssertEqual(onDark.secondaryTextColor, ChartStyle.onDark.secondaryText)
        XCTAssertEqual(onDark.axisColor, ChartStyle.onDark.axis)
    }

    /// Text sits on the chart's card when it has one: a light card on a dark canvas keeps
    /// dark text, a dark card on a white canvas gets light text; the grid follows the plot
    /// area's background when it has one.
    func testTheCardAndThePlotAreaAreTheBackdrop() throws {
        let lightCard = try scene(canvas: "#111827", chart: ##""card": { "color": "#F5F5F7" },"##)
        XCTAssertEqual(textColor(lightCard, "title"), Color(r: 0.2, g: 0.2, b: 0.2))
        XCTAssertEqual(gridColor(lightCard), GridSpec.defaultColor)
        let darkCard = try scene(canvas: "#FFFFFF", chart: ##""card": { "color": "#1E1E22" },"##)
        XCTAssertEqual(textColor(darkCard, "title"), ChartStyle.onDark.text)
        XCTAssertGreaterThan(titleInk(darkCard).lightest, 0.6)
        let darkPlot = try scene(canvas: "#FFFFFF", chart: ##""plotArea": { "background": "#101010" },"##)
        XCTAssertEqual(textColor(darkPlot, "title"), Color(r: 0.2, g: 0.2, b: 0.2))
        XCTAssertEqual(gridColor(darkPlot), ChartStyle.onDark.grid)
    }
}
