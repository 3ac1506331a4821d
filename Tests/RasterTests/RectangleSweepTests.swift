import XCTest
import Geometry
import TestSupport
@testable import Raster

/// Several axis-aligned rectangles in one non-zero fill are swept without cells
/// (Rasterizer+Rectangles.swift); the spans must be those of the cell path.
final class RectangleSweepTests: XCTestCase {
    /// Each row's spans, from a sweep that hands over runs of rows.
    func rows(_ sweep: ((Int, Int, UnsafeBufferPointer<Span>) -> Void) -> Void) -> [Int: [Span]] { sweptRows(sweep) }

    /// The rectangle's four points from corner `start`, either way round.
    func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, start: Int, reversed: Bool) -> Polyline {
        var p = [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)]
        if reversed { p.reverse() }
        p = Array(p[start...] + p[..<start])
        return Polyline(points: p, closed: true)
    }

    func testRandomRectanglesGiveTheSpansOfTheCells() {
        var rng = SplitMix64(seed: 23)
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        // Coordinates that land on pixel edges, on centres, anywhere, and pairs within one
        // pixel (hairlines narrower than a pixel, edges sharing a column).
        func coordinate(_ limit: Double) -> Double {
            switch pick(4) {
            case 0: return Double(pick(Int(limit) + 1))
            case 1: return Double(pick(Int(limit))) + 0.5
            case 2: return Double(pick(Int(limit) * 64)) / 64
            default: return rng.uniform() * limit
            }
        }
        var fast = 0, fallback = 0, threeInAPixel = 0
        let r = Rasterizer()
        for trial in 0..<20_000 {
            let clip = trial % 3 == 0 ? (x: 3, y: 2, w: 29, h: 17) : (x: 0, y: 0, w: 40, h: 30)
            var polylines: [Polyline] = []
            let count = trial % 500 == 0 ? Rasterizer.rectangleSweepLimit + 1 : 2 + pick(7)
            for _ in 0..<count {
                var x0 = coordinate(40), y0 = coordinate(30)
                var x1 = pick(3) == 0 ? x0 + rng.uniform() * 0.9 : coordinate(40)
                var y1 = pick(3) == 0 ? y0 + rng.uniform() * 0.9 : coordinate(30)
                if x1 < x0 { swap(&x0, &x1) }
                if y1 < y0 { swap(&y0, &y1) }
                if x1 == x0 { x1 += 0.25 }
                if y1 == y0 { y1 += 0.25 }
                polylines.append(rectangle(x0, y0, x1, y1, start: pick(4), reversed: pick(2) == 0))
            }
            let opacity = [1, 0.37, 1.5, 0.999][pick(4)]
            let swept = rows { body in
                r.fillBanded(polylines, clipX: clip.x, clipY: clip.y, clipWidth: clip.w, clipHeight: clip.h,
                             rule: .nonZero, opacity: opacity, body)
            }
            if r.lastSweptAsRectangles { fast += 1 } else { fallback += 1 }
            let tookFastPath = r.lastSweptAsRectangles
            let cells = rows { body in
                r.reset(clipX: clip.x, clipY: clip.y, clipWidth: clip.w, clipHeight: clip.h)
                r.add(polylines)
                r.sweepRuns(rule: .nonZero, opacity: opacity, body)
            }
            if !tookFastPath && count <= Rasterizer.rectangleSweepLimit
                && polylines.allSatisfy({ p in p.points.allSatisfy { $0.x >= Double(clip.x) && $0.x <= Double(clip.x + clip.w)
                    && $0.y >= Double(clip.y) && $0.y <= Double(clip.y + clip.h) } }) {
                threeInAPixel += 1
            }
            XCTAssertEqual(swept, cells, "trial \(trial): \(polylines.map(\.points))")
            if swept != cells { return }
        }
        // Both paths were exercised, and the fallback for three edges in one pixel too.
        XCTAssertGreaterThan(fast, 5_000)
        XCTAssertGreaterThan(fallback, 1_000)
        XCTAssertGreaterThan(threeInAPixel, 100)
    }

    /// A chart's grid, butt-capped segments stroked as one path (as Charts draws it),
    /// takes this sweep on a canvas, and its spans are those of the cells.
    func testAGridStrokeTakesTheRectangleSweep() {
        var grid = Path()
        for k in 0..<9 { grid.move(to: Point(40.5 + Double(k) * 90, 40)); grid.line(to: Point(40.5 + Double(k) * 90, 560)) }
        for k in 0..<6 { grid.move(to: Point(40, 40.5 + Double(k) * 104)); grid.line(to: Point(760, 40.5 + Double(k) * 104)) }
        let c = Canvas(width: 800, height: 600, background: .white)
        c.stroke(grid, style: StrokeStyle(width: 1), paint: .solid(Color(r: 0.83, g: 0.83, b: 0.83)))
        XCTAssertTrue(c.rasterizer.lastSweptAsRectangles)
        let outline = Stroker.stroke(grid.flattened(tolerance: 0.025), style: StrokeStyle(width: 1), tolerance: 0.05)
        XCTAssertEqual(outline.count, 15)
        let r = Rasterizer()
        let swept = rows { body in r.fillBanded(outline, clipX: 0, clipY: 0, clipWidth: 800, clipHeight: 600, rule: .nonZero, opacity: 1, body) }
        XCTAssertTrue(r.lastSweptAsRectangles)
        let cells = rows { body in
            r.reset(clipX: 0, clipY: 0, clipWidth: 800, clipHeight: 600)
            r.add(outline)
            r.sweepRuns(rule: .nonZero, opacity: 1, body)
        }
        XCTAssertEqual(swept, cells)
        XCTAssertEqual(swept.count, 521)
    }
}
