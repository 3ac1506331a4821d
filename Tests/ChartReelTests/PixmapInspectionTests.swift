import XCTest
import Foundation
import ChartReel

/// Pixel access, ink bounds, differences and golden-image checks, on pixmaps whose
/// pixels are known exactly.
final class PixmapInspectionTests: XCTestCase {
    /// White 20 × 10 with an opaque red block at columns 4…7, rows 2…4, and one pixel
    /// of half-transparent blue at (15, 8).
    func sample() -> Pixmap {
        var p = Pixmap(width: 20, height: 10, fill: Color.white.premultiplied)
        for y in 2...4 { for x in 4...7 { p.setPixel(x, y, Color.red.premultiplied) } }
        p.setPixel(15, 8, Color(r: 0, g: 0, b: 1, a: 0.5).premultiplied)
        return p
    }

    func testColorReadsUnpremultipliedPixelsAndNilOutside() {
        let p = sample()
        XCTAssertEqual(p.color(x: 5, y: 3), .red)
        XCTAssertEqual(p.color(x: 0, y: 0), .white)
        let blue = p.color(x: 15, y: 8)!
        XCTAssertEqual(blue.b, 1)
        XCTAssertEqual(blue.a, 128.0 / 255)
        XCTAssertNil(p.color(x: 20, y: 0))
        XCTAssertNil(p.color(x: -1, y: 0))
    }

    func testInkBoundsCoverExactlyThePixelsThatDiffer() {
        let p = sample()
        XCTAssertEqual(p.bounds(ofInk: .white), Rect(x: 4, y: 2, width: 12, height: 7))
        XCTAssertEqual(p.bounds(ofInk: .white, in: Rect(x: 0, y: 0, width: 10, height: 10)), Rect(x: 4, y: 2, width: 4, height: 3))
        XCTAssertEqual(p.bounds(ofInk: .white, in: Rect(x: 5.5, y: 0, width: 1, height: 10)), Rect(x: 5, y: 2, width: 2, height: 3),
                       "fractional regions round outwards")
        XCTAssertNil(p.bounds(ofInk: .white, in: Rect(x: 10, y: 0, width: 4, height: 10)))
        XCTAssertNil(p.bounds(ofInk: .white, in: Rect(x: 100, y: 100, width: 4, height: 4)))
        XCTAssertEqual(p.bounds(ofInk: .red), Rect(x: 0, y: 0, width: 20, height: 10))
        XCTAssertTrue(p.isInk(x: 4, y: 2, background: .white))
        XCTAssertFalse(p.isInk(x: 3, y: 2, background: .white))
    }

    func testToleranceIgnoresSmallDifferences() {
        var p = Pixmap(width: 4, height: 4, fill: Color.white.premultiplied)
        p.setPixel(1, 1, PremultipliedRGBA8(r: 250, g: 250, b: 250, a: 255))
        p.setPixel(2, 2, PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
        XCTAssertEqual(p.inkPixelCount(background: .white), 2)
        XCTAssertEqual(p.inkPixelCount(background: .white, tolerance: 5), 1)
        XCTAssertEqual(p.inkPixelCount(background: .white, tolerance: 4), 2)
        XCTAssertEqual(p.bounds(ofInk: .white, tolerance: 5), Rect(x: 2, y: 2, width: 1, height: 1))
    }

    func testCroppingCopiesTheRegion() throws {
        let p = sample()
        let c = try XCTUnwrap(p.cropped(to: Rect(x: 3, y: 1, width: 6, height: 5)))
        XCTAssertEqual(c.width, 6)
        XCTAssertEqual(c.height, 5)
        XCTAssertEqual(c.color(x: 1, y: 1), .red)
        XCTAssertEqual(c.color(x: 0, y: 0), .white)
        XCTAssertEqual(c.bounds(ofInk: .white), Rect(x: 1, y: 1, width: 4, height: 3))
        XCTAssertNil(p.cropped(to: Rect(x: 30, y: 0, width: 5, height: 5)))
    }

    func testDifferenceMeasures() throws {
        let a = sample()
        var b = a
        b.setPixel(0, 0, PremultipliedRGBA8(r: 255, g: 255, b: 245, a: 255))   // 10 off in one channel
        b.setPixel(1, 0, PremultipliedRGBA8(r: 255, g: 253, b: 255, a: 255))   // 2 off
        let d = try PixmapDifference(a, b, tolerance: 2)
        XCTAssertEqual(d.maxDifference, 10)
        XCTAssertEqual(d.differingPixels, 2)
        XCTAssertEqual(d.pixelsOverTolerance, 1)
        XCTAssertEqual(d.meanDifference, 12.0 / (20 * 10 * 4), accuracy: 1e-15)
        XCTAssertFalse(d.withinTolerance)
        XCTAssertTrue(try PixmapDifference(a, b, tolerance: 10).withinTolerance)
        // The picture: red over the tolerance, amber within it, grey where equal.
        XCTAssertEqual(d.image.color(x: 0, y: 0), Color(r8: 255, g8: 0, b8: 0))
        XCTAssertEqual(d.image.color(x: 1, y: 0), Color(r8: 255, g8: 176, b8: 0))
        XCTAssertEqual(d.image.color(x: 2, y: 0), .white, "white stays white when faded")
        let same = try PixmapDifference(a, a)
        XCTAssertEqual(same.maxDifference, 0)
        XCTAssertEqual(same.differingPixels, 0)
        XCTAssertEqual(same.meanDifference, 0)
        XCTAssertThrowsError(try PixmapDifference(a, Pixmap(width: 3, height: 3))) { error in
            XCTAssertEqual(error as? PixmapSizeMismatch, PixmapSizeMismatch(first: (20, 10), second: (3, 3)))
        }
    }

    func testSideBySidePutsExpectedActualAndDiffInARow() throws {
        let a = sample()
        var b = a
        b.setPixel(0, 0, Color.black.premultiplied)
        let d = try PixmapDifference(a, b)
        let s = d.sideBySide(expected: a, actual: b, gap: 2)
        XCTAssertEqual(s.width, 64)
        XCTAssertEqual(s.height, 10)
        XCTAssertEqual(s.color(x: 0, y: 0), .white)
        XCTAssertEqual(s.color(x: 20, y: 0), Color(r8: 128, g8: 128, b8: 128), "the gap")
        XCTAssertEqual(s.color(x: 22, y: 0), .black)
        XCTAssertEqual(s.color(x: 44, y: 0), Color(r8: 255, g8: 0, b8: 0))
        XCTAssertEqual(s.color(x: 27, y: 3), .red)
    }

    func testVerifyMatchesPassesFailsWithAPictureAndCreatesWhenAsked() throws {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("chartreel-verify-\(getpid())")
        try? fm.removeItem(at: dir)
        defer { try? fm.removeItem(at: dir) }
        let reference = dir.appendingPathComponent("refs/sample.png")
        let failures = dir.appendingPathComponent("failures")

        XCTAssertThrowsError(try sample().verifyMatches(png: reference)) { error in
            XCTAssertTrue("\(error)".contains("no reference image"), "\(error)")
        }
        try sample().verifyMatches(png: reference, createMissing: true)
        XCTAssertEqual(try Pixmap(contentsOf: reference), sample())
        try sample().verifyMatches(png: reference)

        var changed = sample()
        changed.setPixel(10, 5, PremultipliedRGBA8(r: 254, g: 255, b: 255, a: 255))
        try changed.verifyMatches(png: reference, tolerance: 1)
        changed.setPixel(11, 5, Color.black.premultiplied)
        XCTAssertThrowsError(try changed.verifyMatches(png: reference, tolerance: 1, failureDirectory: failures)) { error in
            guard let m = error as? PixmapMismatch else { return XCTFail("\(error)") }
            XCTAssertTrue(m.summary.contains("largest channel difference 255"), m.summary)
            XCTAssertTrue(m.summary.contains("2 of 200 pixels differ, 1 over the tolerance"), m.summary)
            XCTAssertEqual(m.comparisonImage, failures.appendingPathComponent("sample.comparison.png").path)
        }
        let picture = try Pixmap(contentsOf: failures.appendingPathComponent("sample.comparison.png"))
        XCTAssertEqual(picture.width, 3 * 20 + 2 * 8)
        XCTAssertEqual(picture.color(x: 2 * 28 + 11, y: 5), Color(r8: 255, g8: 0, b8: 0))
        XCTAssertEqual(picture.color(x: 28 + 11, y: 5), .black)

        XCTAssertThrowsError(try Pixmap(width: 4, height: 4).verifyMatches(png: reference)) { error in
            XCTAssertTrue("\(error)".contains("differ in size"), "\(error)")
        }
    }

    func testColoursByName() {
        XCTAssertEqual(Color.hex("#5856D6"), .indigo)
        XCTAssertEqual(Color.hex("#6A5ACD99"), Color(hex: "#6A5ACD99"))
        XCTAssertEqual(NodePaint.linearGradient([.red, .green, .blue], from: .top, to: .bottom),
                       .linear(stops: [GradientStop(offset: 0, color: .red), GradientStop(offset: 0.5, color: .green),
                                       GradientStop(offset: 1, color: .blue)], from: .top, to: .bottom))
    }

    func testCSVRowsAreTypedAndMissingColumnsNamed() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chartreel-\(getpid()).csv")
        try Data("name,year,when\nMary,1920,2024-03-05\n\"Smith, J\",1921,2024-03-06\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let rows = try CSVReader.rows(contentsOf: url, columns: ["when": .date(nil)])
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows[1]["name"], .string("Smith, J"))
        XCTAssertEqual(rows[0]["year"], .number(1920))
        XCTAssertEqual(rows[0]["when"], .number(CivilDate(year: 2024, month: 3, day: 5).seconds))
        XCTAssertThrowsError(try CSVReader.rows(contentsOf: url, columns: ["count": .number])) { error in
            XCTAssertTrue("\(error)".contains("no column \"count\""), "\(error)")
        }
    }
}
