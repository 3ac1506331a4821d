import Geometry

// Banded sweeps: bounded memory for geometry that would make too many cells at once.

extension Rasterizer {
    /// The most cells one band of `fillBanded` accumulates: 262,144 cells of 24 bytes,
    /// 6 MB, plus as much again for the sweep's row sort.
    static var bandCells = 1 << 18

    /// Adds `polylines` within the clip box and sweeps them as `sweepRuns` does, in
    /// horizontal bands when they would make more than `bandCells` cells: each band's
    /// cells are accumulated and swept before the next band's, so memory stays bounded
    /// whatever the geometry. A 100,000-point line at 1280×720 made 1.05 million cells,
    /// 25 MB plus 18 MB for the sort, on each rendering thread; banded, a 100,000-row
    /// line chart renders in well under the 150 MB budget (docs/benchmarks.md). The
    /// estimate is an upper bound (a cell per pixel row and column an edge crosses), so
    /// most shapes take one band; every band walks all edges again, but edges outside
    /// the band are rejected in a comparison each. The bands give the same pixels as one
    /// sweep: each row's cells come from the same edge pieces (RasterizerTests).
    func fillBanded(_ polylines: [Polyline], clipX: Int, clipY: Int, clipWidth: Int, clipHeight: Int,
                    rule: FillRule, opacity: Double, _ body: (Int, Int, UnsafeBufferPointer<Span>) -> Void) {
        // An edge's cells: a row piece per clip row it crosses plus a cell per column it
        // crosses inside the clip; none right of the clip or outside its rows (clipped
        // geometry costs nothing to keep: a fuzzed 91,000 px dashed ellipse over a 4 px
        // canvas estimated 6 million cells and was swept in 22 bands of 2.9 million edges).
        let top = Double(clipY), bottom = Double(clipY + clipHeight)
        let left = Double(clipX), right = Double(clipX + clipWidth)
        @inline(__always) func cells(_ p: Point, _ q: Point) -> Double {
            let y0 = min(p.y, q.y), y1 = max(p.y, q.y)
            guard y1 > top, y0 < bottom, min(p.x, q.x) < right else { return 0 }
            let dx = max(0, min(max(p.x, q.x), right) - max(min(p.x, q.x), left))
            let v = dx + (min(y1, bottom) - max(y0, top)) + 1
            return v.isFinite ? v : 0
        }
        var estimate = 0.0
        for pl in polylines where pl.points.count >= 2 {
            pl.points.withUnsafeBufferPointer { p in
                var prev = p[p.count - 1]
                for q in p { estimate += cells(prev, q); prev = q }
            }
        }
        if estimate <= Double(Self.bandCells) || clipHeight <= 1 {
            lastBandCount = 1
            reset(clipX: clipX, clipY: clipY, clipWidth: clipWidth, clipHeight: clipHeight)
            add(polylines)
            sweepRuns(rule: rule, opacity: opacity, body)
            return
        }
        // Where the cells fall, row by row: each edge's estimate spread over the rows it
        // crosses, so a band ends where its share is used up. (Equal-height bands of a
        // random walk held 2.5 times their share where the line crowded.) Every band walks
        // every edge again, so there are at most 64: past 16 million cells a band holds
        // more than its share rather than the walks multiplying.
        var perRow = [Double](repeating: 0, count: clipHeight)
        let last = clipHeight - 1
        perRow.withUnsafeMutableBufferPointer { rows in
            let rows = rows.baseAddress!
            for pl in polylines where pl.points.count >= 2 {
                pl.points.withUnsafeBufferPointer { p in
                    var prev = p[p.count - 1]
                    for q in p {
                        let d = cells(prev, q)
                        if d > 0 {
                            // Both within 0...last (clamped above), so the loop stays in the table.
                            let a = Int(max(0, min(Double(last), min(prev.y, q.y) - top)))
                            let b = Int(max(0, min(Double(last), max(prev.y, q.y) - top)))
                            let share = d / Double(b - a + 1)
                            var r = a
                            while r <= b { rows[r] += share; r &+= 1 }
                        }
                        prev = q
                    }
                }
            }
        }
        // Any two neighbouring greedy bands hold more than a share between them, so a
        // share of a 31st of the estimate makes at most 63 bands.
        let share = max(Double(Self.bandCells), estimate / 31)
        lastBandCount = 0
        var y = 0
        while y < clipHeight {
            var end = y, sum = 0.0
            while end < clipHeight && (end == y || sum + perRow[end] <= share) { sum += perRow[end]; end += 1 }
            reset(clipX: clipX, clipY: clipY + y, clipWidth: clipWidth, clipHeight: end - y)
            add(polylines)
            sweepRuns(rule: rule, opacity: opacity, body)
            lastBandCount += 1
            y = end
        }
    }
}
