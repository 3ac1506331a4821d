import Geometry

/// Draws paths onto a `Pixmap`: a transform stack, rectangular clips, opacity layers.
///
/// Every draw call flattens its path in device space (or strokes it in user space and
/// then maps the outline), hands the polygons to the `Rasterizer`, and blits the spans
/// it returns with the compiled paint — one `switch` on the paint per span, plain
/// loops over the row's pixels inside. A canvas is not thread-safe; render frames in
/// parallel with one canvas per thread.
public final class Canvas {
    struct State {
        var transform: Transform
        var clipX0: Int, clipY0: Int, clipX1: Int, clipY1: Int
    }

    struct Layer {
        var saved: Pixmap
        var opacity: Double
        var dirtyX0: Int, dirtyY0: Int, dirtyX1: Int, dirtyY1: Int
    }

    /// The pixels drawn so far.
    public private(set) var pixmap: Pixmap
    /// Largest distance, in device pixels, between a curve and the polygon drawn for it.
    public var tolerance: Double = 0.1
    var state: State
    var stack: [State] = []
    var layers: [Layer] = []
    var dirtyX0 = Int.max, dirtyY0 = Int.max, dirtyX1 = Int.min, dirtyY1 = Int.min
    let rasterizer = Rasterizer()

    /// Creates a canvas drawing into `pixmap`.
    public init(pixmap: Pixmap) {
        self.pixmap = pixmap
        state = State(transform: .identity, clipX0: 0, clipY0: 0, clipX1: pixmap.width, clipY1: pixmap.height)
    }

    /// Creates a canvas of the given size filled with `background`.
    public convenience init(width: Int, height: Int, background: Color = .clear) {
        self.init(pixmap: Pixmap(width: width, height: height, fill: background.premultiplied))
    }

    /// Width in pixels.
    public var width: Int { pixmap.width }
    /// Height in pixels.
    public var height: Int { pixmap.height }

    /// The current user-to-device transform.
    public var transform: Transform {
        get { state.transform }
        set { state.transform = newValue }
    }

    /// Pushes the transform and clip, to be restored by `restore()`.
    public func save() { stack.append(state) }
    /// Pops the transform and clip pushed by the matching `save()`.
    public func restore() { if let s = stack.popLast() { state = s } }
    /// Applies `t` before the current transform (user coordinates are mapped by `t` first).
    public func concatenate(_ t: Transform) { state.transform = t.concatenating(state.transform) }

    /// Narrows the clip to the device-pixel box covering `rect` (in user space) — the
    /// pixels the rectangle touches after the transform's bounding box.
    public func clip(to rect: Rect) {
        let t = state.transform
        var b = Rect.null
        for p in [Point(rect.minX, rect.minY), Point(rect.maxX, rect.minY), Point(rect.minX, rect.maxY), Point(rect.maxX, rect.maxY)] {
            b = b.union(t.apply(p))
        }
        guard b.minX.isFinite, b.maxX.isFinite, b.minY.isFinite, b.maxY.isFinite else {
            state.clipX1 = state.clipX0; return
        }
        // Both ends clamped on both sides: a box wholly beyond ±1e9 (a maxX of −1e308)
        // would otherwise trap converting to Int.
        state.clipX0 = max(state.clipX0, Int(clampedCoordinate(b.minX).rounded(.down)))
        state.clipY0 = max(state.clipY0, Int(clampedCoordinate(b.minY).rounded(.down)))
        state.clipX1 = min(state.clipX1, Int(clampedCoordinate(b.maxX).rounded(.up)))
        state.clipY1 = min(state.clipY1, Int(clampedCoordinate(b.maxY).rounded(.up)))
    }

    /// Fills every pixel with `color`, ignoring transform and clip.
    public func clear(_ color: Color) { pixmap.fill(color.premultiplied) }

    /// Fills `path` with `paint`. Degenerate paths draw nothing.
    public func fill(_ path: Path, paint: Paint, rule: FillRule = .nonZero, opacity: Double = 1) {
        let polys = path.flattened(tolerance: tolerance, transform: state.transform)
        fillDevice(polys, paint: paint, rule: rule, opacity: opacity)
    }

    /// Strokes `path` with `style` and `paint`. The outline is built in user space (so
    /// a non-uniform transform shapes the pen) and then mapped to the device.
    public func stroke(_ path: Path, style: StrokeStyle, paint: Paint, opacity: Double = 1) {
        let t = state.transform
        let scale = t.maxScale
        guard scale > 0, scale.isFinite else { return }
        let userTol = tolerance / scale
        let outline = Stroker.stroke(path.flattened(tolerance: userTol), style: style, tolerance: userTol)
        if t.isIdentity {
            fillDevice(outline, paint: paint, rule: .nonZero, opacity: opacity)
        } else {
            fillDevice(outline.map { Polyline(points: $0.points.map(t.apply), closed: $0.closed) },
                       paint: paint, rule: .nonZero, opacity: opacity)
        }
    }

    /// Fills polygons already in device space.
    public func fillDevice(_ polys: [Polyline], paint: Paint, rule: FillRule, opacity: Double) {
        guard opacity > 0, !polys.isEmpty, state.clipX1 > state.clipX0, state.clipY1 > state.clipY0,
              let shader = Shader(paint, transform: state.transform) else { return }
        let cx0 = max(0, state.clipX0), cy0 = max(0, state.clipY0)
        let cx1 = min(pixmap.width, state.clipX1), cy1 = min(pixmap.height, state.clipY1)
        guard cx1 > cx0, cy1 > cy0 else { return }
        rasterizer.reset(clipX: cx0, clipY: cy0, clipWidth: cx1 - cx0, clipHeight: cy1 - cy0)
        rasterizer.add(polys)
        let w = pixmap.width
        var dx0 = dirtyX0, dy0 = dirtyY0, dx1 = dirtyX1, dy1 = dirtyY1
        pixmap.data.withUnsafeMutableBytes { raw in
            let px = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
            rasterizer.sweep(rule: rule, opacity: opacity) { y, spans in
                let row = px + y * w
                if y < dy0 { dy0 = y }
                if y > dy1 { dy1 = y }
                let first = Int(spans[0].x), lastSpan = spans[spans.count - 1]
                if first < dx0 { dx0 = first }
                if Int(lastSpan.x + lastSpan.length) > dx1 { dx1 = Int(lastSpan.x + lastSpan.length) }
                switch shader {
                case .solid(let color):
                    for s in spans { blitSolid(row, Int(s.x), Int(s.length), UInt32(s.alpha), color) }
                case .linear(let lut, let a, let b, let c):
                    let rowT = b * (Double(y) + 0.5) + c
                    if a == 0 {
                        // The gradient runs down the rows (a vertical gradient, the common
                        // chart fill): one colour per row, blitted like a solid.
                        let color = lut[gradientIndex(rowT)]
                        if color >> 24 == 0 { return }
                        for s in spans { blitSolid(row, Int(s.x), Int(s.length), UInt32(s.alpha), color) }
                    } else {
                        lut.withUnsafeBufferPointer { table in
                            for s in spans {
                                blitLinear(row, Int(s.x), Int(s.length), UInt32(s.alpha), table, a, rowT)
                            }
                        }
                    }
                }
            }
        }
        dirtyX0 = dx0; dirtyY0 = dy0; dirtyX1 = dx1; dirtyY1 = dy1
    }

    /// Starts drawing into a transparent offscreen layer that `endLayer()` composites
    /// with `opacity` (SwiftUI's `.opacity` on a group, or `compositingGroup`).
    public func beginLayer(opacity: Double) {
        let saved = pixmap
        layers.append(Layer(saved: saved, opacity: opacity, dirtyX0: dirtyX0, dirtyY0: dirtyY0, dirtyX1: dirtyX1, dirtyY1: dirtyY1))
        pixmap = Pixmap(width: saved.width, height: saved.height)
        dirtyX0 = .max; dirtyY0 = .max; dirtyX1 = .min; dirtyY1 = .min
    }

    /// Composites the innermost layer onto what was below it.
    public func endLayer() {
        guard var layer = layers.popLast() else { return }
        // Swapped, not assigned: with `layer.saved` still holding the pixels below, the
        // write into `pixmap` would copy the whole canvas first (33 MB per layer at 4K).
        swap(&pixmap, &layer.saved)
        let src = layer.saved
        let a = UInt32((min(1, max(0, layer.opacity.isNaN ? 0 : layer.opacity)) * 255).rounded())
        if a > 0 && dirtyX0 < dirtyX1 && dirtyY0 <= dirtyY1 {
            let w = pixmap.width
            let x0 = dirtyX0, x1 = dirtyX1, y0 = dirtyY0, y1 = dirtyY1
            src.data.withUnsafeBytes { sraw in
                let s = sraw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                pixmap.data.withUnsafeMutableBytes { draw in
                    let d = draw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                    for y in y0...y1 {
                        let base = y * w
                        for x in x0..<x1 {
                            let v = s[base + x]
                            if v == 0 { continue }
                            d[base + x] = sourceOver(a == 255 ? v : scalePacked(v, a), d[base + x])
                        }
                    }
                }
            }
            dirtyX0 = min(layer.dirtyX0, x0); dirtyY0 = min(layer.dirtyY0, y0)
            dirtyX1 = max(layer.dirtyX1, x1); dirtyY1 = max(layer.dirtyY1, y1)
        } else {
            dirtyX0 = layer.dirtyX0; dirtyY0 = layer.dirtyY0; dirtyX1 = layer.dirtyX1; dirtyY1 = layer.dirtyY1
        }
    }
}

/// A finite device coordinate brought into ±1e9, far outside any canvas but safe to convert to Int.
@inline(__always)
func clampedCoordinate(_ v: Double) -> Double { min(1e9, max(-1e9, v)) }

/// Source-over of one colour at coverage `cov` onto `len` pixels.
@inline(__always)
func blitSolid(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ len: Int, _ cov: UInt32, _ color: UInt32) {
    let p = row + x
    if cov == 255 && color >> 24 == 255 {
        p.update(repeating: color, count: len)
        return
    }
    let src = cov == 255 ? color : scalePacked(color, cov)
    let inv = 255 &- (src >> 24)
    for i in 0..<len { p[i] = src &+ scalePacked(p[i], inv) }
}

/// Source-over of a linear gradient at coverage `cov` onto `len` pixels.
@inline(__always)
func blitLinear(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ len: Int, _ cov: UInt32,
                _ lut: UnsafeBufferPointer<UInt32>, _ a: Double, _ rowT: Double) {
    let p = row + x
    for i in 0..<len {
        let c = lut[gradientIndex(a * (Double(x + i) + 0.5) + rowT)]
        let src = cov == 255 ? c : scalePacked(c, cov)
        let sa = src >> 24
        p[i] = sa == 255 ? src : src &+ scalePacked(p[i], 255 &- sa)
    }
}

/// The colour-table entry for gradient position `t` (pad: clamped to the ends). NaN
/// takes the first entry: a transform near singularity (a scale of 3.5e59 by 5e-324)
/// inverts to coefficients that give ∞ − ∞ at some pixels.
@inline(__always)
func gradientIndex(_ t: Double) -> Int {
    t > 0 ? (t < 1 ? Int(t * 255 + 0.5) : 255) : 0
}
