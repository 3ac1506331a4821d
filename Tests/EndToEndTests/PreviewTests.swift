import XCTest
import Foundation

/// `chartreel preview`: a self-contained HTML page, driven in headless Chromium by
/// scripts/preview-check (docs/cli.md, `preview`).
final class PreviewTests: ChartreelTestCase {
    func page(_ extra: [String] = []) throws -> String {
        let out = tmp.appendingPathComponent("preview.html").path
        let r = try chartreel(["preview", Self.document, "-o", out, "--fps", "10", "--scale", "0.25"] + extra)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("wrote \(out): 21 frames of 200x150"), r.stderr)
        return out
    }

    func testThePageIsSelfContained() throws {
        let html = try String(contentsOfFile: try page(), encoding: .utf8)
        // Every frame inline; no URL the browser would fetch.
        XCTAssertEqual(html.components(separatedBy: "\"iVBORw0KGgo").count - 1, 21, "21 base64 PNGs")
        for scheme in ["http://", "https://", "src=\"/", "url("] { XCTAssertFalse(html.contains(scheme), scheme) }
        // validate's timing rows are the page's.
        XCTAssertTrue(html.contains("\"node\":\"fill\"") && html.contains("\"property\":\"opacity\""), "the fill's row")
        XCTAssertTrue(html.contains("\"node\":\"line\"") && html.contains("\"property\":\"trim.end\""), "the line's row")
        XCTAssertTrue(html.contains("\"end\":1.6") && html.contains("\"start\":0.6"), "resolved start and end")
    }

    /// The document's name goes into the page escaped scalar by scalar: a quote or an
    /// angle bracket followed by a combining mark is still escaped, and a name that reads
    /// like one of the page's placeholders stays a name.
    func testANameWithMarksAndPlaceholdersIsEscaped() throws {
        let doc = tmp.appendingPathComponent("q\"\u{301}<\u{338}-@@FRAMES@@.json").path
        try FileManager.default.copyItem(atPath: Self.document, toPath: doc)
        let out = tmp.appendingPathComponent("marks.html").path
        let r = try chartreel("preview", doc, "-o", out, "--fps", "10", "--scale", "0.25")
        XCTAssertEqual(r.status, 0, r.stderr)
        let html = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(html.contains("<title>q&quot;\u{301}&lt;\u{338}-@@FRAMES@@.json — chartreel preview</title>"), html.prefix(400).description)
        XCTAssertEqual(html.components(separatedBy: "\"iVBORw0KGgo").count - 1, 21, "the frames once, not also in the title")
        // In the page's JSON the name's "<" is the escape \u003c, never a "<" of its own.
        let scalars = Array(html.unicodeScalars)
        let marked = scalars.indices.dropLast().filter { scalars[$0] == "<" && scalars[$0 + 1] == "\u{338}" }
        XCTAssertEqual(marked, [], "a raw < before the mark")
        XCTAssertTrue(html.contains("\\u003c\u{338}"), "the JSON escape")
    }

    func testAPageTooLargeToLoadIsRefused() throws {
        let out = tmp.appendingPathComponent("big.html").path
        let r = try chartreel("preview", Self.document, "-o", out, "--fps", "1000", "--scale", "4")
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("error: a preview page of 2100 frames of 3200x2400 would take about 1.7 GB"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testArrowKeyStepsOneFrameInChromium() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard path.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/chromium") }) else {
            return XCTFail("chromium is not on PATH; scripts/setup installs it (Debian: sudo apt-get install chromium)")
        }
        let html = try page()
        let shot = tmp.appendingPathComponent("shot.png").path
        let r = try run(Self.root.appendingPathComponent("scripts/preview-check").path, [html, shot])
        XCTAssertEqual(r.status, 0, r.stderr)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], r.text)
        XCTAssertEqual(o["before"] as? String, "frame 0 of 21")
        XCTAssertEqual(o["after"] as? String, "frame 1 of 21", "the right arrow steps one frame")
        XCTAssertEqual(o["time"] as? String, "t = 1/10 s = 0.1000 s")
        XCTAssertEqual(o["back"] as? String, "frame 0 of 21", "the left arrow steps back")
        XCTAssertEqual(o["requests"] as? [String], [], "nothing fetched")
        // What the browser shows is frame 1, pixel for pixel, and not frame 0.
        var frames: [String] = []
        for i in 0...1 {
            let f = tmp.appendingPathComponent("f\(i).png").path
            let g = try chartreel("frame", Self.document, "--frame", "\(i)", "--fps", "10", "--scale", "0.25", "-o", f)
            XCTAssertEqual(g.status, 0, g.stderr)
            frames.append(f)
        }
        let same = try chartreel("diff", frames[1], shot)
        XCTAssertEqual(same.status, 0, same.text)
        let other = try chartreel("diff", frames[0], shot)
        XCTAssertEqual(other.status, 1, "frame 0 differs from the screenshot: \(other.text)")
    }
}
