import XCTest
import Foundation

/// A 3840×2160, 10 s video (issue #8, Load): the document is accepted, its 300 frames
/// are counted, and its last frame renders at full size. The whole video's time and
/// memory are measured by `scripts/bench --load` (release build), not here.
final class FourKVideoTests: ChartreelTestCase {
    func fourKDocument() throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.document))
        var doc = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        doc["canvas"] = ["width": 3840, "height": 2160, "background": "#FFFFFF"]
        doc["fps"] = 30
        doc["duration"] = 10
        var charts = try XCTUnwrap(doc["charts"] as? [[String: Any]])
        charts[0]["inset"] = 160
        doc["charts"] = charts
        doc.removeValue(forKey: "$schema")
        let path = tmp.appendingPathComponent("video-4k-10.json").path
        try JSONSerialization.data(withJSONObject: doc).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testTenSecondFourKVideoHasItsFramesAndRendersTheLast() throws {
        let doc = try fourKDocument()
        let v = try chartreel("validate", doc)
        XCTAssertEqual(v.status, 0, v.stderr)
        XCTAssertTrue(v.text.contains("size        3840x2160"), v.text)
        XCTAssertTrue(v.text.contains("frames      300"), v.text)

        let r = try chartreel("render", doc, "-o", "-", "--format", "rgba", "--frames", "299..<300", "-q")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.count, 3840 * 2160 * 4)
        let bytes = [UInt8](r.stdout)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(bytes[(y * 3840 + x) * 4 ..< (y * 3840 + x) * 4 + 4]) }
        // Outside the plot: the white background.
        XCTAssertEqual(pixel(20, 20), [255, 255, 255, 255])
        // The data's last point (x = 8, y = 11 of 0…8 × 0…15) sits on the line, whose end
        // colour is #00BFFF.
        let plotX0 = 160.0, plotX1 = 3840.0 - 160, plotY0 = 160.0, plotY1 = 2160.0 - 160
        let px = Int(plotX0 + (plotX1 - plotX0) * 8 / 8) - 4
        let py = Int(plotY1 - (plotY1 - plotY0) * 11 / 15)
        let inked = (py - 6...py + 6).contains { y in let p = pixel(px, y); return p[2] > 200 && p[0] < 80 }
        XCTAssertTrue(inked, "no line ink near (\(px), \(py))")
    }
}
