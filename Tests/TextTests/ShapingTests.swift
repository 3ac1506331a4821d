import Foundation
import Geometry
@testable import Text
import XCTest

/// The Noto fonts `scripts/setup` installs (fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji).
enum Noto {
    static let dir = "/usr/share/fonts/truetype/noto/"
    static let arabic = dir + "NotoSansArabic-Regular.ttf"
    static let hebrew = dir + "NotoSansHebrew-Regular.ttf"
    static let devanagari = dir + "NotoSansDevanagari-Regular.ttf"
    static let thai = dir + "NotoSansThai-Regular.ttf"
    static let latin = dir + "NotoSans-Regular.ttf"
    static let emoji = dir + "NotoColorEmoji.ttf"
    static let cjk = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
}

/// One glyph of `hb-shape`'s JSON output (font units).
struct HBGlyph: Decodable, Equatable {
    let g: UInt32, cl: Int, dx: Int, dy: Int, ax: Int, ay: Int
}

/// Runs `hb-shape` (Debian libharfbuzz-bin) on `text` in the face, language "en" as the
/// shaper's default, and returns its glyphs.
func hbShape(_ text: String, font: String, faceIndex: Int = 0, features: [String] = []) throws -> [HBGlyph] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/hb-shape")
    var args = ["--output-format=json", "--no-glyph-names", "--language=en", "--face-index=\(faceIndex)"]
    if !features.isEmpty { args.append("--features=" + features.joined(separator: ",")) }
    process.arguments = args + [font, text]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw NSError(domain: "hb-shape", code: Int(process.terminationStatus),
                      userInfo: [NSLocalizedDescriptionKey: "hb-shape failed (install libharfbuzz-bin: scripts/setup)"])
    }
    return try JSONDecoder().decode([HBGlyph].self, from: data)
}

final class ShapingTests: XCTestCase {
    /// Shapes `text` in the face at a size of one pixel per font unit, so positions are in
    /// font units, and compares glyph ids, clusters and positions with hb-shape's.
    func assertShapedLikeHBShape(_ text: String, font path: String, faceIndex: Int = 0, features: [String] = [],
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            return XCTFail("\(path) missing: run scripts/setup (Noto fonts)", file: file, line: line)
        }
        let font = try Font(path: path, faceIndex: faceIndex)
        let expected = try hbShape(text, font: path, faceIndex: faceIndex, features: features)
        let shaped = TextLine(text, font: font, size: font.unitsPerEm, options: ShapingOptions(features: features))
        XCTAssertEqual(shaped.glyphs.map(\.glyph), expected.map(\.g), "glyph ids of \(text)", file: file, line: line)
        XCTAssertEqual(shaped.glyphs.map(\.cluster), expected.map(\.cl), "clusters of \(text)", file: file, line: line)
        XCTAssertTrue(shaped.glyphs.allSatisfy { $0.font === font }, "no fallback for \(text)", file: file, line: line)
        var pen = 0
        for (g, e) in zip(shaped.glyphs, expected) {
            XCTAssertEqual(g.position.x, Double(pen + e.dx), accuracy: 1e-9, "x of glyph \(e.g) in \(text)", file: file, line: line)
            XCTAssertEqual(g.position.y, Double(-e.dy), accuracy: 1e-9, "y of glyph \(e.g) in \(text)", file: file, line: line)
            pen += e.ax
        }
        XCTAssertEqual(shaped.metrics.width, Double(pen), accuracy: 1e-9, "advance of \(text)", file: file, line: line)
    }

    func testArabicMatchesHBShape() throws {
        try assertShapedLikeHBShape("مرحبا بالعالم", font: Noto.arabic)
        try assertShapedLikeHBShape("المملكة العربية السعودية", font: Noto.arabic)
    }

    func testHebrewMatchesHBShape() throws {
        try assertShapedLikeHBShape("שָׁלוֹם עוֹלָם", font: Noto.hebrew)
    }

    func testDevanagariMatchesHBShape() throws {
        // The vowel sign ि is written after its consonant and drawn before it.
        try assertShapedLikeHBShape("हिन्दी भारत", font: Noto.devanagari)
    }

    func testThaiMatchesHBShape() throws {
        try assertShapedLikeHBShape("ประเทศไทย", font: Noto.thai)
    }

    func testChineseAndJapaneseMatchHBShape() throws {
        try assertShapedLikeHBShape("中华人民共和国", font: Noto.cjk, faceIndex: 2)
        try assertShapedLikeHBShape("日本語のテキスト、東京", font: Noto.cjk)
    }

    func testLatinLigaturesAndKerningMatchHBShape() throws {
        try assertShapedLikeHBShape("office flow AVATAR To", font: FontLocator.locate())
        try assertShapedLikeHBShape("office flow AVATAR To", font: FontLocator.locate(), features: ["-liga", "-kern"])
        // The ligature is really there: "ffi" is one glyph.
        let line = TextLine("office", font: dejaVu, size: 20)
        XCTAssertEqual(line.glyphs.count, 4)
        XCTAssertEqual(TextLine("office", font: dejaVu, size: 20, options: ShapingOptions(features: ["-liga"])).glyphs.count, 6)
    }

    func testTabularFiguresMatchHBShape() throws {
        try assertShapedLikeHBShape("1,111 - 8,088.50", font: Noto.latin, features: ["tnum"])
    }

    func testRightToLeftLabelStartsAtTheRight() throws {
        let font = try Font(path: Noto.hebrew)
        let line = TextLine("שלום", font: font, size: 40)
        XCTAssertTrue(line.isRightToLeft)
        // The first character's glyph (cluster 0) is the rightmost.
        let first = try XCTUnwrap(line.glyphs.first { $0.cluster == 0 })
        XCTAssertEqual(first.position.x, line.glyphs.map(\.position.x).max()!)
        // A mixed label: the Latin word inside stays left to right, placed by the paragraph.
        let mixed = TextLine("מדינת ABC ישראל", font: font, size: 40)
        let a = mixed.glyphs.first { $0.cluster == 6 }!, c = mixed.glyphs.first { $0.cluster == 8 }!
        XCTAssertLessThan(a.position.x, c.position.x, "ABC reads left to right")
        let firstHebrew = mixed.glyphs.first { $0.cluster == 0 }!
        XCTAssertGreaterThan(firstHebrew.position.x, c.position.x, "the paragraph starts at the right")
    }

    func testFallbackFindsAFontForEveryScript() throws {
        let line = TextLine("Ελλάδα Россия مصر ישראל भारत ไทย 中国 日本", font: dejaVu, size: 20)
        XCTAssertEqual(line.missing, [])
        XCTAssertFalse(line.glyphs.contains { $0.glyph == 0 }, "no missing-glyph boxes")
        let families = Set(line.glyphs.map(\.font.familyName))
        XCTAssertTrue(families.contains("DejaVu Sans"), "\(families)")
        XCTAssertTrue(families.contains { $0.contains("Devanagari") }, "\(families)")
        XCTAssertTrue(families.contains { $0.contains("Thai") }, "\(families)")
        XCTAssertTrue(families.contains { $0.contains("CJK") }, "\(families)")
    }

    func testEmojiAndFlagsAreOneColourGlyphEach() throws {
        let line = TextLine("🇯🇵 👩‍👩‍👧 😀", font: dejaVu, size: 24)
        let color = line.glyphs.filter { $0.font.isColorBitmap }
        XCTAssertEqual(color.count, 3, "flag, ZWJ family and face are one glyph each")
        XCTAssertEqual(line.colorGlyphs.count, 3)
        for g in line.colorGlyphs {
            XCTAssertEqual(g.rect.height, 24 * 128 / 109, accuracy: 3)
            XCTAssertEqual(g.image.width, Int(g.rect.width.rounded(.up)))
        }
    }

    func testMissingCharacterIsABoxAndOneWarning() throws {
        let messages = Locked<[String]>([])
        TextWarnings.setHandler { m in messages.withLock { $0.append(m) } }
        defer { TextWarnings.setHandler { _ in } }
        // U+10FFFD is a private-use code point no font has.
        let label = "Price \u{10FFFD} today"
        let line = TextLine(label, font: dejaVu, size: 20)
        _ = TextLine(label, font: dejaVu, size: 30)
        XCTAssertEqual(line.missing, ["\u{10FFFD}"])
        XCTAssertTrue(line.glyphs.contains { $0.glyph == 0 && $0.font === dejaVu })
        XCTAssertGreaterThan(line.path().isEmpty ? 0 : 1, 0)
        let got = messages.withLock { $0 }
        XCTAssertEqual(got.count, 1, "\(got)")
        XCTAssertTrue(got.first?.contains("U+10FFFD") ?? false)
        XCTAssertTrue(got.first?.contains(label) ?? false)
    }
}

final class LabelLimitTests: XCTestCase {
    /// A label past the label limit (10,000 characters) is shaped only up to it, with an
    /// ellipsis, and said once: a 1 MB title used to take 1 GB of glyphs and coverage.
    func testALabelPastTheLimitIsCutWithAnEllipsisAndAWarning() throws {
        let messages = Locked<[String]>([])
        TextWarnings.setHandler { m in messages.withLock { $0.append(m) } }
        defer { TextWarnings.setHandler { _ in } }
        let long = String(repeating: "ab", count: 15_000)
        let line = TextLine(long, font: dejaVu, size: 10)
        let ellipsis = TextLine("…", font: dejaVu, size: 10)
        XCTAssertEqual(line.glyphs.count, 10_001)
        XCTAssertEqual(line.glyphs.last?.glyph, ellipsis.glyphs.first?.glyph)
        XCTAssertEqual(line.glyphs.last?.cluster, 10_000)
        let got = messages.withLock { $0 }
        XCTAssertEqual(got.count, 1, "\(got)")
        XCTAssertTrue(got.first?.hasPrefix("a label of 30000 characters was cut to the first 10000 (the label limit)") == true, "\(got)")
        // At the limit nothing is cut.
        XCTAssertEqual(TextLine(String(long.prefix(10_000)), font: dejaVu, size: 10).glyphs.count, 10_000)
    }
}

final class ShapingCacheTests: XCTestCase {
    /// The cache of shaped strings is bounded by glyphs, not only by strings: 300 distinct
    /// labels of 10,000 characters (3 million glyphs) keep at most a million.
    func testTheShapingCacheIsBoundedByGlyphs() {
        let word = String(repeating: "x", count: 9_990)
        for i in 0..<300 {
            _ = TextLine("\(i)" + word, font: dejaVu, size: 10)
            XCTAssertLessThanOrEqual(Shaper.cached.glyphs, Shaper.glyphCapacity)
        }
        XCTAssertGreaterThan(Shaper.cached.glyphs, 0)
        XCTAssertLessThan(Shaper.cached.strings, 120)
    }

    /// Printable ASCII skips choosing a font cluster by cluster only when the label's font
    /// has every character: in the emoji font (no letters) the letters still fall back.
    func testPrintableASCIIFallsBackWhereTheFontLacksIt() throws {
        let line = TextLine("Ab 12", font: dejaVu, size: 15)
        XCTAssertTrue(line.glyphs.allSatisfy { $0.font === dejaVu })
        let emoji = try Font(path: Noto.emoji)
        let fallen = TextLine("Ab 12", font: emoji, size: 15)
        XCTAssertEqual(fallen.missing, [])
        XCTAssertTrue(fallen.glyphs.filter { $0.cluster < 2 }.allSatisfy { $0.font !== emoji && $0.glyph != 0 })
    }

    /// A string shaped with `keepShaping: false` (a counter's value) is not kept, and
    /// shapes as it does when kept.
    func testUnkeptShapingIsNotStoredAndShapesAlike() {
        let s = "count 73,918,402"
        let before = Shaper.cached.strings
        let unkept = TextLine(s, font: dejaVu, size: 15, options: .tabularFigures, keepShaping: false)
        XCTAssertEqual(Shaper.cached.strings, before)
        let kept = TextLine(s, font: dejaVu, size: 15, options: .tabularFigures)
        // Kept: one more, or the only one if keeping it cleared the full table.
        XCTAssertTrue([before + 1, 1].contains(Shaper.cached.strings))
        XCTAssertEqual(unkept.glyphs.map(\.glyph), kept.glyphs.map(\.glyph))
        XCTAssertEqual(unkept.glyphs.map(\.position), kept.glyphs.map(\.position))
        XCTAssertEqual(unkept.metrics, kept.metrics)
    }
}

final class EmojiFontTests: XCTestCase {
    func testColorEmojiFontLoads() throws {
        let font = try Font(path: Noto.emoji)
        XCTAssertTrue(font.isColorBitmap)
        XCTAssertTrue(font.covers("😀"))
    }
}
