import XCTest
import Geometry
@testable import Raster

final class RasterizerTests: XCTestCase {
    /// Total coverage in pixels: the sum of alpha over the canvas for opaque white paint.
    func coverage(_ c: Canvas) -> Double {
        var s = 0
        for i in stride(from: 3, to: c.pixmap.data.count, by: 4) { s += Int(c.pixmap.data[i]) }
        return Double(s) / 255
    }

    func testFractionalRectangleCoverageEqualsArea() {
        let c = Canvas(width: 64, height: 64)
        let r = Rect(x: 10.3, y: 7.71, width: 33.45, height: 20.17)
        c.fill(.rect(r), paint: .solid(.white))
        XCTAssertEqual(coverage(c), r.width * r.height, accuracy: r.width * r.height * 0.005)
    }

    func testCircleCoverageEqualsArea() {
        let c = Canvas(width: 100, height: 100)
        c.fill(.circle(center: Point(50.3, 49.6), radius: 31.7), paint: .solid(.white))
        let area = Double.pi * 31.7 * 31.7
        XCTAssertEqual(coverage(c), area, accuracy: area * 0.005)
    }

    /// 150 bars in one path put 300 cells in every row, so the sweep accumulates those
    /// rows densely instead of sorting them; the same bars filled one at a time (two
    /// cells a row, the sparse path) must give the very same bytes, and each column the
    /// analytic share of its pixel the bars cover.
    func testDenseRowsGiveTheSameBytesAsSparseRowsAndTheExactArea() {
        var bars = Path()
        var separate: [Path] = []
        for i in 0..<150 {
            let r = Rect(x: 4 * Double(i) + 0.3 + 0.01 * Double(i % 7), y: 2.25, width: 2.3, height: 20.5)
            bars.append(contentsOf: .rect(r))
            separate.append(.rect(r))
        }
        XCTAssertGreaterThan(300, Rasterizer.denseRowCells)
        // The Double walk's dense rows (a plain fill of many bars takes the fixed-point grid).
        let savedGrid = Rasterizer.fixedGrid
        Rasterizer.fixedGrid = false
        defer { Rasterizer.fixedGrid = savedGrid }
        let dense = Canvas(width: 610, height: 25), sparse = Canvas(width: 610, height: 25)
        dense.fill(bars, paint: .solid(.white))
        for p in separate { sparse.fill(p, paint: .solid(.white)) }
        XCTAssertEqual(dense.pixmap, sparse.pixmap)
        for i in [0, 7, 77, 149] {
            let x0 = 4 * Double(i) + 0.3 + 0.01 * Double(i % 7)
            let col = Int(x0.rounded(.down))
            XCTAssertEqual(Double(dense.pixmap.pixel(col, 10).a), (Double(col + 1) - x0) * 255, accuracy: 0.5)
            XCTAssertEqual(dense.pixmap.pixel(col + 1, 10).a, 255)
            XCTAssertEqual(Double(dense.pixmap.pixel(col, 2).a), (Double(col + 1) - x0) * 0.75 * 255, accuracy: 0.5)
        }
    }

    /// An axis-aligned rectangle skips the cells (`sweepRect`); a rectangle whose corner
    /// is nudged by 10⁻⁹ px goes through them. Over many fractional rectangles, clipped and
    /// not, with opacity, the two agree within one level and each equals the product of
    /// the overlaps within half a level.
    func testRectangleFastPathMatchesTheCellsAndTheExactArea() {
        var seed: UInt64 = 12345
        func rnd() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / Double(1 << 53) }
        var worst = 0
        for k in 0..<300 {
            let x0 = rnd() * 40 - 5, y0 = rnd() * 40 - 5
            let w = k % 10 == 0 ? rnd() * 0.9 : rnd() * 30, h = k % 7 == 0 ? rnd() * 0.9 : rnd() * 30
            let opacity = k % 3 == 0 ? 0.6 : 1
            let fast = Canvas(width: 40, height: 40), slow = Canvas(width: 40, height: 40)
            if k % 4 == 0 { fast.clip(to: Rect(x: 3, y: 2, width: 30, height: 33)); slow.clip(to: Rect(x: 3, y: 2, width: 30, height: 33)) }
            let r = Rect(x: x0, y: y0, width: w, height: h)
            fast.fill(.rect(r), paint: .solid(.white), opacity: opacity)
            var nudged = Path()
            nudged.move(to: Point(x0, y0)); nudged.line(to: Point(x0 + w, y0)); nudged.line(to: Point(x0 + w, y0 + h))
            nudged.line(to: Point(x0 + 1e-9, y0 + h)); nudged.close()
            slow.fill(nudged, paint: .solid(.white), opacity: opacity)
            let clip = k % 4 == 0 ? (3.0, 2.0, 33.0, 35.0) : (0.0, 0.0, 40.0, 40.0)
            for y in 0..<40 {
                for x in 0..<40 {
                    let a = Int(fast.pixmap.pixel(x, y).a), b = Int(slow.pixmap.pixel(x, y).a)
                    worst = max(worst, abs(a - b))
                    let fx = max(0, min(Double(x + 1), x0 + w, clip.2) - max(Double(x), x0, clip.0))
                    let fy = max(0, min(Double(y + 1), y0 + h, clip.3) - max(Double(y), y0, clip.1))
                    XCTAssertEqual(Double(a), fx * fy * 255 * opacity, accuracy: 0.5 + 1e-9, "rect \(k) at \(x), \(y)")
                }
            }
        }
        XCTAssertLessThanOrEqual(worst, 1)
    }

    func testEdgeAtQuarterPixelCoversThreeQuarters() {
        let c = Canvas(width: 30, height: 10)
        c.fill(.rect(Rect(x: 10.25, y: 0, width: 10, height: 10)), paint: .solid(.white))
        for y in 0..<10 {
            XCTAssertEqual(Double(c.pixmap.pixel(10, y).a) / 255, 0.75, accuracy: 1.0 / 255)
            XCTAssertEqual(c.pixmap.pixel(11, y).a, 255)
            XCTAssertEqual(c.pixmap.pixel(9, y).a, 0)
            XCTAssertEqual(Double(c.pixmap.pixel(20, y).a) / 255, 0.25, accuracy: 1.0 / 255)
        }
    }

    func testEvenOddAndNonZeroDifferOnlyInsideTheStarsCore() {
        // A pentagram: its centre pentagon has winding 2.
        var star = Path()
        for i in 0..<5 {
            let a = -Double.pi / 2 + Double(i) * 4 * .pi / 5
            let p = Point(50 + 45 * cos(a), 50 + 45 * sin(a))
            if i == 0 { star.move(to: p) } else { star.line(to: p) }
        }
        star.close()
        let nz = Canvas(width: 100, height: 100), eo = Canvas(width: 100, height: 100)
        nz.fill(star, paint: .solid(.white), rule: .nonZero)
        eo.fill(star, paint: .solid(.white), rule: .evenOdd)
        XCTAssertEqual(nz.pixmap.pixel(50, 52).a, 255)
        XCTAssertEqual(eo.pixmap.pixel(50, 52).a, 0)
        // Outside the core (a point of the star) the rules agree.
        XCTAssertEqual(nz.pixmap.pixel(50, 10).a, 255)
        XCTAssertEqual(eo.pixmap.pixel(50, 10).a, 255)
        // They differ exactly on the core pentagon: its area is known in closed form.
        var diff = 0
        for i in stride(from: 3, to: nz.pixmap.data.count, by: 4) { diff += Int(nz.pixmap.data[i]) - Int(eo.pixmap.data[i]) }
        // Inner pentagon circumradius r = R·cos(72°)/cos(36°); area = 5/2·r²·sin(72°).
        let r = 45 * cos(0.4 * .pi) / cos(0.2 * .pi)
        let core = 2.5 * r * r * sin(0.4 * .pi)
        XCTAssertEqual(Double(diff) / 255, core, accuracy: core * 0.01)
    }

    func testThinDiagonalLineTouchesOnlyCellsNearIt() {
        let r = Rasterizer()
        r.reset(clipX: 0, clipY: 0, clipWidth: 4000, clipHeight: 4000)
        let outline = Stroker.stroke([Polyline(points: [Point(0, 0), Point(3999, 3999)], closed: false)],
                                     style: StrokeStyle(width: 1))
        r.add(outline)
        var pixels = 0
        r.sweep(rule: .nonZero) { _, spans in for s in spans { pixels += Int(s.length) } }
        // A 1 px diagonal of length ~5656 touches about 3 pixels per row, not the 16M of its box.
        XCTAssertLessThan(pixels, 4000 * 4)
        XCTAssertLessThan(r.cells.count, 4000 * 6)
    }

    func testDegenerateInputNeverCrashes() {
        let c = Canvas(width: 50, height: 50)
        var p = Path()
        p.move(to: Point(.nan, .nan)); p.line(to: Point(10, 10)); p.line(to: Point(.infinity, 3))
        p.move(to: Point(-1e30, -1e30)); p.line(to: Point(1e30, 1e30)); p.line(to: Point(-1e30, 1e30)); p.close()
        c.fill(p, paint: .solid(.black))
        c.stroke(p, style: StrokeStyle(width: 3, cap: .round, join: .round), paint: .solid(.black))
        c.fill(Path(), paint: .solid(.black))
        c.stroke(p, style: StrokeStyle(width: 0), paint: .solid(.black))
        // A large (but representable) triangle is clipped exactly: it covers the lower-left half.
        let big = Canvas(width: 50, height: 50)
        var t = Path()
        t.move(to: Point(-1e6, -1e6)); t.line(to: Point(1e6, 1e6)); t.line(to: Point(-1e6, 1e6)); t.close()
        big.fill(t, paint: .solid(.black))
        XCTAssertEqual(big.pixmap.pixel(5, 40).a, 255)
        XCTAssertEqual(big.pixmap.pixel(40, 5).a, 0)
        XCTAssertEqual(Int(big.pixmap.pixel(20, 20).a), 128, accuracy: 1)
    }

    func testSourceOverMatchesTheFormula() {
        let c = Canvas(width: 4, height: 4, background: .white)
        let red = Color(r: 1, g: 0, b: 0, a: 0.5)
        c.fill(.rect(Rect(x: 0, y: 0, width: 4, height: 4)), paint: .solid(red))
        let p = c.pixmap.pixel(1, 1)
        // 0.5 red over white: R = 128 + 255·127/255, G = B = 127.
        XCTAssertEqual(p.r, 255); XCTAssertEqual(p.g, 127); XCTAssertEqual(p.b, 127); XCTAssertEqual(p.a, 255)
    }

    func testPackedScaleEqualsDiv255ForAllInputs() {
        for c in 0...255 {
            for a in 0...255 {
                let v = UInt32(c) | UInt32(c) << 8 | UInt32(c) << 16 | UInt32(c) << 24
                let s = scalePacked(v, UInt32(a))
                let e = div255(UInt32(c * a))
                XCTAssertEqual(s, e | e << 8 | e << 16 | e << 24)
                XCTAssertEqual(e, UInt32((Double(c * a) / 255).rounded()))
            }
        }
    }

    func testLinearGradientEndsAndMiddle() {
        let c = Canvas(width: 256, height: 1)
        let g = LinearGradient(start: Point(0, 0), end: Point(256, 0), colors: [.black, .white])
        c.fill(.rect(Rect(x: 0, y: 0, width: 256, height: 1)), paint: .linearGradient(g))
        XCTAssertEqual(c.pixmap.pixel(0, 0).r, 0, accuracy: 1)
        XCTAssertEqual(c.pixmap.pixel(255, 0).r, 255, accuracy: 1)
        XCTAssertEqual(Int(c.pixmap.pixel(128, 0).r), 128, accuracy: 2)
    }

    func testOpacityLayerFadesTheGroupAsOne() {
        let c = Canvas(width: 20, height: 20)
        c.beginLayer(opacity: 0.5)
        c.fill(.rect(Rect(x: 0, y: 0, width: 20, height: 20)), paint: .solid(.black))
        c.fill(.rect(Rect(x: 0, y: 0, width: 10, height: 20)), paint: .solid(.black))
        c.endLayer()
        // Overlapping shapes inside the layer do not double the alpha.
        XCTAssertEqual(c.pixmap.pixel(5, 5).a, 128)
        XCTAssertEqual(c.pixmap.pixel(15, 5).a, 128)
    }
}
