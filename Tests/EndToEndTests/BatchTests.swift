import XCTest
import Foundation

/// `chartreel batch`: one render per row of a table, the columns as parameters; a failed
/// row is reported and the others go on (docs/cli.md, `batch`).
final class BatchTests: ChartreelTestCase {
    /// The parameter document and a table of runs holding `rows` (CSV text), in `tmp`.
    func document(runs rows: String) throws -> (doc: String, table: String) {
        let doc = try ParameterTests.writeParameterDocument(in: tmp)
        let table = tmp.appendingPathComponent("runs.csv").path
        try rows.write(toFile: table, atomically: true, encoding: .utf8)
        return (doc, table)
    }

    func testThreeRowsOneFailing() throws {
        // Row 2's "top" is not a number.
        let (doc, table) = try document(runs: "region,top\nEU,20\nXX,lots\nNA,5\n")
        let out = tmp.appendingPathComponent("out").path
        let r = try chartreel("batch", doc, "--table", table, "-o", out + "/{region}/", "-q")
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("[2/3] row 2 failed: \(out)/XX/"), r.stderr)
        XCTAssertTrue(r.stderr.contains("error: \(table) row 2, column top: the parameter \"top\" is a number, found \"lots\""), r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix("error: 1 of 3 videos failed (row 2)\n"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/XX"))
        // The rows that worked are what `render --param` gives, frame for frame.
        for (region, top) in [("EU", "20"), ("NA", "5")] {
            let frames = try contents(ofDirectory: out + "/" + region)
            XCTAssertEqual(frames.map(\.0), ["frame-00000.png", "frame-00001.png", "frame-00002.png"])
            let single = tmp.appendingPathComponent("single-\(region).png").path
            let f = try chartreel("frame", doc, "--frame", "2", "-o", single, "--param", "region=\(region)", "--param", "top=\(top)")
            XCTAssertEqual(f.status, 0, f.stderr)
            XCTAssertEqual(frames[2].1, try Data(contentsOf: URL(fileURLWithPath: single)), region)
        }
        XCTAssertNotEqual(try contents(ofDirectory: out + "/EU")[2].1, try contents(ofDirectory: out + "/NA")[2].1)
    }

    func testSummaryTableAndJSON() throws {
        let (doc, table) = try document(runs: "region,name\nEU,europe\nNA,america\n")
        let r = try chartreel("batch", doc, "--table", table, "-o", tmp.path + "/{name}.gif")
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("[1/2] row 1: \(tmp.path)/europe.gif  3 frames in ") }, r.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("row  output") && $0.contains("result  frames") }, r.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  2  \(tmp.path)/america.gif  ok           3") }, r.stderr)
        XCTAssertEqual(try streamInfo(tmp.path + "/america.gif").frames, 3)
        let j = try chartreel("batch", doc, "--table", table, "-o", tmp.path + "/{name}.gif", "-y", "-q", "--json")
        XCTAssertEqual(j.status, 0, j.stderr)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: j.stdout) as? [String: Any])
        XCTAssertEqual(o["failed"] as? Int, 0)
        let videos = try XCTUnwrap(o["videos"] as? [[String: Any]])
        XCTAssertEqual(videos.map { $0["output"] as? String }, [tmp.path + "/europe.gif", tmp.path + "/america.gif"])
        XCTAssertEqual(videos.map { ($0["params"] as? [String: Any])?["region"] as? String }, ["EU", "NA"])
    }

    /// A value cannot move its output into another folder: a slash followed by a
    /// combining mark is still a slash, ".." is no folder name, and a value that reads
    /// like a placeholder is written as it is.
    func testValuesStayInsideTheOutputFolder() throws {
        let (doc, table) = try document(runs: "region,name\nEU,..\nNA,a/\u{301}b\nEU,{region}\n")
        let out = tmp.appendingPathComponent("out").path
        let r = try chartreel("batch", doc, "--table", table, "-o", out + "/{name}/v.gif", "-q")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(), ["__", "a_\u{301}b", "{region}"])
        for folder in ["__", "a_\u{301}b", "{region}"] {
            XCTAssertEqual(try streamInfo(out + "/" + folder + "/v.gif").frames, 3, folder)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("v.gif").path))
    }

    func testMistakesBeforeAnyRender() throws {
        let (doc, table) = try document(runs: "region,colour\nEU,red\nNA,blue\n")
        let cases: [([String], String)] = [
            (["-o", tmp.path + "/{regon}.gif"], "uses {regon}, but \(table) has no column \"regon\"; its columns: region, colour"),
            (["-o", tmp.path + "/{region}.gif"], "column \"colour\" is not a parameter of \(doc) and not used in -o (it declares region, top)"),
            (["-o", tmp.path + "/all.gif"], "names no column, so every row would write the same file"),
        ]
        for (args, message) in cases {
            let r = try chartreel(["batch", doc, "--table", table] + args)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains(message), r.stderr)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasSuffix(".gif") }, [])
    }

    /// Ctrl-C in the second video stops the batch at once: exit 130, the first video kept,
    /// nothing of the second left (a trap per render left SIGINT ignored from row 2 on).
    func testSIGINTDuringTheSecondVideoStopsTheBatch() throws {
        let doc = tmp.appendingPathComponent("long.json").path
        // Long enough in a debug build that the signal lands inside the second render.
        try """
            { "params": { "c": { "default": "#FF0000" }, "len": { "default": 20 } }, "fps": 60, "duration": "{params.len}",
              "canvas": { "width": 320, "height": 240, "background": "{params.c}" },
              "data": { "d": { "values": [ { "x": 1, "y": 2 }, { "x": 2, "y": 5 } ] } },
              "charts": [ { "data": "d", "marks": [ { "type": "line",
                "animate": { "trim": { "to": { "from": 0, "to": 1, "duration": 20 } } } } ] } ] }
            """.write(toFile: doc, atomically: true, encoding: .utf8)
        let table = tmp.appendingPathComponent("runs.csv").path
        // A short first video, then one of 20 s (1200 frames: many seconds even in release).
        try "c,len\n#FF0000,0.3\n#00FF00,20\n".write(toFile: table, atomically: true, encoding: .utf8)
        let out = tmp.appendingPathComponent("out").path
        let w = try WatchTests.Watcher(["batch", doc, "--table", table, "-o", out + "/{c}.mp4"], command: nil)
        XCTAssertTrue(w.wait(60) { w.stderr.contains("[1/2] row 1") }, w.stderr)
        // Inside row 2's render, after it has started.
        usleep(300_000)
        kill(w.process.processIdentifier, SIGINT)
        let stopped = Date()
        w.process.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(stopped), 5)
        XCTAssertEqual(w.process.terminationReason, .exit)
        XCTAssertEqual(w.process.terminationStatus, 130, w.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), ["#FF0000.mp4"])
    }
}
