import XCTest
import TestSupport
@testable import Raster

final class PNGCodecTests: XCTestCase {
    /// Random sizes, opaque and fully transparent pixels plus a few semi-transparent
    /// straight colours chosen so premultiply→unpremultiply gives them back exactly.
    func testRoundTripOfRandomPixmapsIsExact() throws {
        var rng = SplitMix64(state: 42)
        // Semi-transparent straight colours whose channels are 0 or 255 survive premultiplication
        // at any alpha (255·a/255 = a, and back); the assertion below checks the whole input.
        let semi: [(UInt8, UInt8, UInt8, UInt8)] = [(255, 0, 0, 128), (0, 0, 255, 51), (255, 255, 255, 1), (0, 255, 0, 200)]
        for _ in 0..<20 {
            let w = Int.random(in: 1...40, using: &rng), h = Int.random(in: 1...40, using: &rng)
            var straight = [UInt8](repeating: 0, count: w * h * 4)
            for i in stride(from: 0, to: straight.count, by: 4) {
                switch UInt8.random(in: 0...9, using: &rng) {
                case 0...5:  // opaque
                    for k in 0..<3 { straight[i + k] = .random(in: 0...255, using: &rng) }
                    straight[i + 3] = 255
                case 6, 7:  // fully transparent (straight colour is 0 in a premultiplied world)
                    break
                default:
                    let s = semi[Int.random(in: 0..<semi.count, using: &rng)]
                    straight[i] = s.0; straight[i + 1] = s.1; straight[i + 2] = s.2; straight[i + 3] = s.3
                }
            }
            let p = try XCTUnwrap(Pixmap(width: w, height: h, straightRGBA: straight))
            XCTAssertEqual(p.straightRGBA(), straight, "test input must survive premultiply→unpremultiply")
            let png = try PNGCodec.encode(p)
            XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let back = try PNGCodec.decode(png)
            XCTAssertEqual(back, p)
            XCTAssertEqual(back.straightRGBA(), straight)
        }
    }

    /// Every valid premultiplied pixel (all 0 ≤ c ≤ a) survives encode→decode unchanged.
    func testEveryPremultipliedValueRoundTrips() throws {
        var pixels: [UInt8] = []
        for a in 0...255 {
            for c in 0...a {
                pixels += [UInt8(c), UInt8(a - c), UInt8(c / 2), UInt8(a)]
            }
        }
        let count = pixels.count / 4  // 33 153 pixels; pad with transparent ones to a rectangle
        let w = 256, h = (count + w - 1) / w
        pixels += [UInt8](repeating: 0, count: (w * h - count) * 4)
        let p = try XCTUnwrap(Pixmap(width: w, height: h, premultipliedData: pixels))
        XCTAssertEqual(try PNGCodec.decode(PNGCodec.encode(p)), p)
    }

    func testOneByOneImage() throws {
        let p = Pixmap(width: 1, height: 1, fill: PremultipliedRGBA8(r: 10, g: 20, b: 30, a: 255))
        let png = try PNGCodec.encode(p)
        XCTAssertLessThan(png.count, PNGCodec.pngSizeBound(width: 1, height: 1))
        let back = try PNGCodec.decode(png)
        XCTAssertEqual(back.width, 1); XCTAssertEqual(back.height, 1)
        XCTAssertEqual(back.pixel(0, 0), PremultipliedRGBA8(r: 10, g: 20, b: 30, a: 255))
    }

    func testNoisyImageFitsTheSizeBound() throws {
        // Incompressible content is the case where the output approaches the bound.
        var rng = SplitMix64(state: 7)
        var p = Pixmap(width: 97, height: 61)
        for y in 0..<61 { for x in 0..<97 {
            let v = UInt32(truncatingIfNeeded: rng.next())
            p.setPixel(x, y, PremultipliedRGBA8(packed: v | 0xFF00_0000))
        } }
        let png = try PNGCodec.encode(p)
        XCTAssertLessThanOrEqual(png.count, PNGCodec.pngSizeBound(width: 97, height: 61))
        XCTAssertGreaterThan(png.count, 97 * 61 * 3, "noise should not compress")
        XCTAssertEqual(try PNGCodec.decode(png), p)
    }

    func testTooSmallFirstBufferIsRetriedWithTheSizeLibpngAsksFor() throws {
        let p = Pixmap(width: 30, height: 20, fill: PremultipliedRGBA8(r: 5, g: 50, b: 100, a: 200))
        let expected = try PNGCodec.encode(p)
        XCTAssertEqual(try PNGCodec.encode(p, initialCapacity: 16), expected)
    }

    func testTruncatedBufferThrows() throws {
        let p = Pixmap(width: 20, height: 20, fill: PremultipliedRGBA8(r: 1, g: 2, b: 3, a: 255))
        let png = try PNGCodec.encode(p)
        for cut in [0, 4, 8, 20, 33, png.count / 2, png.count - 13] {
            XCTAssertThrowsError(try PNGCodec.decode(Array(png.prefix(cut))), "cut at \(cut)") { error in
                guard case PNGError.decodeFailed(let message) = error else {
                    return XCTFail("expected decodeFailed, got \(error)")
                }
                XCTAssertFalse(message.isEmpty)
            }
        }
    }

    func testCorruptBufferThrows() throws {
        var png = try PNGCodec.encode(Pixmap(width: 8, height: 8, fill: PremultipliedRGBA8(r: 9, g: 9, b: 9, a: 255)))
        // Flip bytes inside the IDAT payload: the CRC (or zlib) check must fail.
        let idat = try XCTUnwrap(findChunk("IDAT", in: png))
        for i in idat..<(idat + 6) { png[i] ^= 0x5A }
        XCTAssertThrowsError(try PNGCodec.decode(png)) { error in
            guard case PNGError.decodeFailed = error else { return XCTFail("got \(error)") }
        }
        XCTAssertThrowsError(try PNGCodec.decode(Array("not a png at all".utf8)))
    }

    func testFileRoundTripLeavesNoTemporaryFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pngtest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("a.png").path
        let p = Pixmap(width: 5, height: 3, fill: PremultipliedRGBA8(r: 0, g: 64, b: 0, a: 128))
        try p.writePNG(toFile: path)
        try p.writePNG(toFile: path)  // overwrite in place
        XCTAssertEqual(try Pixmap(pngFile: path), p)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["a.png"])

        XCTAssertThrowsError(try p.writePNG(toFile: dir.path + "/missing/b.png")) { error in
            guard case PNGError.io = error else { return XCTFail("got \(error)") }
        }
        XCTAssertThrowsError(try Pixmap(pngFile: dir.path + "/nope.png")) { error in
            guard case PNGError.io = error else { return XCTFail("got \(error)") }
        }
    }

    /// Offset of the first data byte of the chunk `type`.
    private func findChunk(_ type: String, in png: [UInt8]) -> Int? {
        let t = Array(type.utf8)
        var i = 8
        while i + 8 <= png.count {
            let len = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
            if Array(png[(i + 4)..<(i + 8)]) == t { return i + 8 }
            i += 12 + len
        }
        return nil
    }
}
