import Geometry

// Cells of a shape made piece by piece: the cells a piece of a shape (a glyph of a
// label) deposits, kept and swept together with the other pieces' cells, give the bytes
// that walking the whole shape gives (Canvas+PieceCells.swift uses it for labels that
// change every frame).
//
// Why that holds: `walk(_:)` flushes the current cell before each polyline and merges
// the last cell of a polyline only into that polyline's first, so the cells of several
// polylines are each polyline's cells, one after another. A polyline's cells are a
// function of its points and the clip, and of its points alone when it lies strictly
// inside the clip box (no edge is cut, no closing vertex sits on the clip's top or bottom
// row edge). The sweep sees the same cells in the same order, so it sorts them the same
// way and sums them in the same order. The one thing `add` does to a whole shape that
// it does not do to its pieces is to hold back a shape that is one axis-aligned
// rectangle (`sweepRect`); a shape of fewer than two polylines is therefore never swept
// from pieces.

/// The cells one piece of a shape deposits, with what is needed to check that they can
/// stand in for walking it again.
struct PieceCells: Sendable, CacheSized {
    /// The cells in the order the walk deposited them (the last one flushed).
    let cells: [Rasterizer.Cell]
    /// The rows the walk reached (`minRow > maxRow` when none).
    let minRow: Int, maxRow: Int
    /// The box of the piece's polyline points in device pixels (empty when none).
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// How many polylines the piece flattened to.
    let polylines: Int
    /// `fillBanded`'s estimate of the piece's cells (the sum over its edges).
    let estimate: Double

    /// A piece that flattened to nothing.
    static let empty = PieceCells(cells: [], minRow: .max, maxRow: .min, minX: .infinity, minY: .infinity,
                                  maxX: -.infinity, maxY: -.infinity, polylines: 0, estimate: 0)

    /// True when the piece lies strictly inside the clip box, where its cells do not
    /// depend on the clip.
    @inline(__always)
    func isInside(clipX0: Int, clipY0: Int, clipX1: Int, clipY1: Int) -> Bool {
        polylines == 0 || (minX > Double(clipX0) && maxX < Double(clipX1) && minY > Double(clipY0) && maxY < Double(clipY1))
    }

    /// The memory the piece holds, roughly.
    var bytes: Int { 96 + cells.count * MemoryLayout<Rasterizer.Cell>.stride }
}

extension Rasterizer {
    /// The cells of `polylines` (one piece of a shape, already in device pixels), or nil
    /// when they do not lie strictly inside the clip box (their cells would depend on it).
    func pieceCells(_ polylines: [Polyline], clipX: Int, clipY: Int, clipWidth: Int, clipHeight: Int) -> PieceCells? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var estimate = 0.0, count = 0
        for pl in polylines where !pl.points.isEmpty {
            count += 1
            pl.points.withUnsafeBufferPointer { p in
                var prev = p[p.count - 1]
                for q in p {
                    minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y)
                    estimate += abs(q.x - prev.x) + abs(q.y - prev.y) + 1
                    prev = q
                }
            }
        }
        if count == 0 { return .empty }
        // Not-a-number points fail these comparisons too: such a piece is drawn whole.
        guard minX > Double(clipX), maxX < Double(clipX + clipWidth), minY > Double(clipY), maxY < Double(clipY + clipHeight),
              estimate.isFinite else { return nil }
        reset(clipX: clipX, clipY: clipY, clipWidth: clipWidth, clipHeight: clipHeight)
        walk(polylines)
        acc.flush()
        // Kept sorted by row, then column, stably: the sweep sorts the concatenated cells of
        // all pieces stably by row (counting sort) and column (insertion sort) and sums a
        // pixel's cells in the order it then finds them. Cells of one pixel keep their
        // deposit order within a piece, and pieces keep theirs, so the sweep finds every
        // pixel's cells in the same order as from the unsorted cells and gives the same
        // sums; its insertion sort then meets rows already ordered piece by piece (a
        // counter's digits lie left to right), where it was the sweep's largest cost.
        var cells = Array(UnsafeBufferPointer(start: acc.cells.base, count: acc.cells.count))
        Rasterizer.sortByRowAndColumn(&cells)
        return PieceCells(cells: cells, minRow: acc.minRow, maxRow: acc.maxRow, minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                          polylines: polylines.count, estimate: estimate)
    }

    /// Sweeps the pieces' cells, one piece after another, as `sweepRuns` sweeps the cells
    /// of the whole shape: the same spans. The caller checks that every piece lies inside
    /// this clip, that there are at least two polylines in all and that the whole shape
    /// takes one band (`fillBanded`).
    func sweepPieces(_ pieces: [PieceCells], clipX: Int, clipY: Int, clipWidth: Int, clipHeight: Int,
                     rule: FillRule, opacity: Double, _ body: (Int, Int, UnsafeBufferPointer<Span>) -> Void) {
        reset(clipX: clipX, clipY: clipY, clipWidth: clipWidth, clipHeight: clipHeight)
        lastBandCount = 1
        var a = Accumulator()
        swap(&a, &acc)
        for p in pieces where !p.cells.isEmpty {
            p.cells.withUnsafeBufferPointer { a.cells.append(contentsOf: $0) }
            if p.minRow < a.minRow { a.minRow = p.minRow }
            if p.maxRow > a.maxRow { a.maxRow = p.maxRow }
        }
        swap(&a, &acc)
        sweepRuns(rule: rule, opacity: opacity, body)
    }
}

extension Rasterizer {
    /// Sorts cells by row, then column, keeping the order of the cells of one pixel: a
    /// stable counting sort by row, then a stable sort of each row by column (as the sweep
    /// sorts them, `sortByColumn`).
    static func sortByRowAndColumn(_ cells: inout [Cell]) {
        guard cells.count > 1 else { return }
        var lo = Int32.max, hi = Int32.min
        for c in cells { lo = min(lo, c.y); hi = max(hi, c.y) }
        var start = [Int](repeating: 0, count: Int(hi) - Int(lo) + 2)
        for c in cells { start[Int(c.y - lo) + 1] += 1 }
        for r in 1..<start.count { start[r] += start[r - 1] }
        var out = cells
        var next = start
        for c in cells {
            let r = Int(c.y - lo)
            out[next[r]] = c
            next[r] += 1
        }
        out.withUnsafeMutableBufferPointer { o in
            for r in 0..<(start.count - 1) where start[r + 1] - start[r] > 1 {
                let row = UnsafeMutableBufferPointer(rebasing: o[start[r]..<start[r + 1]])
                if row.count > 64 {
                    // Ties broken by position, so the order does not rest on the sort's stability.
                    let ordered = row.enumerated().sorted { ($0.element.x, $0.offset) < ($1.element.x, $1.offset) }
                    for (k, e) in ordered.enumerated() { row[k] = e.element }
                } else {
                    insertionSortByColumn(row)
                }
            }
        }
        cells = out
    }
}

extension CellBuffer {
    /// Appends cells in order.
    mutating func append(contentsOf more: UnsafeBufferPointer<Rasterizer.Cell>) {
        guard let src = more.baseAddress, more.count > 0 else { return }
        while capacity - count < more.count { grow() }
        (base.unsafelyUnwrapped + count).initialize(from: src, count: more.count)
        count &+= more.count
    }
}
