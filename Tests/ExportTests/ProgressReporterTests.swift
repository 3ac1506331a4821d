import XCTest
@testable import Export

final class ProgressReporterTests: XCTestCase {
    func testLogModePrintsALinePerTenPercent() {
        var lines: [String] = []
        let r = ProgressReporter(interactive: false, output: { lines.append($0) })
        for i in 1...126 { r.update(i, 126) }
        r.finish()
        XCTAssertEqual(lines.count, 10)
        XCTAssertTrue(lines[0].hasPrefix("frame 13/126 (10 %)"), lines[0])
        XCTAssertTrue(lines[0].hasSuffix("s left\n"), lines[0])
        XCTAssertTrue(lines[4].hasPrefix("frame 63/126 (50 %)"), lines[4])
        XCTAssertTrue(lines[9].hasPrefix("frame 126/126 (100 %)"), lines[9])
        XCTAssertFalse(lines[9].contains("left"))
    }

    func testTerminalModeRedrawsOneLine() {
        var out = ""
        let r = ProgressReporter(interactive: true, output: { out += $0 })
        for i in 1...5 { r.update(i, 5) }
        r.finish()
        XCTAssertTrue(out.hasPrefix("\r[#"), out)
        XCTAssertTrue(out.contains("\r[########################]  5/5 frames"), out)
        XCTAssertTrue(out.hasSuffix("\n"))
        XCTAssertEqual(out.filter { $0 == "\n" }.count, 1)
    }

    func testBarAndSummary() {
        XCTAssertEqual(ProgressReporter.bar(0, 10), "[" + String(repeating: "·", count: 24) + "]")
        XCTAssertEqual(ProgressReporter.bar(5, 10), "[" + String(repeating: "#", count: 12) + String(repeating: "·", count: 12) + "]")
        XCTAssertEqual(ProgressReporter.summary(frames: 126, seconds: 1.0, destination: "out.mp4", bytes: 312_400),
                       "126 frames in 1.00 s (126 fps) -> out.mp4, 312 KB")
        XCTAssertEqual(ProgressReporter.byteCount(999), "999 B")
        XCTAssertEqual(ProgressReporter.byteCount(4_200_000), "4.2 MB")
        XCTAssertEqual(ProgressReporter.byteCount(31_000_000_000), "31 GB")
    }

    func testQuietPrintsNothing() {
        var out = ""
        let r = ProgressReporter(quiet: true, interactive: true, output: { out += $0 })
        r.update(1, 2); r.update(2, 2); r.finish()
        XCTAssertEqual(out, "")
    }
}
