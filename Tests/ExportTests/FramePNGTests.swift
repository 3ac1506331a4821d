import Foundation
import XCTest
import Raster
@testable import Export

final class FramePNGTests: XCTestCase {
    /// A frame with opaque, translucent and transparent pixels in every channel mix.
    private func translucentFrame() -> Pixmap {
        var p = Pixmap(width: 37, height: 23)
        for y in 0..<23 {
            for x in 0..<37 {
                let a = UInt8((x * 7 + y * 13) % 256)
                func c(_ v: Int) -> UInt8 { UInt8(min(Int(a), v % 256)) }
                p.setPixel(x, y, PremultipliedRGBA8(r: c(x * 11), g: c(y * 17), b: c(x * y), a: a))
            }
        }
        return p
    }

    func testOpaqueFramesAreRGBAndRoundTripExactly() throws {
        var p = Pixmap(width: 40, height: 30, fill: PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
        for x in 0..<40 { p.setPixel(x, 12, PremultipliedRGBA8(r: UInt8(x * 6), g: 90, b: 200, a: 255)) }
        let bytes = try FramePNG.encode(p)
        XCTAssertEqual(Array(bytes.prefix(8)), [137, 80, 78, 71, 13, 10, 26, 10])
        XCTAssertEqual(bytes[25], 2, "colour type 2: RGB, no alpha channel for an opaque frame")
        XCTAssertEqual(try PNGCodec.decode(bytes), p)
    }

    func testTranslucentFramesAreRGBAAndRoundTripExactly() throws {
        let p = translucentFrame()
        let bytes = try FramePNG.encode(p)
        XCTAssertEqual(bytes[25], 6, "colour type 6: RGBA")
        XCTAssertEqual(try PNGCodec.decode(bytes), p)
    }

    func testEveryFilterAndLevelDecodesToTheSamePixels() throws {
        let p = translucentFrame()
        for filters: Int32 in [0x08, 0x10, 0x20, 0x40, 0x80, 0xF8] {
            for level: Int32 in [0, 1, 6, 9] {
                let bytes = try FramePNG.encode(p, settings: .init(level: level, strategy: 0, filters: filters))
                XCTAssertEqual(try PNGCodec.decode(bytes), p, "filters \(filters), level \(level)")
            }
        }
    }

    func testEncodingIsDeterministic() throws {
        let p = translucentFrame()
        XCTAssertEqual(try FramePNG.encode(p), try FramePNG.encode(p))
    }

    func testWriteGoesThroughATemporaryName() throws {
        let dir = try makeTempDirectory(self)
        let p = translucentFrame()
        try FramePNG.write(p, toFile: dir + "/f.png")
        XCTAssertEqual(listing(dir), ["f.png"])
        XCTAssertEqual(try Pixmap(pngFile: dir + "/f.png"), p)
        XCTAssertThrowsError(try FramePNG.write(p, toFile: dir + "/missing/f.png"))
        XCTAssertEqual(listing(dir), ["f.png"])
    }
}
