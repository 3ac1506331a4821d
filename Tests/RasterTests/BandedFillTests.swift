import XCTest
import Geometry
@testable import Raster

/// Shapes that would make many cells are swept in bands; the pixels are the same.
final class BandedFillTests: XCTestCase {
    func draw(bandCells: Int) -> Pixmap {
        let saved = Rasterizer.bandCells
        Rasterizer.bandCells = bandCells
        defer { Rasterizer.bandCells = saved }
        let c = Canvas(width: 160, height: 120, background: .white)
        // A dense random walk stroked with round joins, a gradient-filled star under even-odd,
        // and a translucent shape inside a clip mask.
        var p = Path(), y = 60.0, seed: UInt64 = 42
        p.move(to: Point(2, y))
        for i in 1..<3000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            y = min(115, max(5, y + Double(Int(seed >> 59)) - 15.5))
            p.line(to: Point(2 + Double(i) * 0.052, y))
        }
        c.stroke(p, style: StrokeStyle(width: 1.5, join: .round), paint: .solid(Color(r: 0.2, g: 0.3, b: 0.9)))
        var star = Path()
        for k in 0..<7 {
            let a = Double(k) * 3 * 2 * Double.pi / 7
            let q = Point(80 + 50 * sin(a), 60 - 50 * cos(a))
            if k == 0 { star.move(to: q) } else { star.line(to: q) }
        }
        star.close()
        c.fill(star, paint: .linearGradient(LinearGradient(start: Point(30, 10), end: Point(130, 110),
                                                           colors: [Color(r: 1, g: 0.5, b: 0, a: 0.6), Color(r: 0, g: 0.5, b: 1, a: 0.6)])),
               rule: .evenOdd)
        c.save()
        c.clip(to: .ellipse(in: Rect(x: 20, y: 20, width: 120, height: 80)))
        c.fill(.ellipse(in: Rect(x: 0, y: 30.5, width: 160, height: 60.3)), paint: .solid(Color(r: 0, g: 0.6, b: 0.2, a: 0.5)))
        c.restore()
        return c.takePixmap()
    }

    func testBandsGiveTheSamePixelsAsOneSweep() {
        let whole = draw(bandCells: 1 << 30)
        for cells in [2_000, 300, 1] {
            XCTAssertEqual(draw(bandCells: cells), whole, "bands of at most \(cells) cells")
        }
    }

    /// A band walks only the edges `BandPlan` kept for it; its cells must be those of
    /// `add(_:)`, which looks at every edge: the same cells, in the same order, with the
    /// same sums. Random polylines on a coarse grid, so that chains leave a band through
    /// its top or bottom row and come back into the pixel they left (where a missing
    /// flush would merge two cells), with horizontal edges and NaN points among them.
    func testBandPlanLeavesTheCellsOfAdd() {
        var seed: UInt64 = 7
        func next(_ n: Int) -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int((seed >> 33) % UInt64(n)) }
        let ys: [Double] = [4, 8, 9.5, 10, 10, 10.25, 12, 15, 19.5, 20, 20, 21, 26]
        let bands: [(Double, Double)] = [(0, 10), (10, 20), (20, 30)]
        var mergedChains = 0
        for _ in 0..<3000 {
            var polylines: [Polyline] = []
            for _ in 0..<(1 + next(3)) {
                var pts: [Point] = []
                for _ in 0..<(2 + next(12)) {
                    let x = next(40) == 0 ? Double.nan : 1 + Double(next(9)) * 0.5
                    pts.append(Point(x, ys[next(ys.count)]))
                }
                polylines.append(Polyline(points: pts, closed: true))
            }
            let plan = BandPlan(polylines, bands: bands)
            for (k, band) in bands.enumerated() {
                let whole = Rasterizer(), planned = Rasterizer()
                whole.reset(clipX: 0, clipY: Int(band.0), clipWidth: 8, clipHeight: Int(band.1 - band.0))
                planned.reset(clipX: 0, clipY: Int(band.0), clipWidth: 8, clipHeight: Int(band.1 - band.0))
                whole.add(polylines)
                planned.add(polylines, only: plan.edges[k])
                whole.acc.flush(); planned.acc.flush()
                let a = whole.cells, b = planned.cells
                XCTAssertEqual(a.map(\.x), b.map(\.x))
                XCTAssertEqual(a.map(\.y), b.map(\.y))
                XCTAssertEqual(a.map(\.cover), b.map(\.cover))
                XCTAssertEqual(a.map(\.area), b.map(\.area))
                // Count the cases the flushes decide: a column visited twice in one row.
                var seen = Set<Int64>()
                for c in a where !seen.insert(Int64(c.y) << 32 | Int64(UInt32(bitPattern: c.x))).inserted { mergedChains += 1 }
            }
        }
        XCTAssertGreaterThan(mergedChains, 100)
    }
}
