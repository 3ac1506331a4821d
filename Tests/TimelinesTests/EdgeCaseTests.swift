import XCTest
import Raster
import Scene
@testable import Timelines

/// Valid documents at the edges of the format: each must decode and render, and each
/// frame is checked on pixels at places the geometry predicts.
final class EdgeCaseTests: XCTestCase {
    func scene(_ text: String, file: String = "edge.json") throws -> Scene {
        try TimelineDecoder.decode(Array(text.utf8), file: file)
    }

    /// How much of a pixel a pure red (#FF0000) mark covers on white: the green channel
    /// falls from 255 to 0 as coverage rises from 0 to 1.
    func redCoverage(_ p: PremultipliedRGBA8) -> Double { Double(255 - Int(p.g)) / 255 }

    func isRed(_ p: PremultipliedRGBA8) -> Bool { p.r > 200 && p.g < 60 && p.b < 60 }
    func isBlue(_ p: PremultipliedRGBA8) -> Bool { p.b > 200 && p.r < 60 && p.g < 60 }
    func isWhite(_ p: PremultipliedRGBA8) -> Bool { p.r == 255 && p.g == 255 && p.b == 255 }

    /// Rows (top first) of column `x` where `test` holds.
    func rows(_ f: Pixmap, x: Int, _ test: (PremultipliedRGBA8) -> Bool) -> [Int] {
        (0..<f.height).filter { test(f.pixel(x, $0)) }
    }

    // MARK: One data point

    /// The plot is 41×41 px with an inset of 10 and domains 0…2: the point (1, 1) sits at
    /// the centre of pixel (20, 20).
    func onePoint(stroke: String) -> String {
        """
        { "canvas": { "width": 41, "height": 41 }, "duration": 0.1,
          "data": { "one": { "values": [ { "x": 1, "y": 1 } ] } },
          "charts": [ { "data": "one", "inset": 10, "x": { "domain": [0, 2] }, "y": { "domain": [0, 2] },
                        "marks": [ { "type": "line", \(stroke) } ] } ] }
        """
    }

    func testOneDataPointLineDrawsARoundDotOfTheStrokeWidth() throws {
        // A butt cap draws nothing on a zero-length segment, so a lone point is drawn round.
        for stroke in [##""stroke": { "width": 8, "cap": "round", "paint": "#FF0000" }"##,
                       ##""stroke": { "width": 8, "paint": "#FF0000" }"##] {
            let f = try scene(onePoint(stroke: stroke)).frame(at: 0)
            // A disc of diameter 8 centred at (20.5, 20.5): its area is π·4², its edge 4 px out.
            var area = 0.0
            for y in 0..<41 { for x in 0..<41 { area += redCoverage(f.pixel(x, y)) } }
            // The cap is a polygon inscribed in the circle (flattened within Geometry's
            // tolerance), so the area is a little under π·4² but far from a square's 64.
            XCTAssertLessThanOrEqual(area, .pi * 16 + 0.1, stroke)
            XCTAssertGreaterThan(area, .pi * 16 * 0.95, stroke)
            XCTAssertTrue(isRed(f.pixel(20, 20)), stroke)
            XCTAssertTrue(isRed(f.pixel(23, 20)) && isRed(f.pixel(17, 20)) && isRed(f.pixel(20, 23)) && isRed(f.pixel(20, 17)), stroke)
            XCTAssertTrue(isWhite(f.pixel(25, 20)) && isWhite(f.pixel(15, 20)) && isWhite(f.pixel(20, 25)), stroke)
            // Round, not square: the corner of the bounding square is empty.
            XCTAssertTrue(isWhite(f.pixel(23, 23)) || redCoverage(f.pixel(23, 23)) < 0.5, stroke)
        }
    }

    func testOneDataPointWithTheDefaultStrokeAndDotsStillShows() throws {
        let s = try scene(onePoint(stroke: ##""points": { "size": 10, "fill": "#FF0000" }"##))
        let f = s.frame(at: 0)
        XCTAssertTrue(isRed(f.pixel(20, 20)))
        XCTAssertTrue(isWhite(f.pixel(20, 27)))
    }

    // MARK: Equal, zero and negative values

    func testAllValuesEqualGiveAFlatLineAndEqualBars() throws {
        let s = try scene("""
        { "canvas": { "width": 60, "height": 40 }, "duration": 0.1,
          "data": { "d": { "values": [ { "x": 0, "y": 5 }, { "x": 1, "y": 5 }, { "x": 2, "y": 5 } ] },
                    "c": { "values": [ { "x": "a", "y": 5 }, { "x": "b", "y": 5 }, { "x": "c", "y": 5 } ] } },
          "layout": { "columns": 2, "spacing": 0, "padding": 0 },
          "charts": [
            { "data": "d", "inset": 5, "marks": [ { "type": "line", "stroke": { "width": 2, "paint": "#FF0000" } } ] },
            { "data": "c", "inset": 5, "y": { "domain": [0, 10] }, "marks": [ { "type": "bar", "fill": "#0000FF" } ] } ] }
        """)
        let f = s.frame(at: 0)
        // The domain is 0…5, so the line runs along the top of the plot (y = 5 px), the
        // same rows in every column it crosses.
        let columns = stride(from: 6, through: 24, by: 3).map { rows(f, x: $0, isRed) }
        XCTAssertEqual(Set(columns).count, 1, "\(columns)")
        XCTAssertFalse(columns[0].isEmpty)
        XCTAssertTrue(columns[0].allSatisfy { (3...6).contains($0) }, "\(columns[0])")
        // Three bars of the same height: half the plot (5 of 0…10), from y = 20 down to 35.
        let heights = (0..<30).map { x in rows(f, x: 30 + x, isBlue).count }.filter { $0 > 0 }
        XCTAssertFalse(heights.isEmpty)
        XCTAssertEqual(Set(heights), [15])
    }

    func testNegativeValuesDrawBarsBelowZeroAndAreasUpToZero() throws {
        let s = try scene("""
        { "canvas": { "width": 80, "height": 50 }, "duration": 0.1,
          "data": { "c": { "values": [ { "x": "a", "y": -1 }, { "x": "b", "y": -3 }, { "x": "c", "y": -2 } ] },
                    "d": { "values": [ { "x": 0, "y": -3 }, { "x": 1, "y": -3 } ] } },
          "layout": { "columns": 2, "spacing": 0, "padding": 0 },
          "charts": [
            { "data": "c", "inset": 5, "x": { "padding": 0.2 }, "marks": [ { "type": "bar", "fill": "#0000FF" } ] },
            { "data": "d", "inset": 5, "marks": [ { "type": "area", "fill": "#FF0000" } ] } ] }
        """)
        let f = s.frame(at: 0)
        // Domain −3…0: zero is the top of the plot (y = 5) and −3 its bottom (y = 45); each
        // bar hangs from zero, 40/3 px per unit. Bars are centred in bands a, b, c of 30 px.
        func bar(_ centre: Int) -> [Int] { rows(f, x: centre, isBlue) }
        let a = bar(10), b = bar(20), c = bar(30)
        XCTAssertEqual(a.first, 5); XCTAssertEqual(b.first, 5); XCTAssertEqual(c.first, 5)
        XCTAssertEqual(Double(a.count), 40.0 / 3, accuracy: 1)
        XCTAssertEqual(b.count, 40)
        XCTAssertEqual(Double(c.count), 80.0 / 3, accuracy: 1)
        // The area of a constant −3 fills from zero (top) down to −3 (bottom): the whole plot.
        XCTAssertEqual(rows(f, x: 60, isRed), Array(5..<45))
        XCTAssertTrue(isWhite(f.pixel(60, 2)) && isWhite(f.pixel(60, 47)))
    }

    func testAllValuesZeroStillDrawTheLineAndTheGuides() throws {
        // Every value 0: the domain 0…0 widens to 0…1, so the line lies on the zero at the
        // bottom of the plot; bars and areas have no height, labels still draw.
        let s = try scene("""
        { "canvas": { "width": 120, "height": 80 }, "duration": 0.1,
          "data": { "d": { "values": [ { "x": 0, "y": 0 }, { "x": 1, "y": 0 }, { "x": 2, "y": 0 } ] } },
          "charts": [ { "data": "d", "axes": [ { "side": "bottom" }, { "side": "leading" } ], "grid": true,
                        "marks": [ { "type": "area" }, { "type": "line", "stroke": { "width": 2, "paint": "#FF0000" } },
                                   { "type": "bar" }, { "type": "text" } ] } ] }
        """)
        let f = s.frame(at: 0)
        let columns = (0..<120).map { rows(f, x: $0, isRed) }.filter { !$0.isEmpty }
        // The bars give x half an interval at each end (0 … 2 becomes −0.5 … 2.5), so the
        // line spans two thirds of the plot.
        XCTAssertGreaterThan(columns.count, 45)
        XCTAssertEqual(Set(columns.dropFirst().dropLast()).count, 1, "not flat")
        // The line is the lowest mark ink: nothing red below it, and the axis labels below.
        let lineRow = columns[columns.count / 2].max()!
        XCTAssertTrue((lineRow + 1..<80).allSatisfy { y in (0..<120).allSatisfy { !isRed(f.pixel($0, y)) } })
        let labelInk = (lineRow + 3..<80).contains { y in (0..<120).contains { f.pixel($0, y).r < 128 } }
        XCTAssertTrue(labelInk, "no tick labels under the zero line")
    }

    // MARK: CSV with a byte-order mark and CRLF

    func testCSVWithByteOrderMarkAndCRLFLineEndsIsRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("edge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Excel writes UTF-8 CSV this way: a BOM before the first header, CRLF after each row.
        let csv = Data([0xEF, 0xBB, 0xBF] + Array("x,y\r\n0,0\r\n1,3\r\n2,0\r\n".utf8))
        try csv.write(to: dir.appendingPathComponent("bom.csv"))
        try """
        { "canvas": { "width": 41, "height": 41 }, "duration": 0.1,
          "data": { "d": { "file": "bom.csv" } },
          "charts": [ { "data": "d", "inset": 10, "x": { "domain": [0, 2] }, "y": { "domain": [0, 3] },
                        "marks": [ { "type": "point", "size": 6, "fill": "#FF0000" } ] } ] }
        """.write(to: dir.appendingPathComponent("doc.json"), atomically: true, encoding: .utf8)
        // Were the BOM kept, the first column would be "\u{FEFF}x" and "x" would be missing.
        let f = try TimelineDecoder.load(path: dir.appendingPathComponent("doc.json").path).frame(at: 0)
        // (1, 3) is the top centre of the plot, (0, 0) its bottom-left, (2, 0) its bottom-right.
        XCTAssertTrue(isRed(f.pixel(20, 10)))
        XCTAssertTrue(isRed(f.pixel(10, 30)))
        XCTAssertTrue(isRed(f.pixel(30, 30)))
        XCTAssertTrue(isWhite(f.pixel(20, 30)))
    }

    // MARK: Long and small

    func testTenThousandFrames() throws {
        // 99.5 s of fading in plus the 0.5 s hold, at 100 fps: 10,000 frames.
        let s = try scene("""
        { "canvas": { "width": 8, "height": 8 }, "fps": 100,
          "data": { "d": { "values": [ { "x": 0, "y": 1 }, { "x": 1, "y": 1 } ] } },
          "charts": [ { "data": "d", "inset": 0, "y": { "domain": [0, 1] },
                        "marks": [ { "type": "area", "fill": "#FF0000",
                                     "animate": { "opacity": { "from": 0, "to": 1, "curve": "linear", "duration": 99.5 } } } ] } ] }
        """)
        XCTAssertEqual(s.frameCount, 10_000)
        // Linear opacity: frame i (t = i / 100) shows i / 9950 of the red.
        for (frame, expected) in [(0, 0.0), (4975, 0.5), (9950, 1.0), (9999, 1.0)] {
            let f = s.frame(at: Scene.time(ofFrame: frame, fps: s.fps))
            XCTAssertEqual(redCoverage(f.pixel(4, 4)), expected, accuracy: 1.0 / 255 + 1e-9, "frame \(frame)")
        }
    }

    func testOneByOneCanvas() throws {
        let s = try scene("""
        { "canvas": { "width": 1, "height": 1, "background": "#000000" }, "duration": 0.1,
          "data": { "d": { "values": [ { "x": 0, "y": 1 }, { "x": 1, "y": 1 } ] } },
          "charts": [ { "data": "d", "inset": 0, "y": { "domain": [0, 1] },
                        "marks": [ { "type": "area", "fill": "#0000FF" } ] } ] }
        """)
        XCTAssertEqual(s.frameCount, 6)   // round(0.1 × 60)
        let f = s.frame(at: 0)
        XCTAssertEqual(f.width, 1); XCTAssertEqual(f.height, 1)
        XCTAssertEqual(f.pixel(0, 0), PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255))
        // Guides larger than the canvas lay out without a plot to speak of, and still render.
        let crowded = try scene("""
        { "canvas": { "width": 1, "height": 1 }, "duration": 0.1,
          "data": { "d": { "values": [ { "x": 0, "y": 1 }, { "x": 1, "y": 2 } ] } },
          "charts": [ { "data": "d", "title": { "text": "Title", "subtitle": "Subtitle" }, "legend": true, "card": true,
                        "axes": [ { "side": "bottom", "title": "x" }, { "side": "leading", "title": "y" } ], "grid": true,
                        "extremes": {}, "marks": [ { "type": "line", "name": "a" }, { "type": "bar" }, { "type": "text" } ] } ] }
        """)
        let g = crowded.frame(at: 0.05)
        XCTAssertEqual(g.data.count, 4)
        XCTAssertEqual(g.pixel(0, 0).a, 255)
    }
}
