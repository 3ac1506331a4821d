import XCTest
import Geometry
import TestSupport
@testable import Raster

/// Small non-zero shapes are summed in a dense box instead of sorted (`sweepRuns`); the
/// spans must be those of the sorted cells.
final class BoxSweepTests: XCTestCase {
    func rows(_ r: Rasterizer, box: Bool, _ polylines: [Polyline], clip: (Int, Int, Int, Int), opacity: Double) -> [Int: [Span]] {
        let saved = Rasterizer.boxSweep
        Rasterizer.boxSweep = box
        defer { Rasterizer.boxSweep = saved }
        return sweptRows(r, polylines, clip: clip, opacity: opacity)
    }

    /// Random polygons of a few contours in a small box (glyph-like), some crossing
    /// themselves and each other, some cut by the clip on every side, coordinates on a
    /// coarse grid (cells shared by several edges) or anywhere.
    func testRandomSmallShapesGiveTheSpansOfTheSorts() {
        var rng = SplitMix64(seed: 2323)
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let r = Rasterizer()
        var boxed = 0
        for trial in 0..<20_000 {
            let ox = Double(pick(40)) - 10, oy = Double(pick(30)) - 8
            let w = 2 + rng.uniform() * 30, h = 2 + rng.uniform() * 14
            let coarse = pick(2) == 0
            var polylines: [Polyline] = []
            for _ in 0..<(1 + pick(4)) {
                var pts: [Point] = []
                for _ in 0..<(3 + pick(12)) {
                    var x = rng.uniform() * w, y = rng.uniform() * h
                    if coarse { x = (x * 2).rounded() / 2; y = (y * 2).rounded() / 2 }
                    pts.append(Point(ox + x, oy + y))
                }
                polylines.append(Polyline(points: pts, closed: true))
            }
            let clip = trial % 2 == 0 ? (0, 0, 48, 32) : (3, 2, 30, 17)
            let opacity = [1, 0.6, 0.999][pick(3)]
            let dense = rows(r, box: true, polylines, clip: clip, opacity: opacity)
            if r.lastSweptAsBox { boxed += 1 }
            let sorted = rows(r, box: false, polylines, clip: clip, opacity: opacity)
            XCTAssertFalse(r.lastSweptAsBox)
            XCTAssertEqual(dense, sorted, "trial \(trial): \(polylines.map(\.points))")
            if dense != sorted { return }
        }
        XCTAssertGreaterThan(boxed, 5_000)
    }
}
