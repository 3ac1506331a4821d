import CRasterKernels
import Geometry
import Synchronization

// Coverage recorded once and replayed: for shapes drawn unchanged on many frames (a
// chart's labels: hundreds of glyph outlines that sit still while bars grow).
//
// A fill's coverage depends only on the path, the device transform, the clip, the
// target's origin, the fill rule, the opacity and the flattening tolerance. A cache
// attached to a drawable (Scene's TextNode holds one) keeps, for the last few of those
// keys, the rasterizer's runs of spans; a fill under a known key skips flattening and
// rasterizing and hands the recorded spans to the same blitters, so the pixels are the
// bytes a fresh fill gives. An image paint's shaded colours are recorded with the spans
// (its pixels' address is part of the key), so a replayed colour emoji is composited
// without sampling the image again. Measured on 300 mixed-script labels at 1080p (one thread):
// flattening and the rasterizer were ~60 % of a frame's time.

/// One run of rows with the same spans, as the rasterizer emits them.
struct CoverageRun: Sendable {
    let y0: Int, rows: Int
    let spans: [Span]
    /// An image paint's colours for every pixel of the spans, row by row (before coverage).
    var colors: [UInt32]? = nil
}

/// Collects the runs of one fill.
final class CoverageRecorder {
    var runs: [CoverageRun] = []
}

/// One fill's coverage as a dense block over its box, for a solid paint (coverage bytes)
/// or an image paint (its colours scaled by coverage, premultiplied).
final class DenseCoverage: Sendable {
    let x0: Int, y0: Int, width: Int, height: Int
    /// For each row, the first and one past the last column with coverage, relative to
    /// `x0` (equal on a row without any).
    let rowRanges: [Int32]
    /// Coverage bytes, row-major (solid paints); empty for an image.
    let alpha: [UInt8]
    /// Colours times coverage, row-major (image paints); empty for a solid.
    let colors: [UInt32]
    /// The dirty box the span replay reports (its rule, not the mask's box).
    let dirtyX0: Int, dirtyY0: Int, dirtyX1: Int, dirtyY1: Int

    /// The mask of `runs`, or nil when it would be large against the pixels the spans
    /// cover, or the runs miss an image's colours.
    init?(_ runs: [CoverageRun], image: Bool, shiftX: Int = 0, shiftY: Int = 0) {
        guard !runs.isEmpty else { return nil }
        var bx0 = Int.max, bx1 = Int.min, by0 = Int.max, by1 = Int.min
        var dx0 = Int.max, dx1 = Int.min, covered = 0
        for r in runs {
            guard let first = r.spans.first, let last = r.spans.last, r.rows > 0 else { return nil }
            dx0 = min(dx0, Int(first.x)); dx1 = max(dx1, Int(last.x) + Int(last.length))
            by0 = min(by0, r.y0); by1 = max(by1, r.y0 + r.rows)
            var n = 0
            for s in r.spans {
                guard s.length >= 0 else { return nil }
                bx0 = min(bx0, Int(s.x)); bx1 = max(bx1, Int(s.x) + Int(s.length)); n += Int(s.length)
            }
            if image { guard let c = r.colors, c.count == n * r.rows else { return nil } }
            covered += n * r.rows
        }
        guard bx1 > bx0 else { return nil }
        let w = bx1 - bx0, h = by1 - by0, area = w * h
        guard area <= 1 << 20, area <= 8 * covered + 4096 else { return nil }
        var alpha = [UInt8](), colors = [UInt32]()
        if image { colors = [UInt32](repeating: 0, count: area) } else { alpha = [UInt8](repeating: 0, count: area) }
        for r in runs {
            var k = 0
            for row in 0..<r.rows {
                let base = (r.y0 + row - by0) * w - bx0
                for s in r.spans {
                    let x = Int(s.x), cov = UInt32(s.alpha)
                    if image {
                        let c = r.colors!
                        for i in 0..<Int(s.length) { colors[base + x + i] = cov == 255 ? c[k + i] : scalePacked(c[k + i], cov) }
                        k += Int(s.length)
                    } else {
                        for i in 0..<Int(s.length) { alpha[base + x + i] = s.alpha }
                    }
                }
            }
        }
        // Each row's range from its spans (a zero coverage inside it is a no-op).
        var ranges = [Int32](repeating: 0, count: 2 * h)
        for r in runs {
            var lo = Int.max, hi = Int.min
            for s in r.spans where s.alpha != 0 && s.length > 0 {
                lo = min(lo, Int(s.x) - bx0); hi = max(hi, Int(s.x) + Int(s.length) - bx0)
            }
            guard lo < hi else { continue }
            for row in (r.y0 - by0)..<(r.y0 - by0 + r.rows) {
                if ranges[2 * row] == ranges[2 * row + 1] {
                    ranges[2 * row] = Int32(lo); ranges[2 * row + 1] = Int32(hi)
                } else {
                    ranges[2 * row] = min(ranges[2 * row], Int32(lo)); ranges[2 * row + 1] = max(ranges[2 * row + 1], Int32(hi))
                }
            }
        }
        x0 = bx0 + shiftX; y0 = by0 + shiftY; width = w; height = h; rowRanges = ranges
        self.alpha = alpha; self.colors = colors
        dirtyX0 = dx0 + shiftX; dirtyY0 = by0 + shiftY; dirtyX1 = dx1 + shiftX; dirtyY1 = by1 - 1 + shiftY
    }
}

/// What a cache keeps for one key.
enum CoverageEntry: Sendable {
    /// The rasterizer's runs, replayed through the span blitters (any paint, clip or mode).
    /// A fill is recorded as runs and made a dense block when it is first replayed, so a
    /// label drawn once (a counter's number, a label at a new place) does not pay for the
    /// block; `dense: false` once the runs proved unfit for one (sparse, or another paint).
    case runs([CoverageRun], dense: Bool)
    /// A dense block, composited a row at a time (source-over without a clip mask).
    case dense(DenseCoverage)
}

/// Recorded coverage of one path under a few device transforms and clips. Safe to share
/// between threads rendering frames in parallel.
public final class CoverageCache: Sendable {
    struct Key: Hashable {
        let a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
        let clipX0: Int, clipY0: Int, clipX1: Int, clipY1: Int
        let originX: Int, originY: Int
        let evenOdd: Bool
        let opacity: Double, tolerance: Double
        /// An image paint's pixels (their storage's address): its shaded colours are recorded too.
        let image: UInt

        /// One word into the hasher, from the fields that tell a label's places and
        /// opacities apart (equality still compares every field): a frame looks a key up
        /// for every label and every emoji, and hashing all fields was 6 % of it.
        func hash(into h: inout Hasher) {
            let r = (tx.bitPattern &* 0x9E37_79B9_7F4A_7C15) ^ (ty.bitPattern &* 0xC2B2_AE3D_27D4_EB4F)
            h.combine(r ^ opacity.bitPattern ^ UInt64(image) ^ a.bitPattern)
        }
    }
    private struct Table {
        var entries: [Key: CoverageEntry] = [:]
        /// Keys in the order they were stored (the oldest goes first when full).
        var order: [Key] = []
        var bytes = 0
    }
    private let table = Mutex(Table())
    /// How many keys are kept. A layout is shared by every label with the same text
    /// (Scene's `LaidOutText`), so one cache serves each place that text is drawn at in
    /// a frame: a tick value repeated across small multiples, a legend entry per chart.
    static let capacity = 64
    /// Bytes of recorded coverage held by all caches of the process, and the most they
    /// may hold (a fill past it is drawn but not kept).
    static let totalBytes = Atomic<Int>(0)
    static let byteBudget = 256 << 20

    /// Creates an empty cache.
    public init() {}

    deinit {
        let b = table.withLock { $0.bytes }
        CoverageCache.totalBytes.subtract(b, ordering: .relaxed)
    }

    /// The address of an image paint's pixels (0 for other paints): a replay must not
    /// paint one image's recorded colours for another.
    static func imageIdentity(_ paint: Paint) -> UInt {
        guard case .image(let img) = paint else { return 0 }
        return img.texels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// The memory an entry holds, roughly.
    static func bytes(of entry: CoverageEntry) -> Int {
        switch entry {
        case .runs(let runs, _):
            return runs.reduce(64) { $0 + 48 + $1.spans.count * MemoryLayout<Span>.stride + ($1.colors?.count ?? 0) * 4 }
        case .dense(let d):
            return 128 + d.alpha.count + 4 * d.colors.count + 4 * d.rowRanges.count
        }
    }

    func entry(for key: Key) -> CoverageEntry? {
        table.withLock { $0.entries[key] }
    }

    func replace(_ entry: CoverageEntry, for key: Key) {
        table.withLock { t in
            guard let old = t.entries[key] else { return }
            let delta = CoverageCache.bytes(of: entry) - CoverageCache.bytes(of: old)
            t.entries[key] = entry
            t.bytes += delta
            CoverageCache.totalBytes.add(delta, ordering: .relaxed)
        }
    }

    func store(_ entry: CoverageEntry, for key: Key) {
        let size = CoverageCache.bytes(of: entry)
        table.withLock { t in
            if t.entries[key] != nil { return }
            if t.order.count >= CoverageCache.capacity {
                let oldest = t.order.removeFirst()
                if let e = t.entries.removeValue(forKey: oldest) {
                    let b = CoverageCache.bytes(of: e)
                    t.bytes -= b
                    CoverageCache.totalBytes.subtract(b, ordering: .relaxed)
                }
            }
            guard CoverageCache.totalBytes.load(ordering: .relaxed) + size <= CoverageCache.byteBudget else { return }
            t.entries[key] = entry
            t.order.append(key)
            t.bytes += size
            CoverageCache.totalBytes.add(size, ordering: .relaxed)
        }
    }
}

extension Canvas {
    /// Fills `path` like `fill(_:paint:rule:opacity:blendMode:)`, keeping its coverage in
    /// `cache` so a later fill of the same path under the same transform, clip, rule and
    /// opacity replays it instead of rasterizing. The caller promises that `cache` is only
    /// ever used with this one path (built only when the cache misses).
    public func fill(_ path: @autoclosure () -> Path, paint: Paint, rule: FillRule = .nonZero, opacity: Double = 1,
                     blendMode: BlendMode = .sourceOver, cache: CoverageCache) {
        let t = state.transform
        let key = CoverageCache.Key(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty,
                                    clipX0: state.clipX0, clipY0: state.clipY0, clipX1: state.clipX1, clipY1: state.clipY1,
                                    originX: originX, originY: originY, evenOdd: rule == .evenOdd,
                                    opacity: opacity, tolerance: tolerance, image: CoverageCache.imageIdentity(paint))
        if let entry = cache.entry(for: key) {
            switch entry {
            case .runs(let runs, let denseCandidate):
                if runs.isEmpty { return }
                var image: Bool? = nil
                switch paint {
                case .solid: image = false
                case .image: image = true
                default: break
                }
                if denseCandidate, state.mask == nil, blendMode == .sourceOver, let image {
                    if let d = DenseCoverage(runs, image: image) {
                        cache.replace(.dense(d), for: key)
                        if replay(d, paint: paint, blendMode: blendMode) { return }
                    } else {
                        cache.replace(.runs(runs, dense: false), for: key)
                    }
                }
                fillTarget([], paint: paint, rule: rule, opacity: opacity, blendMode: blendMode, replay: runs)
                return
            case .dense(let d):
                if replay(d, paint: paint, blendMode: blendMode) { return }
                // A paint or clip the block cannot serve: draw afresh (the entry stays).
                fillTarget(path().flattened(tolerance: tolerance, transform: t, keepingCurves: false), paint: paint, rule: rule,
                           opacity: opacity, blendMode: blendMode)
                return
            }
        }
        let polys = path().flattened(tolerance: tolerance, transform: t, keepingCurves: false)
        let recorder = CoverageRecorder()
        fillTarget(polys, paint: paint, rule: rule, opacity: opacity, blendMode: blendMode, record: recorder)
        // Only a fill that really ran is recorded (a transparent paint or an empty clip
        // returns early and records nothing, which must not read as "no coverage").
        guard let shader = Shader(paint, transform: t), opacity > 0, !polys.isEmpty else { return }
        let kind = shader.params.kind
        let candidate = state.mask == nil && blendMode == .sourceOver && (kind == .solid || kind == .image)
        cache.store(.runs(recorder.runs, dense: candidate), for: key)
    }

    /// Fills `path` like `fill(_:paint:rule:opacity:blendMode:cache:)` with its device
    /// position rounded to 1/`subpixelSteps` of a pixel, for a shape that moves every frame
    /// (a label riding a bar). The coverage of a solid fill is recorded once per fraction
    /// of a pixel (at most `subpixelSteps`² of them), rasterized at a canonical place so
    /// that it is a function of the path, the transform's linear part, the fraction and
    /// the opacity only, and replayed wherever the shape goes: a frame's bytes never
    /// depend on where the shape was drawn first. Drawn afresh (at the rounded position)
    /// when the block would cross the clip box, under a clip mask, with another blend mode
    /// or paint. `subpixelSteps` ≤ 0 is the exact fill.
    public func fill(_ path: @autoclosure () -> Path, paint: Paint, rule: FillRule = .nonZero, opacity: Double = 1,
                     blendMode: BlendMode = .sourceOver, cache: CoverageCache, subpixelSteps: Int) {
        fillSnapped(path, paint: paint, rule: rule, opacity: opacity, blendMode: blendMode, cache: cache,
                    subpixelSteps: subpixelSteps) { fraction in
            canonicalRuns(path(), fraction: fraction, rule: rule, opacity: opacity)
        }
    }

    /// `fill(_:paint:rule:opacity:blendMode:cache:subpixelSteps:)` with the rasterization of
    /// a new fraction's coverage at its canonical place left to `canonical`, which gets the
    /// transform with the fraction as its translation and gives what `canonicalRuns` gives
    /// for the path (another way of computing the same runs: `fill(pieces:...)`).
    func fillSnapped(_ path: () -> Path, paint: Paint, rule: FillRule, opacity: Double, blendMode: BlendMode,
                     cache: CoverageCache, subpixelSteps: Int,
                     canonical: (Transform) -> (runs: [CoverageRun], shiftX: Int, shiftY: Int)?) {
        let t = state.transform
        let n = Double(subpixelSteps)
        let sx = (t.tx * n).rounded() / n, sy = (t.ty * n).rounded() / n
        guard subpixelSteps > 0, sx.isFinite, sy.isFinite, abs(sx) < 1e9, abs(sy) < 1e9 else {
            fill(path(), paint: paint, rule: rule, opacity: opacity, blendMode: blendMode, cache: cache)
            return
        }
        let snapped = Transform(a: t.a, b: t.b, c: t.c, d: t.d, tx: sx, ty: sy)
        let fx = sx - sx.rounded(.down), fy = sy - sy.rounded(.down)
        let ix = Int(sx.rounded(.down)), iy = Int(sy.rounded(.down))
        guard case .solid(let color) = paint, color.premultiplied.a > 0, opacity > 0, state.mask == nil, blendMode == .sourceOver else {
            state.transform = snapped
            fill(path(), paint: paint, rule: rule, opacity: opacity, blendMode: blendMode, cache: cache)
            state.transform = t
            return
        }
        // Relative keys: no clip box (containment is checked instead) and no origin.
        let key = CoverageCache.Key(a: t.a, b: t.b, c: t.c, d: t.d, tx: fx, ty: fy, clipX0: .min, clipY0: .min, clipX1: .min,
                                    clipY1: .min, originX: 0, originY: 0, evenOdd: rule == .evenOdd,
                                    opacity: opacity, tolerance: tolerance, image: 0)
        var block: DenseCoverage? = nil
        switch cache.entry(for: key) {
        case .dense(let d)?: block = d
        case .runs(let runs, _)?: if runs.isEmpty { return }
        case nil:
            guard let (runs, cx, cy) = canonical(Transform(a: t.a, b: t.b, c: t.c, d: t.d, tx: fx, ty: fy)) else { return }
            if let d = DenseCoverage(runs, image: false, shiftX: -cx, shiftY: -cy) {
                cache.store(.dense(d), for: key)
                block = d
            } else {
                // Nothing drawn, or too sparse for a block: remembered, so the fraction is
                // not rasterized again only to be drawn afresh.
                cache.store(.runs(runs, dense: false), for: key)
                if runs.isEmpty { return }
            }
        }
        if let d = block, d.x0 + ix >= state.clipX0, d.y0 + iy >= state.clipY0,
           d.x0 + ix + d.width <= state.clipX1, d.y0 + iy + d.height <= state.clipY1,
           replay(d, paint: paint, blendMode: blendMode, dx: ix, dy: iy) {
            return
        }
        // Crossing the clip (or too sparse for a block): the rounded position, afresh.
        state.transform = snapped
        fillTarget(path().flattened(tolerance: tolerance, transform: snapped, keepingCurves: false), paint: paint, rule: rule, opacity: opacity,
                   blendMode: blendMode)
        state.transform = t
    }

    /// The coverage of `path` for a snapped fill at the fraction of a pixel that is
    /// `fraction`'s translation: flattened there, moved by whole pixels so its box starts
    /// at (1, 1), rasterized without a canvas. The runs with the whole-pixel shift
    /// (canonical place = fraction's place + shift); empty runs for an empty path; nil
    /// (nothing drawn, nothing kept) for a path too large or not finite.
    func canonicalRuns(_ path: Path, fraction: Transform, rule: FillRule, opacity: Double)
        -> (runs: [CoverageRun], shiftX: Int, shiftY: Int)? {
        let base = path.flattened(tolerance: tolerance, transform: fraction, keepingCurves: false)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in base { for q in p.points { minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y) } }
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite, maxX - minX < 16_384, maxY - minY < 16_384 else {
            return base.isEmpty ? ([], 0, 0) : nil
        }
        let cx = 1 - Int(minX.rounded(.down)), cy = 1 - Int(minY.rounded(.down))
        let shift = Point(Double(cx), Double(cy))
        let moved = base.map { Polyline(points: $0.points.map { $0 + shift }, closed: $0.closed) }
        var runs: [CoverageRun] = []
        rasterizer.fillBanded(moved, clipX: 0, clipY: 0, clipWidth: Int((maxX - minX).rounded(.up)) + 3,
                              clipHeight: Int((maxY - minY).rounded(.up)) + 3, rule: rule, opacity: opacity) { y0, rows, spans in
            runs.append(CoverageRun(y0: y0, rows: rows, spans: Array(spans)))
        }
        return (runs, cx, cy)
    }

    /// Composites a dense block with `paint`, source-over; false when the block cannot
    /// give this fill's bytes (a clip mask, another blend mode, a paint of another kind).
    func replay(_ d: DenseCoverage, paint: Paint, blendMode: BlendMode, dx: Int = 0, dy: Int = 0) -> Bool {
        guard state.mask == nil, blendMode == .sourceOver else { return false }
        let color: UInt32
        switch paint {
        case .solid(let c):
            guard d.colors.isEmpty else { return false }
            let p = c.premultiplied
            if p.a == 0 { return true }   // draws nothing, as a fresh fill would
            color = p.packed
        case .image:
            guard d.alpha.isEmpty else { return false }
            color = 0
        default:
            return false
        }
        let w = pixmap.width, wide = crk_wide() != 0
        withPixels { base in
            let px = base + (d.y0 + dy) * w + d.x0 + dx
            d.rowRanges.withUnsafeBufferPointer { r in
                let ranges = r.baseAddress!
                if d.colors.isEmpty {
                    d.alpha.withUnsafeBufferPointer { a in
                        if wide { crk_mask_solid_rows(px, w, a.baseAddress!, d.width, ranges, d.height, color); return }
                        for row in 0..<d.height {
                            let lo = Int(ranges[2 * row]), hi = Int(ranges[2 * row + 1])
                            if lo < hi { maskSolidSpan(px + row * w + lo, a.baseAddress! + row * d.width + lo, hi - lo, color) }
                        }
                    }
                } else {
                    d.colors.withUnsafeBufferPointer { c in
                        if wide { crk_over_rows(px, w, c.baseAddress!, d.width, ranges, d.height); return }
                        for row in 0..<d.height {
                            let lo = Int(ranges[2 * row]), hi = Int(ranges[2 * row + 1])
                            if lo < hi { overSpan(px + row * w + lo, c.baseAddress! + row * d.width + lo, hi - lo, 255) }
                        }
                    }
                }
            }
        }
        if d.dirtyX0 + dx < dirtyX0 { dirtyX0 = d.dirtyX0 + dx }
        if d.dirtyY0 + dy < dirtyY0 { dirtyY0 = d.dirtyY0 + dy }
        if d.dirtyX1 + dx > dirtyX1 { dirtyX1 = d.dirtyX1 + dx }
        if d.dirtyY1 + dy > dirtyY1 { dirtyY1 = d.dirtyY1 + dy }
        noteDamage()
        return true
    }
}
