import XCTest
import Geometry
import Raster
import Motion
import Scene
import Text
@testable import Charts

final class MarkTests: XCTestCase {
    func style() throws -> ChartStyle { ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)) }

    func rows(_ pairs: [(String, Double)]) -> [DataRow] { pairs.map { ["x": .string($0.0), "y": .number($0.1)] } }

    func render(_ c: ChartSpec, at t: Double) -> Pixmap {
        Scene(width: Int(c.frame.width), height: Int(c.frame.height), background: .white, nodes: [c.build()]).frame(at: t)
    }

    func testBarTopsSitAtTheirValuesAndGrowFromTheBaseline() throws {
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 300, height: 200), style: try style(),
                          data: rows([("a", 10), ("b", 25), ("c", 40)]))
        c.inset = 20
        c.y.domain = (0, 50)
        var bar = BarMarkSpec(options: MarkOptions(id: "bars"))
        bar.fill = .solid(Color(r: 0, g: 0, b: 1))
        bar.options.grow = .tween(Tween(from: 0, to: 1, animation: Animation(curve: .linear, duration: 1)))
        c.marks = [bar]
        let l = c.state(at: 0)
        guard case .band(let band) = l.x else { return XCTFail("x should be a band scale") }
        for t in [1.0, 0.5] {
            let f = render(c, at: t)
            for (i, v) in [10.0, 25, 40].enumerated() {
                let x = Int(band.position(at: i) + band.bandwidth / 2)
                var top = -1
                for y in 0..<f.height where f.pixel(x, y).b > 200 && f.pixel(x, y).r < 100 { top = y; break }
                let expected = l.y(v * t)
                XCTAssertEqual(Double(top), expected, accuracy: 1, "bar \(i) at t=\(t)")
                // The bottom is the baseline, y = 0.
                XCTAssertTrue(f.pixel(x, Int(l.y(0)) - 1).b > 200)
                XCTAssertTrue(f.pixel(x, Int(l.y(0)) + 1).b == 255 && f.pixel(x, Int(l.y(0)) + 1).r == 255)
            }
        }
    }

    func testHorizontalBarsDivergeFromZero() throws {
        let data: [DataRow] = [["d": .string("one"), "v": .number(-10)], ["d": .string("two"), "v": .number(30)]]
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 300, height: 120), style: try style(), data: data)
        c.inset = 10
        c.x = Channel(field: "v"); c.x.domain = (-15, 60)
        c.y = Channel(field: "d")
        var bar = BarMarkSpec(options: MarkOptions(id: "bars"))
        bar.options.color = .thresholds(field: nil, steps: [(0, Color(r: 0, g: 1, b: 0)), (15, Color(r: 1, g: 1, b: 0))], otherwise: Color(r: 1, g: 0, b: 0))
        c.marks = [bar]
        let l = c.state(at: 0)
        let f = render(c, at: 0)
        guard case .band(let band) = l.y else { return XCTFail() }
        let y0 = Int(band.position(at: 0) + band.bandwidth / 2), y1 = Int(band.position(at: 1) + band.bandwidth / 2)
        XCTAssertLessThan(y0, y1, "the first category is at the top")
        // "one" (−10) is green and extends left of zero; "two" (30) is red to the right.
        XCTAssertEqual(f.pixel(Int(l.x(-5)), y0).g, 255); XCTAssertEqual(f.pixel(Int(l.x(-5)), y0).r, 0)
        XCTAssertEqual(f.pixel(Int(l.x(5)), y0).r, 255); XCTAssertEqual(f.pixel(Int(l.x(5)), y0).b, 255)  // background
        XCTAssertEqual(f.pixel(Int(l.x(25)), y1).r, 255); XCTAssertEqual(f.pixel(Int(l.x(25)), y1).g, 0)
        XCTAssertEqual(f.pixel(Int(l.x(35)), y1).g, 255)   // beyond its end: background
    }

    func testSectorEdgesLieAtTheirAngles() throws {
        // Quarters: 12 → 3 o'clock is the first sector, clockwise.
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 200, height: 200), style: try style(),
                          data: rows([("a", 1), ("b", 1), ("c", 2)]))
        c.inset = 0
        var pie = SectorMarkSpec(options: MarkOptions(id: "pie"))
        let colors = [Color(r: 1, g: 0, b: 0), Color(r: 0, g: 1, b: 0), Color(r: 0, g: 0, b: 1)]
        pie.options.color = .category(field: "x", colors: colors, domain: nil)
        c.marks = [pie]
        let f = render(c, at: 0)
        func at(_ degreesFromNoon: Double, _ r: Double = 70) -> PremultipliedRGBA8 {
            let a = (degreesFromNoon - 90) * .pi / 180
            return f.pixel(Int(100 + r * cos(a)), Int(100 + r * sin(a)))
        }
        XCTAssertEqual(at(45).r, 255)           // a: 0°…90°
        XCTAssertEqual(at(135).g, 255)          // b: 90°…180°
        XCTAssertEqual(at(270).b, 255)          // c: 180°…360°
        // Either side of the 90° edge.
        XCTAssertEqual(at(87).r, 255); XCTAssertEqual(at(93).g, 255)
        XCTAssertEqual(at(177).g, 255); XCTAssertEqual(at(183).b, 255)
        XCTAssertEqual(at(357).b, 255); XCTAssertEqual(at(3).r, 255)
        XCTAssertEqual(f.pixel(100, 2).a, 255)
        XCTAssertEqual(f.pixel(2, 2), PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))   // outside the circle
    }

    func testMonotoneCurveNeverLeavesTheDataRange() {
        let pts = [Point(0, 100), Point(10, 20), Point(20, 25), Point(30, 90), Point(40, 90), Point(50, 0), Point(60, 10)]
        var p = Path()
        p.move(to: pts[0])
        Interpolation.monotone.appendSegments(through: pts, to: &p)
        let flat = p.flattened(tolerance: 0.01)[0].points
        for q in flat {
            let i = min(pts.count - 2, max(0, pts.firstIndex { $0.x >= q.x }.map { $0 - 1 } ?? 0))
            let lo = min(pts[i].y, pts[i + 1].y), hi = max(pts[i].y, pts[i + 1].y)
            XCTAssertGreaterThanOrEqual(q.y, lo - 1e-6); XCTAssertLessThanOrEqual(q.y, hi + 1e-6)
        }
        // Catmull-Rom overshoots here, which is why monotone exists.
        var cr = Path()
        cr.move(to: pts[0])
        Interpolation.catmullRom.appendSegments(through: pts, to: &cr)
        let overshoots = cr.flattened(tolerance: 0.01)[0].points.filter { q in
            let i = min(pts.count - 2, max(0, pts.firstIndex { $0.x >= q.x }.map { $0 - 1 } ?? 0))
            return q.y < min(pts[i].y, pts[i + 1].y) - 0.5 || q.y > max(pts[i].y, pts[i + 1].y) + 0.5
        }
        XCTAssertFalse(overshoots.isEmpty)
    }

    func testStackingModes() {
        let keys: [Double] = [1, 1, 1, 2, 2, 2], values: [Double] = [2, 3, -4, 1, 1, 2]
        let std = Stacker.stack(keys: keys, values: values, mode: .standard)
        XCTAssertTrue(std[0] == (0, 2) && std[1] == (2, 5) && std[2] == (-4, 0))
        let norm = Stacker.stack(keys: keys, values: values, mode: .normalized)
        XCTAssertEqual(norm[5].high, 1, accuracy: 1e-12); XCTAssertEqual(norm[3].high, 0.25, accuracy: 1e-12)
        let center = Stacker.stack(keys: keys, values: [2, 3, 5, 1, 1, 2], mode: .center)
        // Symmetric about zero at every position.
        XCTAssertEqual(center[0].low, -center[2].high, accuracy: 1e-12)
        XCTAssertEqual(center[3].low, -center[5].high, accuracy: 1e-12)
    }

    func testCenterStackedStreamIsSymmetricOnScreen() throws {
        var data: [DataRow] = []
        for x in 0..<5 { for (s, v) in [("a", 3.0), ("b", 1.0 + Double(x))] { data.append(["x": .number(Double(x)), "y": .number(v), "s": .string(s)]) } }
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 200, height: 200), style: try style(), data: data)
        c.inset = 10
        var area = AreaMarkSpec(options: MarkOptions(id: "stream"))
        area.options.series = "s"; area.options.stack = .center
        c.marks = [area]
        let l = c.state(at: 0)
        XCTAssertEqual(l.yResolved.domain.0, -l.yResolved.domain.1, accuracy: 1e-9)
        let f = render(c, at: 0)
        // Ink extends equally above and below the middle row at x = 2.
        let x = Int(l.x(2))
        let ink = (0..<200).filter { f.pixel(x, $0).r < 250 }
        XCTAssertEqual(Double(ink.first! + ink.last!) / 2, 100, accuracy: 1)
    }

    func testPointsPopInWithTheirScale() throws {
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 200, height: 100), style: try style(), data: rows([("a", 5)]))
        c.inset = 10; c.y.domain = (0, 10)
        var pts = PointMarkSpec(options: MarkOptions(id: "dots"))
        pts.size = 40
        pts.options.scale = .tween(Tween(from: 0, to: 1, animation: Animation(curve: .linear, duration: 1)))
        c.marks = [pts]
        func inkWidth(_ t: Double) -> Int { let f = render(c, at: t); return (0..<200).filter { f.pixel($0, 50).g < 128 }.count }
        XCTAssertEqual(inkWidth(0), 0)
        XCTAssertEqual(Double(inkWidth(0.5)), 20, accuracy: 2)
        XCTAssertEqual(Double(inkWidth(1)), 40, accuracy: 2)
    }

    func testTextAnnotationSitsAboveItsPoint() throws {
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 200, height: 100), style: try style(), data: rows([("a", 5)]))
        c.inset = 10; c.y.domain = (0, 10)
        var label = TextMarkSpec(options: MarkOptions(id: "label"))
        label.format = NumberFormat(suffix: " mg")
        c.marks = [label]
        guard case .group(let g) = c.build(), case .group(let mark)? = g.children.last, case .text(let t)? = mark.children.first else { return XCTFail() }
        XCTAssertEqual(t.string, "5 mg")
        let l = c.state(at: 0)
        XCTAssertLessThan(t.corners.map(\.y).max()!, l.y(5))
        XCTAssertEqual((t.corners.map(\.x).max()! + t.corners.map(\.x).min()!) / 2, l.x(0), accuracy: 0.5)
    }

    func testDataTransitionMovesTheLine() throws {
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 200, height: 100), style: try style(), data: rows([("a", 0), ("b", 0)]))
        c.inset = 0; c.y.domain = (0, 10)
        var line = LineMarkSpec(options: MarkOptions(id: "line"))
        line.stroke = (.solid(.black), StrokeStyle(width: 2))
        line.options.transition = (DataTable(rows: rows([("a", 10), ("b", 10)])), Animation(curve: .linear, duration: 1))
        c.marks = [line]
        func row(_ t: Double) -> Int { let f = render(c, at: t); return (0..<100).first { f.pixel(100, $0).r < 128 } ?? -1 }
        XCTAssertEqual(row(0), 99); XCTAssertEqual(row(0.5), 49, accuracy: 1); XCTAssertEqual(row(1), 0, accuracy: 1)
    }
}
