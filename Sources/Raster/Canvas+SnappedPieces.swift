import Geometry
import Synchronization

// A moving label's coverage per fraction of a pixel, from its glyphs' kept cells.
//
// A label drawn with `subpixelSteps` (a race's value label riding its bar) is rasterized
// once per fraction of a pixel at a canonical place and replayed wherever it goes
// (`fill(_:paint:rule:opacity:blendMode:cache:subpixelSteps:)`). When its string is new
// on every frame (a value that counts), the label's cache misses on every frame and the
// whole label was flattened, walked and swept anew, though most of its glyphs were drawn
// on the frame before at the same place in the label and the same fraction (the name, and
// the digits that did not change). The canonical rasterization is a function of the
// label's polylines at the fraction, shifted by whole pixels so their box starts at
// (1, 1): a glyph's part of it (its polylines, moved by the same shift) depends only on
// the glyph, its pen position, the linear part of the transform, the fraction and the
// shift. Those cells are kept per glyph (`SnappedPieceCache`) and the label is swept from
// them, as `fill(pieces:...)` sweeps a counter's (Rasterizer+Pieces.swift): the same
// cells in the same order as walking the whole label, so the same runs, the same block
// and the same bytes.
//
// Measured on the 1,000-key race (perf, docs/benchmarks.md, issue #15): flattening and
// walking the value labels were about a sixth of a frame.

/// What a glyph's outline flattens to under a transform whose translation is a fraction
/// of a pixel: the box of its points, how many polylines, and the cells they deposit once
/// moved by a whole-pixel shift. Shared by every canvas and thread of the process.
///
/// Memory is bounded by `byteBudget` as `PieceCellCache`'s is: two generations, the older
/// dropped when the newer holds half the budget, a hit in the older moving back. What the
/// cache holds never changes a frame's bytes: an entry is a pure function of its key.
public final class SnappedPieceCache: Sendable {
    /// A piece under the linear part of a transform and a fraction of a pixel.
    struct Key: Hashable {
        let piece: ShapePiece
        let a: Double, b: Double, c: Double, d: Double, fx: Double, fy: Double
        let tolerance: Double

        /// One word into the hasher from the fields that tell a label's glyphs apart
        /// (equality compares every field): a frame looks up every glyph of every label.
        func hash(into h: inout Hasher) {
            let o = (piece.origin.x.bitPattern &* 0x9E37_79B9_7F4A_7C15) ^ (piece.origin.y.bitPattern &* 0xC2B2_AE3D_27D4_EB4F)
            let f = (fx.bitPattern &* 0x1656_67B1_9E37_79F9) ^ (fy.bitPattern &* 0x27D4_EB2F_1656_67C5)
            h.combine(o ^ f ^ (UInt64(piece.index) &* 0x85EB_CA77_C2B2_AE63) ^ piece.scale.bitPattern ^ a.bitPattern)
        }
    }

    /// One piece's flattened box and polyline count (the box of all its points, as
    /// `canonicalRuns` takes it; infinite when it has none), and its cells under the
    /// whole-pixel shifts it was met with (a label's shift rarely changes: one or two).
    struct Entry: Sendable, CacheSized {
        let minX: Double, minY: Double, maxX: Double, maxY: Double
        let polylines: Int
        var shifts: [(x: Int, y: Int, cells: PieceCells)] = []

        init(_ polys: [Polyline]) {
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for p in polys { for q in p.points { minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y) } }
            self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
            polylines = polys.count
        }

        func cells(_ x: Int, _ y: Int) -> PieceCells? {
            for s in shifts where s.x == x && s.y == y { return s.cells }
            return nil
        }

        var bytes: Int { 128 + shifts.reduce(0) { $0 + 24 + $1.cells.bytes } }
    }

    private let table = Mutex(CacheGenerations<Key, Entry>())
    /// The most bytes held at once (both generations).
    public let byteBudget: Int

    /// The cache every canvas uses unless given another.
    public static let shared = SnappedPieceCache()

    /// Creates an empty cache holding at most `byteBudget` bytes (32 MB by default: the
    /// 20 value labels of a 1,000-key race at their fractions of a pixel).
    public init(byteBudget: Int = 32 << 20) {
        self.byteBudget = max(0, byteBudget)
    }

    /// Bytes held now (both generations).
    public var bytes: Int { table.withLock { $0.bytes } }

    /// The entry kept for each key, nil where none is.
    func entries(for keys: [Key]) -> [Entry?] {
        table.withLock { t in keys.map { t.lookup($0, budget: byteBudget) } }
    }

    /// Keeps `entry` for `key`, with the shifts already kept for it (another thread may
    /// have added one meanwhile). An entry alone over half the budget is not kept.
    func store(_ entry: Entry, for key: Key) {
        guard entry.bytes <= byteBudget / 2 else { return }
        table.withLock { t in
            var e = entry
            if let kept = t.current[key] {
                for s in kept.shifts where e.cells(s.x, s.y) == nil { e.shifts.append(s) }
            }
            t.insert(e, for: key, budget: byteBudget)
        }
    }
}

extension Canvas {
    /// Fills the shape made of `pieces` (piece i's path is `path(i)`; `whole` is their
    /// paths one after another) with the non-zero rule, as
    /// `fill(whole, paint:rule:opacity:blendMode:cache:subpixelSteps:)` does: the same
    /// bytes, and the same entries in `cache`. When the shape's coverage at its fraction of
    /// a pixel is not in `cache`, it is swept from each piece's cells kept in `cells`
    /// (pieces met before at this fraction are not flattened or walked again), or drawn
    /// from `whole` where that cannot give the same runs (a shape of fewer than two
    /// polylines, or one large enough to be swept in bands). `pieces` is only called then.
    public func fill(pieces: () -> [ShapePiece], paint: Paint, opacity: Double = 1, blendMode: BlendMode = .sourceOver,
                     cache: CoverageCache, subpixelSteps: Int, cells: SnappedPieceCache = .shared,
                     path: (Int) -> Path, whole: () -> Path) {
        fillSnapped(whole, paint: paint, rule: .nonZero, opacity: opacity, blendMode: blendMode, cache: cache,
                    subpixelSteps: subpixelSteps) { fraction in
            canonicalRuns(pieces(), fraction: fraction, opacity: opacity, cells: cells, path: path)
                ?? canonicalRuns(whole(), fraction: fraction, rule: .nonZero, opacity: opacity)
        }
    }

    /// `canonicalRuns(whole, fraction:rule: .nonZero, opacity:)` from the pieces' cells, or
    /// nil where the pieces cannot give it (the caller then rasterizes the whole shape).
    func canonicalRuns(_ pieces: [ShapePiece], fraction f: Transform, opacity: Double, cells: SnappedPieceCache,
                       path: (Int) -> Path) -> (runs: [CoverageRun], shiftX: Int, shiftY: Int)? {
        let keys = pieces.map {
            SnappedPieceCache.Key(piece: $0, a: f.a, b: f.b, c: f.c, d: f.d, fx: f.tx, fy: f.ty, tolerance: tolerance)
        }
        var entries = cells.entries(for: keys)
        // Polylines flattened here for pieces met for the first time, kept for their cells.
        var flattened: [Int: [Polyline]] = [:]
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var polylines = 0
        for i in entries.indices {
            if entries[i] == nil {
                let polys = path(i).flattened(tolerance: tolerance, transform: f, keepingCurves: false)
                entries[i] = SnappedPieceCache.Entry(polys)
                flattened[i] = polys
            }
            let p = entries[i]!
            // The whole shape's box is the box of its pieces' boxes (minima of the same numbers).
            minX = min(minX, p.minX); maxX = max(maxX, p.maxX); minY = min(minY, p.minY); maxY = max(maxY, p.maxY)
            polylines += p.polylines
        }
        // An empty shape, or one canonicalRuns declines: that answer without the pieces.
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite, maxX - minX < 16_384, maxY - minY < 16_384 else {
            return polylines == 0 ? ([], 0, 0) : nil
        }
        // One polyline may be a rectangle the rasterizer holds back (see Rasterizer+Pieces.swift).
        guard polylines >= 2 else { return nil }
        let cx = 1 - Int(minX.rounded(.down)), cy = 1 - Int(minY.rounded(.down))
        let width = Int((maxX - minX).rounded(.up)) + 3, height = Int((maxY - minY).rounded(.up)) + 3
        var found: [PieceCells] = []
        found.reserveCapacity(entries.count)
        var estimate = 0.0
        let shift = Point(Double(cx), Double(cy))
        for i in entries.indices {
            var c: PieceCells
            if let kept = entries[i]!.cells(cx, cy) {
                c = kept
            } else {
                let polys = flattened[i] ?? path(i).flattened(tolerance: tolerance, transform: f, keepingCurves: false)
                let moved = polys.map { Polyline(points: $0.points.map { $0 + shift }, closed: $0.closed) }
                guard let made = rasterizer.pieceCells(moved, clipX: 0, clipY: 0, clipWidth: width, clipHeight: height) else { return nil }
                c = made
                entries[i]!.shifts.append((cx, cy, made))
                cells.store(entries[i]!, for: keys[i])
            }
            guard c.isInside(clipX0: 0, clipY0: 0, clipX1: width, clipY1: height) else { return nil }
            estimate += c.estimate
            found.append(c)
        }
        // Half the band limit: the pieces' estimates are summed in another order than the
        // whole shape's (and bound it from above), so a shape near the limit could be
        // banded there and not here.
        guard estimate <= Double(Rasterizer.bandCells) / 2 else { return nil }
        var runs: [CoverageRun] = []
        rasterizer.sweepPieces(found, clipX: 0, clipY: 0, clipWidth: width, clipHeight: height,
                               rule: .nonZero, opacity: opacity) { y0, rows, spans in
            runs.append(CoverageRun(y0: y0, rows: rows, spans: Array(spans)))
        }
        return (runs, cx, cy)
    }
}
