import XCTest
import Geometry
import Raster
import Scene
import Text
@testable import Charts

final class LabelTests: XCTestCase {
    /// Is `p` inside the convex quadrilateral `q` grown by `margin` pixels?
    func inside(_ p: Point, _ q: [Point], margin: Double) -> Bool {
        for i in 0..<4 {
            let a = q[i], b = q[(i + 1) % 4]
            let e = b - a
            let d = e.cross(p - a) / e.length      // signed distance; corners run clockwise on screen
            if d < -margin { return false }
        }
        return true
    }

    func inkPixels(_ c: Canvas) -> [Point] {
        var out: [Point] = []
        for y in 0..<c.height { for x in 0..<c.width where c.pixmap.pixel(x, y).a > 0 { out.append(Point(Double(x) + 0.5, Double(y) + 0.5)) } }
        return out
    }

    func testInkLiesInsideTheMeasuredBox() throws {
        let font = try FontCache.font()
        for anchor in [TextAnchor(.leading, .baseline), TextAnchor(.center, .center), TextAnchor(.trailing, .top), TextAnchor(.center, .bottom)] {
            let node = TextNode("Highest: 140 mg (Tue)", font: font, size: 14, position: Point(150, 40), anchor: anchor)
            let c = Canvas(width: 300, height: 80)
            node.render(at: 0, on: c)
            let ink = inkPixels(c)
            XCTAssertGreaterThan(ink.count, 100)
            let q = node.corners
            XCTAssertTrue(ink.allSatisfy { inside($0, q, margin: 1) }, "ink outside the box for \(anchor)")
        }
    }

    func testRotatedLabelHasARotatedBox() throws {
        let font = try FontCache.font()
        let node = TextNode("Caffeine (mg)", font: font, size: 16, position: Point(40, 100), anchor: TextAnchor(.center, .center), rotation: -.pi / 2)
        let c = Canvas(width: 80, height: 200)
        node.render(at: 0, on: c)
        let ink = inkPixels(c)
        let xs = ink.map(\.x), ys = ink.map(\.y)
        // Reads bottom to top: tall and narrow, centred on the anchor.
        XCTAssertGreaterThan(ys.max()! - ys.min()!, 3 * (xs.max()! - xs.min()!))
        XCTAssertEqual((ys.max()! + ys.min()!) / 2, 100, accuracy: 2)
        XCTAssertTrue(ink.allSatisfy { inside($0, node.corners, margin: 1) })
        // The first letter is at the bottom.
        let first = TextNode("C", font: font, size: 16, position: .zero)
        XCTAssertGreaterThan(node.corners[0].y, node.corners[1].y, "the text's start is lower than its end")
        _ = first
    }

    func testPillBackgroundSurroundsTheText() throws {
        let font = try FontCache.font()
        let node = TextNode("Emma", font: font, size: 12, color: .white, position: Point(50, 20), anchor: TextAnchor(.center, .center),
                            background: TextBackground(color: Color(r: 0.5, g: 0, b: 0.5), cornerRadius: 20, padding: (8, 4)))
        let c = Canvas(width: 100, height: 40)
        node.render(at: 0, on: c)
        // The pill's colour just inside its left end, on the centre line, and nothing outside it.
        let left = node.corners.map(\.x).min()!
        XCTAssertEqual(c.pixmap.pixel(Int(left) + 8, 20).r, 128)
        XCTAssertEqual(c.pixmap.pixel(Int(left) - 2, 20).a, 0)
    }
}

final class AxisLayoutTests: XCTestCase {
    func style() throws -> ChartStyle { ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)) }

    func chart() throws -> ChartSpec {
        let rows: [DataRow] = [(-2.0, -3.0), (0, 1), (4, 8), (8, 5)].map { ["x": .number($0.0), "y": .number($0.1)] }
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 400, height: 300), style: try style(), data: rows)
        c.y.nice = true
        c.axes = [AxisSpec(side: .bottom, title: "x"), AxisSpec(side: .leading)]
        var g = GridSpec(color: Color(r: 0.8, g: 0.8, b: 0.8)); g.yAtTicks = true; g.zeroColor = .black
        c.grid = g
        var m = LineMarkSpec(options: MarkOptions(id: "line"))
        m.stroke = (.solid(Color(r: 1, g: 0, b: 0)), StrokeStyle(width: 2))
        m.options.name = "Series"
        c.marks = [m]
        c.legend = LegendSpec(side: .top)
        return c
    }

    func testPlotLeavesRoomForTheGuidesAndTicksAreNice() throws {
        let c = try chart()
        let l = c.state(at: 0)
        XCTAssertEqual(l.yTicks.map(\.value), [-4, -2, 0, 2, 4, 6, 8])
        XCTAssertEqual(l.yTicks.map(\.label), ["−4", "−2", "0", "2", "4", "6", "8"])
        XCTAssertGreaterThan(l.plot.minX, 15)          // leading labels
        XCTAssertLessThan(l.plot.maxY, 300 - 25)       // bottom labels and title
        XCTAssertGreaterThan(l.plot.minY, 10)          // the legend on top
        XCTAssertEqual(l.y(8), l.plot.minY, accuracy: 1e-9)
        XCTAssertEqual(l.y(-4), l.plot.maxY, accuracy: 1e-9)
    }

    func testLabelsSitBesideTheirTicksAndTheZeroLineIsHighlighted() throws {
        let c = try chart()
        let l = c.state(at: 0)
        let node = c.build()
        guard case .group(let g) = node, case .group(let axis)? = g.children.first(where: { $0.id == "axis-leading" }) else {
            return XCTFail("no leading axis")
        }
        let labels = axis.children.compactMap { n -> TextNode? in if case .text(let t) = n { return t }; return nil }
        XCTAssertEqual(labels.map(\.string), l.yTicks.map(\.label))
        for (label, tick) in zip(labels, l.yTicks) {
            let box = label.corners
            XCTAssertLessThan(box.map(\.x).max()!, l.plot.minX, "label \(label.string) overlaps the plot")
            XCTAssertEqual((box.map(\.y).max()! + box.map(\.y).min()!) / 2, l.y(tick.value), accuracy: 1.0)
        }
        var scene = Scene(width: 400, height: 300, background: .white, nodes: [node])
        scene.duration = 1
        let frame = scene.frame(at: 1)
        let zeroRow = Int(l.y(0))
        let probeX = Int(l.plot.midX) + 37
        XCTAssertLessThan(frame.pixel(probeX, zeroRow).r, 40, "zero line is dark")
        let gridRow = Int(l.y(6))
        let grid = frame.pixel(probeX, gridRow)
        XCTAssertTrue(grid.r > 150 && grid.r < 230, "grid line is light grey: \(grid)")
    }
}
