#if canImport(Glibc)
import Glibc
#endif
import CRasterKernels
import Geometry

// The Raster module: how a draw call becomes pixels.
//
// 1. Geometry. A fill flattens its path in device space; a stroke builds its outline in
//    user space (so a non-uniform transform shapes the pen) and maps it to the device.
//    Any affine transform — rotation and skew included — is therefore exact: the
//    rasterizer only ever sees device-space polygons.
//    Curves are flattened to within 0.05 px for fills and 0.025 px for a stroke's centre
//    line. Measured against Cairo (CairoReferenceTests, 76 scenes): at 0.1 px (the old
//    default, Cairo's nominal tolerance) 1 px circles were off by up to 27 levels from
//    the exact ring and 11 curved scenes failed; chords lie inside convex curves, so the
//    error is one-sided, and Cairo's subdivision test is conservative, so its real
//    deviation is well below its nominal 0.1 px (its 1 px circles stay within 23
//    levels of the exact ring; ours at 0.05/0.025 px within 12). The finer stroke
//    tolerance was set for offsets that multiply a centre-line error by (r + w/2)/r;
//    the stroker offsets each chord parallel to itself, though, and joins the offset
//    chords where they meet, so its outline strays by the centre chord's deviation plus
//    a pen's share of w/2·(1 − cos(θ/2)) for a chord turning by θ. A solid stroke's long
//    curves (cut by their bending, CurveFlattening.swift) are therefore held to the
//    outline's 0.05 px with that share counted in, and come out closer to Cairo
//    (stroke-curve-thin's mean 0.112 → 0.062 levels, stroke-curve-thick 0.164 → 0.129,
//    gradient-stroke 0.129 → 0.090; 2026-12-08) with a quarter fewer chords; curves kept
//    at equal steps (circles' arcs, dashes) keep 0.025 px. Caps and dash ends take the
//    curve's own tangent, carried on the polyline, not a chord's (see Flatten.swift).
//    Cost on the 12-chart dashboard
//    benchmark: 8 % more instructions than 0.1 px for fills and 0.05 px for strokes
//    (38.4 against 35.6 million a frame); straight lines and rectangles cost the same
//    at any tolerance.
// 2. Coverage. `Rasterizer` computes the exact area of each pixel inside the polygons
//    (sparse signed-area cells), clipped to the integer clip box, and sweeps it into
//    spans of equal coverage (see Rasterizer.swift); geometry that would make more
//    than 262,144 cells is swept in horizontal bands, so a 100,000-point line needs
//    6 MB of cells instead of 25 (Rasterizer.fillBanded). Consecutive rows with the same
//    spans arrive as one run, and an axis-aligned rectangle (grid lines, ticks, bars)
//    needs no cells at all.
// 3. Paint. `Shader` is the paint compiled for this call in device space: a packed
//    colour, or a gradient's position equation plus its colour table (Paint.swift says
//    why a table and how big).
// 4. Compositing. Spans are blitted row by row. Solid and linear-gradient source-over
//    without a clip mask run fused loops (blitSolid, blitLinear), and a vertical
//    gradient — the usual chart area fill — has one colour per row, blitted as solid.
//    When such a fill takes the fixed-point grid (Rasterizer+FixedGrid.swift), the
//    grid's sweep composites each row itself (`GridPaint`, `crk_grid_fill_row`), with
//    the same bytes, instead of handing spans back (2026-12-07). With AVX-512 a linear
//    gradient's row is swept and composited in one pass, sixteen cells at a time, with
//    no spans at all (`crk_grid_linear_row`): a thin gradient stroke's rows are a few
//    short runs, and the spans and their regrouping into coverage bytes were a third
//    of the stroke. Solid colours keep the spans: the same pass measured no faster on
//    the dashboard's opaque fills, whose rows are one long run each.
//    Other paints, blend modes and masked clips shade a scratch row and composite it
//    (Blit.swift, Blend.swift).
// 5. Wide kernels. Where the CPU has AVX2 or AVX-512 (cpuid and XCR0, checked once per
//    process), spans of at least 8 pixels go to C kernels (Sources/CRasterKernels) with
//    per-function target attributes, since the package takes no compiler flags: solid
//    translucent spans, the source-over of a shaded row (also the layer composite), and
//    linear and concentric radial gradients, whose positions are computed 8 at a time
//    in Float, looked up in the table and composited in the same pass, without the
//    scratch row. Chosen by profile: on fill-heavy (200 translucent gradient shapes)
//    the gradient spans were 87 % of the time (perf); on the dashboard and curved-line
//    frames the blitters were 12–31 %, next to the sweep and the edge walk (scalar, left
//    as they were). The kernels give the bytes of the Swift loops they replace, which
//    stay as the reference and the path on other CPUs: the same integer steps per
//    channel and the same Float operations in the same order, never fused (a
//    multiply-add rounds once where the reference rounds twice). WideKernelTests hold
//    every level to that on millions of random inputs and on whole scenes;
//    `CHARTREEL_SIMD=off` forces the scalar path (`=avx2` caps the kernels at AVX2).
//    Measured in frames per CPU-second, interleaved (docs/benchmarks.md): fill-heavy
//    2.0× the scalar path with AVX2, 1.14× more with AVX-512; 2.65× the old binary and
//    0.43× Blend2D in the raster suite. A gather beat eight scalar loads (0.88× with the
//    loads), and a float square root checked against an error bound lost to the Double
//    one (0.79×). A third pass (2026-12-02) found the loops bound by the vector
//    instructions they issue, not by memory (a C harness of the scene's rectangles takes
//    nearly the same time on rows kept in cache), so the kernels now issue fewer: the
//    rounded division by 255 is one multiply's high half, (t·257) >> 16, exact for every
//    t below 2¹⁶ and tested on every channel × factor pair; pixels are scaled within
//    their 32-bit lanes instead of unpacked to 16 bits a channel; a radial span under no
//    rotation or scale (ux = 1, uy = ±0) takes dx0 + i and one dy·dy. The AVX-512 radial
//    loop is then bound by its Double square roots. fill-heavy 1.56× the binary before,
//    0.59 / 0.68× Blend2D. An opaque span of 32 pixels or more, and a whole-frame or
//    restoring fill in a colour whose four bytes differ, is stored by glibc's wmemset
//    (`crk_fill_span`), which has its own AVX2 and AVX-512 variants: Swift's loop stores
//    16 bytes at a time, and the dashboard's large opaque fills took 1.17× the frames/s
//    through wmemset (2026-12-06).
//    Since 2026-12-07 the reference itself computes linear and concentric radial
//    positions in Float, as Blend2D does (`tableIndex(shifted:)`): a Float vector holds
//    twice the lanes, its square root costs a fraction of a Double one, and a position
//    that carries the +1 of the table's first entry is truncated under pad instead of
//    floored. On a Zen 3 (AVX2 only) one thread: a full-frame radial fill 1.5–1.6× the
//    frames/s of the Double kernels, a linear one 1.35×, fill-heavy 1.29×; no timeline's
//    frames changed. (The AVX-512 gradient kernels went then, unchecked on that machine.)
//    On an Ice Lake Xeon (2026-12-07) the gather was the kernels' cost: Intel's Gather
//    Data Sampling microcode makes an 8-lane gather take about 30 cycles. Neighbouring
//    pixels' table entries lie close together (a chart gradient changes by well under
//    two entries a pixel), so a vector's entries are fetched from a window of 16 (AVX2)
//    or 32 (AVX-512) entries at the smallest index by register permutes, and only a
//    vector whose indices spread wider takes the gather; the bytes are lut[index] either
//    way. The AVX-512 kernels came back on top of it, 16 pixels a step, with each span's
//    last 1–15 pixels (and the shapes' edge pixels) one masked step instead of the
//    scalar formulas. fill-heavy: the window 1.16–1.25×, AVX-512 1.18× more. Then the
//    destination's loads were the cost: grid fills and concentric radial rows prefetch
//    the row two ahead under the same columns (`Rasterizer.prefetchRows`), 1.22× more.
//    fill-heavy 1.86× the session's start, 0.99 / 1.12× Blend2D (raster suite).
// 6. Memory. Pixmaps and layers of 4 MB and more, and the rasterizer's cell buffer, are
//    advised into transparent huge pages before their first write (`crk_advise_huge`;
//    Debian's THP mode honours only advice): fewer page faults and TLB misses on rows
//    that span two 4 KB pages. fill-heavy 1.06–1.22× in alternated runs, the other scenes
//    within the noise; HugePageTests checks the mappings' flags.
//
// Clips. A clip is an integer device box plus, only when needed, a coverage mask over
// that box. A rectangle whose device corners land on whole pixels under an axis-aligned
// transform narrows the box and nothing else, so plot-area clips cost nothing per
// pixel. Any other clip — a path, a rotated or fractional rectangle — is rasterized
// with the same exact-area coverage into an 8-bit mask over its bounding box (within
// the current box), multiplied into the enclosing mask, so nested clips intersect and
// edges stay anti-aliased: a clip edge at x = 10.25 leaves 0.75 coverage in column 10.
// Without a mask the fused blitters run untouched: the choice is made once per row,
// never per pixel. A mask keeps each row's longest run of full coverage (255): a solid
// span takes the fused blitter over that run and the mask loop only at its ends, and a
// drawing that lies where the mask is full can set the mask aside
// (`withClipMaskSetAside`); a chart's plot clip, whose edges fall between pixels, costs
// only its edge pixels. Both give the bytes of the mask loop.
//
// Layers. `beginLayer` swaps in a transparent pixmap; `endLayer` composites the region
// drawn in it onto the one below with the layer's opacity and blend mode (group opacity,
// SwiftUI's `compositingGroup`), clears that region again and keeps the pixmap for the
// next layer. A canvas reused across frames (`reset(to:)`, as Scene.FrameRenderer does)
// therefore allocates no layers after its first frame: a fresh 800×600 layer cost a
// 1.9 MB memset and ~470 page faults, 9 % of the curved-line video's CPU time (perf).

/// Draws paths onto a `Pixmap`: a transform stack, anti-aliased clips, blend modes and
/// opacity layers. A canvas is not thread-safe; render frames in parallel with one
/// canvas per thread.
public final class Canvas {
    /// A clip's coverage over the device box (x, y, width, height), row-major.
    struct ClipMask {
        var x: Int, y: Int, width: Int, height: Int
        var data: [UInt8]
        /// For each row, the first column and one past the last of its longest run of full
        /// coverage (255), relative to `x`; equal when the row has none. Where the mask is
        /// 255 a masked composite gives the bytes of an unmasked one, so drawing that stays
        /// inside these runs can take the fused blitters (see `setMaskAside(within:)`).
        let fullRuns: [Int32]

        init(x: Int, y: Int, width: Int, height: Int, data: [UInt8]) {
            self.x = x; self.y = y; self.width = width; self.height = height; self.data = data
            var runs = [Int32](repeating: 0, count: 2 * height)
            data.withUnsafeBufferPointer { d in
                for r in 0..<height {
                    let row = d.baseAddress! + r * width
                    // A rectangle's mask repeats its rows: a row like the one above has its runs.
                    if r > 0 && memcmp(row, row - width, width) == 0 {
                        runs[2 * r] = runs[2 * r - 2]; runs[2 * r + 1] = runs[2 * r - 1]
                        continue
                    }
                    var best = (0, 0), i = 0
                    while i < width {
                        guard row[i] == 255 else { i += 1; continue }
                        var j = i + 1
                        while j + 8 <= width && UnsafeRawPointer(row + j).loadUnaligned(as: UInt64.self) == .max { j += 8 }
                        while j < width && row[j] == 255 { j += 1 }
                        if j - i > best.1 - best.0 { best = (i, j) }
                        i = j
                    }
                    runs[2 * r] = Int32(best.0); runs[2 * r + 1] = Int32(best.1)
                }
            }
            fullRuns = runs
        }

        /// Whether every mask byte in the device box [x0, x1) × [y0, y1) is 255.
        func isFull(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Bool {
            guard x0 >= x, y0 >= y, x1 <= x + width, y1 <= y + height else { return false }
            if x1 <= x0 || y1 <= y0 { return true }
            for r in (y0 - y)..<(y1 - y) where Int(fullRuns[2 * r]) > x0 - x || Int(fullRuns[2 * r + 1]) < x1 - x { return false }
            return true
        }
    }

    struct State {
        var transform: Transform
        /// The device box drawing is limited to; always inside the pixmap, and inside
        /// `mask`'s box when there is a mask.
        var clipX0: Int, clipY0: Int, clipX1: Int, clipY1: Int
        /// Coverage within the box, when the clip is not a whole-pixel rectangle.
        var mask: ClipMask?
    }

    struct Layer {
        var saved: Pixmap
        var savedOpaque: Bool
        /// The state, stack depth and target origin to return to.
        var outerState: State
        var stackDepth: Int
        var outerOriginX: Int, outerOriginY: Int
        /// Where the layer's pixel (0, 0) lies on the target below it.
        var offsetX: Int, offsetY: Int
        var opacity: Double
        var blendMode: BlendMode
        var dirtyX0: Int, dirtyY0: Int, dirtyX1: Int, dirtyY1: Int
    }

    /// The pixels drawn so far.
    public private(set) var pixmap: Pixmap
    /// Largest distance, in device pixels, between a curve and the polygon drawn for it
    /// (strokes flatten their centre line at half of it; see the module notes).
    public var tolerance: Double = 0.05
    var state: State
    var stack: [State] = []
    var layers: [Layer] = []
    var dirtyX0 = Int.max, dirtyY0 = Int.max, dirtyX1 = Int.min, dirtyY1 = Int.min
    let rasterizer = Rasterizer()
    /// The stroker's working arrays and outlines, reused from one stroke to the next.
    let strokeScratch = StrokeScratch()
    /// One row of shaded colours for the two-pass blitters.
    var scratch: [UInt32] = []
    /// The gradient tables built lately, by stops and spread: a video draws the same
    /// gradients every frame, and a table costs 256–4096 colour interpolations (2.4 % of
    /// the dashboard benchmark's time when built per fill). Up to
    /// `gradientTableCapacity` are kept, the least recently used dropped first: with the
    /// 16 of a list searched in order, fill-heavy's 200 gradients missed on every fill
    /// and building tables was 1.2 % of its frame (perf, 2026-12-07).
    var gradientTables: [GradientKey: (table: GradientTable, used: Int)] = [:]
    /// The use clock of `gradientTables`.
    var gradientClock = 0
    static let gradientTableCapacity = 256

    struct GradientKey: Hashable {
        let stops: [GradientStop]
        let spread: SpreadMode
    }

    /// The table for `stops` and `spread`, from `gradientTables` when it was built lately.
    func gradientTable(_ stops: [GradientStop], _ spread: SpreadMode) -> GradientTable? {
        gradientClock &+= 1
        let key = GradientKey(stops: stops, spread: spread)
        if let hit = gradientTables[key] {
            gradientTables[key]!.used = gradientClock
            return hit.table
        }
        guard let t = GradientTable(stops: stops, spread: spread) else { return nil }
        if gradientTables.count >= Canvas.gradientTableCapacity,
           let oldest = gradientTables.min(by: { $0.value.used < $1.value.used })?.key {
            gradientTables[oldest] = nil
        }
        gradientTables[key] = (t, gradientClock)
        return t
    }

    /// The last clip mask made outside any other mask, with what it was made from: a
    /// chart clips its marks to the same plot on every frame, and making the mask (a
    /// plot-sized buffer, rasterized and scanned for full runs) was 3.7 % of a 1,000-key
    /// race's frame (instructions). Kept across `reset(to:)`: the mask is a function of
    /// these inputs alone.
    struct ClipMemo {
        let polys: [Polyline]
        let rule: FillRule
        let x0: Int, y0: Int, x1: Int, y1: Int
        let mask: ClipMask
    }
    var clipMemo: ClipMemo?

    /// Transparent pixmaps left by finished layers, for reuse (`takeSpareLayer`).
    var spareLayers: [Pixmap] = []
    /// The largest layer kept for reuse (a 1920×1080 pixmap).
    static let maxSpareLayerBytes = 1920 * 1080 * 4
    /// Where the current target's pixel (0, 0) lies on the canvas: not (0, 0) inside a
    /// layer narrower than the canvas. `state` is in the target's pixels.
    var originX = 0, originY = 0
    /// Whether every pixel of `pixmap` is opaque: it was when drawing began, and no
    /// drawing makes an opaque pixel less so (see `Pixmap.isKnownOpaque`).
    var opaque: Bool

    /// When the canvas began on a pixmap of one colour (`reset(to:background:)`), that
    /// colour and the boxes drawn into since (x0, y0, x1, y1, ends excluded), handed over
    /// with the pixels as their `Pixmap.damage`. Each drawing at the top (a fill, a replayed
    /// block, a layer composited) adds its own box, so a chart's bars and grid lines are
    /// boxes of their own rather than one box over the plot.
    var damage: (background: UInt32, boxes: [Int32])? = nil
    /// More boxes than this are merged into one.
    static let maxDamageBoxes = 1024

    /// Adds what was drawn since the last call (the dirty box) to `damage` and empties the
    /// dirty box, at the top level only (inside a layer the box is the layer's; its
    /// composite is added by `endLayer`). The dirty box is read elsewhere only by layers,
    /// which keep the box outside them and restore it, unioned with their composite.
    @inline(__always)
    func noteDamage() {
        guard damage != nil, layers.isEmpty, dirtyX0 < dirtyX1, dirtyY0 <= dirtyY1 else { return }
        addDamage()
    }

    func addDamage() {
        guard var d = damage else { return }
        damage = nil   // unique while appended to
        func clamp(_ v: Int) -> Int32 { Int32(min(Int(Int32.max), max(Int(Int32.min), v))) }
        if d.boxes.count >= 4 * Canvas.maxDamageBoxes {
            var x0 = Int32.max, y0 = Int32.max, x1 = Int32.min, y1 = Int32.min
            var i = 0
            while i + 3 < d.boxes.count {
                x0 = min(x0, d.boxes[i]); y0 = min(y0, d.boxes[i + 1]); x1 = max(x1, d.boxes[i + 2]); y1 = max(y1, d.boxes[i + 3])
                i += 4
            }
            d.boxes.removeAll(keepingCapacity: true)
            d.boxes.append(contentsOf: [x0, y0, x1, y1])
        }
        d.boxes.append(contentsOf: [clamp(dirtyX0), clamp(dirtyY0), clamp(dirtyX1), clamp(dirtyY1 + 1)])
        damage = d
        dirtyX0 = .max; dirtyY0 = .max; dirtyX1 = .min; dirtyY1 = .min
    }

    /// Creates a canvas drawing into `pixmap`.
    public init(pixmap: Pixmap) {
        self.pixmap = pixmap
        opaque = pixmap.isKnownOpaque
        state = State(transform: .identity, clipX0: 0, clipY0: 0, clipX1: pixmap.width, clipY1: pixmap.height, mask: nil)
    }

    /// Creates a canvas of the given size filled with `background`.
    public convenience init(width: Int, height: Int, background: Color = .clear) {
        self.init(pixmap: Pixmap(width: width, height: height, fill: background.premultiplied))
    }

    /// Starts over on `pixmap`: identity transform, no clip, no open layers, nothing
    /// drawn. What the canvas has allocated (rasterizer cells, scratch rows, spare layers)
    /// is kept, so a canvas reused frame after frame draws without allocating.
    public func reset(to pixmap: Pixmap) {
        self.pixmap = pixmap
        opaque = pixmap.isKnownOpaque
        state = State(transform: .identity, clipX0: 0, clipY0: 0, clipX1: pixmap.width, clipY1: pixmap.height, mask: nil)
        stack.removeAll(keepingCapacity: true)
        layers.removeAll(keepingCapacity: true)
        originX = 0; originY = 0
        dirtyX0 = .max; dirtyY0 = .max; dirtyX1 = .min; dirtyY1 = .min
        damage = nil
    }

    /// `reset(to:)` on a pixmap whose every pixel is `background`: the pixels handed over
    /// by `takePixmap()` then carry the boxes drawn into (`Pixmap.damage`), so the next
    /// frame drawn into the same storage can clear only those.
    public func reset(to pixmap: Pixmap, background: PremultipliedRGBA8) {
        reset(to: pixmap)
        var boxes = [Int32]()
        boxes.reserveCapacity(256)
        damage = (background.packed, boxes)
    }

    /// Hands over the pixels drawn so far without copying them; the canvas is left with a
    /// 1×1 pixmap until the next `reset(to:)`.
    public func takePixmap() -> Pixmap {
        var out = Pixmap(width: 1, height: 1)
        swap(&out, &pixmap)
        out.isKnownOpaque = opaque && layers.isEmpty
        if layers.isEmpty, damage != nil {
            if dirtyX0 < dirtyX1, dirtyY0 <= dirtyY1 { addDamage() }
            if let d = damage { out.damage = Pixmap.Damage(background: d.background, boxes: d.boxes) }
        }
        damage = nil
        return out
    }

    /// Width in pixels.
    public var width: Int { layers.first?.saved.width ?? pixmap.width }
    /// Height in pixels.
    public var height: Int { layers.first?.saved.height ?? pixmap.height }

    /// The current user-to-device transform.
    public var transform: Transform {
        get { originX == 0 && originY == 0 ? state.transform
              : state.transform.concatenating(.translation(Double(originX), Double(originY))) }
        set { state.transform = originX == 0 && originY == 0 ? newValue
              : newValue.concatenating(.translation(-Double(originX), -Double(originY))) }
    }

    /// Pushes the transform and clip, to be restored by `restore()`.
    public func save() { stack.append(state) }
    /// Pops the transform and clip pushed by the matching `save()`.
    /// A layer's `endLayer` pops what was pushed inside it; `restore` does not reach below.
    public func restore() {
        guard stack.count > (layers.last?.stackDepth ?? 0) else { return }
        if let s = stack.popLast() { state = s }
    }
    /// Applies `t` before the current transform (user coordinates are mapped by `t` first).
    public func concatenate(_ t: Transform) { state.transform = t.concatenating(state.transform) }

    /// Fills every pixel with `color`, ignoring transform and clip.
    public func clear(_ color: Color) {
        pixmap.fill(color.premultiplied)
        opaque = color.premultiplied.a == 255
        dirtyX0 = 0; dirtyY0 = 0; dirtyX1 = pixmap.width; dirtyY1 = pixmap.height - 1
        noteDamage()
    }

    /// Runs `body` with the clip's coverage mask set aside when the mask is full (255) over
    /// every pixel of `bounds` (user space, under the current transform, grown by a pixel)
    /// inside the clip box; otherwise with the clip as it is. The caller promises that
    /// `body` draws nothing outside `bounds`. A masked composite at full coverage gives the
    /// bytes of an unmasked one, but the unmasked one takes the fused blitters and the
    /// replayed label blocks (which stand aside under a mask): a chart's marks are clipped
    /// to a plot whose edges fall between pixels, and the bars and labels inside it drew
    /// through the mask's two-pass loop (a fifth of a 1,000-key race's frame, perf).
    public func withClipMaskSetAside(within bounds: Rect, _ body: () -> Void) {
        guard let m = state.mask, let d = bounds.applying(state.transform), d.isFinite else { body(); return }
        func i(_ v: Double) -> Int { Int(min(1e9, max(-1e9, v))) }
        let x0 = max(state.clipX0, i(d.minX.rounded(.down)) - 1), y0 = max(state.clipY0, i(d.minY.rounded(.down)) - 1)
        let x1 = min(state.clipX1, i(d.maxX.rounded(.up)) + 1), y1 = min(state.clipY1, i(d.maxY.rounded(.up)) + 1)
        guard m.isFull(x0, y0, x1, y1) else { body(); return }
        state.mask = nil
        body()
        state.mask = m
    }

    /// Fills `path` with `paint`, composited with `blendMode`. Degenerate paths draw nothing.
    public func fill(_ path: Path, paint: Paint, rule: FillRule = .nonZero, opacity: Double = 1,
                     blendMode: BlendMode = .sourceOver) {
        let polys = path.flattened(tolerance: tolerance, transform: state.transform, keepingCurves: false)
        fillTarget(polys, paint: paint, rule: rule, opacity: opacity, blendMode: blendMode, grid: true)
    }

    /// Strokes `path` with `style` and `paint`. The outline is built in user space (so
    /// a non-uniform transform shapes the pen) and then mapped to the device.
    public func stroke(_ path: Path, style: StrokeStyle, paint: Paint, opacity: Double = 1,
                       blendMode: BlendMode = .sourceOver) {
        let t = state.transform
        let scale = t.maxScale
        guard scale > 0, scale.isFinite else { return }
        let userTol = tolerance / scale
        if isOutsideClip(path.controlBounds, grownBy: style.reach) {
            return
        }
        // A solid stroke's centre line is cut where it bends (Path.flattened), each chord
        // held to the outline's tolerance with its pen's share counted in: a chart line's
        // outline has about 60 % fewer edges to build and walk than by Wang's equal steps.
        let centre = path.flattened(tolerance: userTol * 0.5, cutByBending: style.dashPattern == nil,
                                    bendingTolerance: userTol, pen: style.width / 2)
        var outline = Stroker.stroke(centre, style: style, tolerance: userTol,
                                     scratch: strokeScratch)
        if !t.isIdentity {
            for i in outline.indices {
                outline[i].points.withUnsafeMutableBufferPointer { pts in
                    for j in pts.indices { pts[j] = t.apply(pts[j]) }
                }
            }
        }
        fillTarget(outline, paint: paint, rule: .nonZero, opacity: opacity, blendMode: blendMode, grid: true)
        strokeScratch.recycle(&outline)
    }

    /// Whether `bounds` (user space), grown by `margin` on every side, lies wholly outside
    /// the clip box, so that nothing drawn within it can show. Strokes test this before
    /// building their outline: a fuzzed 91,000 px ellipse dashed every 0.125 px over a
    /// 4 px canvas built 728,000 dashes to draw nothing. Unknown (non-finite) bounds are
    /// never outside.
    func isOutsideClip(_ bounds: Rect, grownBy margin: Double) -> Bool {
        guard bounds.isFinite, bounds.width >= 0, bounds.height >= 0, margin.isFinite,
              let d = bounds.insetBy(-margin).applying(state.transform) else { return false }
        return d.maxX + 1 <= Double(state.clipX0) || d.minX - 1 >= Double(state.clipX1)
            || d.maxY + 1 <= Double(state.clipY0) || d.minY - 1 >= Double(state.clipY1)
    }

    /// Fills polygons already in device space (the canvas's pixels; the paint is still
    /// in user space).
    public func fillDevice(_ polys: [Polyline], paint: Paint, rule: FillRule, opacity: Double,
                           blendMode: BlendMode = .sourceOver) {
        fillTarget(shiftedToTarget(polys), paint: paint, rule: rule, opacity: opacity, blendMode: blendMode)
    }

    /// Device-space polygons in the current target's pixels.
    func shiftedToTarget(_ polys: [Polyline]) -> [Polyline] {
        if originX == 0 && originY == 0 { return polys }
        let d = Point(Double(originX), Double(originY))
        return polys.map { Polyline(points: $0.points.map { $0 - d }, closed: $0.closed) }
    }

    /// The target's pixels as packed words, for blitters outside this file (the
    /// pixmap's setter is private to it).
    func withPixels<R>(_ body: (UnsafeMutablePointer<UInt32>) -> R) -> R {
        pixmap.data.withUnsafeMutableBytes { body($0.baseAddress!.assumingMemoryBound(to: UInt32.self)) }
    }

    /// Fills polygons in the current target's pixels (the paint is still in user space).
    /// With `replay`, the coverage comes from those recorded runs instead of
    /// rasterizing `polys`; with `record`, the rasterizer's runs are appended to it; with
    /// `pieces`, the coverage is swept from those pieces' cells (Canvas+PieceCells.swift);
    /// with `grid`, a non-zero shape takes the fixed-point grid (Rasterizer+FixedGrid.swift:
    /// plain fills and strokes, never a recorded or replayed label).
    func fillTarget(_ polys: [Polyline], paint: Paint, rule: FillRule, opacity: Double,
                    blendMode: BlendMode = .sourceOver, replay: [CoverageRun]? = nil, record: CoverageRecorder? = nil,
                    pieces: [PieceCells]? = nil, grid: Bool = false) {
        let cx0 = state.clipX0, cy0 = state.clipY0, cx1 = state.clipX1, cy1 = state.clipY1
        guard opacity > 0, !polys.isEmpty || replay != nil || pieces != nil, cx1 > cx0, cy1 > cy0,
              let shader = Shader(paint, transform: state.transform, table: gradientTable) else { return }
        let w = pixmap.width, height = pixmap.height
        let mode = blendMode
        let mask = state.mask
        let mx = mask?.x ?? 0, my = mask?.y ?? 0, mw = mask?.width ?? 0
        let fullRuns = mask?.fullRuns ?? []
        var tmp: [UInt32] = []
        swap(&tmp, &scratch)
        defer { swap(&tmp, &scratch) }
        if tmp.count < w { tmp = [UInt32](repeating: 0, count: w) }
        // The dirty box grows through a pointer: the mutable locals `blitRuns` captured cost
        // a dynamic exclusivity check on every access (four to eight a run of rows, 4 % of
        // the dashboard benchmark's time in the Swift runtime's access set, perf).
        var dirty = (x0: dirtyX0, y0: dirtyY0, x1: dirtyX1, y1: dirtyY1)
        let sp = shader.params
        let fast = mask == nil && mode == .sourceOver
        let wide = crk_wide() != 0
        withUnsafeMutablePointer(to: &dirty) { db in
        pixmap.data.withUnsafeMutableBytes { raw in
            let px = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
            tmp.withUnsafeMutableBufferPointer { sb in
                let row0 = sb.baseAddress!
                shader.table.withUnsafeBufferPointer { tb in
                    let lut = tb.baseAddress!
                    withMaskPointer(mask) { maskBase in
                        // An image's shaded colours are recorded with its spans (and replayed
                        // instead of sampling the image again) on the fast path only.
                        let collect = record != nil && sp.kind == .image && fast
                        var collected: [UInt32] = []
                        func blitRuns(_ y0: Int, _ rows: Int, _ spans: UnsafeBufferPointer<Span>, _ colors: UnsafePointer<UInt32>?) {
                            // A run of rows with the same spans: the dirty box and the paint
                            // switch once, then the rows.
                            let yEnd = y0 + rows
                            if y0 < db.pointee.y0 { db.pointee.y0 = y0 }
                            if yEnd - 1 > db.pointee.y1 { db.pointee.y1 = yEnd - 1 }
                            let first = Int(spans[0].x), lastSpan = spans[spans.count - 1]
                            if first < db.pointee.x0 { db.pointee.x0 = first }
                            if Int(lastSpan.x + lastSpan.length) > db.pointee.x1 { db.pointee.x1 = Int(lastSpan.x + lastSpan.length) }
                            guard fast else {
                                if let maskBase, mode == .sourceOver, sp.kind == .solid {
                                    // A solid colour through a mask: the part of each span over the
                                    // row's run of full coverage takes the fused blitter (a masked
                                    // composite at 255 gives the same bytes), the rest the mask loop.
                                    // A plot clip's mask is full but for its edge pixels.
                                    for y in y0..<yEnd {
                                        let maskRow = maskBase + (y - my) * mw, row = px + y * w
                                        let f0 = mx + Int(fullRuns[2 * (y - my)]), f1 = mx + Int(fullRuns[2 * (y - my) + 1])
                                        for s in spans {
                                            blitSolidMasked(row, Int(s.x), Int(s.length), UInt32(s.alpha), lut, maskRow, mx, f0, f1, wide: wide)
                                        }
                                    }
                                    return
                                }
                                for y in y0..<yEnd {
                                    let maskRow = maskBase.map { $0 + (y - my) * mw }
                                    blitGeneral(sp, lut, mode, px + y * w, y, spans, maskRow, mx, row0)
                                }
                                return
                            }
                            switch sp.kind {
                            case .solid:
                                if rows > 1 && spans.allSatisfy({ $0.length >= 0 && $0.length <= columnSpanMaximum }) {
                                    // Short spans down many rows (a vertical hairline): each span's
                                    // column at once (blitSolidColumn).
                                    for s in spans {
                                        blitSolidColumn(px + y0 * w + Int(s.x), w, rows, Int(s.length), UInt32(s.alpha), sp.color)
                                    }
                                    return
                                }
                                for y in y0..<yEnd {
                                    let row = px + y * w
                                    if wide {
                                        for s in spans { blitSolidWide(row, Int(s.x), Int(s.length), UInt32(s.alpha), sp.color) }
                                    } else {
                                        for s in spans { blitSolid(row, Int(s.x), Int(s.length), UInt32(s.alpha), sp.color) }
                                    }
                                }
                            case .linear:
                                let af = Float(sp.a), n = sp.n
                                for y in y0..<yEnd {
                                    let row = px + y * w, q0 = sp.linearRowStart(y)
                                    if sp.a == 0 {
                                        // The gradient runs down the rows (a vertical gradient, the common
                                        // chart fill): one colour per row, blitted like a solid.
                                        let color = lut[tableIndex(shifted: q0, sp.spread, n)]
                                        if color >> 24 == 0 { continue }
                                        if wide {
                                            for s in spans { blitSolidWide(row, Int(s.x), Int(s.length), UInt32(s.alpha), color) }
                                        } else {
                                            for s in spans { blitSolid(row, Int(s.x), Int(s.length), UInt32(s.alpha), color) }
                                        }
                                        continue
                                    }
                                    if wide {
                                        // The whole row's spans in one call, its edge pixels included.
                                        spans.withMemoryRebound(to: crk_span.self) {
                                            crk_linear_spans(row, $0.baseAddress!, $0.count, lut, Int32(n), sp.spread.kernelCode, q0, af)
                                        }
                                        continue
                                    }
                                    for s in spans {
                                        let x = Int(s.x), len = Int(s.length), cov = UInt32(s.alpha)
                                        switch sp.spread {
                                        case .pad: blitLinear(row, x, len, cov, lut, n, .pad, q0, af, row0)
                                        case .repeat: blitLinear(row, x, len, cov, lut, n, .repeat, q0, af, row0)
                                        case .reflect: blitLinear(row, x, len, cov, lut, n, .reflect, q0, af, row0)
                                        }
                                    }
                                }
                            case .radial where wide && sp.radial.concentric:
                                let ahead = Rasterizer.prefetchRows, lo = Int(spans.first?.x ?? 0)
                                let hi = Int(spans.last.map { $0.x + $0.length } ?? 0)
                                for y in y0..<yEnd {
                                    // The shape's next rows usually cover these columns too.
                                    if ahead > 0 && y + ahead < height { crk_prefetch_row(px + (y + ahead) * w + lo, hi - lo) }
                                    let c = ConcentricRow(sp.radial, sp.n, y)
                                    spans.withMemoryRebound(to: crk_span.self) {
                                        crk_radial_spans(px + y * w, $0.baseAddress!, $0.count, lut, Int32(sp.n), sp.spread.kernelCode,
                                                         c.dx0, c.dy0, c.ux, c.uy, c.k, c.q0)
                                    }
                                }
                            case .radial, .sweep, .image:
                                var k = 0
                                for y in y0..<yEnd {
                                    let row = px + y * w
                                    for s in spans {
                                        let x = Int(s.x), len = Int(s.length)
                                        if let colors {
                                            // Replayed image colours (recorded on a first draw).
                                            overSpan(row + x, colors + k, len, UInt32(s.alpha))
                                            k += len
                                            continue
                                        }
                                        shadeSpan(sp, lut, row0, x, y, len)
                                        if collect { collected.append(contentsOf: UnsafeBufferPointer(start: row0, count: len)) }
                                        if wide && len >= wideSpanMinimum {
                                            crk_over_span(row + x, row0, len, UInt32(s.alpha))
                                        } else {
                                            overSpan(row + x, row0, len, UInt32(s.alpha))
                                        }
                                    }
                                }
                            }
                        }
                        if let replay {
                            for run in replay {
                                run.spans.withUnsafeBufferPointer { spans in
                                    if fast, sp.kind == .image, let colors = run.colors {
                                        colors.withUnsafeBufferPointer { blitRuns(run.y0, run.rows, spans, $0.baseAddress) }
                                    } else {
                                        blitRuns(run.y0, run.rows, spans, nil)
                                    }
                                }
                            }
                        } else if let pieces {
                            rasterizer.sweepPieces(pieces, clipX: cx0, clipY: cy0, clipWidth: cx1 - cx0, clipHeight: cy1 - cy0,
                                                   rule: rule, opacity: opacity) { y0, rows, spans in
                                blitRuns(y0, rows, spans, nil)
                            }
                        } else {
                            // A solid or linear source-over fill that records nothing is
                            // composited by the grid's own sweep when it takes the grid (`GridPaint`).
                            let direct = fast && (sp.kind == .solid || sp.kind == .linear) && record == nil && grid
                                && Rasterizer.gridPaintFill
                            let paint = direct ? GridPaint(pixels: px, stride: w, params: sp, lut: lut, dirty: db) : nil
                            rasterizer.fillBanded(polys, clipX: cx0, clipY: cy0, clipWidth: cx1 - cx0, clipHeight: cy1 - cy0,
                                                  rule: rule, opacity: opacity, grid: grid, paint: paint) { y0, rows, spans in
                                if collect { collected.removeAll(keepingCapacity: true) }
                                blitRuns(y0, rows, spans, nil)
                                record?.runs.append(CoverageRun(y0: y0, rows: rows, spans: Array(spans), colors: collect ? collected : nil))
                            }
                        }
                    }
                }
            }
        }
        }
        dirtyX0 = dirty.x0; dirtyY0 = dirty.y0; dirtyX1 = dirty.x1; dirtyY1 = dirty.y1
        noteDamage()
    }

    /// Starts drawing into a transparent offscreen layer that `endLayer()` composites
    /// with `opacity` and `blendMode` (SwiftUI's `.opacity` on a group, or
    /// `compositingGroup` followed by `blendMode`).
    ///
    /// The layer covers only what can be drawn in it: the clip box, narrowed to `bounds`
    /// (user space, under the current transform) when the caller knows where its drawing
    /// lies; nothing outside `bounds` is drawn into the layer. Axes and legends fade
    /// through layers of their own few hundred pixels instead of the whole frame (33 MB
    /// a layer at 4K, which put the 4K load test over its memory bound).
    public func beginLayer(opacity: Double, blendMode: BlendMode = .sourceOver, bounds: Rect? = nil) {
        var x0 = state.clipX0, y0 = state.clipY0, x1 = state.clipX1, y1 = state.clipY1
        if let d = bounds?.applying(state.transform) {
            func i(_ v: Double) -> Int { Int(min(1e9, max(-1e9, v))) }
            x0 = max(x0, i(d.minX.rounded(.down)) - 1)
            y0 = max(y0, i(d.minY.rounded(.down)) - 1)
            x1 = min(x1, i(d.maxX.rounded(.up)) + 1)
            y1 = min(y1, i(d.maxY.rounded(.up)) + 1)
        }
        let empty = x1 <= x0 || y1 <= y0
        if empty { x1 = x0 + 1; y1 = y0 + 1 }
        let lw = x1 - x0, lh = y1 - y0
        layers.append(Layer(saved: pixmap, savedOpaque: opaque, outerState: state, stackDepth: stack.count,
                            outerOriginX: originX, outerOriginY: originY, offsetX: x0, offsetY: y0,
                            opacity: opacity, blendMode: blendMode,
                            dirtyX0: dirtyX0, dirtyY0: dirtyY0, dirtyX1: dirtyX1, dirtyY1: dirtyY1))
        pixmap = takeSpareLayer(width: lw, height: lh)
        // The state moves into the layer's pixels.
        state.transform = state.transform.concatenating(.translation(-Double(x0), -Double(y0)))
        state.clipX0 = 0; state.clipY0 = 0
        state.clipX1 = empty ? 0 : lw; state.clipY1 = empty ? 0 : lh
        if empty { state.mask = nil } else if var m = state.mask { m.x -= x0; m.y -= y0; state.mask = m }
        originX += x0; originY += y0
        opaque = false
        dirtyX0 = .max; dirtyY0 = .max; dirtyX1 = .min; dirtyY1 = .min
    }

    /// A transparent pixmap for a layer: a spare of that size, or a spare with room
    /// enough given the new shape (all its bytes are zero, so the bytes it keeps are
    /// transparent at any width), or a new one with a quarter more room than asked. A
    /// layer's size follows what it holds, so moving and growing marks (a race's bars
    /// fading in and out) ask for a new size every frame; a 1080p plot-sized layer is
    /// above glibc's mmap threshold, and a new one cost ~1,500 zero-filled page faults.
    func takeSpareLayer(width lw: Int, height lh: Int) -> Pixmap {
        if let i = spareLayers.lastIndex(where: { $0.width == lw && $0.height == lh }) {
            return spareLayers.remove(at: i)
        }
        let need = lw * lh * 4
        var best: Int?
        for (i, l) in spareLayers.enumerated() where l.data.capacity >= need {
            if best == nil || l.data.capacity < spareLayers[best!].data.capacity { best = i }
        }
        if let best {
            var bytes = spareLayers[best].data
            spareLayers.remove(at: best)
            if bytes.count > need {
                bytes.removeLast(bytes.count - need)
            } else if bytes.count < need {
                bytes.append(contentsOf: repeatElement(0, count: need - bytes.count))
            }
            return Pixmap(width: lw, height: lh, premultipliedData: bytes)!
        }
        let room = max(need, min(Canvas.maxSpareLayerBytes, need + need / 4))
        let bytes = [UInt8](unsafeUninitializedCapacity: room) { buf, n in
            Pixmap.adviseHugePages(buf.baseAddress!, room)
            buf.baseAddress!.initialize(repeating: 0, count: need)
            n = need
        }
        return Pixmap(width: lw, height: lh, premultipliedData: bytes)!
    }

    /// Composites the innermost layer onto what was below it, and returns to the
    /// transform and clip of its `beginLayer` (what was saved inside it is popped).
    public func endLayer() {
        guard var layer = layers.popLast() else { return }
        // Swap, not assign: an assignment would leave `layer` sharing the pixels below, and
        // the first write would copy the whole canvas (33 MB per layer at 4K).
        swap(&pixmap, &layer.saved)
        opaque = layer.savedOpaque
        state = layer.outerState
        if stack.count > layer.stackDepth { stack.removeSubrange(layer.stackDepth...) }
        originX = layer.outerOriginX; originY = layer.outerOriginY
        let lx0 = dirtyX0, lx1 = dirtyX1, ly0 = dirtyY0, ly1 = dirtyY1
        let ox = layer.offsetX, oy = layer.offsetY
        let a = UInt32((min(1, max(0, layer.opacity.isNaN ? 0 : layer.opacity)) * 255).rounded())
        if a > 0 && lx0 < lx1 && ly0 <= ly1 {
            let w = pixmap.width, lw = layer.saved.width
            let mode = layer.blendMode
            let wide = crk_wide() != 0
            layer.saved.data.withUnsafeBytes { sraw in
                let s = sraw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                pixmap.data.withUnsafeMutableBytes { draw in
                    let d = draw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                    for y in ly0...ly1 {
                        let src = s + y * lw + lx0, dst = d + (y + oy) * w + ox + lx0
                        if mode != .sourceOver {
                            compositeSpan(mode, dst, src, 1, lx1 - lx0, a, nil)
                            continue
                        }
                        if wide {
                            // A transparent pixel leaves the one below as it is either way.
                            crk_over_span(dst, src, lx1 - lx0, a)
                            continue
                        }
                        for x in 0..<(lx1 - lx0) {
                            let v = src[x]
                            if v == 0 { continue }
                            dst[x] = sourceOver(a == 255 ? v : scalePacked(v, a), dst[x])
                        }
                    }
                }
            }
            dirtyX0 = min(layer.dirtyX0, lx0 + ox); dirtyY0 = min(layer.dirtyY0, ly0 + oy)
            dirtyX1 = max(layer.dirtyX1, lx1 + ox); dirtyY1 = max(layer.dirtyY1, ly1 + oy)
        } else {
            dirtyX0 = layer.dirtyX0; dirtyY0 = layer.dirtyY0; dirtyX1 = layer.dirtyX1; dirtyY1 = layer.dirtyY1
        }
        noteDamage()
        // Everything drawn in the layer lies in its dirty box: clearing the box makes it
        // transparent again, ready for the next layer.
        if lx0 < lx1 && ly0 <= ly1 {
            let lw = layer.saved.width
            layer.saved.data.withUnsafeMutableBytes { raw in
                let p = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                for y in ly0...ly1 { (p + y * lw + lx0).update(repeating: 0, count: lx1 - lx0) }
            }
        }
        // Kept for the next layer up to 1080p (a 4K layer is 33 MB a worker), four at most.
        if layer.saved.data.capacity <= Canvas.maxSpareLayerBytes + Canvas.maxSpareLayerBytes / 4 {
            spareLayers.append(layer.saved)
            if spareLayers.count > 4 { spareLayers.removeFirst() }
        }
    }
}

/// The two-pass path for one row: shade each span (a solid colour is read in place),
/// then composite it with coverage, mask and blend mode. `maskRow` is the mask's row
/// for this y, whose first byte is device column `maskX`.
func blitGeneral(_ sp: Shader.Params, _ lut: UnsafePointer<UInt32>, _ mode: BlendMode,
                 _ row: UnsafeMutablePointer<UInt32>, _ y: Int,
                 _ spans: UnsafeBufferPointer<Span>, _ maskRow: UnsafePointer<UInt8>?, _ maskX: Int,
                 _ scratch: UnsafeMutablePointer<UInt32>) {
    for s in spans {
        let x = Int(s.x), len = Int(s.length), cov = UInt32(s.alpha)
        let m = maskRow.map { $0 + (x - maskX) }
        if sp.kind == .solid {
            // The table of a solid paint is its one colour: composited with stride 0.
            compositeSpan(mode, row + x, lut, 0, len, cov, m)
        } else {
            shadeSpan(sp, lut, scratch, x, y, len)
            compositeSpan(mode, row + x, scratch, 1, len, cov, m)
        }
    }
}

/// Calls `body` with the mask's first byte, or nil without a mask.
@inline(__always)
func withMaskPointer<R>(_ mask: Canvas.ClipMask?, _ body: (UnsafePointer<UInt8>?) -> R) -> R {
    guard let m = mask else { return body(nil) }
    return m.data.withUnsafeBufferPointer { body($0.baseAddress) }
}
