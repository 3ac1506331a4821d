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
    /// most shapes take one band; with several, the edges are first sorted into the bands
    /// their rows reach (`BandPlan`), so a band walks only its own. The bands give the same pixels as one
    /// sweep: each row's cells come from the same edge pieces (RasterizerTests).
    func fillBanded(_ polylines: [Polyline], clipX: Int, clipY: Int, clipWidth: Int, clipHeight: Int,
                    rule: FillRule, opacity: Double, grid: Bool = false, paint: GridPaint? = nil,
                    _ body: (Int, Int, UnsafeBufferPointer<Span>) -> Void) {
        // Several rectangles (grid lines, ticks, bars as one path): without cells, the same
        // bytes (Rasterizer+Rectangles.swift).
        if rule == .nonZero && polylines.count >= 2 {
            reset(clipX: clipX, clipY: clipY, clipWidth: clipWidth, clipHeight: clipHeight)
            if sweepRectangles(polylines, clipX: clipX, clipY: clipY, clipWidth: clipWidth, clipHeight: clipHeight,
                               opacity: opacity, body) {
                lastBandCount = 1
                lastSweptAsRectangles = true
                return
            }
        }
        lastSweptAsRectangles = false
        lastFillWasFixedGrid = false
        if grid && rule == .nonZero && fillFixedGrid(polylines, clipX: clipX, clipY: clipY, clipWidth: clipWidth, clipHeight: clipHeight,
                                             opacity: opacity, paint: paint, body) {
            return
        }
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
        // Where the cells fall, row by row: each edge's estimate spread over the rows it
        // crosses, so a band ends where its share is used up. (Equal-height bands of a
        // random walk held 2.5 times their share where the line crowded.) Each edge adds
        // its share to a difference table (at its first row, taken off after its last),
        // summed once afterwards: a long line's edges cross many rows each (line-4k: the
        // per-row loop was 10 % of the frame). Only where the bands end depends on these
        // sums, never the pixels. A shape of many edges fills the table in the same pass
        // as the estimate; a smaller one only if it turns out to need bands.
        let last = clipHeight - 1
        /// The estimate, and with `rows` (clipHeight + 1 zeros) the cells per row.
        func estimateCells(_ rows: UnsafeMutablePointer<Double>?) -> Double {
            var estimate = 0.0
            for pl in polylines where pl.points.count >= 2 {
                pl.points.withUnsafeBufferPointer { p in
                    var prev = p[p.count - 1]
                    for q in p {
                        let d = cells(prev, q)
                        estimate += d
                        if let rows, d > 0 {
                            // Both within 0...last (clamped above), so both stay in the table.
                            let a = Int(max(0, min(Double(last), min(prev.y, q.y) - top)))
                            let b = Int(max(0, min(Double(last), max(prev.y, q.y) - top)))
                            let share = d / Double(b - a + 1)
                            rows[a] += share
                            rows[b + 1] -= share
                        }
                        prev = q
                    }
                }
            }
            if let rows {
                var sum = 0.0
                for r in 0..<clipHeight { sum += rows[r]; rows[r] = max(0, sum) }
            }
            return estimate
        }
        var edges = 0
        for pl in polylines where pl.points.count >= 2 { edges += pl.points.count }
        // No edge's estimate exceeds the clip's width plus its height plus one: few enough
        // edges fit in one band whatever they are, without the estimate's pass over them
        // (a glyph run's hundred edges on a chart frame).
        if Double(edges) * (Double(clipWidth) + Double(clipHeight) + 1) <= Double(Self.bandCells) {
            lastBandCount = 1
            reset(clipX: clipX, clipY: clipY, clipWidth: clipWidth, clipHeight: clipHeight)
            add(polylines)
            sweepRuns(rule: rule, opacity: opacity, body)
            return
        }
        let spreadFirst = edges >= Self.bandCells / 16 && clipHeight > 1
        var perRow = spreadFirst ? [Double](repeating: 0, count: clipHeight + 1) : []
        let estimate = spreadFirst ? perRow.withUnsafeMutableBufferPointer { estimateCells($0.baseAddress!) } : estimateCells(nil)
        if estimate <= Double(Self.bandCells) || clipHeight <= 1 {
            lastBandCount = 1
            reset(clipX: clipX, clipY: clipY, clipWidth: clipWidth, clipHeight: clipHeight)
            add(polylines)
            sweepRuns(rule: rule, opacity: opacity, body)
            return
        }
        // Every band walks every edge again, so there are at most 64: past 16 million cells
        // a band holds more than its share rather than the walks multiplying.
        if !spreadFirst {
            perRow = [Double](repeating: 0, count: clipHeight + 1)
            _ = perRow.withUnsafeMutableBufferPointer { estimateCells($0.baseAddress!) }
        }
        // Any two neighbouring greedy bands hold more than a share between them, so a
        // share of a 31st of the estimate makes at most 63 bands.
        let share = max(Double(Self.bandCells), estimate / 31)
        var bands: [(Int, Int)] = []
        var y = 0
        while y < clipHeight {
            var end = y, sum = 0.0
            while end < clipHeight && (end == y || sum + perRow[end] <= share) { sum += perRow[end]; end += 1 }
            bands.append((y, end))
            y = end
        }
        let plan = BandPlan(polylines, bands: bands.map { (Double(clipY + $0.0), Double(clipY + $0.1)) })
        lastBandCount = 0
        for (k, band) in bands.enumerated() {
            reset(clipX: clipX, clipY: clipY + band.0, clipWidth: clipWidth, clipHeight: band.1 - band.0)
            // A lone rectangle is held back from the cells by `add(_:)` (`sweepRect`); keep that.
            if polylines.count == 1 && axisAlignedRect(polylines[0].points) != nil {
                add(polylines)
            } else {
                add(polylines, only: plan.edges[k])
            }
            sweepRuns(rule: rule, opacity: opacity, body)
            lastBandCount += 1
        }
    }

    /// `add(polylines)` for one band, walking only the edges `plan` kept for it: the
    /// same calls in the same order, with a flush where `add` would have dropped an edge
    /// lying wholly above or below the band (`BandPlan`).
    func add(_ polylines: [Polyline], only edges: [BandPlan.Edge]) {
        sources.append(polylines)
        materializeRect()
        var a = Accumulator()
        swap(&a, &acc)
        defer { swap(&a, &acc) }
        var e = 0
        polylines.withUnsafeBufferPointer { pls in
            edges.withUnsafeBufferPointer { es in
                for i in 0..<pls.count {
                    let pts = pls[i].points
                    guard pts.count >= 2 else { continue }
                    a.flush()
                    let first = a.cells.count
                    pts.withUnsafeBufferPointer { p in
                        while e < es.count && es[e].polyline == Int32(truncatingIfNeeded: i) {
                            let j = Int(es[e].edge)
                            if es[e].flushFirst { a.flush() }
                            if j >= 0 {
                                let prev = j == 0 ? p[p.count - 1] : p[j - 1], q = p[j]
                                a.addEdge(prev.x, prev.y, q.x, q.y)
                            }
                            e += 1
                        }
                    }
                    a.mergeClosingCell(at: pts[pts.count - 1], first: first)
                }
            }
        }
    }
}

/// Which edges of a banded fill each band walks.
///
/// `add(_:)` looks at every edge of the shape in every band, and for a long line most of
/// them lie wholly above or below the band, where all they do is close the current cell
/// (line-4k: 12.6 % of the frame in that loop after the call into `walk` was taken out of
/// it). The plan sorts the edges into the bands their rows reach once, and marks where a
/// dropped edge would have closed the cell; the walks, the cells and so the pixels are
/// those of `add(_:)` (BandedFillTests, EvenOddTests compare bands with one sweep).
struct BandPlan {
    /// An edge to walk: edge `edge` of polyline `polyline` (from its point `edge - 1`, or
    /// the last point for 0, to point `edge`), after a flush when `flushFirst`. An entry
    /// with `edge` −1 is only the flush, after the polyline's last kept edge.
    struct Edge {
        var polyline: Int32
        var edge: Int32
        var flushFirst: Bool
    }

    /// Per band, its edges in the order `add(_:)` visits them.
    var edges: [[Edge]]

    /// `bands` are the bands' rows (top, bottom) in device pixels, in order, touching.
    init(_ polylines: [Polyline], bands: [(Double, Double)]) {
        let n = bands.count
        edges = Array(repeating: [], count: n)
        // Per band, the count of edges that can close a cell (finite, not horizontal) seen
        // in the current polyline when its last kept edge was, or −1: one seen since then
        // means `add(_:)` dropped it there, closing the cell.
        var lastKept = [Int](repeating: -1, count: n)
        // The band of each row, for the first band an edge reaches: the first whose bottom
        // is past the edge's top y, lo. Rows from the first band's top to the last's bottom.
        guard n > 0 else { return }
        let firstRow = bands[0].0, endRow = bands[n - 1].1
        var bandOfRow = [Int32](repeating: 0, count: Int(endRow - firstRow))
        for (k, b) in bands.enumerated() {
            for r in Int(b.0 - firstRow)..<Int(b.1 - firstRow) { bandOfRow[r] = Int32(k) }
        }
        let first = Int(firstRow)
        for (i, pl) in polylines.enumerated() where pl.points.count >= 2 {
            let pi = Int32(truncatingIfNeeded: i)
            for k in 0..<n { lastKept[k] = 0 }
            var seen = 0
            pl.points.withUnsafeBufferPointer { p in
                var prev = p[p.count - 1]
                for (j, q) in p.enumerated() {
                    defer { prev = q }
                    // Edges `addEdge` drops without closing the cell are left out everywhere.
                    guard prev.x.isFinite, q.x.isFinite, prev.y.isFinite, q.y.isFinite, prev.y != q.y else { continue }
                    seen += 1
                    let lo = min(prev.y, q.y), hi = max(prev.y, q.y)
                    // The bands whose rows the edge reaches (top < hi and bottom > lo): from the
                    // first whose bottom is past lo (the band of lo's row; bands touch and
                    // their ends are whole rows), while their tops are above hi.
                    var k: Int
                    if lo < firstRow { k = 0 } else if lo >= endRow { k = n } else {
                        k = Int(bandOfRow[Int(int32(ofWhole: floorInClip(lo))) - first])
                    }
                    while k < n && bands[k].0 < hi {
                        edges[k].append(Edge(polyline: pi, edge: Int32(truncatingIfNeeded: j), flushFirst: seen - 1 > lastKept[k]))
                        lastKept[k] = seen
                        k += 1
                    }
                }
            }
            for k in 0..<n where lastKept[k] < seen {
                edges[k].append(Edge(polyline: pi, edge: -1, flushFirst: true))
            }
        }
    }
}
