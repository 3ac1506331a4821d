import XCTest
import CFreeType
import Geometry
import Raster
@testable import Text

/// Our glyphs are outlines filled by our rasterizer; FreeType's smooth rasterizer also
/// computes exact-area coverage, so the two must agree closely on the same outlines at
/// the same (sub-pixel) positions.
final class TextRenderingQualityTests: XCTestCase {
    func freetypeCoverage(_ text: String, font: Font, size: Double, width: Int, height: Int, origin: Point) throws -> [UInt8] {
        var lib: FT_Library?
        XCTAssertEqual(FT_Init_FreeType(&lib), 0)
        defer { FT_Done_FreeType(lib) }
        var face: FT_Face?
        XCTAssertEqual(FT_New_Face(lib, font.path, 0, &face), 0)
        defer { FT_Done_Face(face) }
        XCTAssertEqual(FT_Set_Char_Size(face, 0, FT_F26Dot6((size * 64).rounded()), 72, 72), 0)
        var buffer = [UInt8](repeating: 0, count: width * height)
        var pen = origin.x
        var prev: UInt32? = nil
        for scalar in text.unicodeScalars {
            let g = font.glyphIndex(for: scalar)
            if let p = prev { pen += font.kerning(left: p, right: g, size: size) }
            XCTAssertEqual(FT_Load_Glyph(face, g, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)), 0)
            var outline = face!.pointee.glyph.pointee.outline
            // Outline y is up from the baseline; the bitmap's outline origin is its bottom-left.
            FT_Outline_Translate(&outline, FT_Pos((pen * 64).rounded()), FT_Pos(((Double(height) - origin.y) * 64).rounded()))
            var glyphBuf = [UInt8](repeating: 0, count: width * height)
            glyphBuf.withUnsafeMutableBufferPointer { b in
                var bm = FT_Bitmap()
                bm.rows = UInt32(height); bm.width = UInt32(width); bm.pitch = Int32(width)
                bm.buffer = b.baseAddress; bm.num_grays = 256; bm.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
                XCTAssertEqual(FT_Outline_Get_Bitmap(lib, &outline, &bm), 0)
            }
            for i in 0..<buffer.count { buffer[i] = UInt8(min(255, Int(buffer[i]) + Int(glyphBuf[i]))) }
            FT_Outline_Translate(&outline, -FT_Pos((pen * 64).rounded()), -FT_Pos(((Double(height) - origin.y) * 64).rounded()))
            pen += font.advance(glyph: g, size: size)
            prev = g
        }
        return buffer
    }

    func check(size: Double, origin: Point) throws {
        let font = try FontCache.font()
        let text = "Caffeine 140 mg, Tue–Sun"
        let width = Int(font.measure(text, size: size).width + origin.x + 4), height = Int(size * 2)
        let c = Canvas(width: width, height: height)
        // Without ligatures: the reference below draws one glyph per character ("ffi" is one
        // glyph in DejaVu Sans when shaped with HarfBuzz's defaults).
        let line = TextLine(text, font: font, size: size, options: ShapingOptions(features: ["-liga"]))
        c.fill(line.path(at: origin), paint: .solid(.black))
        let ours = stride(from: 3, to: c.pixmap.data.count, by: 4).map { c.pixmap.data[$0] }
        let theirs = try freetypeCoverage(text, font: font, size: size, width: width, height: height, origin: origin)
        // Compare over the text's ink bounding box.
        let m = line.metrics
        let x0 = max(0, Int(origin.x + m.bounds.minX)), x1 = min(width, Int((origin.x + m.bounds.maxX).rounded(.up)))
        let y0 = max(0, Int(origin.y + m.bounds.minY)), y1 = min(height, Int((origin.y + m.bounds.maxY).rounded(.up)))
        var total = 0, n = 0, worst = 0
        for y in y0..<y1 { for x in x0..<x1 {
            let d = abs(Int(ours[y * width + x]) - Int(theirs[y * width + x]))
            total += d; n += 1; worst = max(worst, d)
        } }
        let mean = Double(total) / Double(n)
        XCTAssertLessThanOrEqual(mean, 2, "size \(size): mean difference \(mean)/255, worst \(worst)")
        XCTAssertGreaterThan(theirs.reduce(0) { $0 + Int($1) }, 1000, "FreeType drew nothing")
    }

    func testMatchesFreeTypeAt12px() throws { try check(size: 12, origin: Point(2, 16)) }
    func testMatchesFreeTypeAt32px() throws { try check(size: 32, origin: Point(3.25, 44)) }
}
