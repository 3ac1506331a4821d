import Geometry

// Several axis-aligned rectangles in one non-zero fill (a chart's grid lines, tick marks
// and axes stroked as one path of butt-capped segments, a path of plain bars), swept
// from their vertical edges without cells: the bytes of the cell path (`sweepRuns`).

extension Rasterizer {
    /// One vertical edge of a held rectangle, as the walk sees it.
    struct VerticalEdge {
        /// Its column (⌊x⌋) and the part of that column right of it, `(c + 1) − x`.
        var column: Int32
        var areaFactor: Double
        /// Its ends, top and bottom, and the rows they fall in (first, last).
        var top: Double, bottom: Double
        var firstRow: Int, lastRow: Int
        /// Walked downwards (+1 winding) or upwards (−1).
        var down: Bool
    }

    /// The most rectangles swept this way; more go through the cells (each run of rows
    /// looks at every edge, so the cost grows with edges times runs).
    static let rectangleSweepLimit = 64

    /// Sweeps `polylines` as `reset`, `add` and `sweepRuns` would, when every one is an
    /// axis-aligned rectangle inside the clip box and the rule is non-zero; returns false,
    /// having called `body` for nothing, otherwise.
    ///
    /// What the cells would hold. Horizontal edges deposit nothing. A vertical edge at x
    /// deposits, in each row r it reaches, one cell in column c = ⌊x⌋ with cover
    /// min(r + 1, bottom) − max(r, top) (negated, as the walk computes it, for an edge
    /// going up) and area cover · ((c + 1) − x): `walk`'s vertical branch and its one-row
    /// piece give these same Doubles. Between an edge's first and last rows the cover is
    /// exactly ±1, so each row's cells stay the same from one edge end to the next: the
    /// rows fall into runs, each swept once from its first row and handed over as a run.
    ///
    /// Where the cell path's order matters, and why it does not here. The sweep sums a
    /// pixel's cells in the order they were deposited (some already merged by the walk:
    /// consecutive deposits in one pixel, a polyline's last cell into its first). With at
    /// most two contributions in a pixel every order and grouping gives the same Double
    /// (addition commutes), so this sweep requires that: a run of rows in which three edges
    /// share a column sends the whole shape back to the cells. Across columns the running
    /// cover is summed left to right, as the cell sweep does. Rows with more than
    /// `denseRowCells` cells are summed densely there; that path gives the same spans as
    /// the sparse one (see `sweepRuns`), which is the one followed here.
    func sweepRectangles(_ polylines: [Polyline], clipX: Int, clipY: Int, clipWidth: Int, clipHeight: Int,
                         opacity: Double, _ body: (Int, Int, UnsafeBufferPointer<Span>) -> Void) -> Bool {
        guard polylines.count >= 2, polylines.count <= Self.rectangleSweepLimit, clipWidth > 0, clipHeight > 0 else { return false }
        let left = Double(clipX), right = Double(clipX + clipWidth)
        let top = Double(clipY), bottom = Double(clipY + clipHeight)
        var edges: [VerticalEdge] = []
        edges.reserveCapacity(2 * polylines.count)
        for pl in polylines {
            let p = pl.points
            guard let r = axisAlignedRect(p), r.0 >= left, r.2 <= right, r.1 >= top, r.3 <= bottom else { return false }
            // The edges in the order the walk takes them: from the last point to the first,
            // then along the points.
            var prev = p[3]
            for q in p {
                defer { prev = q }
                guard prev.x == q.x else { continue }
                let x = q.x
                let c = floorInClip(x)
                let y0 = min(prev.y, q.y), y1 = max(prev.y, q.y)
                edges.append(VerticalEdge(column: int32(ofWhole: c), areaFactor: c + 1 - x, top: y0, bottom: y1,
                                          firstRow: Int(int32(ofWhole: floorInClip(y0))),
                                          lastRow: Int(int32(ofWhole: ceilInClip(y1))) - 1,
                                          down: q.y > prev.y))
            }
        }
        // Where runs of identical rows begin and end.
        var breaks: [Int] = []
        breaks.reserveCapacity(4 * edges.count)
        for e in edges { breaks.append(e.firstRow); breaks.append(e.firstRow + 1); breaks.append(e.lastRow); breaks.append(e.lastRow + 1) }
        breaks.sort()
        var unique: [Int] = []
        unique.reserveCapacity(breaks.count)
        for b in breaks where unique.last != b { unique.append(b) }

        /// One row's cells, by column.
        var row: [(column: Int32, cover: Double, area: Double)] = []
        row.reserveCapacity(edges.count)
        /// Fills `row` with the cells of row `r` ordered by column; false when three share one.
        func cells(ofRow r: Int) -> Bool {
            row.removeAll(keepingCapacity: true)
            let lo = Double(r), hi = Double(r + 1)
            for e in edges where e.firstRow <= r && r <= e.lastRow {
                let cover = e.down ? min(hi, e.bottom) - max(lo, e.top) : max(lo, e.top) - min(hi, e.bottom)
                let cell = (column: e.column, cover: cover, area: cover * e.areaFactor)
                var j = row.count
                row.append(cell)
                while j > 0 && row[j - 1].column > cell.column { row[j] = row[j - 1]; j -= 1 }
                row[j] = cell
            }
            var i = 2
            while i < row.count {
                if row[i].column == row[i - 2].column { return false }
                i += 1
            }
            return true
        }
        // Every run is checked before any is drawn.
        for k in 0..<(unique.count - 1) where !cells(ofRow: unique[k]) { return false }

        if spanCapacity < clipWidth + 1 {
            spanBuffer.deallocate()
            spanCapacity = clipWidth + 1
            spanBuffer = .allocate(capacity: spanCapacity)
        }
        let spans = spanBuffer
        let scale = 255 * min(1, max(0, opacity.isNaN ? 0 : opacity))
        @inline(__always) func alpha(_ v: Double) -> UInt8 {
            var a = abs(v)
            if a > 1 { a = 1 }
            return UInt8(a * scale + 0.5)
        }
        let minX = Int32(clipX), maxX = Int32(clipX + clipWidth)
        for k in 0..<(unique.count - 1) {
            let r = unique[k]
            _ = cells(ofRow: r)
            if row.isEmpty { continue }
            // `sweepRuns`' sparse row, on these cells (all at or right of the clip's left side).
            var count = 0
            var cover = 0.0
            var nextX = minX
            var i = 0
            while i < row.count {
                let x = row[i].column
                var cv = row[i].cover, area = row[i].area
                i += 1
                while i < row.count && row[i].column == x { cv += row[i].cover; area += row[i].area; i += 1 }
                if x >= maxX { break }
                if x > nextX {
                    let a = alpha(cover)
                    if a != 0 { emitSpan(spans, &count, nextX, x - nextX, a) }
                }
                let a = alpha(cover + area)
                if a != 0 { emitSpan(spans, &count, x, 1, a) }
                cover += cv
                nextX = x + 1
            }
            if nextX < maxX {
                let a = alpha(cover)
                if a != 0 { emitSpan(spans, &count, nextX, maxX - nextX, a) }
            }
            if count > 0 { body(r, unique[k + 1] - r, UnsafeBufferPointer(start: spans, count: count)) }
        }
        return true
    }
}
