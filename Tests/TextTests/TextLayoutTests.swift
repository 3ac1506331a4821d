import Foundation
import Geometry
import Text
import XCTest

final class TextLayoutTests: XCTestCase {
    func testHelloChartPathIsPlausiblySized() {
        let size = 32.0
        let p = path(for: "Hello, chart", font: dejaVu, size: size, at: Point(10, 50))
        XCTAssertFalse(p.isEmpty)
        let b = p.controlBounds
        let ascent = dejaVu.ascent(size: size), descent = dejaVu.descent(size: size)
        // From the top of 'l'/'h' to the bottom of the comma: about the ascent.
        XCTAssertGreaterThan(b.height, 0.7 * ascent)
        XCTAssertLessThan(b.height, ascent + descent)
        XCTAssertGreaterThan(b.minY, 50 - ascent - 1e-9)
        XCTAssertLessThan(b.maxY, 50 + descent)
        XCTAssertGreaterThanOrEqual(b.minX, 10)
        let m = Text.measure("Hello, chart", font: dejaVu, size: size)
        XCTAssertLessThanOrEqual(b.maxX, 10 + m.width + 1)
        XCTAssertGreaterThan(m.width, 5 * size)
        XCTAssertLessThan(m.width, 12 * size)
    }

    func testWidthIsAdvancesPlusKerning() {
        for text in ["Hello, chart", "AVATAR To", "Wavy Yo-yo", ""] {
            let size = 27.5
            let glyphs = text.unicodeScalars.map { dejaVu.glyphIndex(for: $0) }
            var expected = 0.0
            for (i, g) in glyphs.enumerated() {
                if i > 0 { expected += dejaVu.kerning(left: glyphs[i - 1], right: g, size: size) }
                expected += dejaVu.advance(glyph: g, size: size)
            }
            let m = Text.measure(text, font: dejaVu, size: size)
            XCTAssertEqual(m.width, expected, accuracy: 1e-9, text)
            XCTAssertEqual(m.ascent, dejaVu.ascent(size: size))
            XCTAssertEqual(m.descent, dejaVu.descent(size: size))
        }
        // The kern pairs really change the width.
        let av = Text.measure("AV", font: dejaVu, size: 32).width
        let a = Text.measure("A", font: dejaVu, size: 32).width, v = Text.measure("V", font: dejaVu, size: 32).width
        XCTAssertLessThan(av, a + v)
    }

    func testInkBoundsMatchThePath() {
        // Exact curve bounds lie inside the control-point bounds, and TrueType
        // puts on-curve points at extrema, so the two agree closely.
        let m = Text.measure("Hello, chart", font: dejaVu, size: 32)
        let b = path(for: "Hello, chart", font: dejaVu, size: 32, at: .zero).controlBounds
        XCTAssertGreaterThanOrEqual(m.bounds.minX, b.minX - 1e-9)
        XCTAssertGreaterThanOrEqual(m.bounds.minY, b.minY - 1e-9)
        XCTAssertLessThanOrEqual(m.bounds.maxX, b.maxX + 1e-9)
        XCTAssertLessThanOrEqual(m.bounds.maxY, b.maxY + 1e-9)
        XCTAssertEqual(m.bounds.width, b.width, accuracy: 0.5)
        XCTAssertEqual(m.bounds.height, b.height, accuracy: 0.5)
    }

    func testPathIsTheGlyphPathsAtThePenPositions() {
        let size = 20.0, origin = Point(3, 40)
        var expected = Path()
        var pen = origin.x
        var previous: UInt32? = nil
        for scalar in "To".unicodeScalars {
            let g = dejaVu.glyphIndex(for: scalar)
            if let previous { pen += dejaVu.kerning(left: previous, right: g, size: size) }
            expected.append(contentsOf: dejaVu.glyphPath(glyph: g, size: size, origin: Point(pen, origin.y)))
            pen += dejaVu.advance(glyph: g, size: size)
            previous = g
        }
        XCTAssertEqual(path(for: "To", font: dejaVu, size: size, at: origin), expected)
    }

    func testConcurrentMeasuringGivesIdenticalResults() throws {
        // A fresh font, so the threads also race to fill the glyph cache.
        let font = try Font(path: FontLocator.locate())
        let texts = ["Hello, chart", "Caffeine (mg)", "AVATAR To", "0123456789 %", "Ωμέγα Жж"]
        let reference = texts.map { Text.measure($0, font: dejaVu, size: 18) }
        let referencePaths = texts.map { path(for: $0, font: dejaVu, size: 18, at: Point(1, 20)) }
        let results = Locked<[[TextMetrics]]>([])
        let paths = Locked<[[Path]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            var mine: [TextMetrics] = [], myPaths: [Path] = []
            for _ in 0..<50 {
                mine = texts.map { Text.measure($0, font: font, size: 18) }
                myPaths = texts.map { path(for: $0, font: font, size: 18, at: Point(1, 20)) }
            }
            results.withLock { $0.append(mine) }
            paths.withLock { $0.append(myPaths) }
        }
        XCTAssertEqual(results.withLock { $0 }, Array(repeating: reference, count: 4))
        XCTAssertEqual(paths.withLock { $0 }, Array(repeating: referencePaths, count: 4))
    }
}
