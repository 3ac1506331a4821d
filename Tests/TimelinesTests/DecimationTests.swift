import XCTest
import TestSupport
import Foundation
import Raster
import Scene
@testable import Charts
@testable import Timelines

/// Lines and areas with more points than pixel columns are drawn from their M4 points
/// (issue 22): the frames must stay within one level of a channel of the full drawing,
/// at every stage of a line drawing itself, and the drawn path must follow the plot's
/// width, not the row count.
final class DecimationTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("decimation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws {
        ChartSpec.decimatesLines = true
        ChartSpec.decimatesBeforeElements = true
        try? FileManager.default.removeItem(at: dir)
    }

    /// A seeded random walk of `rows` rows as CSV, and a document plotting it with `marks`.
    func scene(rows: Int, marks: String, width: Int = 640, height: Int = 360) throws -> Scene {
        var rng = SplitMix64(seed: 22)
        var y = 0.0
        var csv = "t,value\n"
        for i in 0..<rows {
            y += rng.nextGaussian()
            csv += "\(i),\(String(format: "%.3f", y))\n"
        }
        try csv.write(to: dir.appendingPathComponent("walk.csv"), atomically: true, encoding: .utf8)
        let doc = #"{ "canvas": { "width": \#(width), "height": \#(height) }, "fps": 10, "duration": 1, "#
            + #""data": { "walk": { "file": "walk.csv", "columns": { "t": "number", "value": "number" } } }, "#
            + #""charts": [ { "data": "walk", "x": { "field": "t" }, "y": { "field": "value" }, "marks": [ \#(marks) ] } ] }"#
        return try TimelineDecoder.decode(Array(doc.utf8), file: dir.appendingPathComponent("d.json").path)
    }

    /// How the decimated drawing of `make`'s scene differs from the full one over the
    /// frames at `times`: the largest channel difference, the largest mean channel
    /// difference of a frame, and the largest share of a frame's pixels more than one
    /// level apart.
    func difference(_ make: () throws -> Scene, at times: [Double]) throws -> (max: Int, mean: Double, overOne: Double) {
        ChartSpec.decimatesLines = true
        let decimated = try make()
        ChartSpec.decimatesLines = false
        let full = try make()
        ChartSpec.decimatesLines = true
        var worst = (max: 0, mean: 0.0, overOne: 0.0)
        for t in times {
            let d = try PixmapDifference(decimated.frame(at: t), full.frame(at: t), tolerance: 1)
            worst.max = max(worst.max, d.maxDifference)
            worst.mean = max(worst.mean, d.meanDifference)
            worst.overOne = max(worst.overOne, Double(d.pixelsOverTolerance) / Double(full.width * full.height))
        }
        return worst
    }

    /// Series decimated before their elements are made (a row becomes a point, and only
    /// the kept rows become elements) draw exactly what decimating the elements' points
    /// drew: lines with trims, areas, several series with a filter, a series too short
    /// to decimate beside long ones, and a line whose x goes back and forth (not decimated).
    func testDecimatingRowsBeforeElementsChangesNoByte() throws {
        var rng = SplitMix64(seed: 16)
        var csv = "t,value,s\n"
        var y = [0.0, 0.0, 0.0]
        for i in 0..<30_000 {
            let s = i % 3
            y[s] += rng.nextGaussian()
            // Series c has only a few rows: it is drawn whole.
            if s == 2 && i > 60 { continue }
            csv += "\(i),\(String(format: "%.3f", y[s])),\(["a", "b", "c"][s])\n"
        }
        try csv.write(to: dir.appendingPathComponent("multi.csv"), atomically: true, encoding: .utf8)
        func doc(_ x: String, _ y: String, _ marks: String) -> String {
            #"{ "canvas": { "width": 400, "height": 240 }, "fps": 10, "duration": 1, "#
                + #""data": { "m": { "file": "multi.csv" } }, "#
                + #""charts": [ { "data": "m", "x": { "field": "\#(x)" }, "y": { "field": "\#(y)" }, "marks": [ \#(marks) ] } ] }"#
        }
        let cases = [
            doc("t", "value", line.replacingOccurrences(of: #""type": "line","#, with: #""type": "line", "series": "s","#)),
            doc("t", "value", #"{ "type": "area", "series": "s" }"#),
            doc("t", "value", #"{ "type": "line", "series": "s", "filter": { "field": "s", "equals": "b" } }, { "type": "area", "opacity": 0.4 }"#),
            doc("value", "t", #"{ "type": "line", "series": "s" }"#),
        ]
        for (n, text) in cases.enumerated() {
            func render(_ early: Bool) throws -> [[UInt8]] {
                ChartSpec.decimatesBeforeElements = early
                defer { ChartSpec.decimatesBeforeElements = true }
                let scene = try TimelineDecoder.decode(Array(text.utf8), file: dir.appendingPathComponent("d.json").path)
                return try [0.0, 0.3, 0.6, 1.0].map { try scene.frame(at: $0).data }
            }
            let early = try render(true), late = try render(false)
            XCTAssertEqual(early.count, late.count)
            for (a, b) in zip(early, late) { XCTAssertTrue(a == b, "case \(n): frames differ") }
            XCTAssertTrue(early[3].contains { $0 != early[3][0] }, "case \(n) draws something")
        }
    }

    let line = #"{ "id": "line", "type": "line", "stroke": { "width": 1.5, "join": "round" }, "#
        + #""animate": { "trim": { "to": { "from": 0, "to": 1, "duration": 0.9 } } } }"#

    // What is measured (100,000 rows on a 640x360 canvas, M4 at 4 columns a pixel): the
    // fill of an area is within 16 levels (the edge of a quarter-pixel column), and a
    // stroke differs at the tips of its zigzags, where the full drawing's outline of
    // thousands of sub-pixel segments and the decimated one's few differ: up to ~240
    // levels in single pixels, with a mean difference of 0.25–0.5 level a channel and
    // about 1 % of the pixels more than one level apart. "Within one level" everywhere
    // is what the issue asks; it holds for 99 % of the pixels, not all (see
    // docs/charts-model.md, "Decimation").

    func testADecimatedLineStaysCloseToTheFullOneAsItDrawsItself() throws {
        let d = try difference({ try scene(rows: 100_000, marks: line) }, at: [0.0, 0.2, 0.45, 0.7, 1.0])
        XCTAssertLessThan(d.mean, 0.6, "mean channel difference")
        XCTAssertLessThan(d.overOne, 0.015, "share of pixels more than one level apart")
    }

    func testADecimatedAreaFillIsWithinSixteenLevelsOfTheFullOne() throws {
        let d = try difference({ try scene(rows: 100_000, marks: #"{ "type": "area" }"#) }, at: [1.0])
        // 16 with the Double walk; the fixed-point grid rounds each of the full line's ~140
        // vertices per pixel column to 1/256 px, and the worst pixel moves by a level.
        XCTAssertLessThanOrEqual(d.max, 17)
        XCTAssertLessThan(d.mean, 0.05)
        let stroked = try difference({ try scene(rows: 50_000, marks: #"{ "type": "area" }, { "type": "line", "stroke": { "width": 3, "join": "bevel" } }"#) },
                                     at: [1.0])
        XCTAssertLessThan(stroked.mean, 0.6)
        XCTAssertLessThan(stroked.overOne, 0.015)
    }

    /// A line with miter joins (a `stroke` object's default) is decimated too, and then
    /// stroked with round joins: the same bytes as the line asking for round joins, close to
    /// the full line drawn with round joins, and a path that follows the plot's width. A
    /// line too short to decimate keeps its miters.
    func testAMiteredLineIsDecimatedAndDrawnWithRoundJoins() throws {
        let mitered = #"{ "type": "line", "stroke": { "width": 3, "join": "miter" } }"#
        let round = #"{ "type": "line", "stroke": { "width": 3, "join": "round" } }"#
        let a = try scene(rows: 20_000, marks: mitered), b = try scene(rows: 20_000, marks: round)
        for t in [0.0, 1.0] { XCTAssertEqual(try a.frame(at: t).data, try b.frame(at: t).data, "t = \(t)") }
        ChartSpec.decimatesLines = false
        let fullRound = try scene(rows: 20_000, marks: round)
        ChartSpec.decimatesLines = true
        let d = try PixmapDifference(a.frame(at: 1), fullRound.frame(at: 1), tolerance: 1)
        XCTAssertLessThan(d.meanDifference, 0.6)
        XCTAssertLessThan(Double(d.pixelsOverTolerance) / Double(a.width * a.height), 0.015)
        // Fewer points than columns: drawn as they are, miters and all (not the round line).
        let shortMitered = try scene(rows: 300, marks: mitered), shortRound = try scene(rows: 300, marks: round)
        XCTAssertNotEqual(try shortMitered.frame(at: 1).data, try shortRound.frame(at: 1).data)
    }

    func testTheDrawnPathFollowsThePlotWidthNotTheRowCount() throws {
        /// The most path elements of any shape in the scene (the line), children laid out
        /// per frame included.
        func points(_ rows: Int) throws -> Int {
            func most(_ n: Node) -> Int {
                switch n {
                case .shape(let s): return s.path.elements.count
                case .group(let g): return (g.children + (g.dynamicChildren?(1) ?? [])).map(most).max() ?? 0
                default: return 0
                }
            }
            return try scene(rows: rows, marks: line).nodes.map(most).max() ?? 0
        }
        let small = try points(20_000), large = try points(200_000)
        // 640 px at 4 columns a pixel and 4 points a column: at most ~10,240 points.
        XCTAssertLessThan(small, 11_000)
        XCTAssertLessThan(large, 11_000)
        XCTAssertLessThan(Double(large) / Double(small), 1.5, "\(small) → \(large)")
        // Few points (fewer than columns) are drawn as they are.
        XCTAssertEqual(try points(1_000), 1_000)
    }

    func testTheTrimRemapPlacesSharedPointsAtTheirOriginalFractions() throws {
        let r = try XCTUnwrap(TrimRemap(from: [0, 0.5, 1], to: [0, 0.25, 1]))
        XCTAssertEqual(r(0.5), 0.25)
        XCTAssertEqual(r(0.25), 0.125)
        XCTAssertEqual(r(0.75), 0.625)
        XCTAssertEqual(r(0), 0)
        XCTAssertEqual(r(1), 1)
        XCTAssertEqual(r(1.5), 1.5, "out-of-range trims pass through; the trim clamps them")
    }
}
