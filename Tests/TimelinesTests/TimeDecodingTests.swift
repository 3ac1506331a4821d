import XCTest
import Raster
import Scene
@testable import Charts
@testable import Timelines

/// A chart's `"time"`: decoding, the clock it gives, and the errors for bad input.
final class TimeDecodingTests: XCTestCase {
    func document(time: String, values: String? = nil) -> String {
        let rows = values ?? """
            { "year": 2000, "name": "A", "v": 10 }, { "year": 2000, "name": "B", "v": 20 },
            { "year": 2001, "name": "A", "v": 30 }, { "year": 2001, "name": "B", "v": 20 }
            """
        return """
        { "canvas": { "width": 120, "height": 80 },
          "data": { "d": { "values": [ \(rows) ] } },
          "charts": [ { "data": "d", "x": { "field": "name" }, "y": { "field": "v", "domain": [0, 40] }, "inset": 0,
                        "time": \(time),
                        "marks": [ { "type": "bar", "fill": "#000000" } ] } ] }
        """
    }

    func scene(_ text: String) throws -> Scene { try TimelineDecoder.decode(Array(text.utf8), file: "race.json") }

    func errors(_ text: String) -> String {
        do { _ = try scene(text); return "" } catch { return "\(error)" }
    }

    /// Ink height of the first bar (A), at the middle of its band.
    func heightOfA(_ s: Scene, at t: Double) -> Int {
        let f = s.frame(at: t)
        return (0..<80).filter { f.pixel(30, $0).r < 128 }.count
    }

    func testContinuousTimeMovesTheBarsAndTheVideoLastsAsLong() throws {
        let s = try scene(document(time: #"{ "field": "year", "key": "name", "duration": 2, "delay": 0.5 }"#))
        // The data moves from 0.5 s to 2.5 s, then the usual hold.
        XCTAssertEqual(s.effectiveDuration, 3.0, accuracy: 1e-9)
        XCTAssertEqual(heightOfA(s, at: 0), 20)           // 10 of 40 on 80 px
        XCTAssertEqual(heightOfA(s, at: 1.5), 40)         // 20: halfway between 10 and 30
        XCTAssertEqual(heightOfA(s, at: 2.5), 60)
    }

    func testStatesHoldThenMove() throws {
        let s = try scene(document(time: #"{ "field": "year", "key": "name", "mode": "states", "transition": 1, "hold": 1, "curve": "linear" }"#))
        XCTAssertEqual(heightOfA(s, at: 0.9), 20)
        XCTAssertEqual(heightOfA(s, at: 1.5), 40)
        XCTAssertEqual(heightOfA(s, at: 2), 60)
    }

    /// Real tables have empty cells. In a chart whose data moves, a row without the value
    /// it plots is a key missing at that step, bridged from the step before to the step
    /// after, in a bar chart as in a race (where the ranks are those of the keys that have
    /// a value); a still chart refuses such a row and says how to leave it out.
    func testARowWithoutTheValueItPlotsIsBridged() throws {
        // A: 10 at 2000, nothing at 2001 (null in one document, no cell in the other), 30 at 2002.
        for gap in [#"{ "year": 2001, "name": "A", "v": null }"#, #"{ "year": 2001, "name": "A" }"#] {
            let rows = """
                { "year": 2000, "name": "A", "v": 10 }, { "year": 2000, "name": "B", "v": 20 },
                \(gap), { "year": 2001, "name": "B", "v": 20 },
                { "year": 2002, "name": "A", "v": 30 }, { "year": 2002, "name": "B", "v": 20 }
                """
            let s = try scene(document(time: #"{ "field": "year", "key": "name", "duration": 2 }"#, values: rows))
            XCTAssertEqual(heightOfA(s, at: 0), 20, gap)         // 10 of 40 on 80 px
            XCTAssertEqual(heightOfA(s, at: 1), 40, gap)         // 2001: halfway from 10 to 30, not 0 and not gone
            XCTAssertEqual(heightOfA(s, at: 1.5), 50, gap)
            XCTAssertEqual(heightOfA(s, at: 2), 60, gap)
        }
        // A race ranked by a field with an empty cell: the key is bridged, and the others keep
        // their places at that step.
        let race = """
            { "canvas": { "width": 120, "height": 80 },
              "data": { "d": { "values": [
                { "year": 2000, "name": "A", "v": 30 }, { "year": 2000, "name": "B", "v": 20 }, { "year": 2000, "name": "C", "v": 10 },
                { "year": 2001, "name": "A", "v": null }, { "year": 2001, "name": "B", "v": 5 }, { "year": 2001, "name": "C", "v": 10 },
                { "year": 2002, "name": "A", "v": 40 }, { "year": 2002, "name": "B", "v": 5 }, { "year": 2002, "name": "C", "v": 10 } ] } },
              "charts": [ { "data": "d", "x": { "field": "v", "domain": [0, 40] }, "y": { "field": "rank", "domain": [2.5, -0.5] }, "inset": 0,
                            "time": { "field": "year", "key": "name", "duration": 2, "rank": { "by": "v", "top": 3 } },
                            "marks": [ { "type": "bar", "orientation": "horizontal", "slot": 1, "barWidth": 0.8, "fill": "#000000" } ] } ] }
            """
        let r = try scene(race)
        /// Ink length of each slot's bar (rows at the slots' middles: 80 px for 3 slots).
        func lengths(at t: Double) -> [Int] {
            let f = r.frame(at: t)
            return [13, 40, 67].map { y in (0..<120).filter { f.pixel($0, y).r < 128 }.count }
        }
        XCTAssertEqual(lengths(at: 0), [90, 60, 30])      // A 30, B 20, C 10 of 40 on 120 px
        XCTAssertEqual(lengths(at: 1), [105, 30, 15])     // 2001: A bridged to 35 leads, then C 10, B 5
        XCTAssertEqual(lengths(at: 2), [120, 30, 15])
        // A still chart: the row is refused, with the filter that leaves such rows out.
        let still = document(time: "null", values: #"{ "year": 2000, "name": "A", "v": null }, { "year": 2000, "name": "B", "v": 2 }"#)
            .replacingOccurrences(of: #""time": null,"#, with: "")
        XCTAssertTrue(errors(still).contains(#"this row has no value for "v", which charts[0] plots on y; to leave out rows with empty cells, give the chart "transform": [{ "filter": { "field": "v", "valid": true } }]"#), errors(still))
        let filtered = still.replacingOccurrences(of: #""inset": 0,"#, with: #""inset": 0, "transform": [ { "filter": { "field": "v", "valid": true } } ],"#)
        XCTAssertEqual(errors(filtered), "")
    }

    func testQuarterNamesAreSteps() throws {
        // Real data names quarters, seasons and fiscal years in text: each is a step.
        let s = try scene(document(time: #"{ "field": "q", "key": "name", "duration": 2 }"#, values: """
            { "q": "2000 Q1", "name": "A", "v": 10 }, { "q": "2000 Q1", "name": "B", "v": 20 },
            { "q": "2000 Q2", "name": "A", "v": 30 }, { "q": "2000 Q2", "name": "B", "v": 20 }
            """))
        XCTAssertEqual(s.effectiveDuration, 2.5, accuracy: 1e-9)
        XCTAssertEqual(heightOfA(s, at: 0), 20)
        XCTAssertEqual(heightOfA(s, at: 1), 40, "halfway between 10 and 30")
        XCTAssertEqual(heightOfA(s, at: 2), 60)
    }

    func testPerStepSetsTheDuration() throws {
        let s = try scene(document(time: #"{ "field": "year", "key": "name", "perStep": 3 }"#))
        XCTAssertEqual(s.effectiveDuration, 3.5, accuracy: 1e-9)
    }

    func testBadTimesSayWhereAndWhat() {
        XCTAssertTrue(errors(document(time: #"{ "field": "yaer", "key": "name" }"#))
            .contains(#"charts[0].time.field: no row of data "d" has a field "yaer"; did you mean "year"?"#))
        XCTAssertTrue(errors(document(time: #"{ "field": "year" }"#)).contains(#"charts[0].time: missing required key "key""#),
                      errors(document(time: #"{ "field": "year" }"#)))
        let bad = errors(document(time: #"{ "field": "year", "key": "name" }"#,
                                  values: #"{ "year": 2000, "name": "A", "v": 1 }, { "year": "later", "name": "A", "v": 2 }"#))
        XCTAssertTrue(bad.contains(#"data.d.values[1]: expected a number or an ISO 8601 date such as "2024-03-05" in "year", the chart's time field, found "later""#), bad)
        let dup = errors(document(time: #"{ "field": "year", "key": "name" }"#,
                                  values: #"{ "year": 2000, "name": "A", "v": 1 }, { "year": 2000, "name": "A", "v": 2 }"#))
        XCTAssertTrue(dup.contains(#"data.d.values[1]: "name" "A" appears twice at "year" 2000 (first at data.d.values[0]); each key has one row per time step"#), dup)
        XCTAssertTrue(errors(document(time: #"{ "field": "year", "key": "name", "hold": 1 }"#))
            .contains(#"charts[0].time.hold: "hold" is for "mode": "states""#))
        XCTAssertTrue(errors(document(time: #"{ "field": "year", "key": "name", "duration": 1, "perStep": 1 }"#))
            .contains(#"give "duration" or "perStep", not both"#))
    }

    func testTextsNameTheMomentAndBadPlaceholdersAreReported() throws {
        func doc(_ extra: String, time: Bool = true) -> String {
            document(time: time ? #"{ "field": "year", "key": "name", "duration": 1 }"# : "null")
                .replacingOccurrences(of: #""time": null,"#, with: "")
                .replacingOccurrences(of: #""inset": 0,"#, with: #""inset": 0, \#(extra),"#)
        }
        let s = try scene(doc(#""title": "In {time}", "periodLabel": { "text": "{time}", "size": 20, "position": "topLeading" }"#))
        XCTAssertEqual(s.effectiveDuration, 1.5, accuracy: 1e-9)
        XCTAssertTrue(errors(doc(#""title": "In {tim}""#)).contains(#"charts[0].title: unknown placeholder {tim}; the placeholders are {time}, {time:FORMAT}, {sum:FIELD} and {field:FIELD}, at character 4 of "In {tim}""#),
                      errors(doc(#""title": "In {tim}""#)))
        XCTAssertTrue(errors(doc(#""periodLabel": { "text": "{time:.zf}" }"#)).contains("charts[0].periodLabel.text: expected a number format such as .0f, .2f, ,.0f (thousands separated)"))
        XCTAssertTrue(errors(doc(#""periodLabel": true"#, time: false)).contains(#"charts[0].periodLabel: a period label names the moment of moving data; give the chart a "time""#),
                      errors(doc(#""periodLabel": true"#, time: false)))
        // Without moving data, braces are plain text as before.
        XCTAssertNoThrow(try scene(doc(#""title": "Sets {a, b}""#, time: false)))
    }

    func testEnterAndExitDecode() throws {
        let s = try scene(document(time: #"{ "field": "year", "key": "name", "enter": "fade", "exit": "fade" }"#))
        XCTAssertGreaterThan(s.frameCount, 1)
        XCTAssertNoThrow(try scene(document(time: #"{ "field": "year", "key": "name", "enter": ["fade", "grow"], "exit": "fly", "flyTo": "leading" }"#)))
        let bad = errors(document(time: #"{ "field": "year", "key": "name", "enter": "sideways" }"#))
        XCTAssertTrue(bad.contains(#"charts[0].time.enter: unknown value "sideways"; expected one of "none", "fade", "grow", "shrink", "fly""#), bad)
        let badList = errors(document(time: #"{ "field": "year", "key": "name", "exit": ["fade", 3] }"#))
        XCTAssertTrue(badList.contains("charts[0].time.exit[1]:"), badList)
        let badEdge = errors(document(time: #"{ "field": "year", "key": "name", "enter": "fly", "flyFrom": "left" }"#))
        XCTAssertTrue(badEdge.contains(#"charts[0].time.flyFrom: unknown value "left""#), badEdge)
    }

    func testMotionKeysThatCannotWorkAreReported() {
        XCTAssertTrue(errors(document(time: #"{ "field": "year", "key": "nmae" }"#))
            .contains(#"charts[0].time.key: no row of data "d" has a field "nmae"; did you mean "name"?"#))
        let both = errors(document(time: #"{ "field": "year", "key": "name", "reveal": true, "rank": { "by": "v" } }"#))
        XCTAssertTrue(both.contains(#"charts[0].time.rank: a race ranks the keys at each moment; "reveal" shows each key's history"#), both)
        func chart(_ time: String, y: String = #"{ "field": "v" }"#, mark: String) -> String {
            """
            { "canvas": { "width": 120, "height": 80 },
              "data": { "d": { "values": [ { "year": 2000, "name": "A", "v": 10 }, { "year": 2001, "name": "A", "v": 30 } ] } },
              "charts": [ { "data": "d", "x": { "field": "year" }, "y": \(y), \(time) "marks": [ \(mark) ] } ] }
            """
        }
        let heads = errors(chart(#""time": { "field": "year", "key": "name" },"#, mark: #"{ "type": "point", "heads": true }"#))
        XCTAssertTrue(heads.contains(#"charts[0].marks[0].heads: "heads" draws the head of each key of a revealed timeline"#), heads)
        XCTAssertEqual(errors(chart(#""time": { "field": "year", "key": "name", "reveal": true },"#, mark: #"{ "type": "point", "heads": true }"#)), "")
        let trail = errors(chart("", mark: #"{ "type": "point", "trail": true }"#))
        XCTAssertTrue(trail.contains(#"charts[0].marks[0].trail: a trail shows where moving data was; give the chart a "time""#), trail)
        let trace = errors(chart("", mark: #"{ "type": "point", "trace": { "opacity": 2 } }"#))
        XCTAssertTrue(trace.contains("charts[0].marks[0].trace.opacity"), trace)
        let follow = errors(chart("", y: #"{ "field": "v", "follow": "max" }"#, mark: #"{ "type": "point" }"#))
        XCTAssertTrue(follow.contains(#"charts[0].y.follow: "follow" moves a domain with data that changes over time; this chart has no "time""#), follow)
        let ends = errors(chart(#""time": { "field": "year", "key": "name" },"#, y: #"{ "field": "v", "follow": { "ends": "top" } }"#, mark: #"{ "type": "point" }"#))
        XCTAssertTrue(ends.contains(#"charts[0].y.follow.ends: unknown value "top"; expected one of "both", "max", "fixed""#), ends)
        let size = errors(chart(#""time": { "field": "year", "key": "name" },"#, mark: #"{ "type": "point", "size": { "field": "pop" } }"#))
        XCTAssertTrue(size.contains(#"charts[0].marks[0].size.field: no row of data "d" has a field "pop""#), size)
    }

    func testACSVDateColumnAsTimeNamesTheMomentAsADate() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("time-dates-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "month,k,v\nJan 1 2020,A,1\nFeb 1 2020,A,3\nMar 1 2020,A,2\n".write(to: dir.appendingPathComponent("d.csv"), atomically: true, encoding: .utf8)
        func doc(_ title: String) throws -> Scene {
            let text = """
            { "canvas": { "width": 200, "height": 100 }, "data": { "d": { "file": "d.csv" } },
              "charts": [ { "data": "d", "time": { "field": "month", "key": "k", "perStep": 1 }, "x": { "field": "k" },
                            "y": { "field": "v", "domain": [0, 4] }, "title": "\(title)", "marks": [ { "type": "bar" } ] } ] }
            """
            let path = dir.appendingPathComponent("doc.json").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return try TimelineDecoder.load(path: path)
        }
        // Halfway from February to March the month on screen is February, written as a date.
        let moving = try doc("{time:MMM yyyy}").frame(at: 1.5)
        XCTAssertTrue(moving.data == (try doc("Feb 2020").frame(at: 1.5)).data)
        XCTAssertFalse(moving.data == (try doc("Mar 2020").frame(at: 1.5)).data)
    }
}
