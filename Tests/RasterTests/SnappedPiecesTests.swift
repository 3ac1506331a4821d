import CRasterKernels
import Geometry
import XCTest
import TestSupport
@testable import Raster

/// A shape made of pieces and drawn at its fraction of a pixel from the pieces' kept cells
/// (`Canvas.fill(pieces:...subpixelSteps:)`, what a race's moving value labels go
/// through) gives the bytes and the coverage-cache entries of the whole-shape snapped
/// fill, frame after frame, as the shape moves and its pieces change.
final class SnappedPiecesTests: XCTestCase {
    override func tearDown() { crk_reset_wide(); super.tearDown() }

    static let background = Color(r: 0.95, g: 0.93, b: 0.9)

    /// `pieces` drawn through the kept cells on `a` and as one path on `b`, each with its
    /// own coverage cache, under the same state.
    func draw(_ pieces: [ShapePiece], on a: Canvas, _ b: Canvas, transform: Transform, paint: Paint, opacity: Double,
              caches: (CoverageCache, CoverageCache), cells: SnappedPieceCache, steps: Int = 4) {
        var whole = Path()
        for p in pieces { whole.append(contentsOf: PieceCellsTests.piecePath(p)) }
        for c in [a, b] { c.save(); c.concatenate(transform) }
        a.fill(pieces: { pieces }, paint: paint, opacity: opacity, cache: caches.0, subpixelSteps: steps, cells: cells,
               path: { PieceCellsTests.piecePath(pieces[$0]) }, whole: { whole })
        b.fill(whole, paint: paint, rule: .nonZero, opacity: opacity, cache: caches.1, subpixelSteps: steps)
        for c in [a, b] { c.restore() }
    }

    func testMovingStringsOfKeptPiecesGiveTheBytesOfTheWholeShape() {
        var rng = SplitMix64(state: 23)
        let source = PieceCellsTests.Source()
        let cells = SnappedPieceCache()
        let shapes = PieceCellsTests.shapes.count
        // A label riding a bar: a name (fixed pieces) and a number whose last pieces change
        // on most frames, moving right by less than a pixel to a few pixels a frame, now and
        // then jumping to another row; its caches are new whenever its string is.
        var name = [0, 2, 4]
        var number = [1, 3, 5, 1]
        var x = 8.0, y = 30.37
        var caches = (CoverageCache(), CoverageCache())
        var drawn = 0
        for frame in 0..<600 {
            x += Double.random(in: 0...2.6, using: &rng)
            if x > 90 { x = Double.random(in: 4...12, using: &rng); name = (0..<3).map { _ in Int.random(in: 0..<shapes, using: &rng) } }
            if frame % 40 == 0 { y = Double.random(in: 24...36, using: &rng) }
            var changed = false
            if Int.random(in: 0..<4, using: &rng) > 0 {
                number[number.count - 1] = Int.random(in: 0..<shapes, using: &rng)
                if Int.random(in: 0..<3, using: &rng) == 0 { number[number.count - 2] = Int.random(in: 0..<shapes, using: &rng) }
                changed = true
            }
            if changed { caches = (CoverageCache(), CoverageCache()) }
            let scale = frame % 200 < 150 ? 15.0 : 21.5
            let pieces = PieceCellsTests.pieces(name + number, source: source, scale: scale, advance: scale * 0.6362)
            var t = Transform.translation(x, y)
            if frame % 50 == 49 { t = Transform.rotation(0.17).concatenating(t) }
            let paint: Paint = frame % 7 == 3 ? .solid(Color(r: 0.8, g: 0.2, b: 0.1, a: 0.6)) : .solid(Color(r: 0.1, g: 0.1, b: 0.12))
            let opacity = frame % 11 == 5 ? 0.55 : 1
            let a = Canvas(width: 200, height: 64, background: Self.background)
            let b = Canvas(width: 200, height: 64, background: Self.background)
            if frame % 13 == 6 {
                // Under a clip mask (a plot whose edge falls between pixels): drawn afresh.
                for c in [a, b] { c.clip(to: Rect(x: 0.5, y: 0.25, width: 199, height: 63.5)) }
            }
            if frame % 17 == 8 {
                // A clip box the label crosses: drawn afresh at its rounded place.
                for c in [a, b] { c.clip(to: Rect(x: 0, y: 0, width: x + 20, height: 64)) }
            }
            draw(pieces, on: a, b, transform: t, paint: paint, opacity: opacity, caches: caches, cells: cells)
            XCTAssertEqual(a.pixmap.data, b.pixmap.data, "frame \(frame): \(name + number) at \(t)")
            if a.pixmap.data != Canvas(width: 200, height: 64, background: Self.background).pixmap.data { drawn += 1 }
        }
        XCTAssertGreaterThan(drawn, 590, "the shapes drew ink")
        XCTAssertGreaterThan(cells.bytes, 0, "cells were kept")
    }

    func testKeptCellsServeLaterShapesAndEmptyOrSinglePieces() {
        let source = PieceCellsTests.Source()
        let cells = SnappedPieceCache()
        let strings = [[0, 1, 2], [0, 1, 3], [4, 1, 3], [0, 1, 2]]
        func frame(_ s: [Int], x: Double) -> (Pixmap, Pixmap) {
            let a = Canvas(width: 120, height: 48, background: Self.background)
            let b = Canvas(width: 120, height: 48, background: Self.background)
            draw(PieceCellsTests.pieces(s, source: source, scale: 15, advance: 9.5431), on: a, b,
                 transform: .translation(x, 30.25), paint: .solid(.black), opacity: 1,
                 caches: (CoverageCache(), CoverageCache()), cells: cells)
            return (a.pixmap, b.pixmap)
        }
        for (k, s) in strings.enumerated() {
            let (a, b) = frame(s, x: 10.3 + Double(k) * 7)
            XCTAssertEqual(a.data, b.data, "\(s)")
        }
        // The same strings at the same fractions again, whole pixels away: every piece is
        // kept, so nothing is added.
        let kept = cells.bytes
        XCTAssertGreaterThan(kept, 0)
        for (k, s) in strings.enumerated() {
            let (a, b) = frame(s, x: 10.3 + Double(k) * 7 + 31)
            XCTAssertEqual(a.data, b.data, "\(s) moved")
        }
        XCTAssertEqual(cells.bytes, kept, "the cells of moved shapes were found, not made again")
        // One piece that is one rectangle (held back by the rasterizer), and no pieces with ink.
        let (ra, rb) = frame([5], x: 20.6)
        XCTAssertEqual(ra.data, rb.data)
        XCTAssertNotEqual(ra.data, Canvas(width: 120, height: 48, background: Self.background).pixmap.data)
        let empty = Canvas(width: 120, height: 48, background: Self.background)
        empty.fill(pieces: { [] }, paint: .solid(.black), cache: CoverageCache(), subpixelSteps: 4, cells: cells,
                   path: { _ in Path() }, whole: { Path() })
        XCTAssertEqual(empty.pixmap.data, Canvas(width: 120, height: 48, background: Self.background).pixmap.data)
    }

    func testABudgetBoundsTheKeptCells() {
        let source = PieceCellsTests.Source()
        let cells = SnappedPieceCache(byteBudget: 48 << 10)
        var rng = SplitMix64(state: 5)
        for frame in 0..<300 {
            let s = (0..<5).map { _ in Int.random(in: 0..<PieceCellsTests.shapes.count, using: &rng) }
            let a = Canvas(width: 160, height: 48, background: Self.background)
            let b = Canvas(width: 160, height: 48, background: Self.background)
            draw(PieceCellsTests.pieces(s, source: source, scale: 15, advance: 9.5431), on: a, b,
                 transform: .translation(6 + Double(frame % 97) * 0.61, 28 + Double(frame % 5) * 0.3),
                 paint: .solid(.black), opacity: 1, caches: (CoverageCache(), CoverageCache()), cells: cells)
            XCTAssertEqual(a.pixmap.data, b.pixmap.data, "frame \(frame)")
            XCTAssertLessThanOrEqual(cells.bytes, cells.byteBudget)
        }
        XCTAssertGreaterThan(cells.bytes, 0)
    }
}
