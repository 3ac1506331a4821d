import XCTest
import Geometry
import TestSupport
@testable import Raster

/// Rows crossed by many cells are summed densely and scanned by their touched columns'
/// bits (Rasterizer+DenseRows.swift); the spans must be those of the column-by-column
/// scan and those of the sorted cells.
final class DenseRowTests: XCTestCase {
    enum Route { case bits, columns, sorts, bandBox }

    func rows(_ r: Rasterizer, _ path: Route, _ polylines: [Polyline], clip: (Int, Int, Int, Int), opacity: Double,
              boxPixels: Int = 32_768) -> [Int: [Span]] {
        let savedBits = Rasterizer.denseRowBits, savedCells = Rasterizer.denseRowCells, savedBox = Rasterizer.boxSweep
        let savedBand = Rasterizer.bandBox, savedBandCells = Rasterizer.bandBoxCells, savedPixels = Rasterizer.bandBoxPixels
        Rasterizer.denseRowBits = path == .bits
        if path == .sorts { Rasterizer.denseRowCells = .max }
        Rasterizer.bandBox = path == .bandBox
        Rasterizer.bandBoxCells = 64
        Rasterizer.bandBoxPixels = boxPixels
        // Shapes this small would mostly be summed in a dense box (BoxSweepTests).
        Rasterizer.boxSweep = false
        defer {
            Rasterizer.denseRowBits = savedBits; Rasterizer.denseRowCells = savedCells; Rasterizer.boxSweep = savedBox
            Rasterizer.bandBox = savedBand; Rasterizer.bandBoxCells = savedBandCells; Rasterizer.bandBoxPixels = savedPixels
        }
        return sweptRows(r, polylines, clip: clip, opacity: opacity)
    }

    /// Dense random walks (many points per column, jumping several rows each), raw or
    /// stroked, on a coarse grid (cells shared by many edges) or anywhere, some leaving
    /// the clip on every side, in gaps of empty columns or packed.
    func testRandomDenseRowsGiveTheSpansOfTheScanAndOfTheSorts() {
        var rng = SplitMix64(seed: 2324)
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let r = Rasterizer()
        var denseRows = 0, trialsWithDense = 0, banded = 0
        for trial in 0..<1_000 {
            let width = 20 + pick(300), height = 4 + pick(40)
            let clip = trial % 3 == 0 ? (0, 0, width, height) : (pick(10), pick(5), width - pick(15), height - pick(4))
            let coarse = pick(3) == 0
            let points = 200 + pick(1_500)
            let perColumn = [0.5, 3, 8, 20][pick(4)]
            let step = Double(1 + pick(12))
            var y = Double(height) / 2, x = Double(pick(30)) - 12
            var pts: [Point] = []
            for _ in 0..<points {
                x += rng.uniform() / perColumn
                y += (rng.uniform() - 0.5) * step
                if y < -3 || y > Double(height) + 3 { y = rng.uniform() * Double(height + 6) - 3 }
                if pick(50) == 0 { y = rng.uniform() * Double(height + 10) - 5 }
                var p = Point(x, y)
                if coarse { p = Point((p.x * 2).rounded() / 2, (p.y * 4).rounded() / 4) }
                pts.append(p)
            }
            let polylines: [Polyline]
            if pick(2) == 0 {
                polylines = Stroker.stroke([Polyline(points: pts, closed: false)],
                                           style: StrokeStyle(width: [0.5, 1, 2, 3.5][pick(4)], join: pick(2) == 0 ? .round : .miter))
            } else {
                polylines = [Polyline(points: pts, closed: true)]
            }
            let opacity = [1, 0.6, 0.999][pick(3)]
            r.denseRowsSwept = 0
            let bits = rows(r, .bits, polylines, clip: clip, opacity: opacity)
            let swept = r.denseRowsSwept
            denseRows += swept
            if swept > 0 { trialsWithDense += 1 }
            let columns = rows(r, .columns, polylines, clip: clip, opacity: opacity)
            r.denseRowsSwept = 0
            let sorts = rows(r, .sorts, polylines, clip: clip, opacity: opacity)
            XCTAssertEqual(r.denseRowsSwept, 0)
            XCTAssertEqual(bits, columns, "trial \(trial): bits against columns")
            XCTAssertEqual(bits, sorts, "trial \(trial): bits against sorts")
            // Boxes of a few rows: groups of one row up to the whole shape.
            let boxed = rows(r, .bandBox, polylines, clip: clip, opacity: opacity, boxPixels: [32_768, 1_024, 400][pick(3)])
            if r.lastSweptAsBandBox { banded += 1 }
            XCTAssertEqual(boxed, sorts, "trial \(trial): boxes of rows against sorts")
            if bits != columns || bits != sorts || boxed != sorts { return }
        }
        XCTAssertGreaterThan(trialsWithDense, 500)
        XCTAssertGreaterThan(denseRows, 10_000)
        XCTAssertGreaterThan(banded, 500)
    }
}
