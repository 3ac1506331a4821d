import Geometry
#if canImport(Glibc)
import Glibc
#endif

/// How overlapping parts of a path decide what is inside.
public enum FillRule: String, Hashable, Sendable {
    /// Inside where the winding number is not zero.
    case nonZero
    /// Inside where the winding number is odd.
    case evenOdd
}

/// A horizontal run of pixels with one coverage value, produced by the rasterizer.
public struct Span: Hashable, Sendable {
    /// First pixel column.
    public var x: Int32
    /// Number of pixels.
    public var length: Int32
    /// Coverage × opacity, 0…255.
    public var alpha: UInt8
}

/// The scan converter: polygons in, anti-aliased coverage spans out.
///
/// Coverage is the exact area of each pixel inside the polygon (the signed-area
/// accumulation of font-rs, stb_truetype v2 and Blend2D), computed sparsely: walking
/// an edge deposits, in each pixel cell it crosses, the signed height it spans
/// (`cover`) and that height weighted by the part of the cell right of the edge
/// (`area`). Sweeping a row left to right, a pixel's coverage is the running sum of
/// the covers to its left plus its own area; between cells the coverage is constant,
/// so interiors come out as solid spans. The work is proportional to the cells edges
/// cross plus the spans emitted — a thin line across a large canvas costs its length,
/// not its bounding box — and no buffer the size of the canvas is touched. (Even-odd
/// pixels where separate edges meet are sampled from crossings, at a cost bounded per
/// row: `CrossingSampler`.)
///
/// Cells are gathered unsorted, then ordered with one counting sort by row and a small
/// sort by column within each row (rows hold few cells). Both sorts move 8-byte keys
/// (column, then the cell's index: `cellKey`), not the 24-byte cells, and the sweep reads
/// a cell's sums through its key (1.06–1.10× on the chart scenes). A row with more than
/// `denseRowCells` cells is instead summed into a dense row of columns: a dense
/// polyline (100,000 points across a 4K frame) crosses each row thousands of times,
/// and the insertion sort made that frame take 1.0 s against Cairo's 0.47 s; summed
/// densely it takes 0.27 s. All arithmetic is in Double in a fixed order, so the same
/// input gives the same bytes on every run.
///
/// Shortcuts, each giving the bytes the general path gives: an axis-aligned rectangle
/// is held back from the cells and swept as products of overlaps (`sweepRect`, within
/// one level of the cells, tested); rows whose cells equal the previous row's reuse its
/// spans and are handed over as one run (`sweepRuns`). On the dashboard benchmark (12
/// charts, 231 draw calls) these took a frame from 54 to 40 million instructions, and
/// an append into a raw cell buffer instead of an Array to 38 million. A fill of 2 to 64
/// such rectangles inside the clip (a chart's grid, ticks and axes, stroked as one path
/// of butt-capped segments) is swept from its vertical edges, in runs of rows that only
/// change at edge ends (`sweepRectangles`, Rasterizer+Rectangles.swift): the cells' own
/// Doubles, and three edges in one pixel send it back to the cells, since only sums of two
/// are the same in any order. curved-line's grid made 9,360 cells a frame for spans that
/// repeat over 500 rows; the scene took 1.08–1.33× less CPU a frame (fifth pass).
///
/// Per edge, most of which are shorter than a pixel in flattened curves and stroke
/// outlines: an edge inside one row is deposited before its slope is divided out, a
/// piece crossing columns divides once rather than per column, and ⌊x⌋ and a cell's
/// column come from adding 1.5·2⁵² instead of checked `Int(x)` conversions (the clip
/// bounds the values). With the stroker's one-point joins on flat turns, these took the
/// dashboard frame from 45.6 to 40.9 million instructions (callgrind) and from 1.9× to
/// 2.16–2.64× Cairo's speed (docs/benchmarks.md).
///
/// Exactness, measured against Cairo (`CairoReferenceTests`, 76 scenes, all within the
/// thresholds): coverage is the exact area wherever a pixel holds one step of winding
/// (0 to ±1), which is every edge pixel of a simple shape, of a stroke outline (the
/// stroker avoids overlapping loops along edges for this reason) and of the union of
/// separate shapes. Where two separate edges share a pixel the winding inside it can
/// take three values, and the fold of the signed sum is not the folded area. Even-odd
/// fills meet this at every self-intersection (a {7/3} star was 102 levels from Cairo),
/// so an even-odd row whose cells show two edges in one pixel has those pixels sampled
/// from the edges' crossings instead (`CrossingSampler`, within 3 levels of 32 × 32
/// supersampling). To tell two edges from one chain of edges, every edge is walked in
/// its own direction, so the cells a chain shares at a vertex merge.
///
/// Where the time goes (perf, 2026-12-02, docs/benchmarks.md "Second pass"): on chart
/// frames the sweep with its inlined blits is a fifth to a quarter of the frame and the
/// walk 15–38 %; within the sweep, the counting sort by row and the per-row sort are
/// about half. Keeping the current row's counter in a register, sorting two runs by a
/// merge, and dense rows from fewer cells were each measured and gave nothing or lost:
/// rows are short, and a dense row costs its column range. The step left is dense
/// accumulation per band (a zeroed band of columns and a bit per touched column instead
/// of both sorts), which keeps these bytes only if each column's cells are still summed
/// in deposit order: a vectorised prefix sum (font-rs) reassociates the Double covers.
/// Two more conditions for that step (fourth pass, docs/benchmarks.md): what is summed
/// into a column must be the walk's merged cells, not each deposit (c + (a + b) is not
/// (c + a) + b in Double), and a polyline's last cell merged into its first
/// (`walk(_:)`) is summed where the first was deposited, ahead of any cell the chain
/// left in that pixel in between; such a shape needs the sorted path or a fallback.
/// Also measured in the fourth pass and not kept: a walk without clip tests for
/// polylines inside the clip, and the walk's state in a local copy (the optimiser
/// either folded the copy back into `self` or spilled it to the stack).
///
/// Fifth pass (docs/benchmarks.md): curved-line's parts drawn alone showed its grid (one
/// stroke, 15 rectangles) costing as much as its labels, hence `sweepRectangles`. After
/// it, `fillTarget`, the sweep and the walk are 13–14 % each and the gradient-stroked
/// curve is the largest part. Small non-zero shapes (a glyph run: at most 8,192 cells in a
/// box of at most 8,192 pixels, three per cell) are now summed densely over their box,
/// cells in deposit order, without either sort (`sweepRuns`, first branch): the sparse
/// sweep's spans by the dense row path's argument (BoxSweepTests); the sweep's share of
/// curved-line's labels fell from 7 % to 4–5 % of the samples. Not started: cells standing
/// for a run of identical rows on any long vertical edge (rounded rectangles, bars,
/// panels), which bands, piece cells and the even-odd sampler would all have to read.
///
/// Sixth pass (Rasterizer+DenseRows.swift): a dense row sets a bit per touched column and
/// its scan visits only those (line-4k's rows had 7 % of their column ranges touched), and
/// a large non-zero shape (at least 32,768 cells, a band of line-4k) is summed in boxes of
/// a few rows: cells binned stably by group of rows, each group summed into its box in
/// deposit order and scanned by its bits, without the row sort or the keyed reads of
/// cells. Both keep each pixel's sums in deposit order; line-4k took 1.35× less CPU a frame.
///
/// Seventh pass (Rasterizer+FixedGrid.swift): plain non-zero fills and strokes
/// (`Canvas.fill`, `Canvas.stroke`) no longer come here. They are scan converted in
/// fixed point, with integer sums deposited straight into a dense grid, because integers
/// do not care about order. Even-odd fills, single rectangles, grids of rectangles and
/// labels (coverage cache, pieces, snapped pieces) still do.
///
/// The parts, a file each: the edge walk that makes cells (Rasterizer+Walk.swift), the
/// sweep that turns them into spans (here), banded sweeps for huge geometry
/// (Rasterizer+Bands.swift) and the sampling of even-odd pixels where separate edges
/// meet (Rasterizer+Crossings.swift).
///
/// A `Rasterizer` keeps its buffers between calls; use one per thread.
public final class Rasterizer {
    struct Cell {
        var x: Int32
        var y: Int32
        var cover: Double
        var area: Double
    }

    /// Orders one row's cells by column, stably (cells of one column keep the order
    /// they were deposited in, so their sums are the same bytes on every run).
    ///
    /// Insertion sort for the usual handful of mostly ordered cells. A row crossed by
    /// many edges (a 100,000-point line, a fine dash pattern, a stroke scaled by 1e49 and
    /// clipped to the canvas sides) can hold thousands in runs going both ways, where
    /// insertion sort is quadratic (a fuzzed 11×11 stroke took 60 s); those rows get the
    /// standard library's stable O(n log n) sort. Two cells, the row of a simple shape
    /// between its top and bottom, take one comparison.
    @inline(__always)
    static func sortByColumn(_ row: UnsafeMutableBufferPointer<Cell>) {
        if row.count == 2 {
            if row[1].x < row[0].x { row.swapAt(0, 1) }
        } else if row.count > 64 {
            var row = row
            row.sort { $0.x < $1.x }
        } else {
            insertionSortByColumn(row)
        }
    }

    /// The plain stable sort `sortByColumn` must agree with.
    @inline(__always)
    static func insertionSortByColumn(_ sc: UnsafeMutableBufferPointer<Cell>) {
        var i = 1
        while i < sc.count {
            let v = sc[i]
            var j = i - 1
            while j >= 0 && sc[j].x > v.x { sc[j + 1] = sc[j]; j -= 1 }
            sc[j + 1] = v
            i += 1
        }
    }

    var acc = Accumulator()
    var rowStart: [Int32] = []
    /// The sweep's sort keys (`cellKey`), one per cell, grown as needed.
    var keyBuffer = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    var keyCapacity = 1
    /// One row's spans. A raw buffer at least one wider than the clip (spans are disjoint
    /// and at least a pixel long, so a row never holds more), written through a local
    /// pointer: appending to an array captured by the emitting function cost a dynamic
    /// exclusivity check and a uniqueness check per span, ~11 % of a chart frame.
    var spanBuffer = UnsafeMutablePointer<Span>.allocate(capacity: 1)
    var spanCapacity = 1

    /// Per-column cover and area of one dense row, all zero between rows.
    var denseCover = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var denseArea = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var denseCapacity = 0
    /// One bit per column of the dense row: the columns that hold cells, all zero between rows.
    var denseBits = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    /// Rows with more cells than this are accumulated densely instead of sorted (tests
    /// raise it to compare with the sorts).
    static var denseRowCells = 64
    /// Whether a dense row is scanned by its touched columns' bits rather than column by
    /// column (tests compare the two).
    static var denseRowBits = true
    /// How many rows were swept as dense rows since this was last set (for tests).
    var denseRowsSwept = 0

    /// Large shapes summed in boxes of a few rows (`sweepBandBox`): the fewest cells, and
    /// whether it is on (tests compare with the sorts).
    static var bandBoxCells = 32_768
    static var bandBox = true
    /// Whether the last `sweepRuns` summed boxes of rows (for tests).
    var lastSweptAsBandBox = false
    /// Its buffers: the start of each group's cells, the cells binned by group, one
    /// group's cover and area pairs and its bits of touched columns (zero between groups).
    var groupStart: [Int] = []
    var binned = UnsafeMutablePointer<Cell>.allocate(capacity: 1)
    var binnedCapacity = 1
    var bandBox = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var bandBoxCapacity = 0
    var bandBits = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    var bandBitsCapacity = 0

    /// Per-pixel cover and area of a small shape's box (`sweepRuns`), all zero between shapes.
    var boxCover = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var boxArea = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var boxCapacity = 0
    /// The largest box summed densely, in pixels (128 KB of sums).
    static let boxPixels = 8192
    /// Whether small shapes are summed in a dense box (tests compare with the sorts).
    static var boxSweep = true
    /// Whether the last `sweepRuns` summed a dense box (for tests).
    var lastSweptAsBox = false

    /// The fixed-point grid's buffers (Rasterizer+FixedGrid.swift): two sums per pixel and
    /// a bit per pixel, all zero between shapes, and two rows of spans.
    var gridCells = calloc(2, 4)!.assumingMemoryBound(to: Int32.self)   // freed with free()
    var gridCellCapacity = 0
    var gridBits = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    var gridBitCapacity = 0
    var gridSpans = UnsafeMutablePointer<Span>.allocate(capacity: 1)
    var gridSpanCapacity = 0
    /// A byte a row: the rows a grid fill's edges block (`crk_grid_block_rows`).
    var gridMarks = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    var gridMarkCapacity = 0
    /// Whether the last `fillBanded` took the fixed-point grid (for tests; its bands are
    /// `lastBandCount`).
    var lastFillWasFixedGrid = false
    /// How many rows the last grid fill drew from the first of a run of alike rows
    /// (`gridRepeatedRows`; for tests).
    var lastRepeatedRows = 0

    /// The cells gathered so far (merged per edge walk, not yet sorted); for tests.
    var cells: [Cell] { Array(UnsafeBufferPointer(start: acc.cells.base, count: acc.cells.count)) }

    /// Creates a rasterizer.
    public init() {}

    deinit { spanBuffer.deallocate(); keyBuffer.deallocate(); denseCover.deallocate(); denseArea.deallocate(); denseBits.deallocate(); binned.deallocate(); bandBox.deallocate(); bandBits.deallocate(); boxCover.deallocate(); boxArea.deallocate(); free(gridCells); gridBits.deallocate(); gridSpans.deallocate(); gridMarks.deallocate(); acc.cells.free() }

    /// The polylines and loose edges of the shape being built, for the pixels of an
    /// even-odd fill that are sampled from crossings (`CrossingSampler`). Holding them
    /// costs an array reference per `add`.
    var sources: [[Polyline]] = []
    var looseEdges: [(Double, Double, Double, Double)] = []
    /// The columns of one row sampled from crossings, and their coverage.
    var sampledColumns: [Int32] = []
    var sampledCoverage: [Double] = []

    /// A shape that is one axis-aligned rectangle (x0, y0, x1, y1), held back from the
    /// cells: its coverage is a product of overlaps, swept without cells (`sweepRect`).
    var pendingRect: (Double, Double, Double, Double)? = nil
    /// The rectangle's own points, so that edges made from it keep its winding.
    var pendingRectPoints: [Point] = []

    /// Starts a new shape clipped to the given device box.
    public func reset(clipX: Int, clipY: Int, clipWidth: Int, clipHeight: Int) {
        pendingRect = nil
        acc.cells.count = 0
        acc.hasCur = false
        if !sources.isEmpty { sources.removeAll(keepingCapacity: true) }
        if !looseEdges.isEmpty { looseEdges.removeAll(keepingCapacity: true) }
        acc.clipMinX = clipX; acc.clipMinY = clipY
        acc.clipMaxX = clipX + max(0, clipWidth); acc.clipMaxY = clipY + max(0, clipHeight)
        acc.minRow = Int.max; acc.maxRow = Int.min
    }

    /// Adds every polyline as a closed polygon (an open one is closed by a straight edge).
    public func add(_ polylines: [Polyline]) {
        sources.append(polylines)
        if pendingRect == nil && acc.cells.count == 0 && !acc.hasCur, polylines.count == 1,
           let r = axisAlignedRect(polylines[0].points) {
            pendingRect = r
            pendingRectPoints = polylines[0].points
            return
        }
        materializeRect()
        walk(polylines)
    }

    /// Walks every polyline as a closed polygon into the cells, in order: `add` without
    /// its held-back rectangle. Each polyline's cells depend only on its own points and
    /// on the clip (not at all on the clip when the polyline lies strictly inside it), so
    /// the cells of several polylines are the cells of each, one after the other
    /// (`pieceCells`).
    func walk(_ polylines: [Polyline]) {
        var a = Accumulator()
        swap(&a, &acc)
        defer { swap(&a, &acc) }
        for pl in polylines {
            let pts = pl.points
            guard pts.count >= 2 else { continue }
            a.flush()
            let first = a.cells.count
            let top = Double(a.clipMinY), bottom = Double(a.clipMaxY)
            pts.withUnsafeBufferPointer { p in
                var prev = p[p.count - 1]
                for q in p {
                    // An edge wholly above or below the clip's rows closes the current cell
                    // and deposits nothing, which is what `walk` does with it; decided here
                    // without the call. In the bands of a long line (`fillBanded`) nearly
                    // every edge is such an edge, once per band. (Non-finite and horizontal
                    // edges still go to `addEdge`, which drops them without closing the cell.)
                    if (max(prev.y, q.y) <= top || min(prev.y, q.y) >= bottom) && prev.y != q.y
                        && prev.x.isFinite && q.x.isFinite && prev.y.isFinite && q.y.isFinite {
                        a.flush()
                    } else {
                        a.addEdge(prev.x, prev.y, q.x, q.y)
                    }
                    prev = q
                }
            }
            a.mergeClosingCell(at: pts[pts.count - 1], first: first)
        }
    }

    /// How many bands the last `fillBanded` swept (for tests).
    var lastBandCount = 0
    /// Whether the last `fillBanded` was swept as rectangles, without cells (for tests).
    var lastSweptAsRectangles = false

    /// Adds one directed edge; edges going down add +1 winding, going up −1.
    public func addEdge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        materializeRect()
        looseEdges.append((ax, ay, bx, by))
        acc.addEdge(ax, ay, bx, by)
    }

    /// Turns a held-back rectangle into edges, when more geometry joins it.
    func materializeRect() {
        guard pendingRect != nil else { return }
        pendingRect = nil
        let p = pendingRectPoints
        for i in 0..<4 { acc.addEdge(p[(i + 3) % 4].x, p[(i + 3) % 4].y, p[i].x, p[i].y) }
    }

    /// Sweeps the held-back rectangle: each pixel's coverage is its horizontal overlap
    /// times its vertical overlap, the exact area, as the cells would give (within the
    /// last bit before rounding to 8 bits). Grid lines, ticks, axis-aligned hairlines,
    /// plain bars and backgrounds are such rectangles; they skip the cells, the sort and
    /// the per-cell sweep (measured: 16 % fewer instructions for a 12-chart dashboard).
    func sweepRect(_ r: (Double, Double, Double, Double), scale: Double, _ body: (Int, Int, UnsafeBufferPointer<Span>) -> Void) {
        let minX = Double(acc.clipMinX), maxX = Double(acc.clipMaxX)
        let minY = Double(acc.clipMinY), maxY = Double(acc.clipMaxY)
        let x0 = max(r.0, minX), x1 = min(r.2, maxX), y0 = max(r.1, minY), y1 = min(r.3, maxY)
        guard x0 < x1, y0 < y1 else { return }
        let clipWidth = acc.clipMaxX - acc.clipMinX
        if spanCapacity < clipWidth + 1 {
            spanBuffer.deallocate()
            spanCapacity = clipWidth + 1
            spanBuffer = .allocate(capacity: spanCapacity)
        }
        let spans = spanBuffer
        @inline(__always) func alpha(_ v: Double) -> UInt8 {
            UInt8(truncatingIfNeeded: Int((v > 1 ? 1 : v) * scale + 0.5))
        }
        let cl = x0.rounded(.down), cr = x1.rounded(.down)
        let left = Int32(cl), right = Int32(cr)
        // Horizontal overlaps: the first column, the last, and 1 between them.
        let single = cl == cr
        let fl = single ? x1 - x0 : cl + 1 - x0, fr = x1 - cr
        /// Calls `body` for `rows` rows from `row`, each covered `fy` high.
        @inline(__always) func run(_ row: Int, _ rows: Int, _ fy: Double) {
            var count = 0
            let a = alpha(fl * fy)
            if a != 0 { emitSpan(spans, &count, left, 1, a) }
            if !single {
                if right > left + 1 {
                    let m = alpha(fy)
                    if m != 0 { emitSpan(spans, &count, left + 1, right - left - 1, m) }
                }
                let b = alpha(fr * fy)
                if b != 0 { emitSpan(spans, &count, right, 1, b) }
            }
            if count > 0 { body(row, rows, UnsafeBufferPointer(start: spans, count: count)) }
        }
        // The last row is the one before ⌈y1⌉. (As ⌈y1 − 1⌉ it was row −1 for a rectangle a
        // few 1e-186 px tall at the top of the canvas: y1 − 1 rounds to −1; found by
        // fuzzing, a heap overflow in the blit.)
        let top = Int(y0.rounded(.down)), bottom = max(top, Int(y1.rounded(.up)) - 1)
        if top == bottom { run(top, 1, y1 - y0); return }
        run(top, 1, Double(top + 1) - y0)
        if bottom > top + 1 { run(top + 1, bottom - top - 1, 1) }
        run(bottom, 1, y1 - Double(bottom))
    }

    /// Sweeps the gathered cells, calling `body` once per row that has spans.
    /// `opacity` scales every coverage before it is rounded to 8 bits.
    public func sweep(rule: FillRule, opacity: Double = 1, _ body: (Int, UnsafeBufferPointer<Span>) -> Void) {
        sweepRuns(rule: rule, opacity: opacity) { y, rows, spans in
            for k in 0..<rows { body(y + k, spans) }
        }
    }

    /// `sweep`, with consecutive rows that have the same spans handed over once:
    /// `body(y, rows, spans)` stands for rows y ..< y + rows. The straight sides of
    /// rectangles, rounded rectangles, capsules and areas make long runs, so the caller's
    /// per-row set-up (dirty box, paint switch) is paid once per run.
    func sweepRuns(rule: FillRule, opacity: Double = 1, _ body: (Int, Int, UnsafeBufferPointer<Span>) -> Void) {
        if let r = pendingRect {
            sweepRect(r, scale: 255 * min(1, max(0, opacity.isNaN ? 0 : opacity)), body)
            return
        }
        acc.flush()
        guard acc.cells.count > 0, acc.minRow <= acc.maxRow else { return }
        let cells = UnsafeBufferPointer(start: acc.cells.base, count: acc.cells.count)
        var rowStart: [Int32] = []
        swap(&rowStart, &self.rowStart)
        defer { swap(&rowStart, &self.rowStart) }
        let clipWidth = max(0, acc.clipMaxX - acc.clipMinX)
        if spanCapacity < clipWidth + 1 {
            spanBuffer.deallocate()
            spanCapacity = clipWidth + 1
            spanBuffer = .allocate(capacity: spanCapacity)
        }
        let spans = spanBuffer
        let rows = acc.maxRow - acc.minRow + 1
        let base = acc.minRow
        // Counting sort by row, of keys (column and index) rather than of the cells.
        rowStart.removeAll(keepingCapacity: true)
        rowStart.append(contentsOf: repeatElement(0, count: rows + 2))
        if keyCapacity < cells.count {
            keyBuffer.deallocate()
            keyCapacity = max(cells.count, 2 * keyCapacity)
            keyBuffer = .allocate(capacity: keyCapacity)
        }
        let keys = keyBuffer
        let scale = 255 * min(1, max(0, opacity.isNaN ? 0 : opacity))
        let minX = Int32(acc.clipMinX), maxX = Int32(acc.clipMaxX)
        let evenOdd = rule == .evenOdd
        @inline(__always) func alpha(_ v: Double) -> UInt8 {
            var a = abs(v)
            if evenOdd {
                a -= 2 * (a * 0.5).rounded(.down)
                if a > 1 { a = 2 - a }
            } else if a > 1 { a = 1 }
            return UInt8(a * scale + 0.5)
        }
        if denseCapacity < clipWidth + 1 {
            denseCover.deallocate(); denseArea.deallocate()
            denseCapacity = clipWidth + 1
            denseCover = .allocate(capacity: denseCapacity); denseCover.initialize(repeating: 0, count: denseCapacity)
            denseArea = .allocate(capacity: denseCapacity); denseArea.initialize(repeating: 0, count: denseCapacity)
            denseBits.deallocate()
            denseBits = .allocate(capacity: denseCapacity / 64 + 1); denseBits.initialize(repeating: 0, count: denseCapacity / 64 + 1)
        }
        let dc = denseCover, da = denseArea
        let denseRowCells = Rasterizer.denseRowCells, denseRowBits = Rasterizer.denseRowBits
        // A small shape (a glyph run) whose box holds few pixels per cell: its cells summed
        // into a dense box in the order they were deposited, then swept row by row over the
        // box, without either sort. Each pixel's sums are the sparse path's (the same cells
        // in the same order; ascending keys are deposit order within a column), and a row's
        // pixels with the same alpha make the same spans, as for dense rows below.
        if !evenOdd && Rasterizer.boxSweep && cells.count >= 8 && cells.count <= Rasterizer.boxPixels && rows <= Rasterizer.boxPixels {
            let cs = cells.baseAddress!
            var lo = Int32.max, hi = Int32.min
            for k in 0..<cells.count { let x = cs[k].x; if x < lo { lo = x }; if x > hi { hi = x } }
            let w = Int(hi) - Int(lo) + 1
            if rows * w <= Rasterizer.boxPixels && rows * w <= 3 * cells.count {
                if boxCapacity < rows * w {
                    boxCover.deallocate(); boxArea.deallocate()
                    boxCapacity = Rasterizer.boxPixels
                    boxCover = .allocate(capacity: boxCapacity); boxCover.initialize(repeating: 0, count: boxCapacity)
                    boxArea = .allocate(capacity: boxCapacity); boxArea.initialize(repeating: 0, count: boxCapacity)
                }
                let bc = boxCover, ba = boxArea
                let base32 = Int32(truncatingIfNeeded: base)
                for k in 0..<cells.count {
                    let c = cs[k]
                    let i = Int(c.y &- base32) &* w &+ Int(c.x &- lo)
                    bc[i] += c.cover; ba[i] += c.area
                }
                lastSweptAsBox = true
                // Columns right of the box carry the row's last cover to the clip's side.
                let next = max(minX, hi &+ 1)
                for r in 0..<rows {
                    var count = 0
                    var cover = 0.0
                    let row = r &* w
                    var x = lo
                    for j in row..<(row &+ w) {
                        let cv = bc[j], area = ba[j]
                        bc[j] = 0; ba[j] = 0
                        if x < minX {
                            cover += cv
                        } else if x < maxX {
                            let a = alpha(cover + area)
                            if a != 0 { emitSpan(spans, &count, x, 1, a) }
                            cover += cv
                        }
                        x &+= 1
                    }
                    if next < maxX {
                        let a = alpha(cover)
                        if a != 0 { emitSpan(spans, &count, next, maxX - next, a) }
                    }
                    if count > 0 { body(base + r, 1, UnsafeBufferPointer(start: spans, count: count)) }
                }
                return
            }
        }
        lastSweptAsBox = false
        lastSweptAsBandBox = false
        if !evenOdd && cells.count >= Rasterizer.bandBoxCells && Rasterizer.bandBox
            && sweepBandBox(cells, base: base, rows: rows, minX: minX, maxX: maxX, spans: spans, scale: scale, body) { return }
        // Even-odd pixels holding two separate edges are sampled from crossings.
        var sampler: CrossingSampler? = nil
        var sampledX: [Int32] = [], sampledCov: [Double] = []
        swap(&sampledX, &sampledColumns); swap(&sampledCov, &sampledCoverage)
        defer { swap(&sampledX, &sampledColumns); swap(&sampledCov, &sampledCoverage) }
        var prevSampled = false
        let cs = cells.baseAddress!
        rowStart.withUnsafeMutableBufferPointer { rs in
            // Counts, then running ends, then a backwards scatter that leaves each row's
            // start in place of its end: stable, and without a second offsets array. What
            // is scattered is a key per cell (`cellKey`: column, then index), 8 bytes where
            // a cell is 24; the rows' sorts move keys, and the sweep reads a cell's sums
            // through its index.
            for k in 0..<cells.count { rs[Int(truncatingIfNeeded: cs[k].y &- Int32(truncatingIfNeeded: base)) &+ 1] &+= 1 }
            for r in 0..<rows { rs[r + 1] &+= rs[r] }
            var k = cells.count
            while k > 0 {
                k -= 1
                let c = cs[k]
                let r = Int(truncatingIfNeeded: c.y &- Int32(truncatingIfNeeded: base)) &+ 1
                rs[r] &-= 1
                keys[Int(truncatingIfNeeded: rs[r])] = cellKey(c.x, k)
            }
            rs[rows + 1] = Int32(cells.count)
            // The last row swept by the sparse path: its cells and how many spans it made.
            var prevRow = -2, prevS = 0, prevE = 0, prevCount = 0
            // The run of rows with those spans not yet handed to `body`.
            var runStart = 0, runRows = 0
            for r in 0..<rows {
                let s = Int(rs[r + 1]), e = Int(rs[r + 2])
                if s == e { continue }
                if e - s > denseRowCells && !evenOdd {
                    if runRows > 0 { body(base + runStart, runRows, UnsafeBufferPointer(start: spans, count: prevCount)); runRows = 0 }
                    prevRow = -2
                    denseRowsSwept &+= 1
                    if denseRowBits {
                        let count = sweepDenseRow(cs, keys + s, e - s, minX: minX, maxX: maxX, spans: spans, alpha)
                        if count > 0 { body(base + r, 1, UnsafeBufferPointer(start: spans, count: count)) }
                        continue
                    }
                    // Many cells in one row (a dense polyline crossing it again and again):
                    // accumulate them by column into a dense row, O(cells + width), where
                    // the insertion sort below is quadratic. The sums are taken in the same
                    // order (the keys of a row are in deposit order here), so the spans are
                    // the ones the sparse path would give.
                    var lo = Int32.max, hi = Int32.min
                    for i in s..<e { let x = keyColumn(keys[i]); if x < lo { lo = x }; if x > hi { hi = x } }
                    let x0 = max(lo, minX), x1 = min(hi, maxX - 1)
                    var cover = 0.0
                    for i in s..<e {
                        let c = cs[keyIndex(keys[i])]
                        if c.x < minX { cover += c.cover } else if c.x < maxX {
                            let k = Int(c.x - x0)
                            dc[k] += c.cover; da[k] += c.area
                        }
                    }
                    var count = 0
                    if x0 > minX {
                        let a = alpha(cover)
                        if a != 0 { emitSpan(spans, &count, minX, x0 - minX, a) }
                    }
                    if x0 <= x1 {
                        for x in x0...x1 {
                            let k = Int(x - x0)
                            let a = alpha(cover + da[k])
                            if a != 0 { emitSpan(spans, &count, x, 1, a) }
                            cover += dc[k]
                            dc[k] = 0; da[k] = 0
                        }
                    }
                    let next = max(x0, x1 + 1)
                    if next < maxX {
                        let a = alpha(cover)
                        if a != 0 { emitSpan(spans, &count, next, maxX - next, a) }
                    }
                    if count > 0 { body(base + r, 1, UnsafeBufferPointer(start: spans, count: count)) }
                    continue
                }
                // By column: cells of a row are few and mostly ordered.
                if e - s > 1 { Rasterizer.sortKeys(keys + s, e - s) }
                // An even-odd row with two cells in one column (two edges in a pixel) has
                // those pixels sampled from the crossings instead of folded.
                var sampled = false
                if evenOdd {
                    sampledX.removeAll(keepingCapacity: true)
                    var i = s + 1
                    while i < e {
                        let x = keyColumn(keys[i])
                        if x == keyColumn(keys[i - 1]) && x >= minX && x < maxX && sampledX.last != x { sampledX.append(x) }
                        i += 1
                    }
                    sampled = !sampledX.isEmpty
                }
                // A row whose cells equal the previous row's (the straight vertical sides of
                // rounded rectangles, capsules and areas) has the same spans, still in the
                // buffer: the spans are a function of the row's cells alone (sampled rows
                // are not: they depend on where the edges cross).
                if r == prevRow + 1 && e - s == prevE - prevS && prevCount > 0 && !sampled && !prevSampled {
                    var same = true
                    var k = 0
                    while k < e - s {
                        let ka = keys[s + k], kb = keys[prevS + k]
                        let a = cs[keyIndex(ka)], b = cs[keyIndex(kb)]
                        if (ka ^ kb) >> 32 != 0 || a.cover != b.cover || a.area != b.area { same = false; break }
                        k += 1
                    }
                    if same {
                        prevRow = r; prevS = s; prevE = e
                        runRows += 1
                        continue
                    }
                }
                // A new row: hand over the run of rows before it while its spans are in the buffer.
                if runRows > 0 { body(base + runStart, runRows, UnsafeBufferPointer(start: spans, count: prevCount)); runRows = 0 }
                var nextSampled = 0
                if sampled {
                    if sampler == nil {
                        sampler = CrossingSampler(sources: sources, looseEdges: looseEdges,
                                                  top: Double(acc.clipMinY), bottom: Double(acc.clipMaxY))
                    }
                    sampledCov.removeAll(keepingCapacity: true)
                    sampledCov.append(contentsOf: repeatElement(0, count: sampledX.count))
                    // A row crowded with edges near its sampled pixels is folded as before.
                    sampled = sampledX.withUnsafeBufferPointer { xs in
                        sampledCov.withUnsafeMutableBufferPointer { cov in
                            sampler!.sample(row: base + r, columns: xs, into: cov.baseAddress!)
                        }
                    }
                }
                var count = 0
                var cover = 0.0
                var i = s
                var nextX = minX   // first column not yet emitted
                while i < e {
                    let key = keys[i]
                    let x = keyColumn(key)
                    let c = cs[keyIndex(key)]
                    var cv = c.cover, area = c.area
                    i += 1
                    while i < e && (keys[i] ^ key) >> 32 == 0 {
                        let d = cs[keyIndex(keys[i])]
                        cv += d.cover; area += d.area; i += 1
                    }
                    if x >= maxX { break }
                    // Rounding can put a cell a hair left of the clip: carry its winding, draw nothing.
                    if x < minX { cover += cv; continue }
                    if x > nextX {
                        let a = alpha(cover)
                        if a != 0 { emitSpan(spans, &count, nextX, x - nextX, a) }
                    }
                    let a: UInt8
                    if sampled && nextSampled < sampledX.count && sampledX[nextSampled] == x {
                        a = alpha(min(1, sampledCov[nextSampled]))
                        nextSampled += 1
                    } else {
                        a = alpha(cover + area)
                    }
                    if a != 0 { emitSpan(spans, &count, x, 1, a) }
                    cover += cv
                    nextX = x + 1
                }
                if nextX < maxX {
                    let a = alpha(cover)
                    if a != 0 { emitSpan(spans, &count, nextX, maxX - nextX, a) }
                }
                prevRow = r; prevS = s; prevE = e; prevCount = count; prevSampled = sampled
                if count > 0 { runStart = r; runRows = 1 }
            }
            if runRows > 0 { body(base + runStart, runRows, UnsafeBufferPointer(start: spans, count: prevCount)) }
        }
    }
}

/// A cell's sort key in a row: its column in the high half (biased so that unsigned order
/// is the columns' signed order), its index among the shape's cells in the low half. Keys
/// are distinct, and ascending keys are the cells by column and, within a column, in the
/// order they were deposited: the stable order by column.
@inline(__always)
func cellKey(_ x: Int32, _ index: Int) -> UInt64 {
    UInt64(UInt32(bitPattern: x) ^ 0x8000_0000) << 32 | UInt64(UInt32(truncatingIfNeeded: index))
}

/// The column of a `cellKey`.
@inline(__always)
func keyColumn(_ key: UInt64) -> Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: key >> 32) ^ 0x8000_0000) }

/// The cell index of a `cellKey`.
@inline(__always)
func keyIndex(_ key: UInt64) -> Int { Int(UInt32(truncatingIfNeeded: key)) }

extension Rasterizer {
    /// Orders one row's keys ascending, which is its cells' stable order by column (keys
    /// are distinct): `sortByColumn` on 8-byte keys instead of 24-byte cells. Insertion
    /// sort for the usual handful, one comparison for two, the standard library's sort
    /// for crowded rows (where insertion sort is quadratic).
    @inline(__always)
    static func sortKeys(_ k: UnsafeMutablePointer<UInt64>, _ n: Int) {
        if n == 2 {
            let a = k[0], b = k[1]
            if b < a { k[0] = b; k[1] = a }
        } else if n > 64 {
            var b = UnsafeMutableBufferPointer(start: k, count: n)
            b.sort()
        } else {
            var i = 1
            while i < n {
                let v = k[i]
                var j = i - 1
                while j >= 0 && k[j] > v { k[j + 1] = k[j]; j -= 1 }
                k[j + 1] = v
                i += 1
            }
        }
    }
}

/// Appends a span to a row, merging it into the previous one when it continues it with
/// the same alpha.
@inline(__always)
func emitSpan(_ spans: UnsafeMutablePointer<Span>, _ count: inout Int, _ x: Int32, _ len: Int32, _ a: UInt8) {
    if count > 0 {
        let last = spans[count - 1]
        if last.alpha == a && last.x &+ last.length == x { spans[count - 1].length = last.length &+ len; return }
    }
    spans[count] = Span(x: x, length: len, alpha: a)
    count += 1
}

/// The rectangle (x0, y0, x1, y1) when `p` is four finite points of an axis-aligned
/// rectangle with area (either winding), else nil.
@inline(__always)
func axisAlignedRect(_ p: [Point]) -> (Double, Double, Double, Double)? {
    guard p.count == 4 else { return nil }
    let a = p[0], b = p[1], c = p[2], d = p[3]
    guard a.isFinite, c.isFinite else { return nil }
    let horizontalFirst = a.y == b.y && b.x == c.x && c.y == d.y && d.x == a.x
    let verticalFirst = a.x == b.x && b.y == c.y && c.x == d.x && d.y == a.y
    guard horizontalFirst || verticalFirst else { return nil }
    let x0 = min(a.x, c.x), x1 = max(a.x, c.x), y0 = min(a.y, c.y), y1 = max(a.y, c.y)
    guard x0 < x1, y0 < y1 else { return nil }
    return (x0, y0, x1, y1)
}
