import XCTest
import Foundation

/// `--json`: one JSON object on stdout describing the run (docs/cli.md, "Machine-readable runs").
final class JSONSummaryTests: ChartreelTestCase {
    func summary(_ r: Result) throws -> [String: Any] {
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.text.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one line on stdout: \(r.text)")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.text.utf8)) as? [String: Any], r.text)
    }

    func testRenderSummaryMatchesTheFile() throws {
        // An odd size makes a warning (MP4 pads it), which the summary carries.
        let doc = try document(width: 201, height: 151)
        let out = tmp.appendingPathComponent("out.mp4").path
        let r = try chartreel("render", doc, "-o", out, "--fps", "10", "--to", "0.5s", "--json")
        let s = try summary(r)
        let info = try streamInfo(out)
        XCTAssertEqual(s["frames"] as? Int, info.frames)
        XCTAssertEqual(s["frames"] as? Int, 5)
        XCTAssertEqual(s["seconds"] as? Double, 0.5)
        // The output's size: padded to even sides for yuv420p.
        XCTAssertEqual(s["width"] as? Int, info.width)
        XCTAssertEqual(s["height"] as? Int, info.height)
        XCTAssertEqual(info.width, 202)
        XCTAssertEqual(s["fps"] as? Double, 10)
        XCTAssertEqual(s["format"] as? String, "mp4")
        XCTAssertEqual(s["output"] as? String, out)
        XCTAssertEqual(s["bytes"] as? Int, fileSize(out))
        XCTAssertEqual(s["totalFrames"] as? Int, 21)
        let warnings = try XCTUnwrap(s["warnings"] as? [String])
        XCTAssertTrue(warnings.contains { $0.contains("201x151 is odd") }, "\(warnings)")
        XCTAssertFalse(r.stderr.contains("chartreel: 5 frames"), "the summary line is not repeated on stderr")
        // stdout already carries the frames with -o -.
        let clash = try chartreel("render", doc, "-o", "-", "--format", "rgba", "--json")
        XCTAssertEqual(clash.status, 2)
        XCTAssertTrue(clash.stderr.contains("--json prints to stdout"), clash.stderr)
    }

    func testFrameSummary() throws {
        let doc = try document(width: 200, height: 150)
        let out = tmp.appendingPathComponent("f.png").path
        let s = try summary(try chartreel("frame", doc, "--frame", "30", "-o", out, "--json"))
        XCTAssertEqual(s["time"] as? Double, 0.5)
        XCTAssertEqual(s["bytes"] as? Int, fileSize(out))
        XCTAssertEqual(s["width"] as? Int, 200)
    }

    func testValidateSummary() throws {
        let s = try summary(try chartreel("validate", Self.document, "--json"))
        XCTAssertEqual(s["valid"] as? Bool, true)
        XCTAssertEqual(s["frames"] as? Int, 126)
        XCTAssertEqual(s["seconds"] as? Double, 2.1)
        XCTAssertEqual(s["width"] as? Int, 800)
        let rows = try XCTUnwrap(s["animations"] as? [[String: Any]])
        let fill = try XCTUnwrap(rows.first { $0["node"] as? String == "fill" && $0["property"] as? String == "opacity" })
        XCTAssertEqual(fill["start"] as? Double, 0.6)
        XCTAssertEqual(fill["end"] as? Double, 1.6)
        XCTAssertEqual(fill["curve"] as? String, "easeInOut")
        let doc = try ParameterTests.writeParameterDocument(in: tmp)
        let p = try summary(try chartreel("validate", doc, "--json", "--param", "top=5"))
        let params = try XCTUnwrap(p["params"] as? [[String: Any]])
        XCTAssertEqual(params.map { $0["name"] as? String }, ["region", "top"])
        XCTAssertEqual(params[1]["value"] as? String, "5")
        XCTAssertEqual(params[1]["givenBy"] as? String, "--param top=5")
    }

    func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
    }
}
