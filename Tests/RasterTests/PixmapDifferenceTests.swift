import XCTest
@testable import Raster

/// `chartreel diff`'s measure (the one implementation, shared with the golden-image tests).
final class PixmapDifferenceTests: XCTestCase {
    private let white = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)

    func testIdenticalImagesHaveNoDifference() throws {
        let a = Pixmap(width: 10, height: 8, fill: white)
        let d = try PixmapDifference(a, a)
        XCTAssertEqual(d.maxDifference, 0); XCTAssertEqual(d.meanDifference, 0)
        XCTAssertEqual(d.differingPixels, 0); XCTAssertTrue(d.withinTolerance)
        XCTAssertEqual(d.image.pixel(3, 3), PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
    }

    func testCountsMeasuresAndPaintsTheDifferences() throws {
        let a = Pixmap(width: 10, height: 8, fill: white)
        var b = a
        b.setPixel(2, 3, PremultipliedRGBA8(r: 250, g: 255, b: 255, a: 255))   // differs by 5
        b.setPixel(7, 1, PremultipliedRGBA8(r: 255, g: 235, b: 245, a: 255))   // by 20 and 10
        let d = try PixmapDifference(a, b, tolerance: 5)
        XCTAssertEqual(d.maxDifference, 20)
        XCTAssertEqual(d.meanDifference, Double(5 + 20 + 10) / Double(10 * 8 * 4), accuracy: 1e-12)
        XCTAssertEqual(d.differingPixels, 2)
        XCTAssertEqual(d.pixelsOverTolerance, 1)
        XCTAssertFalse(d.withinTolerance)
        XCTAssertEqual(d.image.pixel(2, 3), PremultipliedRGBA8(r: 255, g: 176, b: 0, a: 255), "within tolerance: amber")
        XCTAssertEqual(d.image.pixel(7, 1), PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255), "over: red")
        XCTAssertTrue(try PixmapDifference(a, b, tolerance: 20).withinTolerance)
    }

    func testUnchangedPixelsAreAFadedCopyOfTheFirstImage() throws {
        let black = Pixmap(width: 2, height: 2, fill: PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
        let d = try PixmapDifference(black, black)
        XCTAssertEqual(d.image.pixel(0, 0), PremultipliedRGBA8(r: 192, g: 192, b: 192, a: 255))
        let clear = Pixmap(width: 2, height: 2)
        XCTAssertEqual(try PixmapDifference(clear, clear).image.pixel(1, 1).r, 255, "transparent shows as white")
    }

    func testSizesMustMatch() {
        XCTAssertThrowsError(try PixmapDifference(Pixmap(width: 2, height: 2), Pixmap(width: 3, height: 2)))
    }
}
