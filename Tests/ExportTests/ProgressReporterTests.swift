import XCTest
@testable import Export

final class ProgressReporterTests: XCTestCase {
    func testLogModePrintsALinePerTenPercent() {
        var lines: [String] = []
        let r = ProgressReporter(interactive: false, output: { lines.append($0) })
        for i in 1...126 { r.update(i, 126) }
        r.finish()
        XCTAssertEqual(lines.count, 10)
        XCTAssertTrue(lines[0].hasPrefix("frame 13/126"), lines[0])
        XCTAssertTrue(lines[0].hasSuffix("(10 %)\n"), lines[0])
        XCTAssertTrue(lines[9].hasPrefix("frame 126/126"), lines[9])
        XCTAssertFalse(lines[9].contains("left"))
    }

    func testTerminalModeRedrawsOneLine() {
        var out = ""
        let r = ProgressReporter(interactive: true, output: { out += $0 })
        for i in 1...5 { r.update(i, 5) }
        r.finish()
        XCTAssertTrue(out.hasPrefix("\rframe "), out)
        XCTAssertTrue(out.contains("\rframe 5/5"), out)
        XCTAssertTrue(out.hasSuffix("\n"))
        XCTAssertEqual(out.filter { $0 == "\n" }.count, 1)
    }

    func testQuietPrintsNothing() {
        var out = ""
        let r = ProgressReporter(quiet: true, interactive: true, output: { out += $0 })
        r.update(1, 2); r.update(2, 2); r.finish()
        XCTAssertEqual(out, "")
    }
}
