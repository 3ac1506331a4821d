import XCTest
import Charts
import Scene
import Raster
@testable import Timelines

/// Issue 16's defects 1, 5, 9 and 14 in decoded documents: dates in a pattern (typed or
/// found) plot on a time axis, ambiguous dates warn, bars on a time axis fit the plot, a
/// counting label floors, and an axis format scales.
final class RealDataDefectTests: XCTestCase {
    static let dataDir = CurvedLineRevealTests.root.appendingPathComponent("timelines").path

    /// A line chart of stocks.csv ("Jan 1 2000" dates), its table as `table` says.
    func stocks(_ table: String) -> String {
        """
        { "canvas": { "width": 480, "height": 240 }, "duration": 0.1,
          "data": { "s": { "file": "data/stocks.csv"\(table) } },
          "charts": [ { "data": "s", "x": { "field": "date" }, "y": { "field": "price" },
                        "axes": [ { "side": "bottom" }, { "side": "leading" } ],
                        "marks": [ { "type": "line", "series": "symbol" } ] } ] }
        """
    }

    func decode(_ text: String, warnings: ((DocumentError) -> Void)? = nil) throws -> Scene {
        try TimelineDecoder.decode(Array(text.utf8), file: Self.dataDir + "/t.json", warnings: warnings ?? { XCTFail("warning: \($0)") })
    }

    /// Defect 1: a column typed with a pattern is a time axis with year ticks, not a
    /// linear axis of epoch seconds from 0.
    func testAPatternedDateColumnPlotsOnATimeAxis() throws {
        let scene = try decode(stocks(#", "columns": { "date": { "date": "MMM d yyyy" } }"#))
        let texts = scene.nodes.flatMap(\.allTexts)
        for year in ["2000", "2001", "2002"] { XCTAssertTrue(texts.contains(year), "\(texts)") }
        XCTAssertFalse(texts.contains { $0.count > 6 && $0.allSatisfy { $0.isNumber || $0 == "," } }, "epoch seconds as labels: \(texts)")
        // The first point (Jan 2000) sits at the plot's left, not squeezed to the right of a zero.
        let frame = scene.frame(at: 0)
        let ink = (0..<frame.width).filter { x in (40..<200).contains { y in let p = frame.pixel(x, y); return p.r < 200 || p.b < 200 } }
        XCTAssertLessThan(ink.first ?? 999, 100, "the lines start near the left edge")
    }

    /// Defect 1: the same column untyped is found to be dates and drawn the same.
    func testAnUntypedColumnOfDatesIsFound() throws {
        let typed = try decode(stocks(#", "columns": { "date": { "date": "MMM d yyyy" } }"#)).frame(at: 0)
        let found = try decode(stocks("")).frame(at: 0)
        XCTAssertEqual(found.data, typed.data)
        XCTAssertEqual(DateDetection.detect(["Jan 1 2000", nil, "Feb 29 2000"]), .dates("MMM d yyyy"))
        XCTAssertEqual(DateDetection.detect(["2012/01/31", "2012/02/01"]), .dates("yyyy/MM/dd"))
        XCTAssertEqual(DateDetection.detect(["3 March 2012"]), .dates("d MMMM yyyy"))
        XCTAssertEqual(DateDetection.detect(["Jan 1 2000", "soon"]), DateDetection.Result.none)
        XCTAssertEqual(DateDetection.detect(["12", "13"]), DateDetection.Result.none)
        XCTAssertEqual(DateDetection.detect(["Paris", "Rome"]), DateDetection.Result.none)
    }

    /// Defect 1: month/day order cannot be told, so the column stays text and a warning
    /// says which pattern to give.
    func testSlashDatesWarnAndNameThePattern() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chartreel-dates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "date,v\n01/31/2012,1\n02/01/2012,2\n".write(to: dir.appendingPathComponent("d.csv"), atomically: true, encoding: .utf8)
        let doc = #"{ "data": { "d": { "file": "d.csv" } }, "charts": [ { "data": "d", "x": { "field": "date" }, "y": { "field": "v" } } ] }"#
        var warnings: [DocumentError] = []
        _ = try TimelineDecoder.decode(Array(doc.utf8), file: dir.path + "/t.json") { warnings.append($0) }
        XCTAssertEqual(warnings.count, 1)
        XCTAssertEqual(warnings.first?.path.description, "data.d.file")
        XCTAssertTrue(warnings.first?.message.contains(#"such as "01/31/2012""#) == true, "\(warnings)")
        XCTAssertTrue(warnings.first?.message.contains(#"{ "date": { "date": "MM/dd/yyyy" } }"#) == true, "\(warnings)")
        let typed = doc.replacingOccurrences(of: #""file": "d.csv""#, with: #""file": "d.csv", "columns": { "date": { "date": "MM/dd/yyyy" } }"#)
        XCTAssertNoThrow(try TimelineDecoder.decode(Array(typed.utf8), file: dir.path + "/t.json") { XCTFail("\($0)") })
    }

    /// Spreadsheets in most European languages save semicolons and decimal commas, and
    /// TSV files tabs: both read as their authors mean without being told; `"delimiter"`
    /// and `"decimal"` say it outright, and what cannot work is an error at the key.
    func testSemicolonsDecimalCommasAndTabs() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chartreel-dialects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "Jahr;Land;Wert\n2000;Österreich;1.234,5\n2001;Österreich;2,25\n2002;Österreich;-3\n".write(to: dir.appendingPathComponent("de.csv"), atomically: true, encoding: .utf8)
        try "Jahr;Wert\n2000;2,250\n2001;1,500\n".write(to: dir.appendingPathComponent("three.csv"), atomically: true, encoding: .utf8)
        try "year\tcity\tv\n2000\tOslo\t1.5\n2001\tOslo\t2\n".write(to: dir.appendingPathComponent("t.tsv"), atomically: true, encoding: .utf8)
        func table(_ spec: String) throws -> DecodedTable {
            try JSONCursor.decode(Array(spec.utf8), file: dir.path + "/t.json") { TimelineDecoder.table($0, base: dir.path) }
        }
        let de = try table(#"{ "file": "de.csv" }"#)
        XCTAssertEqual(de.rows.column("Wert").map { c in (0..<c.count).map { c[$0] } }, [.number(1234.5), .number(2.25), .number(-3)])
        XCTAssertEqual(de.rows.column("Land")?[0], .string("Österreich"))
        XCTAssertEqual(de.rows.column("Jahr")?[1], .number(2001))
        // Three digits after a comma in a file of semicolons are a fraction, not a thousand.
        XCTAssertEqual(try table(#"{ "file": "three.csv" }"#).rows.column("Wert")?[0], .number(2.25))
        XCTAssertEqual(try table(#"{ "file": "three.csv", "decimal": "." }"#).rows.column("Wert")?[0], .number(2250), "told: a point, so the comma groups")
        let told = try table(#"{ "file": "de.csv", "delimiter": ";", "decimal": "," }"#)
        XCTAssertEqual(told.rows.column("Wert")?[0], .number(1234.5))
        let asText = try table(#"{ "file": "de.csv", "decimal": "." }"#)
        XCTAssertEqual(asText.rows.column("Wert")?[0], .string("1.234,5"), "a decimal point, as told: the cells are text")
        let tsv = try table(#"{ "file": "t.tsv" }"#)
        XCTAssertEqual(tsv.rows.column("v")?[0], .number(1.5))
        XCTAssertEqual(tsv.rows.column("city")?[1], .string("Oslo"))
        func problem(_ spec: String) -> String {
            do { _ = try table(spec); return "" } catch { return "\(error)" }
        }
        XCTAssertTrue(problem(#"{ "file": "de.csv", "delimiter": ",", "decimal": "," }"#).contains("decimal: numbers with a decimal comma need fields separated by something else"), problem(#"{ "file": "de.csv", "delimiter": ",", "decimal": "," }"#))
        XCTAssertTrue(problem(#"{ "file": "de.csv", "delimiter": "::" }"#).contains(#"expected a delimiter ",", ";", "\t" (a tab) or "|", found "::""#))
        XCTAssertTrue(problem(#"{ "file": "de.csv", "decimal": "comma" }"#).contains(#"decimal: unknown value "comma"; expected one of ".", ","#), problem(#"{ "file": "de.csv", "decimal": "comma" }"#))
        XCTAssertTrue(problem(#"{ "values": [ { "a": 1 } ], "delimiter": ";" }"#).contains(#""delimiter" is for a CSV "file""#))
    }

    /// Defect 9: a year counter counting to 2000 shows 1999 until it gets there.
    func testACounterFloors() throws {
        let doc = """
        { "canvas": { "width": 200, "height": 100 },
          "data": { "d": { "values": [ { "x": "now", "y": 2000 } ] } },
          "charts": [ { "data": "d", "marks": [ { "type": "text", "text": { "format": { "fractionDigits": 0 } },
                         "animate": { "count": { "from": 0, "to": 1, "duration": 1, "curve": "linear" } } } ] } ] }
        """
        let scene = try decode(doc)
        guard let counter = scene.nodes.flatMap(\.allTextNodes).compactMap(\.counter).first else { return XCTFail("no counter") }
        func shown(_ t: Double) -> String { counter.format(counter.value.value(at: t)) }
        XCTAssertEqual(shown(0.9998), "1999", "1999.6 floors")
        XCTAssertEqual(shown(0.5), "1000")
        XCTAssertEqual(shown(1), "2000")
        let nearest = doc.replacingOccurrences(of: #""fractionDigits": 0"#, with: #""fractionDigits": 0, "rounding": "nearest""#)
        guard let c2 = try decode(nearest).nodes.flatMap(\.allTextNodes).compactMap(\.counter).first else { return XCTFail("no counter") }
        XCTAssertEqual(c2.format(c2.value.value(at: 0.9998)), "2000", "\"rounding\" chooses")
    }

    /// Defect 14: an axis format scales thousands to millions.
    func testAnAxisFormatScales() throws {
        let doc = """
        { "canvas": { "width": 300, "height": 200 }, "duration": 0.1,
          "data": { "d": { "values": [ { "x": 0, "y": 0 }, { "x": 1, "y": 3000 } ] } },
          "charts": [ { "data": "d", "axes": [ { "side": "leading", "format": { "scale": 0.001, "unit": "M", "maxFractionDigits": 1 } } ],
                        "marks": [ { "type": "line" } ] } ] }
        """
        let texts = try decode(doc).nodes.flatMap(\.allTexts)
        XCTAssertTrue(texts.contains("3M"), "\(texts)")
        XCTAssertTrue(texts.contains("0.5M"), "\(texts)")
    }

    /// Defect 5: bars on a time axis take the data's interval and the domain gets half an
    /// interval at each end, so the first and last bars lie inside the plot, each bar
    /// keeps clear of its neighbours, and every bar is centred on its date. Also on a
    /// number axis (weeks 1…6, with a missing week).
    func testBarsOnATimeAxisStayInsideThePlot() throws {
        for (xs, key) in [(["2023-11-01", "2023-12-01", "2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01"].map { "\"\($0)\"" }, "month"),
                          (["1", "2", "3", "5", "6", "7"], "week")] {
            let rows = xs.enumerated().map { #"{ "\#(key)": \#($1), "v": \#(10 + 3 * $0) }"# }.joined(separator: ", ")
            let doc = """
                { "canvas": { "width": 480, "height": 240, "background": "#FFFFFF" }, "duration": 0.1,
                  "data": { "s": { "values": [ \(rows) ] } },
                  "charts": [ { "data": "s", "x": { "field": "\(key)" }, "y": { "field": "v" },
                                "axes": [ { "side": "bottom" }, { "side": "leading" } ],
                                "marks": [ { "type": "bar", "fill": "#FF0000" } ] } ] }
                """
            let scene = try decode(doc)
            let frame = scene.frame(at: 1)
            func red(_ x: Int, _ y: Int) -> Bool { let p = frame.pixel(x, y); return p.r > 200 && p.g < 80 && p.b < 80 }
            // Red columns along a row just above the x axis, where every bar is drawn.
            let y = (0..<frame.height).reversed().first { y in (0..<frame.width).contains { red($0, y) } }!
            let cols = (0..<frame.width).filter { red($0, y - 2) }
            var runs: [(Int, Int)] = []
            for c in cols { if let last = runs.last, last.1 == c - 1 { runs[runs.count - 1].1 = c } else { runs.append((c, c)) } }
            XCTAssertEqual(runs.count, 6, "\(key): six separate bars, \(runs)")
            // The y axis line is the leftmost dark column; no bar reaches it or the right edge.
            let axisX = (0..<frame.width).first { x in let p = frame.pixel(x, frame.height / 2); return p.r < 200 && p.g < 200 && p.b < 200 }!
            XCTAssertGreaterThan(runs.first!.0, axisX + 2, "\(key): the first bar starts inside the plot")
            XCTAssertLessThan(runs.last!.1, frame.width - 9, "\(key): the last bar ends inside the plot")
            // The gaps between bars follow the dates (the missing week leaves a wider gap).
            let centres = runs.map { Double($0.0 + $0.1) / 2 }
            let steps = zip(centres.dropFirst(), centres).map { $0 - $1 }
            if key == "week" {
                XCTAssertEqual(steps[2], 2 * steps[0], accuracy: 2, "week 3 to 5 is two steps: \(steps)")
                let width = Double(runs[0].1 - runs[0].0 + 1)
                XCTAssertEqual(width, 0.8 * steps[0], accuracy: 2, "a bar is 0.8 of the interval")
            } else {
                XCTAssertEqual(steps[0] / steps[1], 30.0 / 31.0, accuracy: 0.03, "November has 30 days, December 31: \(steps)")
            }
        }
    }
}

extension Node {
    /// Every text node in the tree, depth first.
    var allTextNodes: [TextNode] {
        switch self {
        case .text(let t): return [t]
        case .group(let g): return g.children.flatMap(\.allTextNodes)
        case .shape: return []
        }
    }
}
