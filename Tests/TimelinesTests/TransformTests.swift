import XCTest
import Charts
import Scene
@testable import Timelines

/// Each transform on timelines/data/weather.csv (18 weekly rows of 2012: date, weather,
/// temp_max, precipitation), as docs/timeline-format.md's worked examples run them: the
/// rows that come out, exactly. Then the errors bad steps give.
final class TransformTests: XCTestCase {
    static let dataDir = CurvedLineRevealTests.root.appendingPathComponent("timelines").path

    /// The weather table after `transform` (JSON text of the array).
    func table(_ transform: String, columns: String = #"{ "date": "date" }"#) throws -> DecodedTable {
        let json = #"{ "file": "data/weather.csv", "columns": \#(columns), "transform": \#(transform) }"#
        return try JSONCursor.decode(Array(json.utf8), file: "t.json") { c in
            let t = TimelineDecoder.table(c, base: Self.dataDir)
            return t.isValid ? t : nil
        }
    }

    /// The problems decoding a document whose one table carries `transform` (and whose chart plots x, y).
    func errors(_ transform: String, chart: String = #""x": { "field": "date" }, "y": { "field": "temp_max" }"#) -> [DocumentError] {
        let doc = """
        { "data": { "w": { "file": "data/weather.csv", "columns": { "date": "date" },
            "transform": \(transform) } },
          "charts": [ { "data": "w", \(chart) } ] }
        """
        do {
            _ = try TimelineDecoder.decode(Array(doc.utf8), file: Self.dataDir + "/t.json")
            return []
        } catch { return error.errors }
    }

    func column(_ t: DecodedTable, _ field: String) -> [DataValue?] { t.rows.map { $0[field] } }
    func numbers(_ t: DecodedTable, _ field: String) -> [Double?] { t.rows.map { $0[field]?.number } }
    func strings(_ t: DecodedTable, _ field: String) -> [String?] { t.rows.map { $0[field]?.string } }
    func day(_ y: Int, _ m: Int, _ d: Int) -> Double { CivilDate(year: y, month: m, day: d).seconds }

    func assertNumbers(_ a: [Double?], _ b: [Double], accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, "\(a) vs \(b)", file: file, line: line)
        for (x, y) in zip(a, b) {
            guard let x else { XCTFail("missing value, expected \(y)", file: file, line: line); continue }
            XCTAssertEqual(x, y, accuracy: accuracy, "\(a) vs \(b)", file: file, line: line)
        }
    }

    // MARK: filter

    func testFilterEquals() throws {
        let t = try table(#"[ { "filter": { "field": "weather", "equals": "fog" } } ]"#)
        XCTAssertEqual(strings(t, "weather"), ["fog", "fog"])
        XCTAssertEqual(numbers(t, "temp_max"), [11.1, 8.9])
        XCTAssertEqual(numbers(t, "date"), [day(2012, 2, 6), day(2012, 3, 19)])
    }

    func testFilterDateRangeInISO() throws {
        let t = try table(#"[ { "filter": { "field": "date", ">=": "2012-03-01", "<": "2012-04-01" } } ]"#)
        XCTAssertEqual(numbers(t, "temp_max"), [10.0, 12.2, 8.9, 15.0])
    }

    func testFilterDateInTheColumnsOwnPattern() throws {
        // stocks.csv writes its dates "Jan 1 2000": a bound may be written so too, or in ISO 8601.
        let json = #"""
        { "file": "data/stocks.csv", "columns": { "date": { "date": "MMM d yyyy" } },
          "transform": [ { "filter": { "field": "date", ">=": "Jan 1 2001", "<": "2001-07-01" } },
                         { "filter": { "field": "symbol", "equals": "NORTH" } } ] }
        """#
        let t = try JSONCursor.decode(Array(json.utf8), file: "t.json") { TimelineDecoder.table($0, base: Self.dataDir) }
        XCTAssertEqual(numbers(t, "date"), [day(2001, 1, 1), day(2001, 4, 1)])
        let bad = #"{ "file": "data/stocks.csv", "columns": { "date": { "date": "MMM d yyyy" } }, "transform": [ { "filter": { "field": "date", "equals": "1/1/2001" } } ] }"#
        XCTAssertThrowsError(try JSONCursor.decode(Array(bad.utf8), file: "t.json") { TimelineDecoder.table($0, base: Self.dataDir) }) { error in
            XCTAssertTrue("\(error)".contains("expected a date like \"MMM d yyyy\" or in ISO 8601"), "\(error)")
        }
    }

    func testFilterNotOneOfAndBetween() throws {
        let t = try table(#"[ { "filter": { "not": { "field": "weather", "oneOf": ["rain", "sun"] } } } ]"#)
        XCTAssertEqual(strings(t, "weather"), ["snow", "fog", "fog"])
        let b = try table(#"[ { "filter": { "field": "temp_max", "between": [10, 11.1] } } ]"#)
        XCTAssertEqual(numbers(b, "temp_max"), [10.6, 11.1, 10.0, 10.0])
        let open = try table(#"[ { "filter": { "field": "temp_max", ">": 10, "<=": 11.1 } } ]"#)
        XCTAssertEqual(numbers(open, "temp_max"), [10.6, 11.1])
    }

    /// `"valid": true` keeps the rows that have a value in the field (null and absent cells
    /// go, zero and empty-looking text stay); `false` keeps the others; anything else is an error.
    func testFilterValid() throws {
        let values = #"[ { "k": "a", "v": 1 }, { "k": "b", "v": null }, { "k": "c" }, { "k": "d", "v": 0 }, { "k": "e", "v": "x" } ]"#
        func kept(_ test: String) throws -> [String?] {
            let json = #"{ "values": \#(values), "transform": [ { "filter": \#(test) } ] }"#
            let t = try JSONCursor.decode(Array(json.utf8), file: "t.json") { TimelineDecoder.table($0, base: Self.dataDir) }
            return strings(t, "k")
        }
        XCTAssertEqual(try kept(#"{ "field": "v", "valid": true }"#), ["a", "d", "e"])
        XCTAssertEqual(try kept(#"{ "field": "v", "valid": false }"#), ["b", "c"])
        XCTAssertEqual(try kept(#"{ "not": { "field": "v", "valid": true } }"#), ["b", "c"])
        XCTAssertEqual(try kept(#"{ "field": "v", "valid": true, ">": 0 }"#), ["a"])
        XCTAssertThrowsError(try kept(#"{ "field": "v", "valid": "yes" }"#)) { error in
            XCTAssertTrue("\(error)".contains("transform[0].filter.valid"), "\(error)")
        }
    }

    // MARK: aggregate

    func testAggregateByWeather() throws {
        let t = try table(#"""
        [ { "aggregate": [ { "op": "count", "as": "days" }, { "op": "sum", "field": "precipitation", "as": "rain_mm" },
                           { "op": "mean", "field": "temp_max", "as": "mean" }, { "op": "median", "field": "temp_max", "as": "median" },
                           { "op": "min", "field": "temp_max", "as": "low" }, { "op": "max", "field": "temp_max", "as": "high" } ],
            "groupBy": ["weather"] } ]
        """#)
        XCTAssertEqual(strings(t, "weather"), ["rain", "sun", "snow", "fog"])
        XCTAssertEqual(numbers(t, "days"), [8, 7, 1, 2])
        assertNumbers(numbers(t, "rain_mm"), [51.5, 0, 4.1, 0])
        assertNumbers(numbers(t, "mean"), [77.8 / 8, 92.1 / 7, 2.2, 10.0])
        assertNumbers(numbers(t, "median"), [9.7, 12.2, 2.2, 10.0])
        XCTAssertEqual(numbers(t, "low"), [6.7, 8.3, 2.2, 8.9])
        XCTAssertEqual(numbers(t, "high"), [13.3, 21.1, 2.2, 11.1])
        XCTAssertEqual(t.rows[0].dictionary.keys.sorted(), ["days", "high", "low", "mean", "median", "rain_mm", "weather"])
    }

    func testAggregateWithoutGroupsAndDistinct() throws {
        let t = try table(#"[ { "aggregate": [ { "op": "count", "as": "n" }, { "op": "distinct", "field": "weather", "as": "kinds" } ] } ]"#)
        XCTAssertEqual(t.rows, [["n": .number(18), "kinds": .number(4)]])
    }

    // MARK: timeUnit and bin

    func testTimeUnitMonthThenCount() throws {
        let t = try table(#"""
        [ { "timeUnit": "month", "field": "date", "as": "month" },
          { "aggregate": [ { "op": "count", "as": "days" } ], "groupBy": ["month"] } ]
        """#)
        XCTAssertEqual(numbers(t, "month"), [day(2012, 1, 1), day(2012, 2, 1), day(2012, 3, 1), day(2012, 4, 1)])
        XCTAssertEqual(numbers(t, "days"), [5, 4, 4, 5])
        XCTAssertNotNil(t.dates["month"], "a time unit of a date is a date")
    }

    func testTimeUnitQuarterWeekAndYear() throws {
        let q = try table(#"[ { "timeUnit": "quarter", "field": "date", "as": "q" }, { "aggregate": [ { "op": "count", "as": "n" } ], "groupBy": ["q"] } ]"#)
        XCTAssertEqual(q.rows, [["q": .number(day(2012, 1, 1)), "n": .number(13)], ["q": .number(day(2012, 4, 1)), "n": .number(5)]])
        // 2012-01-02 was a Monday: its week starts on Sunday January 1.
        let w = try table(#"[ { "timeUnit": "week", "field": "date", "as": "week" } ]"#)
        XCTAssertEqual(w.rows[0]["week"], .number(day(2012, 1, 1)))
        XCTAssertEqual(w.rows[17]["week"], .number(day(2012, 4, 29)))
        let y = try table(#"[ { "timeUnit": "year", "field": "date" } ]"#)
        XCTAssertEqual(Set(numbers(y, "date")), [day(2012, 1, 1)], "without \"as\" the field is replaced")
    }

    func testBinNiceStepThenCount() throws {
        let t = try table(#"""
        [ { "bin": { "maxBins": 5 }, "field": "temp_max", "as": "from", "end": "to" },
          { "aggregate": [ { "op": "count", "as": "n" } ], "groupBy": ["from", "to"] },
          { "sort": ["from"] } ]
        """#)
        XCTAssertEqual(numbers(t, "from"), [0, 5, 10, 15, 20])
        XCTAssertEqual(numbers(t, "to"), [5, 10, 15, 20, 25])
        XCTAssertEqual(numbers(t, "n"), [1, 7, 7, 2, 1])
        let wide = try table(#"[ { "bin": { "step": 10 }, "field": "temp_max", "as": "b" }, { "aggregate": [ { "op": "count", "as": "n" } ], "groupBy": ["b"] } ]"#)
        XCTAssertEqual(wide.rows, [["b": .number(10), "n": .number(9)], ["b": .number(0), "n": .number(8)], ["b": .number(20), "n": .number(1)]])
    }

    // MARK: sort and top

    func testSortByOneAndTwoKeys() throws {
        let t = try table(#"[ { "sort": [ { "field": "temp_max", "order": "descending" } ] } ]"#)
        XCTAssertEqual(Array(numbers(t, "temp_max").prefix(3)), [21.1, 16.1, 15.0])
        XCTAssertEqual(numbers(t, "temp_max").last, 2.2)
        let two = try table(#"[ { "sort": ["weather", { "field": "temp_max", "order": "descending" }] } ]"#)
        XCTAssertEqual(Array(strings(two, "weather").prefix(4)), ["fog", "fog", "rain", "rain"])
        XCTAssertEqual(Array(numbers(two, "temp_max").prefix(4)), [11.1, 8.9, 13.3, 11.7])
        // Ties keep their order: the two 10.0 rows of February and March.
        let ties = try table(#"[ { "sort": ["temp_max"] } ]"#)
        let tens = ties.rows.filter { $0["temp_max"] == .number(10) }.map { $0["date"] }
        XCTAssertEqual(tens, [.number(day(2012, 2, 20)), .number(day(2012, 3, 5))])
    }

    func testTopTwoPerGroup() throws {
        let t = try table(#"[ { "top": 2, "sort": [ { "field": "temp_max", "order": "descending" } ], "groupBy": ["weather"] } ]"#)
        XCTAssertEqual(numbers(t, "temp_max"), [21.1, 16.1, 13.3, 11.7, 11.1, 8.9, 2.2])
        XCTAssertEqual(strings(t, "weather"), ["sun", "sun", "rain", "rain", "fog", "fog", "snow"])
    }

    // MARK: window

    func testWindowOverRainyWeeks() throws {
        let t = try table(#"""
        [ { "filter": { "field": "weather", "equals": "rain" } },
          { "window": [ { "op": "rowNumber", "as": "n" }, { "op": "cumulativeSum", "field": "precipitation", "as": "total" },
                        { "op": "movingAverage", "field": "temp_max", "frame": [-1, 0], "as": "avg2" } ],
            "sort": ["date"] } ]
        """#)
        XCTAssertEqual(numbers(t, "n"), [1, 2, 3, 4, 5, 6, 7, 8])
        assertNumbers(numbers(t, "total"), [10.9, 17.5, 19.8, 21.3, 29.7, 33.5, 47.2, 51.5])
        assertNumbers(numbers(t, "avg2"), [10.6, 9.75, 8.05, 6.95, 8.35, 9.7, 10.55, 12.5])
    }

    func testWindowRankKeepsRowOrderAndSharesTies() throws {
        let t = try table(#"[ { "window": [ { "op": "rank", "as": "rank" } ], "sort": [ { "field": "temp_max", "order": "descending" } ] } ]"#)
        // Row order as in the file; 10.0 twice shares rank 9, then 9.4 is 11th.
        XCTAssertEqual(numbers(t, "rank"), [8, 15, 18, 13, 11, 7, 16, 9, 17, 9, 5, 13, 3, 11, 2, 6, 1, 4])
        let perGroup = try table(#"[ { "window": [ { "op": "rank", "as": "r" } ], "sort": [ { "field": "temp_max", "order": "descending" } ], "groupBy": ["weather"] } ]"#)
        XCTAssertEqual(perGroup.rows.filter { $0["weather"] == .string("fog") }.map { $0["r"] }, [.number(1), .number(2)])
    }

    // MARK: calculate

    func testCalculate() throws {
        let t = try table(#"[ { "calculate": "temp_max * 9 / 5 + 32", "as": "temp_f" }, { "calculate": "round(precipitation) / 10", "as": "cm" } ]"#)
        assertNumbers(Array(numbers(t, "temp_f").prefix(3)), [51.08, 46.94, 35.96])
        assertNumbers(Array(numbers(t, "cm").prefix(3)), [1.1, 0, 0.4])
    }

    // MARK: Display names

    func testFoldDisplayNamesAndAxisTitles() throws {
        let doc = """
        { "data": { "jobs": { "values": [ { "year": 2000, "education_and_health": 15.1, "leisure": 11.8 } ],
            "fold": { "columns": ["education_and_health", "leisure"], "as": ["sector", "jobs"],
                      "displayNames": { "education_and_health": "Education & health" } },
            "displayNames": { "jobs": "Jobs (millions)" } } },
          "charts": [ { "data": "jobs", "x": { "field": "sector" }, "y": { "field": "jobs" },
                        "axes": [ { "side": "bottom" }, { "side": "leading" }, { "side": "trailing", "title": "Own" } ],
                        "marks": [ { "type": "bar" } ] } ] }
        """
        let scene = try TimelineDecoder.decode(Array(doc.utf8), file: "t.json")
        let texts = scene.nodes.flatMap { $0.allTexts }
        XCTAssertTrue(texts.contains("Education & health"), "\(texts)")
        XCTAssertTrue(texts.contains("leisure"), "\(texts)")
        XCTAssertTrue(texts.contains("Jobs (millions)"), "\(texts)")
        XCTAssertTrue(texts.contains("Own"), "\(texts)")
        XCTAssertFalse(texts.contains("education_and_health"), "\(texts)")
    }

    /// `"keep"` folds every column but the ones named, in the table's order (a wide table
    /// of many series, as bar_chart_race takes it, without listing them); empty cells stay
    /// missing values; naming both lists, an unknown column, or keeping them all is an error.
    func testFoldKeepsTheNamedColumnsAndFoldsTheRest() throws {
        let json = #"""
        { "values": [ { "year": 2000, "Oslo": 5, "Lima": 7, "note": "a" }, { "year": 2001, "Oslo": 6, "note": "b" } ],
          "fold": { "keep": ["year", "note"], "as": ["city", "people"] } }
        """#
        let t = try JSONCursor.decode(Array(json.utf8), file: "t.json") { TimelineDecoder.table($0, base: Self.dataDir) }
        XCTAssertEqual(numbers(t, "year"), [2000, 2000, 2001, 2001])
        XCTAssertEqual(strings(t, "city"), ["Oslo", "Lima", "Oslo", "Lima"])
        XCTAssertEqual(column(t, "people"), [.number(5), .number(7), .number(6), nil])
        XCTAssertEqual(strings(t, "note"), ["a", "a", "b", "b"])
        func problems(_ fold: String) -> String {
            let bad = #"{ "values": [ { "year": 2000, "Oslo": 5 } ], "fold": \#(fold) }"#
            do { _ = try JSONCursor.decode(Array(bad.utf8), file: "t.json") { TimelineDecoder.table($0, base: Self.dataDir) }; return "" }
            catch { return "\(error)" }
        }
        XCTAssertTrue(problems(#"{ "keep": ["year"], "columns": ["Oslo"] }"#).contains("fold.columns: give \"columns\" (the columns to fold) or \"keep\""))
        XCTAssertTrue(problems(#"{ "keep": ["yaer"] }"#).contains("did you mean \"year\"?"), problems(#"{ "keep": ["yaer"] }"#))
        XCTAssertTrue(problems(#"{ "keep": ["year", "Oslo"] }"#).contains("fold.keep: every column is kept"))
        XCTAssertTrue(problems(#"{ "as": ["a", "b"] }"#).contains("missing required key \"columns\""))
    }

    // MARK: Errors

    func testUnknownFieldIsReportedWhereItIsNamed() {
        let e = errors(#"[ { "filter": { "field": "wether", "equals": "rain" } } ]"#)
        XCTAssertEqual(e.count, 1, "\(e)")
        XCTAssertEqual(e.first?.path.description, "data.w.transform[0].filter.field")
        let line2 = Array(#"    "transform": [ { "filter": { "field": "wether", "equals": "rain" } } ] } },"#)
        let column = line2.firstIndex(of: "w")! + 1 - 1   // the opening quote of "wether"
        XCTAssertEqual(e.first?.location, SourceLocation(line: 2, column: column))
        XCTAssertTrue(e.first?.message.contains("did you mean \"weather\"?") == true, "\(e)")
    }

    func testFieldsFollowThePipeline() {
        // After the aggregate only "weather" and "days" exist.
        let e = errors(#"[ { "aggregate": [ { "op": "count", "as": "days" } ], "groupBy": ["weather"] }, { "sort": ["temp_max"] } ]"#,
                       chart: #""x": { "field": "weather" }, "y": { "field": "days" }"#)
        XCTAssertEqual(e.map(\.path.description), ["data.w.transform[1].sort[0]"], "\(e)")
        XCTAssertTrue(e.first?.message.contains("at this step") == true, "\(e)")
    }

    func testAggregateOfTextNamesTheFieldAndTheRow() {
        let e = errors(#"[ { "aggregate": [ { "op": "sum", "field": "weather", "as": "s" } ] } ]"#,
                       chart: #""x": { "field": "s" }, "y": { "field": "s" }"#)
        XCTAssertEqual(e.count, 1, "\(e)")
        XCTAssertEqual(e.first?.path.description, "data.w.transform[0].aggregate[0].field")
        XCTAssertTrue(e.first?.message.contains("needs numbers, found the text \"rain\"") == true, "\(e)")
        XCTAssertTrue(e.first?.message.contains("weather.csv:2:1") == true, "the row is named: \(e)")
    }

    func testExpressionSyntaxErrorAtLineAndColumn() {
        let e = errors(#"[ { "calculate": "temp_max * / 2", "as": "x" } ]"#)
        XCTAssertEqual(e.count, 1, "\(e)")
        XCTAssertEqual(e.first?.path.description, "data.w.transform[0].calculate")
        XCTAssertTrue(e.first?.message.contains("at 1:12: expected a number, a field or \"(\" after \"*\", found \"/\"") == true, "\(e)")
        let unknown = errors(#"[ { "calculate": "temp_max - tmp_min", "as": "x" } ]"#)
        XCTAssertTrue(unknown.first?.message.contains("reads \"tmp_min\"") == true, "\(unknown)")
    }

    func testSortOnAMissingField() {
        let e = errors(#"[ { "sort": [ { "field": "tmp_max", "order": "descending" } ] } ]"#)
        XCTAssertEqual(e.map(\.path.description), ["data.w.transform[0].sort[0].field"])
        XCTAssertTrue(e.first?.message.contains("did you mean \"temp_max\"?") == true, "\(e)")
    }

    func testTimeUnitOfANonDate() {
        let e = errors(#"[ { "timeUnit": "month", "field": "temp_max" } ]"#)
        XCTAssertEqual(e.map(\.path.description), ["data.w.transform[0].field"])
        XCTAssertTrue(e.first?.message.contains("does not hold dates") == true, "\(e)")
    }

    func testAChartsOwnTransformAndItsFields() throws {
        let ok = """
        { "data": { "w": { "file": "data/weather.csv", "columns": { "date": "date" } } },
          "charts": [ { "data": "w", "transform": [ { "aggregate": [ { "op": "count", "as": "days" } ], "groupBy": ["weather"] } ],
                        "x": { "field": "weather" }, "y": { "field": "days" }, "marks": [ { "type": "bar" } ] } ] }
        """
        XCTAssertNoThrow(try TimelineDecoder.decode(Array(ok.utf8), file: Self.dataDir + "/t.json"))
        let bad = ok.replacingOccurrences(of: #""y": { "field": "days" }"#, with: #""y": { "field": "temp_max" }"#)
        XCTAssertThrowsError(try TimelineDecoder.decode(Array(bad.utf8), file: Self.dataDir + "/t.json")) { error in
            let e = (error as! DocumentErrors).errors
            XCTAssertEqual(e.map(\.path.description), ["charts[0].y.field"], "\(e)")
        }
    }

    func testAnEmptyFilterWarnsAndStrictRefuses() throws {
        let doc = """
        { "data": { "w": { "file": "data/weather.csv", "columns": { "date": "date" },
            "transform": [ { "filter": { "field": "weather", "equals": "hail" } } ] } },
          "charts": [ { "data": "w", "x": { "field": "date" }, "y": { "field": "temp_max" } } ] }
        """
        var warnings: [DocumentError] = []
        _ = try TimelineDecoder.decode(Array(doc.utf8), file: Self.dataDir + "/t.json") { warnings.append($0) }
        XCTAssertEqual(warnings.map(\.path.description), ["data.w.transform[0]"])
        XCTAssertTrue(warnings.first?.message.contains("the filter leaves no rows of 18") == true, "\(warnings)")
        XCTAssertThrowsError(try TimelineDecoder.decode(Array(doc.utf8), file: Self.dataDir + "/t.json", strict: true) { _ in }) { error in
            XCTAssertTrue((error as! DocumentErrors).errors.contains { $0.message.contains("leaves no rows") })
        }
    }
}

extension Node {
    /// Every text in the tree, depth first.
    var allTexts: [String] {
        switch self {
        case .text(let t): return [t.string]
        case .group(let g): return g.children.flatMap(\.allTexts)
        case .shape: return []
        }
    }
}
