import XCTest
import Foundation

/// Issue 16 from the command line: bad transforms exit 2 with file:line:column, an empty
/// filter warns (and `--strict` refuses), `validate` lists every staggered element's
/// start, and `frame` names `-y` when it refuses an existing output.
final class RealDataTests: ChartreelTestCase {
    /// A document next to a copy of timelines/data/weather.csv, with `transform` on its table.
    func weatherDocument(_ transform: String, chart: String = #""x": { "field": "date" }, "y": { "field": "temp_max" }"#) throws -> String {
        let csv = Self.root.appendingPathComponent("timelines/data/weather.csv")
        try FileManager.default.copyItem(at: csv, to: tmp.appendingPathComponent("weather.csv"))
        let doc = tmp.appendingPathComponent("weather.json")
        try """
        { "canvas": { "width": 160, "height": 100 }, "duration": 0.1,
          "data": { "w": { "file": "weather.csv", "columns": { "date": "date" },
            "transform": \(transform) } },
          "charts": [ { "data": "w", \(chart), "marks": [ { "type": "line" } ] } ] }
        """.write(to: doc, atomically: true, encoding: .utf8)
        return doc.path
    }

    func testBadTransformsExit2WithTheirPlace() throws {
        let cases: [(String, String)] = [
            (#"[ { "filter": { "field": "wether", "equals": "rain" } } ]"#, #":3:43: data.w.transform[0].filter.field: no row of data "w" has a field "wether" at this step; did you mean "weather"?"#),
            (#"[ { "aggregate": [ { "op": "sum", "field": "weather", "as": "temp_max" } ], "groupBy": ["date"] } ]"#,
             #"data.w.transform[0].aggregate[0].field: aggregate "sum" of "weather" needs numbers, found the text "rain""#),
            (#"[ { "calculate": "temp_max *", "as": "t" } ]"#, #"data.w.transform[0].calculate: in the expression "temp_max *", at 1:11: expected a number"#),
            (#"[ { "sort": ["tmp_max"] } ]"#, #"data.w.transform[0].sort[0]: no row of data "w" has a field "tmp_max" at this step; did you mean "temp_max"?"#),
        ]
        for (transform, expected) in cases {
            let doc = try weatherDocument(transform)
            let r = try chartreel("validate", doc)
            XCTAssertEqual(r.status, 2, transform)
            XCTAssertTrue(r.stderr.contains(doc + ":3:"), "file and line: \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected), "\(transform)\n\(r.stderr)")
            try FileManager.default.removeItem(atPath: tmp.appendingPathComponent("weather.csv").path)
        }
    }

    func testAnEmptyFilterWarnsAndStrictMakesItAnError() throws {
        let doc = try weatherDocument(#"[ { "filter": { "field": "weather", "equals": "hail" } } ]"#)
        let r = try chartreel("validate", doc)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("warning: \(doc):3:20: data.w.transform[0]: the filter leaves no rows of 18"), r.stderr)
        let strict = try chartreel("validate", doc, "--strict")
        XCTAssertEqual(strict.status, 2, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("the filter leaves no rows of 18 (a warning, an error under --strict)"), strict.stderr)
        let out = tmp.appendingPathComponent("f.png").path
        XCTAssertEqual(try chartreel("frame", doc, "--at", "0", "-o", out, "--strict").status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    /// Defect 10: every staggered bar's path row starts at its own delay.
    func testValidateListsEveryStaggeredStart() throws {
        let r = try chartreel("validate", Self.root.appendingPathComponent("timelines/world-labels.json").path)
        XCTAssertEqual(r.status, 0, r.stderr)
        let starts = r.text.split(separator: "\n").filter { $0.hasPrefix("bars[") && $0.contains(" path ") }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true) }.map { "\($0[0]) \($0[2]) \($0[4])" }
        XCTAssertEqual(Array(starts.prefix(3)), ["bars[0] 0.000 0.800", "bars[1] 0.080 0.880", "bars[2] 0.160 0.960"], r.text)
    }

    /// Defect 11: `frame` refuses an existing output naming -y.
    func testFrameRefusalNamesTheOption() throws {
        let out = tmp.appendingPathComponent("f.png").path
        XCTAssertEqual(try chartreel("frame", Self.document, "--at", "0.5", "-o", out).status, 0)
        let r = try chartreel("frame", Self.document, "--at", "0.5", "-o", out)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "error: \(out) already exists; remove it, or pass -y (--overwrite) to replace it\n")
    }
}
