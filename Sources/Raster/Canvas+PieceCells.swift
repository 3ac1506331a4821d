import Geometry
import Synchronization

// Shapes filled piece by piece with each piece's cells kept: for a label that is a new
// string every frame (a counter), whose glyphs repeat from frame to frame at the same
// places. The whole label's coverage cache (Canvas+CoverageCache.swift) misses on every
// frame, since the string is new; the glyphs are not. A piece is named by what its path
// is made from (a font, a glyph, a size, a pen position) and keeps the cells the
// rasterizer's edge walk deposited for it under one device transform. A fill made of
// pieces whose cells are all known skips building, flattening and walking their outlines
// and sweeps the known cells (Rasterizer+Pieces.swift): the same cells in the same order
// as walking the whole shape, so the same bytes, not an approximation of them.
//
// Why cells and not coverage: coverage of two glyphs that share a pixel column (the
// edge of one digit and the side bearing of the next at a fractional pen position) is
// not the composite of each glyph's coverage: the exact-area sweep adds their signed
// areas before folding them to 0…1, and compositing two 8-bit masks rounds twice.
// Adding cached coverage would change such pixels by a level or more; adding cells is
// what the sweep does anyway.
//
// Measured (`chartreel-textbench counter`, 300 labels at 1080p, one counting label of
// six or seven digits, perf): flattening and walking the counter's outlines were 27 %
// of its time and building its path 6 %; see docs/text.md "Speed" for the totals.

/// One piece of a shape, named by what its path is made from: the caller promises that
/// the piece's path (in user space) is a pure function of these fields, so the cells kept
/// for one fill serve every later fill of a piece equal to it under the same transform.
public struct ShapePiece: Hashable, Sendable {
    /// The object the path comes from (a font), compared by identity. Kept alive by the
    /// cache while it holds the piece's cells, so its identity is not reused meanwhile.
    public let source: AnyObject & Sendable
    /// Which shape of `source` (a glyph index).
    public let index: UInt32
    /// The size the shape is drawn at (a font size in pixels per em).
    public let scale: Double
    /// Where the shape is placed in user space (a glyph's pen position).
    public let origin: Point

    /// Names a piece.
    public init(source: AnyObject & Sendable, index: UInt32, scale: Double, origin: Point) {
        self.source = source; self.index = index; self.scale = scale; self.origin = origin
    }

    public static func == (a: ShapePiece, b: ShapePiece) -> Bool {
        a.source === b.source && a.index == b.index && a.scale == b.scale && a.origin == b.origin
    }

    public func hash(into h: inout Hasher) {
        h.combine(ObjectIdentifier(source)); h.combine(index); h.combine(scale); h.combine(origin.x); h.combine(origin.y)
    }
}

/// The cells of shape pieces under the device transforms they were drawn with, shared
/// by every canvas and thread of the process.
///
/// Memory is bounded by `byteBudget` (24 bytes a cell; a 15 px digit has about 150
/// cells, 4 KB): entries go into a current generation; when it holds half the budget,
/// it becomes the previous generation and the one before is dropped. A hit in the
/// previous generation moves back to the current one, so pieces in use survive and a
/// label moving to a new place every frame (whose pieces never hit) only cycles the
/// generations. What the cache holds never changes a frame's bytes: an entry is a pure
/// function of its key.
public final class PieceCellCache: Sendable {
    struct Key: Hashable {
        let piece: ShapePiece
        let a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
        let tolerance: Double
    }

    private let table = Mutex(CacheGenerations<Key, PieceCells>())
    /// The most bytes of cells held at once (both generations).
    public let byteBudget: Int

    /// The cache every canvas uses unless given another.
    public static let shared = PieceCellCache()

    /// Creates an empty cache holding at most `byteBudget` bytes of cells (16 MB by default).
    public init(byteBudget: Int = 16 << 20) {
        self.byteBudget = max(0, byteBudget)
    }

    /// Bytes of cells held now (both generations).
    public var bytes: Int { table.withLock { $0.bytes } }

    /// The cells kept for each key, nil where none are.
    func cells(for keys: [Key]) -> [PieceCells?] {
        table.withLock { t in keys.map { t.lookup($0, budget: byteBudget) } }
    }

    /// Keeps `cells` for `key` (not when they alone exceed half the budget).
    func store(_ cells: PieceCells, for key: Key) {
        guard cells.bytes <= byteBudget / 2 else { return }
        table.withLock { t in
            // Cells are a pure function of their key: one kept already stays.
            if t.current[key] == nil { t.insert(cells, for: key, budget: byteBudget) }
        }
    }
}

extension Canvas {
    /// Fills the shape made of `pieces` (piece i's path is `path(i)`; the shape is their
    /// paths one after another) with the non-zero rule, keeping each piece's cells in
    /// `cache`. The bytes are those of `fill(_:paint:rule:opacity:blendMode:)` on the
    /// whole shape. Pieces whose cells the cache holds under this transform are not
    /// built, flattened or walked; the others are, once, and kept. The whole shape is
    /// filled the ordinary way when a piece reaches the clip box's edge, when the shape
    /// has fewer than two polylines, or when it is large enough to be swept in bands.
    public func fill(pieces: [ShapePiece], paint: Paint, opacity: Double = 1, blendMode: BlendMode = .sourceOver,
                     cache: PieceCellCache = .shared, path: (Int) -> Path) {
        let t = state.transform
        let cx0 = state.clipX0, cy0 = state.clipY0, cx1 = state.clipX1, cy1 = state.clipY1
        // What the whole fill would draw nothing for, before any lookup.
        guard opacity > 0, cx1 > cx0, cy1 > cy0, !pieces.isEmpty else { return }
        let keys = pieces.map {
            PieceCellCache.Key(piece: $0, a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty, tolerance: tolerance)
        }
        var found = cache.cells(for: keys)
        var polylines = 0, estimate = 0.0, usable = true
        for i in found.indices {
            if found[i] == nil {
                let polys = path(i).flattened(tolerance: tolerance, transform: t, keepingCurves: false)
                guard let made = rasterizer.pieceCells(polys, clipX: cx0, clipY: cy0, clipWidth: cx1 - cx0, clipHeight: cy1 - cy0) else {
                    usable = false
                    break
                }
                cache.store(made, for: keys[i])
                found[i] = made
            }
            let c = found[i]!
            guard c.isInside(clipX0: cx0, clipY0: cy0, clipX1: cx1, clipY1: cy1) else { usable = false; break }
            polylines += c.polylines
            estimate += c.estimate
        }
        if usable && polylines == 0 { return }   // an empty shape draws nothing
        // Half the band limit: the pieces' estimates are summed in another order than the
        // whole shape's, so a shape near the limit could be banded there and not here.
        guard usable, polylines >= 2, estimate <= Double(Rasterizer.bandCells) / 2 else {
            var whole = Path()
            for i in pieces.indices { whole.append(contentsOf: path(i)) }
            // The Double walk, as the pieces' cells and the labels' coverage cache use.
            fillTarget(whole.flattened(tolerance: tolerance, transform: t, keepingCurves: false), paint: paint, rule: .nonZero,
                       opacity: opacity, blendMode: blendMode)
            return
        }
        fillTarget([], paint: paint, rule: .nonZero, opacity: opacity, blendMode: blendMode, pieces: found.map { $0! })
    }
}
