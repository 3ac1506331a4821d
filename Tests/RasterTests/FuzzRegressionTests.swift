import XCTest
import Geometry
import TestSupport
@testable import Raster

/// Inputs found by the libFuzzer targets (Fuzz/raster.swift, Fuzz/png.swift), each
/// reduced to the call that failed and checked for the right result, not only for
/// surviving it. The raw crash inputs are in Fuzz/corpus/<target>/crash-*.
final class FuzzRegressionTests: XCTestCase {
    /// Fuzz/corpus/raster/crash-clip-beyond-int-range: a clip whose box lies wholly
    /// beyond the ±1e9 clamp (maxX = −1e245) trapped converting to Int.
    func testClipFarOutsideTheCanvasClipsEverythingAway() {
        for r in [Rect(x: -1e300, y: 0, width: 10, height: 10), Rect(x: 0, y: 1e300, width: 10, height: 10),
                  Rect(x: 1e300, y: -1e300, width: -10, height: 10), Rect(x: -1e245, y: 0, width: -20, height: 5)] {
            let c = Canvas(width: 8, height: 8)
            c.save()
            c.clip(to: r)
            c.fill(.rect(Rect(x: 0, y: 0, width: 8, height: 8)), paint: .solid(.white))
            XCTAssertEqual(c.pixmap.pixel(4, 4).a, 0, "clip \(r) let paint through")
            c.restore()
            c.fill(.rect(Rect(x: 0, y: 0, width: 8, height: 8)), paint: .solid(.white))
            XCTAssertEqual(c.pixmap.pixel(4, 4).a, 255)
        }
    }

    /// Fuzz/corpus/raster/slow-crowded-row: a stroke under a 1e49 scale, clipped to an
    /// 11×11 canvas, put thousands of cells into each row in runs going both ways; the
    /// insertion sort by column took 60 s. Crowded rows now take an O(n log n) sort,
    /// which must order cells exactly as the insertion sort does, stability included.
    func testCrowdedRowSortAgreesWithInsertionSort() {
        var seed: UInt64 = 0x9E3779B97F4A7C15
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 33 }
        for count in [0, 1, 2, 63, 64, 65, 200, 1000, 5000] {
            for spread in [1, 3, 50, 10_000] {
                // `cover` numbers the cells so that a change of order among equal columns shows.
                let cells = (0..<count).map { i in
                    Rasterizer.Cell(x: Int32(Int(next() % UInt64(spread)) - spread / 2), y: 0, cover: Double(i), area: 0)
                }
                var fast = cells, plain = cells
                fast.withUnsafeMutableBufferPointer { Rasterizer.sortByColumn($0) }
                plain.withUnsafeMutableBufferPointer { Rasterizer.insertionSortByColumn($0) }
                XCTAssertEqual(fast.map(\.x), plain.map(\.x), "count \(count), spread \(spread)")
                XCTAssertEqual(fast.map(\.cover), plain.map(\.cover), "count \(count), spread \(spread)")
                XCTAssertTrue(zip(fast, fast.dropFirst()).allSatisfy { $0.x <= $1.x })
            }
        }
    }

    /// The sweep sorts 8-byte keys (column, then the cell's index) instead of the cells;
    /// the cells the sorted keys name must be the cells `sortByColumn` and the plain
    /// insertion sort give, in the same order, for rows of every length class (two cells,
    /// up to 64, crowded) and columns that include negative ones and Int32's extremes.
    func testKeySortGivesTheStableOrderByColumn() {
        var rng = SplitMix64(state: 23)
        for count in [1, 2, 3, 5, 16, 63, 64, 65, 200, 3000] {
            for spread in [1, 2, 7, 100, 1 << 20] {
                for _ in 0..<20 {
                    let cells = (0..<count).map { i -> Rasterizer.Cell in
                        var x = Int32(Int(rng.next() % UInt64(spread)) - spread / 2)
                        if rng.next() % 97 == 0 { x = rng.next() % 2 == 0 ? .min : .max }
                        return Rasterizer.Cell(x: x, y: 0, cover: Double(i), area: 0)
                    }
                    var keys = cells.enumerated().map { cellKey($0.element.x, $0.offset) }
                    keys.withUnsafeMutableBufferPointer { Rasterizer.sortKeys($0.baseAddress!, $0.count) }
                    var plain = cells
                    plain.withUnsafeMutableBufferPointer { Rasterizer.insertionSortByColumn($0) }
                    XCTAssertEqual(keys.map { keyColumn($0) }, plain.map(\.x), "count \(count), spread \(spread)")
                    XCTAssertEqual(keys.map { cells[keyIndex($0)].cover }, plain.map(\.cover), "count \(count), spread \(spread)")
                }
            }
        }
    }

    /// A comb whose 200 teeth cross the same rows gives rows of 400+ cells, visited
    /// left to right along the top and right to left along the bottom: the crowded-row
    /// sort path. Its coverage must still be its exact area.
    func testCrowdedRowsCoverTheCombsArea() {
        let teeth = 200
        var comb = Path()
        comb.move(to: Point(0, 6))
        for k in 0..<teeth {
            let x = Double(k) * 0.5
            comb.line(to: Point(x, 6)); comb.line(to: Point(x, 1.3)); comb.line(to: Point(x + 0.25, 1.3)); comb.line(to: Point(x + 0.25, 6))
        }
        comb.line(to: Point(100, 6)); comb.line(to: Point(100, 8.5))
        for k in (0..<teeth).reversed() {
            let x = Double(k) * 0.5
            comb.line(to: Point(x + 0.5, 8.5)); comb.line(to: Point(x + 0.5, 12.7)); comb.line(to: Point(x + 0.25, 12.7))
            comb.line(to: Point(x + 0.25, 8.5))
        }
        comb.line(to: Point(0, 8.5)); comb.close()
        let c = Canvas(width: 110, height: 16)
        c.fill(comb, paint: .solid(.white))
        var sum = 0
        for i in stride(from: 3, to: c.pixmap.data.count, by: 4) { sum += Int(c.pixmap.data[i]) }
        let area = Double(teeth) * 0.25 * 4.7 + 100 * 2.5 + Double(teeth) * 0.25 * 4.2
        XCTAssertEqual(Double(sum) / 255, area, accuracy: area * 0.005)
        // Each column of row 3 is half covered (a tooth of width 0.25 every 0.5 px).
        XCTAssertEqual(Double(c.pixmap.pixel(40, 3).a) / 255, 0.5, accuracy: 1.5 / 255)
        XCTAssertEqual(c.pixmap.pixel(40, 7).a, 255)
        XCTAssertEqual(c.pixmap.pixel(105, 3).a, 0)
    }

    /// Fuzz/corpus/raster/crash-row-past-table: an ellipse squashed flat (d = 0) by a
    /// transform has edges between y = 38 ∓ 1e-14, the rounding of its flattened cubics.
    /// The edge walker visited row 38 but recorded 37 as the last row (an epsilon in
    /// its bound), so the sweep's counting sort wrote past its row table.
    func testFlattenedEllipseDrawsNothingAndStaysInBounds() {
        let c = Canvas(width: 57, height: 57)
        let squash = Transform(a: -36, b: 0, c: 0, d: 0, tx: 35.87890625, ty: 38)
        c.fill(Path.ellipse(in: Rect(x: 17.1796875, y: -38.828125, width: 72.71875, height: 19.546875)).applying(squash),
               paint: .solid(Color(r: 1, g: 0.55, b: 1)))
        XCTAssertTrue(stride(from: 3, to: c.pixmap.data.count, by: 4).allSatisfy { c.pixmap.data[$0] == 0 })
    }

    /// The same bound at the rasterizer: a rectangle whose bottom lies 1e-13 below a
    /// row boundary reaches into that row, and the sweep must account for it.
    func testEdgeEndingJustPastARowBoundary() {
        let r = Rasterizer()
        r.reset(clipX: 0, clipY: 0, clipWidth: 10, clipHeight: 10)
        let bottom = 5 + 1e-13
        r.add([Polyline(points: [Point(2, 4.5), Point(6, 4.5), Point(6, bottom), Point(2, bottom)], closed: true)])
        var rows: [Int: [Span]] = [:]
        r.sweep(rule: .nonZero) { y, spans in rows[y] = Array(spans) }
        XCTAssertEqual(rows[4], [Span(x: 2, length: 4, alpha: 128)])
        XCTAssertEqual(Set(rows.keys), [4])
    }

    /// Fuzz/corpus/raster/crash-rect-row-above-canvas: under a scale of (7.7e49, 4.7e-188)
    /// a rectangle becomes one 1e-186 px tall at the top of an 11 × 11 canvas. The
    /// rectangle sweep took its last row as ⌈y1 − 1⌉, and y1 − 1 rounds to −1: it blitted
    /// row −1, before the pixmap (a heap overflow under ASan). Now its rows are 0 only, with
    /// the coverage of its height.
    func testAVanishinglyThinRectangleStaysInsideTheCanvas() {
        let c = Canvas(width: 11, height: 11)
        c.concatenate(Transform(a: 7.684632920852955e+49, b: 0, c: 0, d: 4.686116055701966e-188, tx: 0, ty: 0))
        c.fill(.rect(Rect(x: -11.78125, y: 51.1953125, width: 20, height: 20)), paint: .solid(.black), opacity: 0.29)
        XCTAssertTrue(stride(from: 3, to: c.pixmap.data.count, by: 4).allSatisfy { c.pixmap.data[$0] == 0 })

        let r = Rasterizer()
        r.reset(clipX: 0, clipY: 0, clipWidth: 11, clipHeight: 11)
        r.add([Polyline(points: [Point(-5, 2e-186), Point(20, 2e-186), Point(20, 3e-186), Point(-5, 3e-186)], closed: true)])
        var rows: [Int] = []
        r.sweep(rule: .nonZero) { y, _ in rows.append(y) }
        XCTAssertTrue(rows.allSatisfy { $0 == 0 })
        // A taller one ending on a row boundary still stops at the row above it.
        r.reset(clipX: 0, clipY: 0, clipWidth: 11, clipHeight: 11)
        r.add([Polyline(points: [Point(1, 2.5), Point(4, 2.5), Point(4, 5), Point(1, 5)], closed: true)])
        var spans: [Int: [Span]] = [:]
        r.sweep(rule: .nonZero) { y, s in spans[y] = Array(s) }
        XCTAssertEqual(spans.keys.sorted(), [2, 3, 4])
        XCTAssertEqual(spans[2], [Span(x: 1, length: 3, alpha: 128)])
        XCTAssertEqual(spans[4], [Span(x: 1, length: 3, alpha: 255)])
    }

    /// Fuzz/corpus/raster/timeout-denormal-height: an ellipse scaled in y by 5e-324 has
    /// edges a few denormals tall. Their slope overflowed to ∞, the x where an edge
    /// crosses row 0 became ∞, and the column walk never ended.
    func testEdgesADenormalTallTerminateAndStayBetweenTheirEnds() {
        let c = Canvas(width: 15, height: 64)
        let flat = Transform(a: 0.5, b: 0, c: 0, d: 5e-324, tx: 0, ty: 0)
        c.fill(Path.ellipse(in: Rect(x: 5.44, y: -20, width: 19.66, height: 23.84)).applying(flat),
               paint: .solid(.black))
        XCTAssertTrue(stride(from: 3, to: c.pixmap.data.count, by: 4).allSatisfy { c.pixmap.data[$0] == 0 })

        let r = Rasterizer()
        r.reset(clipX: 0, clipY: -4, clipWidth: 15, clipHeight: 8)
        r.addEdge(2, -1e-322, 9, 2e-323)
        r.addEdge(9, 2e-323, 2, -1e-322)
        XCTAssertFalse(r.cells.isEmpty)
        XCTAssertTrue(r.cells.allSatisfy { $0.x >= 2 && $0.x <= 9 && ($0.y == -1 || $0.y == 0) })
        var spans = 0
        r.sweep(rule: .nonZero) { _, s in spans += s.count }
        XCTAssertEqual(spans, 0)
    }

    /// Fuzz/corpus/raster/crash-gradient-nan: under a rotation then a scale of
    /// (3.5e59, 5e-324) the inverse transform is huge, and a linear gradient's position
    /// came out NaN at some pixels; converting it to a table index trapped.
    func testGradientUnderANearlySingularTransformDraws() {
        // Table entries: 0 is the pad colour before the start, n + 1 after the end.
        for spread in [SpreadMode.pad, .repeat, .reflect] {
            for p in [Double.nan, -.infinity, .infinity, -1e300, 1e300] {
                let i = tableIndex(p, spread, 256)
                XCTAssertTrue(i >= 0 && i <= 257, "\(spread) \(p) → \(i)")
            }
        }
        XCTAssertEqual(tableIndex(.nan, .pad, 256), 0)
        XCTAssertEqual(tableIndex(.infinity, .pad, 256), 257)
        let c = Canvas(width: 63, height: 48)
        c.concatenate(.rotation(-2.2176))
        c.concatenate(.scale(3.556531995161106e+59, 5e-324))
        var p = Path()
        p.move(to: Point(1, 0.66)); p.line(to: Point(1.35, 33.2)); p.line(to: Point(0.66, 33.2)); p.close()
        let gray = Color(r8: 0x29, g8: 0x29, b8: 0x29, a8: 0x29)
        c.stroke(p, style: StrokeStyle(width: 8.5), paint: .linearGradient(LinearGradient(
            start: Point(0.66, 0.66), end: Point(0.6875, 32.9), stops: [GradientStop(offset: 0, color: gray),
                                                                       GradientStop(offset: 0.16, color: gray)])))
        for y in 0..<48 {
            for x in 0..<63 {
                let px = c.pixmap.pixel(x, y)
                XCTAssertTrue(px.r <= px.a && px.a <= 0x29, "(\(x), \(y)): \(px)")
            }
        }
    }

    /// Found by the 4K load test (scripts/bench --load), not the fuzzer: ending an
    /// opacity layer copied the whole canvas (copy-on-write, because the popped layer
    /// still referenced the pixels below while they were written), 33 MB per layer at
    /// 4K. The canvas must composite into the same storage it had before the layer.
    func testEndingALayerCompositesInPlace() {
        let c = Canvas(width: 64, height: 48, background: .white)
        func storage() -> UnsafeRawPointer? { c.pixmap.data.withUnsafeBytes { $0.baseAddress } }
        let before = storage()
        c.beginLayer(opacity: 0.5)
        c.fill(.rect(Rect(x: 8, y: 8, width: 16, height: 16)), paint: .solid(.black))
        c.endLayer()
        XCTAssertEqual(storage(), before)
        XCTAssertEqual(c.pixmap.pixel(12, 12), PremultipliedRGBA8(r: 127, g: 127, b: 127, a: 255))
        XCTAssertEqual(c.pixmap.pixel(40, 40), PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
    }

    /// Fuzz/corpus/raster/crash-nan-slope-in-band: under a transform with 1e308 entries an
    /// edge's x and y spans both overflow, and its x at a band's top row came out
    /// ∞·0 = NaN, which trapped converting to a column. Found once shapes that would make
    /// many cells were swept in bands (each band asks for x at its first row).
    func testEdgeWithOverflowingSpansInABand() {
        let c = Canvas(width: 42, height: 42, background: .white)
        c.concatenate(Transform(a: 5.5, b: 1e308, c: 37, d: 1.7976931348623157e+308, tx: -19.28125, ty: 72.71875))
        let pill = Path.roundedRect(Rect(x: -13.87109375, y: -0.19140625, width: 14.53125, height: 1.53125), cornerRadius: 0.765625)
        c.fill(pill, paint: .solid(.black))
        c.fill(.rect(Rect(x: -13.87, y: -0.19, width: 14.5, height: 1.5)), paint: .solid(.black))
        XCTAssertTrue(stride(from: 0, to: c.pixmap.data.count, by: 4).allSatisfy { c.pixmap.data[$0 + 3] == 255 })
        // The same edges swept in one band and in many give the same pixels.
        let saved = Rasterizer.bandCells
        defer { Rasterizer.bandCells = saved }
        let one = c.pixmap
        Rasterizer.bandCells = 1
        let again = Canvas(width: 42, height: 42, background: .white)
        again.concatenate(Transform(a: 5.5, b: 1e308, c: 37, d: 1.7976931348623157e+308, tx: -19.28125, ty: 72.71875))
        again.fill(pill, paint: .solid(.black))
        again.fill(.rect(Rect(x: -13.87, y: -0.19, width: 14.5, height: 1.5)), paint: .solid(.black))
        XCTAssertEqual(again.pixmap, one)
    }

    /// Fuzz/corpus/raster/slow-dashed-ellipse-off-canvas: a 91,000 px ellipse dashed every
    /// 0.125 px (728,000 dashes) over a 4×41 canvas. Its cell estimate counted the whole
    /// outline, so it was swept in 22 bands, each walking 2.9 million edges (14 s under
    /// the sanitizers). Clipped away, it makes almost no cells and takes one band; a
    /// visible shape of the same size still takes several, and at most 64.
    func testClippedGeometryIsNotBanded() {
        let c = Canvas(width: 4, height: 41, background: .white)
        let ellipse = Path.ellipse(in: Rect(x: 54, y: 1.27, width: 20_000, height: 37))
        c.stroke(ellipse, style: StrokeStyle(width: 2.8, cap: .square, dash: [0.125]), paint: .solid(.black))
        XCTAssertTrue(c.pixmap.data.allSatisfy { $0 == 255 }, "nothing of it is on the canvas")
        // Wholly outside the canvas, the stroke is not even built; half inside, it is
        // drawn in one band: its clipped part makes few cells.
        c.stroke(.ellipse(in: Rect(x: 2, y: 1.27, width: 20_000, height: 37)), style: StrokeStyle(width: 2.8, cap: .square, dash: [0.125]),
                 paint: .solid(.black))
        XCTAssertEqual(c.rasterizer.lastBandCount, 1)
        XCTAssertTrue(c.pixmap.data.contains { $0 != 255 })
        // The Double walk's bands (the fixed-point grid would take this box whole).
        let saved = Rasterizer.bandCells, savedGrid = Rasterizer.fixedGrid
        defer { Rasterizer.bandCells = saved; Rasterizer.fixedGrid = savedGrid }
        Rasterizer.bandCells = 10
        Rasterizer.fixedGrid = false
        let v = Canvas(width: 200, height: 200, background: .white)
        v.stroke(.ellipse(in: Rect(x: 10, y: 10, width: 180, height: 180)), style: StrokeStyle(width: 2), paint: .solid(.black))
        XCTAssertGreaterThan(v.rasterizer.lastBandCount, 1)
        XCTAssertLessThanOrEqual(v.rasterizer.lastBandCount, 64)
    }
}
