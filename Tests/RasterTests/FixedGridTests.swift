import CRasterKernels
import Geometry
import TestSupport
import XCTest
@testable import Raster

/// The fixed-point grid (Rasterizer+FixedGrid.swift, CRasterKernels/fixedcells.c): plain
/// non-zero fills and strokes of a bounded box, with vertices rounded to 1/256 px and
/// integer sums.
final class FixedGridTests: XCTestCase {
    private var savedGrid = Rasterizer.fixedGrid
    override func setUp() { super.setUp(); savedGrid = Rasterizer.fixedGrid; Rasterizer.fixedGrid = true }
    override func tearDown() { Rasterizer.fixedGrid = savedGrid; super.tearDown() }

    /// Draws with the grid on or off.
    private func draw(grid: Bool, width: Int = 96, height: Int = 80, _ body: (Canvas) -> Void) -> Pixmap {
        drawn(grid: grid, width: width, height: height, body).pixmap
    }

    /// Draws with the grid on or off, and says whether the last fill took the grid.
    private func drawn(grid: Bool, width: Int = 96, height: Int = 80, _ body: (Canvas) -> Void) -> (pixmap: Pixmap, tookGrid: Bool) {
        Rasterizer.fixedGrid = grid
        defer { Rasterizer.fixedGrid = true }
        let c = Canvas(width: width, height: height, background: .white)
        body(c)
        return (c.pixmap, c.rasterizer.lastFillWasFixedGrid)
    }

    /// `scene` drawn on a fresh canvas: its pixels and its dirty box (x0, y0, x1, y1), for
    /// the tests that draw one scene two ways and compare both.
    private func pixelsAndBox(width: Int, height: Int, background: Color, _ scene: (Canvas) -> Void) -> (Pixmap, [Int]) {
        let c = Canvas(width: width, height: height, background: background)
        scene(c)
        return (c.pixmap, [c.dirtyX0, c.dirtyY0, c.dirtyX1, c.dirtyY1])
    }

    /// Random closed shapes, wedges and strokes: every pixel within 2 levels of the Double
    /// walk (which is the exact area), and on average far closer.
    func testCoverageIsWithinTwoLevelsOfTheDoubleWalk() {
        var rng = SplitMix64(seed: 23)
        var worst = 0, sum = 0, count = 0
        for k in 0..<60 {
            var path = Path()
            let n = 3 + Int(rng.next() % 9)
            for i in 0..<n {
                let p = Point(4 + Double(rng.next() % 8800) / 100, 4 + Double(rng.next() % 7200) / 100)
                if i == 0 { path.move(to: p) } else { path.line(to: p) }
            }
            path.close()
            let stroke = StrokeStyle(width: 0.5 + Double(rng.next() % 60) / 10, cap: .round, join: .round)
            let color = Color(r: 0.1, g: 0.3, b: 0.8)
            let paint = { (c: Canvas) in
                if k % 2 == 0 {
                    c.fill(path, paint: .solid(color))   // non-zero, possibly self-intersecting
                } else {
                    c.stroke(path, style: stroke, paint: .solid(color))
                }
            }
            let (grid, tookGrid) = drawn(grid: true, paint), walk = draw(grid: false, paint)
            XCTAssertTrue(tookGrid, "shape \(k)")
            for i in 0..<grid.data.count {
                let d = abs(Int(grid.data[i]) - Int(walk.data[i]))
                worst = max(worst, d); sum += d; count += 1
            }
        }
        XCTAssertLessThanOrEqual(worst, 2)
        XCTAssertLessThan(Double(sum) / Double(count), 0.05)
    }

    /// Integer sums do not depend on the order the pieces arrive in: the same polygons in
    /// another order, or each starting at another vertex, give the same bytes.
    func testTheOrderOfPolygonsAndPointsDoesNotChangeTheBytes() {
        let a = [Point(10.3, 12.7), Point(70.1, 20.05), Point(40.9, 66.6)]
        let b = [Point(20.2, 8.1), Point(80.7, 50.3), Point(30.4, 70.9), Point(14.5, 40.25)]
        func shape(_ polys: [[Point]]) -> Path {
            var p = Path()
            for pts in polys {
                p.move(to: pts[0])
                for q in pts.dropFirst() { p.line(to: q) }
                p.close()
            }
            return p
        }
        let one = draw(grid: true) { $0.fill(shape([a, b]), paint: .solid(.black)) }
        let two = draw(grid: true) { $0.fill(shape([b, a]), paint: .solid(.black)) }
        let three = draw(grid: true) { $0.fill(shape([Array(b[2...]) + Array(b[..<2]), Array(a.dropFirst()) + [a[0]]]), paint: .solid(.black)) }
        XCTAssertEqual(one.data, two.data)
        XCTAssertEqual(one.data, three.data)
    }

    /// A point a hair left of a pixel boundary rounds onto it; its pieces still land in the
    /// grid (the grid once ended a column short, and the row's cover ran on to the canvas's
    /// right side: a bar of ink across the Cairo suite's donut).
    func testAPointRoundedOntoTheNextColumnLeavesNoInkToItsRight() {
        for right in [40.0 - 1e-4, 40.0 - 1.0 / 1024, 40.0 + 1e-4, 40.0] {
            let p = draw(grid: true, width: 80, height: 40) { c in
                var path = Path()
                path.move(to: Point(12.25, 5)); path.line(to: Point(right, 10.5))
                path.line(to: Point(right, 30.5)); path.line(to: Point(14, 33.75)); path.close()
                c.fill(path, paint: .solid(.black))
            }
            for y in 0..<40 { for x in 41..<80 {
                XCTAssertEqual(p.pixel(x, y).r, 255, "right \(right): (\(x), \(y))")
            } }
            XCTAssertLessThan(p.pixel(30, 20).r, 10)
        }
    }

    /// The exact area of a rotated square (the sum of its alpha), and full coverage inside.
    func testARotatedSquareCoversItsArea() {
        let c = Canvas(width: 64, height: 64)
        c.concatenate(Transform(a: 0.8, b: 0.6, c: -0.6, d: 0.8, tx: 32.37, ty: 6.21))
        c.fill(.rect(Rect(x: 0, y: 0, width: 30, height: 30)), paint: .solid(.white))
        XCTAssertTrue(c.rasterizer.lastFillWasFixedGrid)
        var alpha = 0.0
        for y in 0..<64 { for x in 0..<64 { alpha += Double(c.pixmap.pixel(x, y).a) } }
        XCTAssertEqual(alpha / 255, 900, accuracy: 0.5)
        XCTAssertEqual(c.pixmap.pixel(32, 30).a, 255)
    }

    /// Parts left of the clip run along its side and keep their winding; parts right of it
    /// and rows above and below draw nothing; points far beyond the canvas (1e300) draw
    /// the same as points just beyond it.
    func testClippedShapesMatchTheDoubleWalkAndFarPointsDrawNothingExtra() {
        var near = Path()
        near.move(to: Point(-30, -20)); near.line(to: Point(130, 30.3)); near.line(to: Point(20.6, 120)); near.close()
        let grid = draw(grid: true) { $0.fill(near, paint: .solid(.black)) }
        let walk = draw(grid: false) { $0.fill(near, paint: .solid(.black)) }
        for i in 0..<grid.data.count { XCTAssertLessThanOrEqual(abs(Int(grid.data[i]) - Int(walk.data[i])), 2) }
        var far = Path()
        far.move(to: Point(-1e300, 40)); far.line(to: Point(50.5, 10.25)); far.line(to: Point(50.5, 70.75)); far.close()
        let f = draw(grid: true) { $0.fill(far, paint: .solid(.black)) }
        // Left of x = 50.5 the shape covers rows 11…69 whole (its slanted sides are nearly flat).
        XCTAssertEqual(f.pixel(2, 40).r, 0)
        XCTAssertEqual(f.pixel(60, 40).r, 255)
        XCTAssertEqual(f.pixel(20, 5).r, 255)
    }

    /// Which shapes take the grid: not a single rectangle, not an even-odd fill, not a box
    /// beyond `fixedGridPixels` unless in bands; and a label's coverage-cached fill keeps the Double walk.
    func testWhichFillsTakeTheGrid() {
        let c = Canvas(width: 200, height: 200, background: .white)
        c.fill(.circle(center: Point(50, 50), radius: 20), paint: .solid(.black))
        XCTAssertTrue(c.rasterizer.lastFillWasFixedGrid)
        c.fill(.circle(center: Point(50, 50), radius: 20), paint: .solid(.black), rule: .evenOdd)
        XCTAssertFalse(c.rasterizer.lastFillWasFixedGrid)
        c.stroke(.circle(center: Point(100, 100), radius: 60), style: StrokeStyle(width: 2), paint: .solid(.black))
        XCTAssertTrue(c.rasterizer.lastFillWasFixedGrid)
        let saved = Rasterizer.fixedGridPixels
        defer { Rasterizer.fixedGridPixels = saved; Rasterizer.fixedGridBands = true }
        Rasterizer.fixedGridPixels = 1000
        c.stroke(.circle(center: Point(100, 100), radius: 60), style: StrokeStyle(width: 2), paint: .solid(.black))
        XCTAssertTrue(c.rasterizer.lastFillWasFixedGrid)   // in bands
        XCTAssertGreaterThan(c.rasterizer.lastBandCount, 1)
        Rasterizer.fixedGridBands = false
        c.stroke(.circle(center: Point(100, 100), radius: 60), style: StrokeStyle(width: 2), paint: .solid(.black))
        XCTAssertFalse(c.rasterizer.lastFillWasFixedGrid)
        Rasterizer.fixedGridBands = true
        Rasterizer.fixedGridPixels = saved
        c.fill(.circle(center: Point(50, 50), radius: 20), paint: .solid(.black), cache: CoverageCache())
        XCTAssertFalse(c.rasterizer.lastFillWasFixedGrid)
    }
}


extension FixedGridTests {
    /// A shape larger than the grid is swept in bands of rows, each walking every edge on
    /// its own rows: exactly the picture of the grid in one band (within 2 levels of the
    /// Double walk), nothing right of the shape (a row's covers still cancel), and more
    /// bands than the limit go to the Double walk.
    func testBandsOfRowsGiveTheOneBandPicture() {
        var path = Path()
        path.move(to: Point(5.5, 3.25))
        for i in 1...40 { path.line(to: Point(5.5 + Double(i) * 2.1, 3.25 + 70 * abs(sin(Double(i) * 0.7)))) }
        path.line(to: Point(89.5, 77.5)); path.close()
        let style = StrokeStyle(width: 1.5, cap: .round, join: .round)
        let one = drawn(grid: true) { $0.stroke(path, style: style, paint: .solid(.black)) }
        let saved = Rasterizer.fixedGridPixels
        defer { Rasterizer.fixedGridPixels = saved }
        Rasterizer.fixedGridPixels = 700   // bands of 7 or 8 rows
        var bandCount = 0
        let banded = draw(grid: true) { c in
            c.stroke(path, style: style, paint: .solid(.black))
            bandCount = c.rasterizer.lastBandCount
            XCTAssertTrue(c.rasterizer.lastFillWasFixedGrid)
        }
        XCTAssertGreaterThan(bandCount, 8)
        XCTAssertTrue(one.tookGrid)
        let walk = draw(grid: false) { $0.stroke(path, style: style, paint: .solid(.black)) }
        var worstWalk = 0
        for i in 0..<banded.data.count { worstWalk = max(worstWalk, abs(Int(banded.data[i]) - Int(walk.data[i]))) }
        XCTAssertTrue(banded.data == one.pixmap.data, "the bands changed the picture")
        XCTAssertLessThanOrEqual(worstWalk, 2)
        for y in 0..<80 { XCTAssertEqual(banded.pixel(95, y).r, 255, "row \(y)") }
        Rasterizer.fixedGridPixels = 40   // more than 16 bands
        let c = Canvas(width: 96, height: 80, background: .white)
        c.stroke(path, style: style, paint: .solid(.black))
        XCTAssertFalse(c.rasterizer.lastFillWasFixedGrid)
    }

    /// A solid or linear-gradient source-over fill on the grid is composited by the
    /// grid's sweep (`crk_grid_fill_row`): the same bytes and the same dirty box as its
    /// spans blitted in Swift, for opaque and translucent colours, vertical and slanted
    /// gradients in every spread, opacity below 1, clipped shapes, shapes in bands, and
    /// with the wide kernels on and off.
    func testSolidAndLinearFillsFromTheGridGiveTheBytesOfTheirSpans() {
        let savedSolid = Rasterizer.gridPaintFill, savedPixels = Rasterizer.fixedGridPixels
        defer { Rasterizer.gridPaintFill = savedSolid; Rasterizer.fixedGridPixels = savedPixels; crk_reset_wide() }
        var rng = SplitMix64(seed: 41)
        func scene(_ c: Canvas, _ seed: UInt64) {
            var r = SplitMix64(seed: seed)
            func v(_ m: Double) -> Double { Double(r.next() % 100_000) / 100_000 * m }
            for k in 0..<12 {
                var path = Path()
                let n = 3 + Int(r.next() % 8)
                for i in 0..<n {
                    let p = Point(v(130) - 15, v(110) - 15)
                    if i == 0 { path.move(to: p) } else if k % 3 == 0 { path.quad(to: p, control: Point(v(100), v(80))) } else { path.line(to: p) }
                }
                if k % 2 == 0 { path.close() }
                let color = Color(r: v(1), g: v(1), b: v(1), a: [1, 1, 0.5, v(1)][Int(r.next() % 4)])
                let opacity = [1, 1, 0.7, v(1)][Int(r.next() % 4)]
                // A solid colour, a vertical gradient (one colour a row) or a slanted one in
                // any spread.
                let stops = [GradientStop(offset: 0, color: color), GradientStop(offset: 1, color: Color(r: v(1), g: v(1), b: v(1), a: v(1)))]
                let paint: Paint
                switch r.next() % 3 {
                case 0: paint = .solid(color)
                case 1: paint = .linearGradient(LinearGradient(start: Point(40, v(80)), end: Point(40, v(80)), stops: stops))
                default:
                    paint = .linearGradient(LinearGradient(start: Point(v(96), v(80)), end: Point(v(96), v(80)), stops: stops,
                                                           spread: SpreadMode.allCases[Int(r.next() % 3)]))
                }
                if k % 4 == 1 {
                    c.save(); c.clip(to: Rect(x: 10, y: 7, width: 60, height: 50))
                }
                if k % 2 == 0 {
                    c.fill(path, paint: paint, opacity: opacity)
                } else {
                    c.stroke(path, style: StrokeStyle(width: 0.5 + v(6), cap: .round, join: .round), paint: paint, opacity: opacity)
                }
                if k % 4 == 1 { c.restore() }
            }
        }
        for round in 0..<60 {
            let seed = rng.next()
            crk_set_wide(Int32(round % 2 == 0 ? 7 : 0))
            Rasterizer.fixedGridPixels = round % 5 == 4 ? 900 : savedPixels
            var results: [(Pixmap, [Int])] = []
            for direct in [true, false] {
                Rasterizer.gridPaintFill = direct
                results.append(pixelsAndBox(width: 96, height: 80, background: round % 3 == 0 ? .clear : .white) {
                    scene($0, seed)
                })
            }
            XCTAssertTrue(results[0].0.data == results[1].0.data, "round \(round): the pixels differ")
            XCTAssertEqual(results[0].1, results[1].1, "round \(round): dirty box")
        }
        // A plain solid stroke takes this path: ink on the line, none off it, and the
        // dirty box from its first touched column (the butt end's lower corner reaches
        // just left of x = 2) and row.
        Rasterizer.gridPaintFill = true
        let c = Canvas(width: 40, height: 20, background: .white)
        var p = Path(); p.move(to: Point(2, 10)); p.line(to: Point(38, 12))
        c.stroke(p, style: StrokeStyle(width: 3), paint: .solid(.black))
        XCTAssertTrue(c.rasterizer.lastFillWasFixedGrid)
        XCTAssertLessThan(c.pixmap.pixel(20, 11).r, 10)
        XCTAssertEqual(c.pixmap.pixel(20, 2).r, 255)
        XCTAssertEqual([c.dirtyX0, c.dirtyY0], [1, 8])
    }

    /// Shapes whose sides run straight down for many rows (capsules, rounded and notched
    /// rectangles, two bars side by side, L shapes whose vertical edges end on other
    /// rows, sides on whole and fractional columns and rows, overlapping slanted shapes
    /// and strokes): drawing the rows that only vertical edges cross from the first of
    /// them (`gridRepeatedRows`) gives the bytes and the dirty box of sweeping every row,
    /// with the wide kernels and without, and the scenes do take that way.
    func testRowsOnlyVerticalEdgesCrossGiveTheBytesOfEveryRowSwept() {
        let savedRepeat = Rasterizer.gridRepeatedRows
        defer { Rasterizer.gridRepeatedRows = savedRepeat; crk_reset_wide() }
        var repeatedRows = 0
        func scene(_ c: Canvas, _ seed: UInt64) {
            var r = SplitMix64(seed: seed)
            func v(_ m: Double) -> Double { Double(r.next() % 100_000) / 100_000 * m }
            // Whole, half and arbitrary columns and rows.
            func q(_ m: Double) -> Double { [v(m).rounded(), (v(m) * 2).rounded() / 2, v(m)][Int(r.next() % 3)] }
            for k in 0..<10 {
                let x = q(100) - 8, y = q(60) - 6, w = 2 + q(30), h = 10 + q(70)
                var path: Path
                switch r.next() % 6 {
                case 0: path = .capsule(in: Rect(x: x, y: y, width: w, height: h))
                case 1: path = .roundedRect(Rect(x: x, y: y, width: w, height: h), cornerRadius: v(8))
                case 2:
                    // A notched rectangle: its right side in two vertical pieces.
                    path = Path()
                    path.move(to: Point(x, y)); path.line(to: Point(x + w, y)); path.line(to: Point(x + w, y + h / 3))
                    path.line(to: Point(x + w - v(5), y + h / 2)); path.line(to: Point(x + w, y + h / 2 + v(4)))
                    path.line(to: Point(x + w, y + h)); path.line(to: Point(x, y + h)); path.close()
                case 3:
                    // An L: vertical edges of different lengths.
                    path = Path()
                    path.move(to: Point(x, y)); path.line(to: Point(x + w / 2, y)); path.line(to: Point(x + w / 2, y + h / 2))
                    path.line(to: Point(x + w, y + h / 2)); path.line(to: Point(x + w, y + h)); path.line(to: Point(x, y + h))
                    path.close()
                case 4:
                    // Two bars side by side in one path, the second one's corners rounded.
                    path = .rect(Rect(x: x, y: y, width: w / 3, height: h))
                    path.append(contentsOf: .roundedRect(Rect(x: x + w / 2, y: y + v(5), width: w / 2, height: h - v(10)), cornerRadius: v(3)))
                default:
                    // A slanted quadrilateral: no vertical edge.
                    path = Path()
                    path.move(to: Point(x, y)); path.line(to: Point(x + w, y + v(10))); path.line(to: Point(x + w - v(6), y + h))
                    path.line(to: Point(x + v(4), y + h - v(8))); path.close()
                }
                let color = Color(r: v(1), g: v(1), b: v(1), a: [1, 1, 0.6, v(1)][Int(r.next() % 4)])
                let stops = [GradientStop(offset: 0, color: color), GradientStop(offset: 1, color: Color(r: v(1), g: v(1), b: v(1), a: v(1)))]
                let paint: Paint
                switch r.next() % 3 {
                case 0: paint = .solid(color)
                case 1: paint = .linearGradient(LinearGradient(start: Point(0, y), end: Point(0, y + h), stops: stops))
                default: paint = .linearGradient(LinearGradient(start: Point(x, 0), end: Point(x + w + v(20), v(30)), stops: stops,
                                                                spread: SpreadMode.allCases[Int(r.next() % 3)]))
                }
                let opacity = [1, 1, 0.8, v(1)][Int(r.next() % 4)]
                if k % 5 == 4 {
                    c.stroke(path, style: StrokeStyle(width: 1 + v(4)), paint: paint, opacity: opacity)
                } else {
                    c.fill(path, paint: paint, opacity: opacity)
                }
                repeatedRows += c.rasterizer.lastRepeatedRows
            }
        }
        var rng = SplitMix64(seed: 0x7e9ea7)
        for round in 0..<80 {
            let seed = rng.next()
            crk_set_wide(Int32(round % 2 == 0 ? 7 : 0))
            var results: [(Pixmap, [Int])] = []
            for repeated in [true, false] {
                Rasterizer.gridRepeatedRows = repeated
                results.append(pixelsAndBox(width: 120, height: 90, background: round % 3 == 0 ? .clear : .white) {
                    scene($0, seed)
                })
            }
            XCTAssertTrue(results[0].0.data == results[1].0.data, "round \(round): the pixels differ")
            XCTAssertEqual(results[0].1, results[1].1, "round \(round): dirty box")
        }
        XCTAssertGreaterThan(repeatedRows, 5_000, "the scenes draw rows from a first one")
    }

    /// Thin strokes and slivers with a slanted linear gradient, on a canvas wider than a
    /// few bitmap words and not a multiple of 16 wide: where the CPU has AVX-512 their
    /// rows are swept and composited in one pass, sixteen cells at a time
    /// (`crk_grid_linear_row`), with blocks that straddle words, start on a right
    /// neighbour's carried area, end at the canvas's or the clip's right side, at full
    /// opacity (the integer coverage) and below it. The bytes and the dirty box are those
    /// of the spans blitted in Swift, and of the scalar kernels.
    func testGradientRowsSweptAndCompositedInOnePassGiveTheBytesOfTheirSpans() {
        let savedSolid = Rasterizer.gridPaintFill
        defer { Rasterizer.gridPaintFill = savedSolid; crk_reset_wide() }
        func scene(_ c: Canvas, _ seed: UInt64) {
            var r = SplitMix64(seed: seed)
            func v(_ m: Double) -> Double { Double(r.next() % 100_000) / 100_000 * m }
            for k in 0..<10 {
                var path = Path()
                var p = Point(v(360) - 20, v(170) - 10)
                path.move(to: p)
                for _ in 0..<(2 + Int(r.next() % 6)) {
                    let q = Point(v(360) - 20, v(170) - 10)
                    path.cubic(to: q, control1: Point(p.x + v(200) - 100, p.y + v(40)), control2: Point(v(333), v(150)))
                    p = q
                }
                let stops = [GradientStop(offset: 0, color: Color(r: v(1), g: v(1), b: v(1), a: [1, v(1)][Int(r.next() % 2)])),
                             GradientStop(offset: 0.6, color: Color(r: v(1), g: v(1), b: v(1), a: 1)),
                             GradientStop(offset: 1, color: Color(r: v(1), g: v(1), b: v(1), a: v(1)))]
                let paint = Paint.linearGradient(LinearGradient(start: Point(v(333), v(150)), end: Point(v(333), v(150)),
                                                                stops: stops, spread: SpreadMode.allCases[Int(r.next() % 3)]))
                let opacity = [1, 1, 1, 0.35 + v(0.6)][Int(r.next() % 4)]
                let clipped = k % 3 == 2
                if clipped { c.save(); c.clip(to: Rect(x: v(60), y: v(40), width: 90 + v(200), height: 60 + v(80))) }
                if k % 4 == 3 {
                    // A sliver: a long thin shape whose rows have long partly covered runs.
                    var s = Path()
                    s.move(to: Point(-5, v(150))); s.line(to: Point(340, v(150))); s.line(to: Point(340, v(150) + 0.7))
                    s.close()
                    c.fill(s, paint: paint, opacity: opacity)
                } else {
                    c.stroke(path, style: StrokeStyle(width: 0.4 + v(4), cap: .round, join: .round), paint: paint, opacity: opacity)
                }
                if clipped { c.restore() }
            }
        }
        var rng = SplitMix64(seed: 2026_12_07)
        for round in 0..<24 {
            let seed = rng.next()
            var results: [(Pixmap, [Int])] = []
            for (direct, level) in [(true, Int32(7)), (false, Int32(7)), (true, Int32(0))] {
                crk_set_wide(level)
                Rasterizer.gridPaintFill = direct
                results.append(pixelsAndBox(width: 333, height: 150, background: round % 3 == 0 ? .clear : .white) {
                    scene($0, seed)
                })
            }
            XCTAssertTrue(results[0].0.data == results[1].0.data, "round \(round): one pass and the spans differ")
            XCTAssertTrue(results[0].0.data == results[2].0.data, "round \(round): one pass and the scalar sweep differ")
            XCTAssertEqual(results[0].1, results[1].1, "round \(round): dirty box")
            XCTAssertEqual(results[0].1, results[2].1, "round \(round): dirty box")
            XCTAssertGreaterThan(results[0].0.data.count, 0)
        }
    }

    /// `crk_grid_fill_row` with a linear gradient (on AVX-512 the one-pass row, elsewhere
    /// the sweep and the span kernel) against `crk_grid_sweep_row` followed by
    /// `crk_linear_spans`, and with a solid colour marked thin (the one-pass row) against
    /// the same row not marked (the sweep and `solid_run`), on random rows of cells: any sums (wrapping ones too), touched
    /// pixels anywhere including the last column, the spare column carrying area, a row
    /// whose running sum does not come back to zero and a clip whose right side lies
    /// beyond the grid's last cell (a case no shape builds today: the rest of the row is
    /// drawn at the last sum), full and partial opacity, every spread. Same pixels, same
    /// bounds, and the row's cells and bits left clear. Without AVX-512 both sides take
    /// the same path and this checks the sweep against itself.
    func testAOnePassRowGivesTheBytesOfItsSweptSpansOnAnyCells() {
        defer { crk_reset_wide() }
        crk_set_wide(7)
        var rng = SplitMix64(seed: 15)
        let n = 256
        var lut = [UInt32](repeating: 0, count: n + 2)
        for i in lut.indices {
            let a = UInt32(rng.below(256))
            let r = UInt32(rng.below(Int(a) + 1)), g = UInt32(rng.below(Int(a) + 1)), b = UInt32(rng.below(Int(a) + 1))
            lut[i] = a << 24 | b << 16 | g << 8 | r
        }
        var drawnRows = 0
        for round in 0..<4000 {
            let width = 1 + rng.below(round % 10 == 0 ? 700 : 90), words = (width + 63) / 64, stride = width + 1
            let rows = 3
            var cells = [Int32](repeating: 0, count: stride * rows)
            var bits = [UInt64](repeating: 0, count: words * rows)
            for r in 0..<rows {
                for _ in 0..<rng.below(12) {
                    // Touched pixels: a cluster, sometimes at the row's last column.
                    let col = rng.below(4) == 0 ? width - 1 - rng.below(min(width, 3)) : rng.below(width)
                    for k in 0..<(1 + rng.below(5)) where col + k < width {
                        bits[r * words + (col + k) / 64] |= 1 << UInt64((col + k) % 64)
                        // Any value, a wide one, or a multiple of a quarter pixel (sums of
                        // exactly half a pixel are where rounding to a byte is closest).
                        switch rng.below(6) {
                        case 0: cells[r * stride + col + k] &+= Int32(truncatingIfNeeded: rng.next())
                        case 1, 2: cells[r * stride + col + k] &+= Int32(rng.below(9) - 4) * 32768
                        default: cells[r * stride + col + k] &+= Int32(rng.below(300_000)) - 150_000
                        }
                        cells[r * stride + col + k + 1] &+= rng.below(2) == 0 ? Int32(rng.below(5) - 2) * 32768
                                                                                : Int32(rng.below(140_000)) - 70_000
                    }
                }
            }
            let originX = rng.below(40)
            let clipRight = originX + [width, width + 1, width + 1 + rng.below(40)][rng.below(3)]
            let scale = rng.below(2) == 0 ? 255 : Double(rng.below(25_501)) / 100   // 255 × opacity
            let rowPixels = originX + width + 64
            var pixels = [UInt32](repeating: 0, count: rowPixels * rows)
            for i in pixels.indices { pixels[i] = rng.pixel() }
            let q0 = Float(Double(rng.below(2000)) / 7 - 100), a = Float(Double(rng.below(4000)) / 1000 - 2)
            let spread = Int32(rng.below(3))
            // Every other round a solid colour (opaque in half of them): its one-pass row
            // (taken for a thin shape's rows) against its swept spans.
            let solid = round % 2 == 1
            let alpha = rng.below(2) == 0 ? 255 : UInt32(rng.below(256))
            let color = alpha << 24 | UInt32(rng.below(Int(alpha) + 1)) << 16 | UInt32(rng.below(Int(alpha) + 1)) << 8
                | UInt32(rng.below(Int(alpha) + 1))
            func run(_ onePass: Bool) -> ([UInt32], [Int32], [Int32], [UInt64], ptrdiff_t) {
                var c = cells, b = bits, px = pixels
                var bounds: [Int32] = [-7, -7]
                let r: ptrdiff_t = c.withUnsafeMutableBufferPointer { cp in
                    b.withUnsafeMutableBufferPointer { bp in
                        px.withUnsafeMutableBufferPointer { pp in
                            lut.withUnsafeBufferPointer { lp in
                                var g = crk_grid(cells: cp.baseAddress, bits: bp.baseAddress, width: Int32(width), height: Int32(rows),
                                                 words: Int32(words), min_row: 0, max_row: Int32(rows - 1), inside: 0,
                                                 origin_x: Double(originX), origin_y: 0, clip_left: Double(originX), clip_top: 0,
                                                 clip_right: Double(clipRight), clip_bottom: Double(rows), band_top: 0,
                                                 band_rows: Int32(rows), repeat_row: 0, repeat_end: 0)
                                var spans = [crk_span](repeating: crk_span(), count: width + 2)
                                if solid {
                                    var paint = crk_row_paint(kind: 0, color: color, lut: nil, n: 0, spread: 0, q0: 0, a: 0,
                                                              ahead: 2 * rowPixels, ahead_rows: 2, thin: onePass ? 1 : 0)
                                    return crk_grid_fill_row(&g, 0, scale, Int32(clipRight), pp.baseAddress, &paint, &spans, &bounds)
                                }
                                if onePass {
                                    var paint = crk_row_paint(kind: 1, color: 0, lut: lp.baseAddress, n: Int32(n), spread: spread,
                                                              q0: q0, a: a, ahead: 2 * rowPixels, ahead_rows: 2, thin: 0)
                                    return crk_grid_fill_row(&g, 0, scale, Int32(clipRight), pp.baseAddress, &paint, &spans, &bounds)
                                }
                                let count = crk_grid_sweep_row(&g, 0, scale, Int32(clipRight), &spans)
                                guard count > 0 else { return 0 }
                                crk_linear_spans(pp.baseAddress, spans, count, lp.baseAddress, Int32(n), spread, q0, a)
                                bounds = [spans[0].x, spans[count - 1].x + spans[count - 1].length]
                                return 1
                            }
                        }
                    }
                }
                return (px, bounds, c, b, r)
            }
            let one = run(true), swept = run(false)
            XCTAssertEqual(one.4, swept.4, "round \(round): drawn")
            XCTAssertTrue(one.0 == swept.0, "round \(round): pixels")
            if one.4 != 0 { XCTAssertEqual(one.1, swept.1, "round \(round): bounds"); drawnRows += 1 }
            XCTAssertTrue(one.2[0..<stride].allSatisfy { $0 == 0 }, "round \(round): cells left")
            XCTAssertTrue(one.3[0..<words].allSatisfy { $0 == 0 }, "round \(round): bits left")
            XCTAssertTrue(one.2[stride...] == swept.2[stride...] && one.3[words...] == swept.3[words...], "round \(round): rows below")
            if one.0 != swept.0 { break }
        }
        XCTAssertGreaterThan(drawnRows, 2000)
    }

    /// A long polyline drawn in bands is walked a chunk at a time, chunks outside the band
    /// skipped, and a short one outside the band is skipped whole: the same bytes as
    /// walking every edge in every band, for a stroke (many polylines), a filled random
    /// walk whose first and last points close it, and 300 dots in one path.
    func testChunkedPolylinesInBandsGiveTheBytesOfTheWholeWalk() {
        let savedPixels = Rasterizer.fixedGridPixels, savedChunk = Rasterizer.fixedGridChunk
        defer { Rasterizer.fixedGridPixels = savedPixels; Rasterizer.fixedGridChunk = savedChunk }
        var rng = SplitMix64(seed: 77)
        var line = Path()
        var y = 60.0
        for i in 0..<3000 {
            y = min(115, max(5, y + Double(Int(rng.next() % 2001) - 1000) / 400))
            let p = Point(2 + Double(i) * 0.0525, y)
            if i == 0 { line.move(to: p) } else { line.line(to: p) }
        }
        var filled = line
        filled.line(to: Point(160, 118)); filled.line(to: Point(2, 118)); filled.close()
        // Dots, each a polyline of its own, for the bands to skip whole.
        var dots = Path()
        for _ in 0..<300 {
            let c = Point(Double(rng.next() % 15_000) / 100 + 5, Double(rng.next() % 11_000) / 100 + 5)
            dots.append(contentsOf: .ellipse(in: Rect(x: c.x - 1.5, y: c.y - 1.5, width: 3, height: 3)))
        }
        Rasterizer.fixedGridPixels = 2_000   // bands of 12 rows
        defer { Rasterizer.fixedGridSkips = true }
        var pictures: [[UInt8]] = []
        for (chunk, skips) in [(64, true), (7, true), (64, false)] {
            Rasterizer.fixedGridChunk = chunk
            Rasterizer.fixedGridSkips = skips
            let c = Canvas(width: 164, height: 120, background: .white)
            c.fill(filled, paint: .solid(Color(r: 0.2, g: 0.5, b: 0.9, a: 0.5)))
            XCTAssertTrue(c.rasterizer.lastFillWasFixedGrid)
            XCTAssertGreaterThan(c.rasterizer.lastBandCount, 5)
            c.stroke(line, style: StrokeStyle(width: 2, cap: .round, join: .round), paint: .solid(.black))
            XCTAssertTrue(c.rasterizer.lastFillWasFixedGrid)
            // Clipped left and right: chunks across the clip's sides are clipped edge by edge.
            c.save()
            c.clip(to: Rect(x: 40, y: 0, width: 80, height: 120))
            c.stroke(line, style: StrokeStyle(width: 5, cap: .round, join: .round), paint: .solid(Color(r: 1, g: 0, b: 0, a: 0.6)))
            XCTAssertTrue(c.rasterizer.lastFillWasFixedGrid)
            c.restore()
            c.fill(dots, paint: .solid(Color(r: 0, g: 0.6, b: 0, a: 0.8)))
            XCTAssertTrue(c.rasterizer.lastFillWasFixedGrid)
            XCTAssertGreaterThan(c.rasterizer.lastBandCount, 5)
            pictures.append(c.pixmap.data)
        }
        XCTAssertTrue(pictures[0] == pictures[2], "chunks of 64 changed the picture")
        XCTAssertTrue(pictures[1] == pictures[2], "chunks of 7 changed the picture")
        XCTAssertTrue(pictures[2].contains(where: { $0 == 153 || $0 == 0 }))
        XCTAssertTrue(pictures[2].contains(0), "the stroke drew black ink")
    }

    /// At full opacity the sweep turns a running sum into a coverage byte in integers
    /// ((min(|v|, 131072)·255 + 65536) >> 17); at any other opacity in doubles
    /// (`grid_alpha`). The integers must give the double formula's byte for every sum: each
    /// sum from −2¹⁸ to 2¹⁸ (a whole pixel is 131,072, so both clamped sides), the int32
    /// extremes and 20,000 seeded random ones, as the coverage of a touched pixel whose
    /// right neighbour brings the sum back to zero.
    func testTheSweepsIntegerCoverageAtFullOpacityIsTheDoubleFormulasByte() {
        func expected(_ v: Int32) -> UInt8 {
            var a = abs(Double(v)) * (1.0 / 131072.0)
            if a > 1 { a = 1 }
            let t = a * 255
            return UInt8(t + 0.5)
        }
        var sums = Array(Int32(-262_144)...Int32(262_144)) + [Int32.min, Int32.min + 1, Int32.max, Int32.max - 1]
        var rng = SplitMix64(seed: 23)
        for _ in 0..<20_000 { sums.append(Int32(truncatingIfNeeded: rng.next())) }
        var cells = [Int32](repeating: 0, count: 3), bits = [UInt64](repeating: 0, count: 1)
        var spans = [crk_span](repeating: crk_span(), count: 4)
        var wrong = 0
        cells.withUnsafeMutableBufferPointer { cp in
            bits.withUnsafeMutableBufferPointer { bp in
                var g = crk_grid(cells: cp.baseAddress, bits: bp.baseAddress, width: 2, height: 1, words: 1, min_row: 0,
                                 max_row: 0, inside: 0, origin_x: 0, origin_y: 0, clip_left: 0, clip_top: 0, clip_right: 2,
                                 clip_bottom: 1, band_top: 0, band_rows: 1, repeat_row: 0, repeat_end: 0)
                for v in sums {
                    cp[0] = v; cp[1] = 0 &- v; cp[2] = 0
                    bp[0] = 1
                    let count = crk_grid_sweep_row(&g, 0, 255, 2, &spans)
                    let got: UInt8 = count > 0 && spans[0].x == 0 && spans[0].length == 1 ? spans[0].alpha : 0
                    if got != expected(v) || count > 1 {
                        wrong += 1
                        if wrong <= 5 { XCTFail("sum \(v): coverage \(got) in \(count) spans, expected \(expected(v))") }
                    }
                }
                XCTAssertTrue(cp.allSatisfy { $0 == 0 } && bp[0] == 0, "the row's cells and bits are left clear")
            }
        }
        XCTAssertEqual(wrong, 0)
    }
}

extension FixedGridTests {
    /// The walk steps each edge's row ends and column crossings with a carried remainder
    /// (`ddx_step`): the cells and bits it leaves are exactly those of one division per
    /// row and per column, for random polygons of steep, shallow, long, short, vertical
    /// and horizontal edges in both directions (the reference below divides, as the walk
    /// did before 2026-12-07), in one band or in bands of rows of any height, clipped
    /// (`device_edge`) or not.
    func testSteppedWalkLeavesTheCellsOfOneDivisionPerRowAndColumn() {
        let width = 300, height = 200, words = (width + 63) >> 6
        var cells = [Int32](repeating: 0, count: (width + 1) * height)
        var bits = [UInt64](repeating: 0, count: words * height)
        var rng = SplitMix64(seed: 99)
        for round in 0..<300 {
            var xy: [Double] = []
            let n = 3 + Int(rng.next() % 40)
            for _ in 0..<n {
                let r = rng.next() % 8
                // Corners, whole and half pixels, 1/256 steps and arbitrary positions.
                var x = Double(rng.next() % 29_900) / 100, y = Double(rng.next() % 19_900) / 100
                if r == 0, let last = xy.dropLast().last { x = last }                        // vertical
                if r == 1, let last = xy.last { y = last }                                    // horizontal
                if r == 2 { x = x.rounded(); y = y.rounded() }
                if r == 3 { x = Double(Int(x * 256)) / 256; y = Double(Int(y * 256)) / 256 + 0.5 / 256 }
                xy += [x, y]
            }
            var want = [UInt32](repeating: 0, count: cells.count), wantBits = [UInt64](repeating: 0, count: bits.count)
            Self.referenceWalk(xy, width: width, words: words, &want, &wantBits)
            // The whole box in one band, then in bands of 1 to 60 rows, each band's cells
            // held at the start of the buffer: every band leaves exactly the whole walk's
            // cells and bits of its rows, and reports the rows it touched.
            let bandRows = round == 0 ? height : [height, 1 + Int(rng.next() % 60), 1 + Int(rng.next() % 5)][round % 3]
            var got = [UInt32](), gotBits = [UInt64]()
            for bandTop in stride(from: 0, to: height, by: bandRows) {
                let rows = min(bandRows, height - bandTop)
                var touched: (Int32, Int32) = (0, 0)
                cells.withUnsafeMutableBufferPointer { c in
                    bits.withUnsafeMutableBufferPointer { b in
                        var g = crk_grid(cells: c.baseAddress!, bits: b.baseAddress!, width: Int32(width), height: Int32(height),
                                         words: Int32(words), min_row: Int32.max, max_row: -1, inside: round % 2 == 0 ? 1 : 0,
                                         origin_x: 0, origin_y: 0, clip_left: 0, clip_top: 0, clip_right: Double(width),
                                         clip_bottom: Double(height), band_top: Int32(bandTop), band_rows: Int32(rows), repeat_row: 0, repeat_end: 0)
                        xy.withUnsafeBufferPointer { crk_grid_polyline(&g, $0.baseAddress!, n) }
                        touched = (g.min_row, g.max_row)
                    }
                }
                got += cells[0..<(rows * (width + 1))].map { UInt32(bitPattern: $0) }
                gotBits += bits[0..<(rows * words)]
                let marked = (0..<rows).filter { r in (0..<words).contains { wantBits[(bandTop + r) * words + $0] != 0 } }
                if let first = marked.first, let last = marked.last {
                    XCTAssertTrue(Int(touched.0) <= first && Int(touched.1) >= last, "round \(round): rows \(touched) touched")
                }
                for i in cells.indices { cells[i] = 0 }
                for i in bits.indices { bits[i] = 0 }
            }
            XCTAssertTrue(got == want, "round \(round), bands of \(bandRows): cells differ")
            XCTAssertTrue(gotBits == wantBits, "round \(round), bands of \(bandRows): bits differ")
            XCTAssertTrue(want.contains { $0 != 0 })
        }
    }

    /// fixedcells.c's walk with a division for every row end and column crossing.
    static func referenceWalk(_ xy: [Double], width: Int, words: Int, _ cells: inout [UInt32], _ bits: inout [UInt64]) {
        func fixed(_ v: Double) -> Int64 { Int64(v >= 0 ? v * 256 + 0.5 : v * 256 - 0.5) }
        func deposit(_ row: Int64, _ col: Int64, _ cover: Int64, _ area: Int64) {
            guard col >= 0 && col < width else { return }
            let p = Int(row) * (width + 1) + Int(col)
            cells[p] = cells[p] &+ UInt32(truncatingIfNeeded: (cover << 9) - area)
            cells[p + 1] = cells[p + 1] &+ UInt32(truncatingIfNeeded: area)
            bits[Int(row) * words + Int(col >> 6)] |= 1 << UInt64(col & 63)
        }
        func piece(_ row: Int64, _ xa: Int64, _ fya: Int64, _ xb: Int64, _ fyb: Int64, _ sign: Int64) {
            let ca = xa >> 8, cb = xb >> 8, dy = fyb - fya
            if ca == cb { deposit(row, ca, sign * dy, sign * dy * ((xa - (ca << 8)) + (xb - (cb << 8)))); return }
            var x = xa, y = fya
            if xa < xb {
                for c in ca..<cb {
                    let xn = (c + 1) << 8, yn = fya + (dy * (xn - xa)) / (xb - xa), d = yn - y
                    deposit(row, c, sign * d, sign * d * ((x - (c << 8)) + 256)); x = xn; y = yn
                }
                deposit(row, cb, sign * (fyb - y), sign * (fyb - y) * (xb - (cb << 8)))
            } else {
                for c in stride(from: ca, to: cb, by: -1) {
                    let xn = c << 8, yn = fya + (dy * (xa - xn)) / (xa - xb), d = yn - y
                    deposit(row, c, sign * d, sign * d * (x - (c << 8))); x = xn; y = yn
                }
                deposit(row, cb, sign * (fyb - y), sign * (fyb - y) * (256 + (xb - (cb << 8))))
            }
        }
        let n = xy.count / 2
        for i in 0..<n {
            let j = (i + n - 1) % n
            var x0 = fixed(xy[2 * j]), y0 = fixed(xy[2 * j + 1]), x1 = fixed(xy[2 * i]), y1 = fixed(xy[2 * i + 1])
            if y0 == y1 { continue }
            var sign: Int64 = 1
            if y0 > y1 { swap(&x0, &x1); swap(&y0, &y1); sign = -1 }
            let r0 = y0 >> 8, r1 = (y1 - 1) >> 8
            var x = x0, y = y0
            for r in r0...r1 {
                // Swift's / truncates toward zero, as C's does.
                let yn = r == r1 ? y1 : (r + 1) << 8, xn = r == r1 ? x1 : x0 + ((x1 - x0) * (yn - y0)) / (y1 - y0)
                piece(r, x, y - (r << 8), xn, yn - (r << 8), sign)
                x = xn; y = yn
            }
        }
    }
}
