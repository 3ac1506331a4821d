import XCTest
import TestSupport
import Raster
import Scene
@testable import Timelines

/// Big inputs render (issue #8, Load): a 100,000-row CSV as a line chart and 200 series
/// as a streamgraph. Their time and memory at three sizes are measured by
/// `scripts/bench --load`; these tests check that what is drawn is right.
final class LoadInputTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("chartreel-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: dir.appendingPathComponent(name), atomically: false, encoding: .utf8)
    }

    /// Columns of `frame` holding ink of the line's colours (bluish: blue well above red;
    /// the grid, axes and labels are grey).
    func lineColumns(_ f: Pixmap) -> [Int] {
        (0..<f.width).filter { x in
            (0..<f.height).contains { y in let p = f.pixel(x, y); return Int(p.b) > Int(p.r) + 60 }
        }
    }

    func testHundredThousandRowLineChart() throws {
        var rng = SplitMix64(seed: 7)
        var csv = "t,value\n", y = 0.0
        csv.reserveCapacity(1_600_000)
        for i in 0..<100_000 {
            y += rng.uniform() - 0.5
            csv += "\(i),\(y)\n"
        }
        try write("walk.csv", csv)
        try write("line.json", """
        { "canvas": { "width": 640, "height": 360, "background": "#FFFFFF" }, "fps": 30, "duration": 1,
          "data": { "walk": { "file": "walk.csv", "columns": { "t": "number", "value": "number" } } },
          "charts": [ { "data": "walk", "x": { "field": "t" }, "y": { "field": "value" },
            "axes": [ { "side": "bottom" }, { "side": "leading" } ],
            "marks": [ { "id": "line", "type": "line",
              "stroke": { "width": 1.5, "paint": { "linear": { "from": "leading", "to": "trailing", "stops": ["#6A5ACD", "#00BFFF"] } } },
              "animate": { "trim": { "to": { "from": 0, "to": 1, "duration": 0.8 } } } } ] } ] }
        """)
        let scene = try TimelineDecoder.load(path: dir.appendingPathComponent("line.json").path)
        func firstShape(_ n: Node?) -> ShapeNode? {
            switch n {
            case .shape(let s)?: return s
            case .group(let g)?: return g.children.lazy.compactMap { firstShape($0) }.first
            default: return nil
            }
        }
        let line = try XCTUnwrap(firstShape(scene.node("line")), "no line shape")
        // More rows than the plot has quarter-pixel columns: the line is drawn through its
        // M4 points (at most 4 a column), not through all 100,000 rows.
        XCTAssertLessThanOrEqual(line.path.elements.count, 4 * 4 * 640)
        XCTAssertGreaterThan(line.path.elements.count, 2 * 640)
        // Drawn in full, the line spans the plot; half-trimmed (linear, t = 0.4 s) it
        // reaches about the middle of it and has no ink beyond.
        let full = lineColumns(scene.frame(at: 1))
        let (left, right) = (try XCTUnwrap(full.first), try XCTUnwrap(full.last))
        XCTAssertGreaterThan(right - left, 500)
        XCTAssertEqual(full.count, right - left + 1, "a gap in the line")
        let half = lineColumns(scene.frame(at: 0.4))
        let halfRight = try XCTUnwrap(half.last)
        XCTAssertEqual(half.first, left)
        // Half the arc length of a random walk is not half the width, but it is well
        // inside the plot: the rest of it carries no ink.
        XCTAssertGreaterThan(halfRight, left + 20)
        XCTAssertLessThan(halfRight, right - 20)
    }

    func testTwoHundredSeriesStreamgraph() throws {
        var rng = SplitMix64(seed: 200)
        var csv = "name,year,count\n"
        for s in 0..<200 {
            let peak = 1920 + 99 * rng.uniform(), width = 5 + 25 * rng.uniform(), height = 100 + 4900 * rng.uniform()
            for year in 1920..<2020 {
                let z = (Double(year) - peak) / width
                csv += "name\(s),\(year),\(height * exp(-z * z) + 20 * rng.uniform())\n"
            }
        }
        try write("names.csv", csv)
        try write("stream.json", """
        { "canvas": { "width": 640, "height": 360, "background": "#FFFFFF" }, "fps": 30, "duration": 1,
          "data": { "names": { "file": "names.csv", "columns": { "name": "string", "year": "number", "count": "number" } } },
          "charts": [ { "data": "names", "x": { "field": "year", "domain": [1920, 2019] }, "y": { "field": "count" },
            "marks": [ { "id": "stream", "type": "area", "series": "name", "stack": "center", "interpolation": "monotone",
              "color": { "ramp": ["#5B2A86", "#3A86FF"] },
              "animate": { "opacity": { "from": 0, "to": 1, "duration": 0.3 }, "stagger": { "step": 0.002 } } } ] } ] }
        """)
        let scene = try TimelineDecoder.load(path: dir.appendingPathComponent("stream.json").path)
        var shapes = 0
        func count(_ n: Node) {
            switch n {
            case .shape: shapes += 1
            case .group(let g): g.children.forEach(count)
            case .text: break
            }
        }
        count(try XCTUnwrap(scene.node("stream")))
        XCTAssertEqual(shapes, 200, "one area per series")
        // The last series starts fading at 199 × 0.002 s: invisible at 0, opaque at the end.
        let start = scene.frame(at: 0), end = scene.frame(at: 1)
        let mid = end.width / 2
        func inked(_ f: Pixmap) -> Int { (0..<f.height).filter { f.pixel(mid, $0) != PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255) }.count }
        XCTAssertEqual(inked(start), 0)
        // Centre-stacked, the layers meet the middle column as one band around the centre line.
        XCTAssertGreaterThan(inked(end), end.height / 4)
        let bandColours = Set((0..<end.height).map { end.pixel(mid, $0) })
        XCTAssertGreaterThan(bandColours.count, 20, "the series are told apart by colour")
    }
}
