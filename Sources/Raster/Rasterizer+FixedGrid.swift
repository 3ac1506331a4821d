import CRasterKernels
import Geometry
#if canImport(Glibc)
import Glibc
#endif

// Non-zero shapes of a bounded box, scan converted in fixed point into a dense grid
// (CRasterKernels/fixedcells.c).
//
// Why: a thin stroke (a chart's 3 px line, 1,000 outline edges and 2,000 cells over a box
// of 400 × 150 pixels) cost about 350 instructions an edge in the Double walk (callgrind:
// its general path, with clip cuts, the merge of consecutive cells and the list they go
// to) and as many again in the sweep's two sorts and keyed reads; Blend2D draws the same
// line in about a third of the time. Doubles summed in a different order give different
// bytes, which is why the walk kept a list in deposit order. Integers do not: with
// vertices rounded to 1/256 px (as Blend2D, Cairo and FreeType do) and cover and area as
// integer sums, each piece goes straight into its pixel of a dense grid over the shape's
// box, a bit marks the pixel, and a row is swept by its bits. Nothing is sorted or merged.
// The grid is one 32-bit sum a pixel whose running sum along a row is the coverage
// (since 2026-12-07; it held a cover and an area, twice the memory, before).
//
// What changes: coverage is the exact area of the polygon with its vertices moved by at
// most 1/512 px, so edge pixels can differ from the Double walk's by a level or two (the
// Cairo reference suite's thresholds hold, CairoReferenceTests). Only the rule of this
// path decides which a shape takes, from its own box, so the same document still gives
// the same bytes on every run and machine (no floating-point sums, no CPU-dependent code).
//
// Rows alike (2026-12-08): between a bar's or a panel's rounded ends, every row is crossed
// by its two straight sides alone, each at one x from the row's top to its bottom, so
// every such row has the same cells and the same spans. A composited fill (`GridPaint`,
// one band, inside the clip) finds the longest such run (`repeatedRows`), walks its
// vertical edges into the run's first row only, and composites that row's spans on every
// row of the run with the row's own paint (a vertical gradient's colour, a slanted one's
// start): the dashboard's 36 bars and 12 panels are about 9,000 rows a frame that are no
// longer walked or swept, 1.04× its frame rate. The same bytes: the cells that are no
// longer deposited are the ones the first row's sweep would have given again.
//
// Which shapes: non-zero fills and strokes (`Canvas.fill`, `Canvas.stroke`) that are not a
// single rectangle (those sweep without cells, `sweepRect`), in one band of at most
// `fixedGridPixels` pixels or in up to `fixedGridMaxBands` bands of rows. Even-odd fills
// keep the Double walk and its sampling of crossings (Rasterizer+Crossings.swift); so do
// boxes that would need more bands, and labels (the coverage cache, pieces and snapped
// pieces must give each other's bytes).

/// A paint that a grid fill composites source-over straight from its rows
/// (`crk_grid_fill_row`) instead of handing spans back: a solid colour with the pixels
/// each span would get from `blitSolidWide`, a linear gradient with those of
/// `crk_linear_spans` (a vertical one as a solid colour per row), without writing the
/// spans out and looping over them in Swift. Thin strokes are nearly all edge pixels, a
/// span each.
struct GridPaint {
    /// The device pixels, `stride` a row.
    var pixels: UnsafeMutablePointer<UInt32>
    var stride: Int
    /// A solid or linear paint, and its table.
    var params: Shader.Params
    var lut: UnsafePointer<UInt32>
    /// The drawn box grows here: columns x0 ..< x1, rows y0 ... y1 (as Canvas keeps it).
    var dirty: UnsafeMutablePointer<(x0: Int, y0: Int, x1: Int, y1: Int)>
}

extension Rasterizer {
    /// The most pixels in one band of the fixed-point grid: 2 MB of cells per rasterizer
    /// (a render worker has one; 4 MB before the cells became one sum a pixel), touched
    /// only where edges pass. With 1 M pixels (of two sums), a 4K video's peak memory rose
    /// by 17 MB over two workers (`scripts/bench --load`).
    static var fixedGridPixels = 1 << 19
    /// Whether non-zero shapes take the grid (tests compare with the Double walk).
    static var fixedGrid = true
    /// Whether a shape larger than the grid takes it in bands of rows (else the Double walk),
    /// and in at most how many.
    static var fixedGridBands = true
    static let fixedGridMaxBands = 16
    /// Points per chunk of a long polyline drawn in bands (`crk_polyline_chunk_bounds`);
    /// polylines under four chunks are walked whole.
    static var fixedGridChunk = 64
    /// Whether bands skip the polylines and chunks wholly outside them (tests compare
    /// with every band walking every edge).
    static var fixedGridSkips = true
    /// Whether a solid or linear source-over fill on the grid is composited by its sweep
    /// (`GridPaint`); tests compare with the spans blitted in Swift.
    static var gridPaintFill = true
    /// How many rows ahead a grid fill, and a concentric radial fill, prefetches the
    /// destination under the row it composites (0: none; `crk_row_paint.ahead`). A
    /// shape's rows lie a stride apart, so each begins a stream the hardware prefetcher
    /// has not seen; translucent fills read every pixel before they write it.
    static var prefetchRows = 2
    /// Whether a composited grid fill draws rows that only vertical edges cross from the
    /// first of them (`repeatedRows`); tests compare with every row swept.
    static var gridRepeatedRows = true
    /// The fewest such rows worth it (finding them takes two passes over the points).
    static let repeatedRowsAtLeast = 8

    /// Scan converts `polylines` (non-zero) in fixed point and hands the rows to `body`
    /// as `sweepRuns` does, or composites them in `paint` when given; returns false,
    /// having drawn nothing, when the shape's box is too large, a point is not finite or
    /// the shape is one rectangle.
    func fillFixedGrid(_ polylines: [Polyline], clipX: Int, clipY: Int, clipWidth: Int, clipHeight: Int,
                       opacity: Double, paint: GridPaint? = nil, _ body: (Int, Int, UnsafeBufferPointer<Span>) -> Void) -> Bool {
        lastRepeatedRows = 0
        guard Rasterizer.fixedGrid, clipWidth > 0, clipHeight > 0 else { return false }
        if polylines.count == 1 && axisAlignedRect(polylines[0].points) != nil { return false }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var finite = true
        for pl in polylines {
            pl.points.withUnsafeBufferPointer { p in
                for q in p {
                    if q.x < minX { minX = q.x }
                    if q.x > maxX { maxX = q.x }
                    if q.y < minY { minY = q.y }
                    if q.y > maxY { maxY = q.y }
                    if !(q.x.isFinite && q.y.isFinite) { finite = false }
                }
            }
        }
        guard finite else { return false }
        lastFillWasFixedGrid = true
        lastBandCount = 1
        guard minX <= maxX else { return true }
        let clipRight = clipX + clipWidth, clipBottom = clipY + clipHeight
        // Rows the edges can reach inside the clip; columns from the leftmost point (the
        // clip's left side for parts left of it) to the rightmost inside the clip.
        // (Each bound clamped to the clip before it becomes an Int: points may be 1e300.)
        @inline(__always) func within(_ v: Double, _ lo: Int, _ hi: Int) -> Double { min(max(v, Double(lo)), Double(hi)) }
        let top = Int(within(minY, clipY, clipBottom).rounded(.down))
        let bottom = Int(within(maxY, clipY, clipBottom).rounded(.up))
        guard top < bottom else { return true }
        // A point a hair left of a pixel boundary rounds onto it (to 1/256 px): one more
        // column on the right, or its pieces would fall outside the grid.
        let left = min(Int(within(minX, clipX, clipRight).rounded(.down)), clipRight - 1)
        let right = max(left + 1, min(clipRight, Int(within(maxX, clipX, clipRight).rounded(.down)) + 2))
        let width = right - left
        // Bands of rows when the box is larger than the grid: the cells hold one band at a
        // time, and each band walks every edge on its own rows only (fixed_line), starting
        // and stopping where the whole walk crosses its top and bottom: the bands never
        // change the picture. Every band visits every edge, so at most `fixedGridMaxBands`
        // (a 4K frame takes 16); beyond, the Double walk, whose bands walk only their own
        // edges (`BandPlan`).
        let height = bottom - top
        let bandRows = max(1, min(height, Rasterizer.fixedGridPixels / max(1, width)))
        let bands = (height + bandRows - 1) / bandRows
        guard width <= Rasterizer.fixedGridPixels, bands <= (Rasterizer.fixedGridBands ? Rasterizer.fixedGridMaxBands : 1) else {
            lastFillWasFixedGrid = false
            return false
        }
        let words = (width + 63) >> 6
        if gridCellCapacity < (width + 1) * bandRows {
            // calloc: a large grid comes as fresh zero pages, resident only where edges
            // pass (a 4K frame's band is 2 MB; a render worker's thin lines touch a few
            // hundred KB of it).
            free(gridCells)
            gridCellCapacity = max((width + 1) * bandRows, min(Rasterizer.fixedGridPixels + Rasterizer.fixedGridPixels / 4,
                                                                2 * gridCellCapacity))
            guard let p = calloc(gridCellCapacity, MemoryLayout<Int32>.stride) else { fatalError("out of memory for the raster grid") }
            gridCells = p.assumingMemoryBound(to: Int32.self)
        }
        if gridBitCapacity < words * bandRows {
            gridBits.deallocate()
            gridBitCapacity = max(words * bandRows, 2 * gridBitCapacity)
            gridBits = .allocate(capacity: gridBitCapacity)
            gridBits.initialize(repeating: 0, count: gridBitCapacity)
        }
        // Two rows' spans, alternately: a row whose spans equal the row above's joins its run.
        let half = width + 2
        if gridSpanCapacity < 2 * half {
            gridSpans.deallocate()
            gridSpanCapacity = 2 * half
            gridSpans = .allocate(capacity: gridSpanCapacity)
        }
        let inside = minX >= Double(clipX) && maxX <= Double(clipRight) && minY >= Double(clipY) && maxY <= Double(clipBottom)
        lastBandCount = 0
        // In bands, a long polyline's edges are walked a chunk at a time, and a chunk wholly
        // outside the band is skipped: every band visits every edge otherwise (line-4k's
        // 100,000-point line is a million stroke edges, 16 bands: the rejections alone were
        // a fifth of its frame, perf).
        // A shorter polyline wholly above or below a band is skipped whole (its extent
        // taken once): a chart's many small shapes, dots or bars, in a 4K frame's bands.
        let chunk = Rasterizer.fixedGridChunk
        var chunkBounds: [[Double]] = []
        var extents: [(lo: Double, hi: Double)] = []
        if bands > 1 && Rasterizer.fixedGridSkips {
            extents = polylines.map { pl in
                var lo = Double.infinity, hi = -Double.infinity
                for q in pl.points { lo = min(lo, q.y); hi = max(hi, q.y) }
                return (lo, hi)
            }
            chunkBounds = polylines.map { pl in
                guard pl.points.count >= 4 * chunk else { return [] }
                var b = [Double](repeating: 0, count: 4 * ((pl.points.count + chunk - 1) / chunk))
                withCoordinates(pl) { xy, n in
                    b.withUnsafeMutableBufferPointer { crk_polyline_chunk_bounds(xy, n, chunk, $0.baseAddress!) }
                }
                return b
            }
        }
        // A composited fill in one band, inside the clip: its rows that only vertical edges
        // cross (a bar's or a panel's sides between its rounded ends) are drawn from the
        // first of them.
        var repeated: (Int32, Int32) = (0, 0)
        if paint != nil && bands == 1 && inside && Rasterizer.gridRepeatedRows && height >= Rasterizer.repeatedRowsAtLeast {
            repeated = repeatedRows(polylines, originX: Double(left), originY: Double(top))
        }
        lastRepeatedRows = Int(repeated.1 - repeated.0)
        for b in 0..<bands {
            let bandTop = top + b * bandRows, rows = min(bandRows, bottom - bandTop)
            var g = crk_grid(cells: gridCells, bits: gridBits, width: Int32(width), height: Int32(height), words: Int32(words),
                             min_row: Int32.max, max_row: -1, inside: inside ? 1 : 0,
                             origin_x: Double(left), origin_y: Double(top),
                             clip_left: Double(clipX), clip_top: Double(clipY), clip_right: Double(clipRight),
                             clip_bottom: Double(clipBottom), band_top: Int32(b * bandRows), band_rows: Int32(rows),
                             repeat_row: repeated.0, repeat_end: repeated.1)
            lastBandCount += 1
            for (k, pl) in polylines.enumerated() where pl.points.count >= 2 {
                // fixed_line would walk none of it (both ends of every edge at or above the
                // band's top, or at or below its bottom).
                if !extents.isEmpty && (extents[k].hi <= Double(bandTop) || extents[k].lo >= Double(bandTop + rows)) { continue }
                withCoordinates(pl) { xy, n in
                    if k < chunkBounds.count && !chunkBounds[k].isEmpty {
                        chunkBounds[k].withUnsafeBufferPointer { crk_grid_polyline_chunked(&g, xy, n, $0.baseAddress!, chunk) }
                    } else {
                        crk_grid_polyline(&g, xy, n)
                    }
                }
            }
            if g.min_row <= g.max_row {
                if let paint {
                    fillGridRows(&g, top: bandTop, clipRight: clipRight, opacity: opacity, paint)
                } else {
                    sweepGrid(&g, top: bandTop, clipRight: clipRight, opacity: opacity, body)
                }
            }
        }
        return true
    }

    /// A non-empty polyline's points as the C kernels take them: x, y pairs, and the count.
    @inline(__always)
    private func withCoordinates(_ pl: Polyline, _ body: (UnsafePointer<Double>, Int) -> Void) {
        pl.points.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: Double.self, capacity: 2 * p.count) { body($0, p.count) }
        }
    }

    /// The longest run of the grid's rows (box rows, the box's top-left pixel at
    /// `originX`, `originY`) that only vertical edges cross, each from the row's top to its
    /// bottom (so every row of it has the same cells), as (first, end); (0, 0) when no run
    /// has `repeatedRowsAtLeast` rows. A capsule bar's straight sides, a rounded panel's:
    /// the dashboard's 36 bars and 12 panels are about 9,000 such rows a frame, each swept
    /// (its bitmap, its cells, its spans) only to give the row above's spans again.
    private func repeatedRows(_ polylines: [Polyline], originX: Double, originY: Double) -> (Int32, Int32) {
        var probe = crk_grid()
        probe.origin_x = originX; probe.origin_y = originY
        // The longest vertical edge's rows, then what blocks them; no sorting, and shapes
        // without a long vertical edge (curves, slanted lines) stop after one pass.
        var first: Int32 = 0, last: Int32 = -1
        for pl in polylines where pl.points.count >= 2 {
            withCoordinates(pl) { crk_grid_longest_vertical(&probe, $0, $1, &first, &last) }
        }
        let rows = Int(last - first + 1)
        guard rows >= Rasterizer.repeatedRowsAtLeast else { return (0, 0) }
        if gridMarkCapacity < rows {
            gridMarks.deallocate()
            gridMarkCapacity = max(rows, 2 * gridMarkCapacity)
            gridMarks = .allocate(capacity: gridMarkCapacity)
        }
        let blocked = gridMarks
        blocked.initialize(repeating: 0, count: rows)
        for pl in polylines where pl.points.count >= 2 {
            withCoordinates(pl) { crk_grid_block_rows(&probe, $0, $1, first, last, blocked) }
        }
        var start: Int32 = 0
        let best = crk_longest_clear_run(blocked, Int32(rows), &start)
        guard best >= Rasterizer.repeatedRowsAtLeast else { return (0, 0) }
        return (first + start, first + start + best)
    }

    /// Sweeps the grid's touched rows (`origin_y` is device row `top`) and composites them
    /// in `paint`: the row loop is `crk_grid_fill_rows` (in Swift it was 3.5 % of the
    /// dashboard's frame: the gradient's row start, the dirty box through a pointer).
    private func fillGridRows(_ g: inout crk_grid, top: Int, clipRight: Int, opacity: Double, _ paint: GridPaint) {
        let scale = 255 * min(1, max(0, opacity.isNaN ? 0 : opacity))
        let sp = paint.params
        // As Canvas's span loop: a vertical gradient is one colour a row, drawn as a solid.
        let gradient = sp.kind == .linear, vertical = gradient && sp.a == 0
        var rp = crk_row_paint(kind: gradient && !vertical ? 1 : 0, color: sp.color, lut: paint.lut, n: Int32(sp.n),
                               spread: sp.spread.kernelCode, q0: 0, a: Float(sp.a), ahead: 0, ahead_rows: Int32(Rasterizer.prefetchRows), thin: 0)
        let rows = crk_row_gradient(la: sp.a, lb: sp.b, lc: sp.c, vertical: vertical ? 1 : 0)
        let dirty = UnsafeMutableRawPointer(paint.dirty).assumingMemoryBound(to: Int.self)
        gridSpans.withMemoryRebound(to: crk_span.self, capacity: gridSpanCapacity) { spans in
            withUnsafePointer(to: rows) { rows in
                crk_grid_fill_rows(&g, Int32(top), scale, Int32(clipRight), paint.pixels, paint.stride, &rp,
                                   gradient ? rows : nil, spans, dirty)
            }
        }
    }

    /// Sweeps the grid's touched rows (`origin_y` is device row `top`) and hands them to
    /// `body`, rows with the same spans as the row above as one run.
    private func sweepGrid(_ g: inout crk_grid, top: Int, clipRight: Int, opacity: Double,
                           _ body: (Int, Int, UnsafeBufferPointer<Span>) -> Void) {
        let half = Int(g.width) + 2
        let scale = 255 * min(1, max(0, opacity.isNaN ? 0 : opacity))
        let spans = gridSpans
        var runStart = 0, runRows = 0, runCount = 0, runHalf = 0
        spans.withMemoryRebound(to: crk_span.self, capacity: gridSpanCapacity) { cs in
            for r in Int(g.min_row)...Int(g.max_row) {
                let h = runRows > 0 ? 1 - runHalf : runHalf
                let out = spans + h * half
                let count = crk_grid_sweep_row(&g, Int32(r), scale, Int32(clipRight), cs + h * half)
                if runRows > 0 && count == runCount && r == runStart + runRows {
                    let prev = spans + runHalf * half
                    var same = true
                    for k in 0..<count where out[k] != prev[k] { same = false; break }
                    if same { runRows += 1; continue }
                }
                if runRows > 0 { body(top + runStart, runRows, UnsafeBufferPointer(start: spans + runHalf * half, count: runCount)) }
                runRows = 0
                if count > 0 { runStart = r; runRows = 1; runCount = count; runHalf = h }
            }
        }
        if runRows > 0 { body(top + runStart, runRows, UnsafeBufferPointer(start: spans + runHalf * half, count: runCount)) }
    }
}
