import CRasterKernels
import Geometry
import XCTest
import TestSupport
@testable import Raster

/// Shapes filled piece by piece with the pieces' cells kept (`Canvas.fill(pieces:)`, what
/// a counter's glyphs go through) give the bytes of filling the whole shape, whether the
/// cells are new or kept from an earlier fill of another shape.
final class PieceCellsTests: XCTestCase {
    // Labels' paths (coverage cache, pieces, snapped pieces) take the Double walk; the
    // fresh fills they are compared with do too (plain fills take the fixed-point grid).
    private var savedGrid = Rasterizer.fixedGrid
    override func setUp() { super.setUp(); savedGrid = Rasterizer.fixedGrid; Rasterizer.fixedGrid = false }
    override func tearDown() { Rasterizer.fixedGrid = savedGrid; crk_reset_wide(); super.tearDown() }

    /// The "font" the pieces come from: its identity names them.
    final class Source: Sendable {}

    /// Glyph-like shapes in a unit box (y up, as font outlines): curves, several contours,
    /// a hole, a self-overlapping contour, a rectangle.
    static let shapes: [Path] = {
        var ring = Path.ellipse(in: Rect(x: 0.05, y: 0.05, width: 0.55, height: 0.9))
        // The inner contour the other way round: a hole under the non-zero rule.
        let inner = Path.ellipse(in: Rect(x: 0.2, y: 0.25, width: 0.25, height: 0.5))
        ring.append(contentsOf: Path(reversed(inner.elements)))
        var bar = Path.roundedRect(Rect(x: 0.25, y: 0, width: 0.14, height: 0.95), cornerRadius: 0.03)
        bar.append(contentsOf: .rect(Rect(x: 0.08, y: 0, width: 0.48, height: 0.1)))
        var star = Path()
        for k in 0..<5 {
            let a = Double(k) * 4 * Double.pi / 5
            let p = Point(0.33 + 0.3 * sin(a), 0.5 + 0.45 * cos(a))
            if k == 0 { star.move(to: p) } else { star.line(to: p) }
        }
        star.close()
        var twoDots = Path.circle(center: Point(0.3, 0.2), radius: 0.09)
        twoDots.append(contentsOf: .circle(center: Point(0.3, 0.7), radius: 0.09))
        // Wider than its advance: overlaps the next piece.
        let wide = Path.capsule(in: Rect(x: -0.1, y: 0.3, width: 0.85, height: 0.3))
        return [ring, bar, star, twoDots, wide, .rect(Rect(x: 0.1, y: 0.4, width: 0.4, height: 0.1))]
    }()

    /// A path's elements drawn the other way round (closed subpaths of lines and curves).
    static func reversed(_ elements: [PathElement]) -> [PathElement] {
        var out: [PathElement] = []
        var i = 0
        while i < elements.count {
            guard case .move(let start) = elements[i] else { i += 1; continue }
            var j = i + 1
            var points = [start]
            var segments: [PathElement] = []
            while j < elements.count, elements[j] != .close {
                if case .move = elements[j] { break }
                segments.append(elements[j])
                switch elements[j] {
                case .line(let p), .quad(_, let p), .cubic(_, _, let p): points.append(p)
                default: break
                }
                j += 1
            }
            out.append(.move(points.last!))
            for k in stride(from: segments.count - 1, through: 0, by: -1) {
                let to = points[k]
                switch segments[k] {
                case .line: out.append(.line(to))
                case .quad(let c, _): out.append(.quad(c, to))
                case .cubic(let c1, let c2, _): out.append(.cubic(c2, c1, to))
                default: break
                }
            }
            out.append(.close)
            i = j + 1
        }
        return out
    }

    /// Piece `index` at `scale` with its pen at `origin`, as a glyph path is placed.
    static func piecePath(_ p: ShapePiece) -> Path {
        shapes[Int(p.index)].applying(Transform(a: p.scale, b: 0, c: 0, d: -p.scale, tx: p.origin.x, ty: p.origin.y))
    }

    /// A "string": pieces at pen positions advancing by a fractional advance.
    static func pieces(_ indices: [Int], source: Source, scale: Double, advance: Double, start: Double = 0) -> [ShapePiece] {
        indices.enumerated().map { k, i in
            ShapePiece(source: source, index: UInt32(i), scale: scale, origin: Point(start + Double(k) * advance, 0))
        }
    }

    /// The pixels of `pieces` filled piece by piece and as one path, under the same state.
    func both(_ pieces: [ShapePiece], transform: Transform, paint: Paint, opacity: Double, cache: PieceCellCache,
              size: (Int, Int) = (160, 60), setUp: (Canvas) -> Void = { _ in }) -> (Pixmap, Pixmap) {
        let background = Color(r: 0.95, g: 0.93, b: 0.9)
        let a = Canvas(width: size.0, height: size.1, background: background)
        let b = Canvas(width: size.0, height: size.1, background: background)
        for c in [a, b] { setUp(c); c.concatenate(transform) }
        a.fill(pieces: pieces, paint: paint, opacity: opacity, cache: cache) { Self.piecePath(pieces[$0]) }
        var whole = Path()
        for p in pieces { whole.append(contentsOf: Self.piecePath(p)) }
        b.fill(whole, paint: paint, rule: .nonZero, opacity: opacity)
        return (a.pixmap, b.pixmap)
    }

    func testPiecesGiveTheBytesOfTheWholeShapeNewAndKept() {
        var rng = SplitMix64(state: 17)
        let source = Source()
        let cache = PieceCellCache()
        var drawn = 0
        for trial in 0..<400 {
            // Strings of 2 to 7 pieces over few places, so later strings find the cells of
            // earlier ones (a counter: new strings of seen glyphs at seen places).
            let count = Int.random(in: 2...7, using: &rng)
            let indices = (0..<count).map { _ in Int.random(in: 0..<Self.shapes.count, using: &rng) }
            let scale = [15.0, 15.0, 22.5, 9.75][trial % 4]
            let advance = scale * [0.6362, 0.55, 0.7][trial % 3]
            let pieces = Self.pieces(indices, source: source, scale: scale, advance: advance)
            var t = Transform.translation([12.0, 12.37, 20.125, 7.0 + Double(trial % 9) * 0.173][trial % 4],
                                          [40.0, 40.5, 38.81][trial % 3])
            if trial % 10 == 7 { t = Transform.rotation(0.21).concatenating(t) }
            if trial % 10 == 9 { t = Transform.scale(1.37, 0.82).concatenating(t) }
            let paint: Paint = trial % 5 == 0 ? .solid(Color(r: 0.8, g: 0.2, b: 0.1, a: 0.6)) : .solid(Color(r: 0.1, g: 0.1, b: 0.12))
            let opacity = trial % 6 == 0 ? 0.55 : 1
            let (a, b) = both(pieces, transform: t, paint: paint, opacity: opacity, cache: cache)
            XCTAssertEqual(a.data, b.data, "trial \(trial): \(indices) at \(t)")
            if a.data != Canvas(width: 160, height: 60, background: Color(r: 0.95, g: 0.93, b: 0.9)).pixmap.data { drawn += 1 }
        }
        XCTAssertGreaterThan(drawn, 390, "the shapes drew ink")
        XCTAssertGreaterThan(cache.bytes, 0, "cells were kept")
    }

    /// Cells ordered as the sweep meets them: by row, then column, ties in given order.
    static func swept(_ cells: [Rasterizer.Cell]) -> [[Double]] {
        cells.enumerated().sorted { ($0.element.y, $0.element.x, $0.offset) < ($1.element.y, $1.element.x, $1.offset) }
            .map { [Double($0.element.x), Double($0.element.y), $0.element.cover, $0.element.area] }
    }

    func testThePiecesCellsAreTheWholeShapesCellsInTheSweepsOrder() {
        // The claim the bytes rest on, checked below the 8-bit rounding: the sweep meets
        // the same cells, with the same bits, in the same order either way.
        var rng = SplitMix64(state: 99)
        let source = Source()
        let r = Rasterizer()
        for trial in 0..<200 {
            let indices = (0..<Int.random(in: 2...6, using: &rng)).map { _ in Int.random(in: 0..<Self.shapes.count, using: &rng) }
            let pieces = Self.pieces(indices, source: source, scale: [15.0, 21.3][trial % 2], advance: 8.7 + Double(trial % 7) * 0.31)
            var t = Transform.translation(10 + Double(trial % 11) * 0.137, 40.25)
            if trial % 4 == 3 { t = Transform.rotation(-0.17).concatenating(t) }
            let polys = pieces.map { Self.piecePath($0).flattened(tolerance: 0.05, transform: t) }
            r.reset(clipX: 0, clipY: 0, clipWidth: 200, clipHeight: 80)
            r.walk(polys.flatMap { $0 })
            r.acc.flush()
            let whole = r.cells
            var parts: [Rasterizer.Cell] = []
            for p in polys { parts += r.pieceCells(p, clipX: 0, clipY: 0, clipWidth: 200, clipHeight: 80)!.cells }
            XCTAssertEqual(whole.count, parts.count, "trial \(trial)")
            XCTAssertTrue(Self.swept(whole) == Self.swept(parts), "trial \(trial): the cells differ")
        }
    }

    func testPiecesSharingPixelsAreSummedBeforeFolding() {
        // Two bars 0.4 px apart share a column at a fractional pen position: the column's
        // coverage is the sum of both areas, which compositing two masks would not give.
        let source = Source()
        let cache = PieceCellCache()
        let pieces = Self.pieces([5, 5, 5], source: source, scale: 20, advance: 8.4, start: 0.3)
        for _ in 0..<2 {   // new cells, then kept ones
            let (a, b) = both(pieces, transform: .translation(10.25, 30), paint: .solid(.black), opacity: 1, cache: cache)
            XCTAssertEqual(a.data, b.data)
        }
    }

    func testShapesTheCellsCannotServeAreFilledWhole() {
        let source = Source()
        let cache = PieceCellCache()
        // A piece crossing the canvas edge (its cells would depend on the clip).
        let crossing = Self.pieces([0, 1, 2], source: source, scale: 30, advance: 18)
        let (a, b) = both(crossing, transform: .translation(-9.5, 20.3), paint: .solid(.black), opacity: 1, cache: cache)
        XCTAssertEqual(a.data, b.data)
        // Under a clip that cuts a piece kept before without a clip.
        let kept = Self.pieces([0, 3], source: source, scale: 15, advance: 9)
        _ = both(kept, transform: .translation(30.5, 30.5), paint: .solid(.black), opacity: 1, cache: cache)
        let (c, d) = both(kept, transform: .translation(30.5, 30.5), paint: .solid(.black), opacity: 1, cache: cache) {
            $0.clip(to: Rect(x: 0, y: 0, width: 36, height: 60))
        }
        XCTAssertEqual(c.data, d.data)
        // One rectangle in all: the whole fill sweeps it as a rectangle, not as cells.
        let rect = [ShapePiece(source: source, index: 5, scale: 20, origin: Point(0.3, 0))]
        let (e, f) = both(rect, transform: .translation(10.7, 30.2), paint: .solid(.black), opacity: 1, cache: cache)
        XCTAssertEqual(e.data, f.data)
        // Too big for one band: swept in bands by the whole fill.
        let saved = Rasterizer.bandCells
        Rasterizer.bandCells = 40
        defer { Rasterizer.bandCells = saved }
        let (g, h) = both(Self.pieces([0, 2, 4], source: source, scale: 15, advance: 9.3), transform: .translation(20.5, 30),
                          paint: .solid(.black), opacity: 1, cache: cache)
        XCTAssertEqual(g.data, h.data)
    }

    func testInsideALayerAndUnderAMask() {
        let source = Source()
        let cache = PieceCellCache()
        let pieces = Self.pieces([0, 2, 3, 1], source: source, scale: 18, advance: 11.3)
        for _ in 0..<2 {
            let a = Canvas(width: 160, height: 60, background: .white), b = Canvas(width: 160, height: 60, background: .white)
            for c in [a, b] {
                c.clip(to: Path.ellipse(in: Rect(x: 5, y: 5, width: 120, height: 50)))   // a mask, not a box
                c.beginLayer(opacity: 0.6, bounds: Rect(x: 10, y: 5, width: 100, height: 45))
                c.concatenate(.translation(17.3, 38.6))
            }
            a.fill(pieces: pieces, paint: .solid(.black), cache: cache) { Self.piecePath(pieces[$0]) }
            var whole = Path()
            for p in pieces { whole.append(contentsOf: Self.piecePath(p)) }
            b.fill(whole, paint: .solid(.black))
            a.endLayer(); b.endLayer()
            XCTAssertEqual(a.pixmap.data, b.pixmap.data)
        }
    }

    func testTheCacheKeepsToItsBudget() {
        let source = Source()
        let cache = PieceCellCache(byteBudget: 64 << 10)
        var rng = SplitMix64(state: 5)
        for k in 0..<300 {
            // A label moving every frame: its pieces never repeat.
            let pieces = Self.pieces([0, 1, 2, 3], source: source, scale: 24, advance: 14, start: Double(k) * 0.37)
            let (a, b) = both(pieces, transform: .translation(10 + Double.random(in: 0..<1, using: &rng), 40), paint: .solid(.black),
                              opacity: 1, cache: cache)
            XCTAssertEqual(a.data, b.data)
            XCTAssertLessThanOrEqual(cache.bytes, cache.byteBudget)
        }
        XCTAssertGreaterThan(cache.bytes, 0)
    }
}
