import XCTest
import Foundation
import Raster

/// `sheet`, `diff` and `validate`.
final class ToolTests: ChartreelTestCase {
    func testContactSheetLaysOutLabelledThumbnails() throws {
        let out = tmp.appendingPathComponent("sheet.png").path
        let r = try chartreel("sheet", Self.document, "-o", out, "--count", "6", "--columns", "3", "--width", "200")
        XCTAssertEqual(r.status, 0, r.stderr)
        let sheet = try Pixmap(pngFile: out)
        // 3 columns of 200 px, 2 rows of 150 px + a 24 px label, 16 px margins and gaps.
        XCTAssertEqual(sheet.width, 16 * 2 + 3 * 200 + 2 * 16)
        XCTAssertEqual(sheet.height, 16 * 2 + 2 * (150 + 24) + 16)
        // The first thumbnail is the frame at t = 0 drawn at a quarter of the size.
        let thumb = tmp.appendingPathComponent("t0.png").path
        XCTAssertEqual(try chartreel("frame", Self.document, "--at", "0", "--scale", "0.25", "-o", thumb).status, 0)
        let t0 = try Pixmap(pngFile: thumb)
        for (x, y) in [(0, 0), (10, 10), (100, 75), (150, 120), (199, 149)] {
            XCTAssertEqual(sheet.pixel(16 + x, 16 + y), t0.pixel(x, y), "(\(x), \(y))")
        }
        // The label under it ("0.00 s") has dark ink; the gap between thumbnails has none.
        func darkPixels(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int) -> Int {
            var n = 0
            for y in y0..<y0 + h { for x in x0..<x0 + w where sheet.pixel(x, y).g < 128 { n += 1 } }
            return n
        }
        XCTAssertGreaterThan(darkPixels(16, 16 + 150 + 2, 200, 20), 20)
        XCTAssertEqual(darkPixels(16 + 200 + 2, 16, 12, 150), 0)
        // The last thumbnail (bottom right) shows the end state: the line is drawn.
        // One summary line (issue 16, defect 11), none with -q.
        XCTAssertEqual(r.stderr, "chartreel: wrote \(out): 6 thumbnails (3 × 2) from 0.00 s to 2.083 s, 664x396 px\n")
        XCTAssertEqual(try chartreel("sheet", Self.document, "-o", out, "--count", "6", "-y", "-q").stderr, "")
        let refused = try chartreel("sheet", Self.document, "-o", out, "--count", "4")
        XCTAssertEqual(refused.status, 1, "exists without -y")
        XCTAssertTrue(refused.stderr.contains("already exists; remove it, or pass -y (--overwrite) to replace it"), refused.stderr)
        XCTAssertEqual(try chartreel("sheet", Self.document, "-o", out, "--count", "4", "--every", "0.5", "-y").status, 2)
    }

    func testTransparentThumbnailsSitOnChecks() throws {
        let doc = try document(background: "#FFFFFF00")
        let out = tmp.appendingPathComponent("clear.png").path
        XCTAssertEqual(try chartreel("sheet", doc, "-o", out, "--count", "1", "--width", "64").status, 0)
        let sheet = try Pixmap(pngFile: out)
        // Thumbnail pixels outside every mark show the 8-pixel checks: light at (0, 0), grey at (8, 0).
        XCTAssertEqual(sheet.pixel(16 + 1, 16 + 1), PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
        XCTAssertEqual(sheet.pixel(16 + 9, 16 + 1), PremultipliedRGBA8(r: 230, g: 230, b: 230, a: 255))
        XCTAssertTrue(sheet.isOpaque)
    }

    func testEveryStepsFromZero() throws {
        let out = tmp.appendingPathComponent("every.png").path
        XCTAssertEqual(try chartreel("sheet", Self.document, "-o", out, "--every", "0.5", "--columns", "5", "--width", "80").status, 0)
        let sheet = try Pixmap(pngFile: out)
        // 0, 0.5, 1.0, 1.5, 2.0 (the last frame is at 125/60 s): one row of five.
        XCTAssertEqual(sheet.width, 16 * 2 + 5 * 80 + 4 * 16)
        XCTAssertEqual(sheet.height, 16 * 2 + 60 + 24)
    }

    func testDiffReportsAndExitsByTolerance() throws {
        let a = tmp.appendingPathComponent("a.png").path, b = tmp.appendingPathComponent("b.png").path
        XCTAssertEqual(try chartreel("frame", Self.document, "--at", "0.5", "-o", a).status, 0)
        XCTAssertEqual(try chartreel("frame", Self.document, "--at", "0.5", "-o", b).status, 0)
        let same = try chartreel("diff", a, b)
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertTrue(same.text.contains("largest channel difference: 0"), same.text)
        XCTAssertTrue(same.text.contains("differing pixels:           0 of 480000"), same.text)

        let c = tmp.appendingPathComponent("c.png").path
        XCTAssertEqual(try chartreel("frame", Self.document, "--at", "0.55", "-o", c).status, 0)
        let diffImage = tmp.appendingPathComponent("d.png").path
        let differ = try chartreel("diff", a, c, "-o", diffImage)
        XCTAssertEqual(differ.status, 1)
        XCTAssertTrue(differ.stderr.contains("over the tolerance of 0"), differ.stderr)
        let largest = Int(differ.text.split(separator: "\n")[0].split(separator: " ").last!)!
        XCTAssertGreaterThan(largest, 0)
        let d = try Pixmap(pngFile: diffImage)
        XCTAssertEqual(d.width, 800)
        XCTAssertEqual(d.pixel(2, 2), PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255), "unchanged white stays white")
        XCTAssertEqual(try chartreel("diff", a, c, "--tolerance", "\(largest)").status, 0)
        XCTAssertEqual(try chartreel("diff", a, c, "--tolerance", "\(largest - 1)").status, 1)

        let small = tmp.appendingPathComponent("s.png").path
        XCTAssertEqual(try chartreel("frame", Self.document, "--at", "0.5", "--scale", "0.5", "-o", small).status, 0)
        let sizes = try chartreel("diff", a, small)
        XCTAssertEqual(sizes.status, 1)
        XCTAssertTrue(sizes.stderr.contains("differ in size"), sizes.stderr)
        let junk = tmp.appendingPathComponent("junk.png")
        try Data("not a png".utf8).write(to: junk)
        XCTAssertEqual(try chartreel("diff", a, junk.path).status, 2)
        XCTAssertEqual(try chartreel("diff", a).status, 2)
    }

    func testValidatePrintsSizeTimingAndEveryAnimation() throws {
        let r = try chartreel("validate", Self.document)
        XCTAssertEqual(r.status, 0, r.stderr)
        let t = r.text
        XCTAssertTrue(t.contains("size        800x600"), t)
        XCTAssertTrue(t.contains("fps         60"), t)
        XCTAssertTrue(t.contains("duration    2.100 s"), t)
        XCTAssertTrue(t.contains("frames      126"), t)
        let rows = t.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        XCTAssertTrue(rows.contains(["fill", "opacity", "0", "1", "easeInOut", "0.600", "s", "1.600", "s"]), t)
        XCTAssertTrue(rows.contains(["line", "trim.end", "0", "1", "easeInOut", "0.200", "s", "1.000", "s"]), t)
        XCTAssertEqual(try chartreel("validate", Self.document, "--fps", "30").text.contains("frames      63"), true)

        let bad = tmp.appendingPathComponent("bad.json")
        try "{ \"fps\": 60,\n  \"charts\": [ }".write(to: bad, atomically: true, encoding: .utf8)
        let b = try chartreel("validate", bad.path)
        XCTAssertEqual(b.status, 2)
        XCTAssertTrue(b.stderr.contains("bad.json:2:"), b.stderr)
    }
}
