import XCTest
import Foundation

/// `--set PATH=JSON`, `--data NAME=FILE`, `--param NAME=VALUE` and a document's `"params"`
/// (docs/cli.md, "Changing a document from the command line"). Each change is checked
/// against the same change written into the file: the frames must be byte-identical.
final class ParameterTests: ChartreelTestCase {
    /// `parameterDocument()` written in `dir` as doc.json, for other tests.
    static func writeParameterDocument(in dir: URL) throws -> String {
        try writeParameterDocument(in: dir, region: "{params.region}", top: "\"{params.top}\"", table: nil, name: "doc.json")
    }

    func parameterDocument(region: String = "{params.region}", top: String = "\"{params.top}\"",
                           table: String? = nil, name: String = "doc.json") throws -> String {
        try Self.writeParameterDocument(in: tmp, region: region, top: top, table: table, name: name)
    }

    /// A tiny document with two parameters, a filter on one and a domain bound from the other.
    static func writeParameterDocument(in dir: URL, region: String, top: String, table: String?, name: String) throws -> String {
        let source = table ?? """
            "values": [ { "region": "EU", "x": 1, "y": 5 }, { "region": "EU", "x": 2, "y": 9 },
                        { "region": "NA", "x": 1, "y": 2 }, { "region": "NA", "x": 2, "y": 3 } ]
            """
        let text = """
            {
              "canvas": { "width": 120, "height": 80 },
              "fps": 10, "duration": 0.3,
              "params": { "region": { "default": "EU", "description": "the region shown" },
                          "top": { "type": "number", "default": 20 } },
              "data": { "sales": { \(source),
                        "transform": [ { "filter": { "field": "region", "equals": "\(region)" } } ] } },
              "charts": [ { "data": "sales", "title": "Sales in \(region)", "y": { "field": "y", "domain": [0, \(top)] },
                            "marks": [ { "type": "line" } ] } ]
            }
            """
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Frame 2 of `doc` with `args`, as PNG bytes.
    func frame(_ doc: String, _ args: [String] = []) throws -> Data {
        let out = tmp.appendingPathComponent("f-\(UUID().uuidString.prefix(8)).png").path
        let r = try chartreel(["frame", doc, "--frame", "2", "-o", out] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    func testSetIsTheSameAsEditingTheFile() throws {
        let doc = try document(width: 200, height: 150)
        let edited = try document(width: 200, height: 150, extra: ", \"duration\": 1.5")
        // A number, an object member that did not exist, and text that is not JSON.
        let set = try frame(doc, ["--set", "duration=1.5"])
        XCTAssertEqual(set, try frame(edited))
        XCTAssertNotEqual(set, try frame(doc, ["--set", "canvas.background=#000000"]))
        let titled = try frame(doc, ["--set", "charts[0].title=Sales 2026"])
        let quoted = try frame(doc, ["--set", "charts[0].title=\"Sales 2026\""])
        XCTAssertEqual(titled, quoted, "text that is not JSON is a string")
        XCTAssertNotEqual(titled, try frame(doc))
        // validate sees the change too.
        let v = try chartreel("validate", doc, "--set", "fps=20")
        XCTAssertEqual(v.status, 0, v.stderr)
        XCTAssertTrue(v.text.contains("fps         20"), v.text)
    }

    func testBadSetPathsNameTheFlag() throws {
        let doc = try document(width: 200, height: 150)
        let out = tmp.appendingPathComponent("x.png").path
        let cases: [([String], String)] = [
            (["--set", "charts[3].title=x"], "error: --set charts[3]: the document has 1 chart"),
            (["--set", "fps.rate=1"], "error: --set fps.rate: fps is a number 60, not an object"),
            (["--set", "charts.x=1"], "error: --set charts.x: charts is an array, not an object"),
            (["--set", "charts[x]=1"], "error: --set charts[x]: expected an index such as [0]"),
            (["--set", "fps"], "error: --set fps: expected PATH=VALUE"),
            // Decoded like the file, but told as the flag's.
            (["--set", "fps=0"], "--set fps=0: fps: expected a frame rate of at least 1 frame per second, found 0"),
            (["--set", "charts[0].strok=1"], "--set charts[0].strok=1: charts[0]: unknown key \"strok\""),
        ]
        for (args, message) in cases {
            let r = try chartreel(["frame", doc, "--at", "0", "-o", out] + args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(args) wrote nothing")
        }
    }

    func testDataReplacesATablesSource() throws {
        let csv = tmp.appendingPathComponent("week49.csv").path
        try "region,x,y\nEU,1,1\nEU,2,19\nNA,1,4\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let doc = try parameterDocument()
        let reading = try parameterDocument(table: "\"file\": \"week49.csv\"", name: "reading.json")
        let replaced = try frame(doc, ["--data", "sales=" + csv])
        XCTAssertEqual(replaced, try frame(reading))
        XCTAssertNotEqual(replaced, try frame(doc))
        // The path is the command line's: relative to where it was typed.
        let r = try run("/usr/bin/env", ["-C", tmp.path, Self.binary, "validate", doc, "--data", "sales=week49.csv"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let unknown = try chartreel("validate", doc, "--data", "salse=" + csv)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("error: --data salse: the document has no table \"salse\"; did you mean \"sales\"?"),
                      unknown.stderr)
        let missing = try chartreel("validate", doc, "--data", "sales=" + tmp.appendingPathComponent("none.csv").path)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("--data sales=") && missing.stderr.contains("none.csv"), missing.stderr)
    }

    func testParametersInStringsAndFilters() throws {
        let doc = try parameterDocument()
        // Defaults: the same as the values written in.
        XCTAssertEqual(try frame(doc), try frame(try parameterDocument(region: "EU", top: "20", name: "eu.json")))
        // Given: a string through the filter and the title, a number as a domain bound.
        let na = try frame(doc, ["--param", "region=NA", "--param", "top=5"])
        XCTAssertEqual(na, try frame(try parameterDocument(region: "NA", top: "5", name: "na.json")))
        XCTAssertNotEqual(na, try frame(doc))
        // Listed by validate, with who gave the value.
        let v = try chartreel("validate", doc, "--param", "region=NA")
        XCTAssertEqual(v.status, 0, v.stderr)
        let lines = v.text.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("region  string  NA (--param region=NA)  EU") && $0.hasSuffix("the region shown") },
                      v.text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("top     number  20") }, v.text)
        // Mistakes: a name not declared, a value of the wrong kind, a reference to nothing.
        let unknown = try chartreel("validate", doc, "--param", "regoin=NA")
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("error: --param regoin=NA: the document declares no parameter \"regoin\"; did you mean \"region\"?"),
                      unknown.stderr)
        let kind = try chartreel("validate", doc, "--param", "top=lots")
        XCTAssertEqual(kind.status, 2)
        XCTAssertTrue(kind.stderr.contains("the parameter \"top\" is a number, found \"lots\""), kind.stderr)
        let typo = try parameterDocument(region: "{params.regon}", name: "typo.json")
        let t = try chartreel("validate", typo)
        XCTAssertEqual(t.status, 2)
        XCTAssertTrue(t.stderr.contains("typo.json:8:71: data.sales.transform[0].filter.equals: unknown parameter \"regon\"; did you mean \"region\"?"),
                      t.stderr)
    }
}
