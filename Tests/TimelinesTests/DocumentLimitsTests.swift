import XCTest
@testable import Timelines

/// Limits named in messages, and the located reports the bad-input corpus relies on,
/// checked at the decoder's API (the corpus checks them through the command line).
final class DocumentLimitsTests: XCTestCase {
    /// Sizes as people write them, and the default limit below what the process may use.
    func testMemorySizesAndTheDefaultLimit() {
        XCTAssertEqual(MemoryBudget.parse("2G"), 2_000_000_000)
        XCTAssertEqual(MemoryBudget.parse("1.5GB"), 1_500_000_000)
        XCTAssertEqual(MemoryBudget.parse("800m"), 800_000_000)
        XCTAssertEqual(MemoryBudget.parse("64k"), 64_000)
        XCTAssertEqual(MemoryBudget.parse("123456"), 123_456)
        for bad in ["", "G", "-1G", "0", "lots", "1e30", "nanG"] { XCTAssertNil(MemoryBudget.parse(bad), bad) }
        XCTAssertEqual(MemoryBudget.describe(515_000_000), "515 MB")
        XCTAssertEqual(MemoryBudget.describe(1_300_000_000), "1.3 GB")
        let available = MemoryBudget.available()
        XCTAssertGreaterThan(available.bytes, 64 << 20)
        XCTAssertEqual(MemoryBudget.defaultLimit(), available.bytes / 4 * 3)
        XCTAssertEqual(MemoryBudget.inputs(documentBytes: 1000, csvBytes: 1000), MemoryBudget.base + 10_000 + 40_000)
    }

    /// A decode with a memory limit refuses a document over it, naming the estimate.
    func testADocumentOverTheMemoryLimitIsRefusedBeforeParsing() {
        var limits = DocumentLimits()
        limits.maxMemory = MemoryBudget.base + 500
        let doc = Array(#"{ "canvas": { "width": 100, "height": 100 }, "charts": [] }"#.utf8)
        XCTAssertThrowsError(try TimelineDecoder.decode(doc, file: "/tmp/m.json", limits: limits)) { e in
            XCTAssertTrue("\(e)".contains("reading the document (59 bytes) would take the render to about"), "\(e)")
        }
        // Without the limit it is parsed (and refused for what it says).
        limits.maxMemory = nil
        XCTAssertThrowsError(try TimelineDecoder.decode(doc, file: "/tmp/m.json", limits: limits)) { e in
            XCTAssertTrue("\(e)".contains("charts: expected an array of at least 1 element"), "\(e)")
        }
    }

    func errors(_ text: String, limits: DocumentLimits = DocumentLimits(), file: String = "t.json") -> [String] {
        do {
            _ = try TimelineDecoder.decode(Array(text.utf8), file: file, limits: limits)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    let marks = #""data": { "d": { "values": [ { "x": 0, "y": 1 }, { "x": 1, "y": 2 } ] } }, "charts": [ { "data": "d", "marks": [ { "type": "line" } ] } ]"#

    func testCustomLimitsAreTheOnesNamed() {
        var limits = DocumentLimits()
        limits.maxCanvasSide = 100; limits.maxFPS = 30; limits.maxDuration = 10
        XCTAssertEqual(errors(#"{ "canvas": { "width": 101, "height": 100 }, "fps": 31, "duration": 11, "# + marks + " }", limits: limits), [
            "t.json:1:24: canvas.width: expected at most 100 pixels (the canvas limit per side), found 101",
            "t.json:1:53: fps: expected a frame rate of at most 30 frames per second (the frame-rate limit), found 31",
            "t.json:1:69: duration: expected a duration of at most 10 seconds (the limit on a video's length), found 11",
        ])
        // An animation is held to the same length, unless a duration cuts the video.
        let long = #"{ "data": { "d": { "values": [ { "x": 0, "y": 1 } ] } }, "charts": [ { "data": "d", "marks": [ { "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "duration": 8, "delay": 4 } } } ] } ] }"#
        XCTAssertEqual(errors(long, limits: limits), [
            "t.json:1:138: charts[0].marks[0].animate.opacity: this animation ends at 12 s, after the limit of 10 s on a video's length; shorten it, or give the document a \"duration\" to end the video sooner",
        ])
        XCTAssertEqual(errors(#"{ "duration": 5, "# + long.dropFirst(2), limits: limits), [])
    }

    func testDeepPathsAreAbbreviatedInMessagesOnly() {
        let deep = JSONPath([.key("charts")] + Array(repeating: .index(0), count: 20) + [.key("unit price")])
        XCTAssertEqual(deep.abbreviated, "charts[0][0][0][0][0][0][0]…[0][0][0][0][0][0][0][\"unit price\"]")
        XCTAssertEqual(deep.description.count, "charts".count + 20 * 3 + "[\"unit price\"]".count)
        let shallow = JSONPath([.key("charts"), .index(0), .key("marks")])
        XCTAssertEqual(shallow.abbreviated, shallow.description)
    }

    func testARowWithoutAPlottedFieldIsReportedAtItsCSVLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "x,y\n0,1\n1,\n2,3\n".write(to: dir.appendingPathComponent("gap.csv"), atomically: true, encoding: .utf8)
        let doc = dir.appendingPathComponent("doc.json").path
        try #"{ "data": { "d": { "file": "gap.csv" } }, "charts": [ { "data": "d", "marks": [ { "type": "line" } ] } ] }"#
            .write(toFile: doc, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try TimelineDecoder.load(path: doc)) { e in
            XCTAssertEqual("\(e)", dir.appendingPathComponent("gap.csv").path
                           + ":3:1: data.d: this row has no value for \"y\", which charts[0] plots on y; to leave out rows with "
                           + "empty cells, give the chart \"transform\": [{ \"filter\": { \"field\": \"y\", \"valid\": true } }]")
        }
    }
}
