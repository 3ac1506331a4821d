import Geometry

extension Canvas {
    /// Intersects the clip with `rect` (in user space). A rectangle that lands on whole
    /// device pixels under an axis-aligned transform only narrows the clip box; any other
    /// (fractional, rotated, skewed) is anti-aliased through a coverage mask.
    public func clip(to rect: Rect) {
        let t = state.transform
        let corners = rect.corners.map(t.apply)
        guard corners.allSatisfy(\.isFinite) else { clipToNothing(); return }
        if (t.b == 0 && t.c == 0) || (t.a == 0 && t.d == 0) {
            let x0 = min(corners[0].x, corners[2].x), x1 = max(corners[0].x, corners[2].x)
            let y0 = min(corners[0].y, corners[2].y), y1 = max(corners[0].y, corners[2].y)
            // Within a millionth of a pixel the mask would hold 0 or 255 anyway.
            func whole(_ v: Double) -> Bool { abs(v - v.rounded()) <= 1e-6 }
            if whole(x0) && whole(x1) && whole(y0) && whole(y1) {
                func i(_ v: Double) -> Int { Int(min(1e9, max(-1e9, v.rounded()))) }
                narrowClip(i(x0), i(y0), i(x1), i(y1))
                return
            }
        }
        clipDevice([Polyline(points: corners, closed: true)], rule: .nonZero)
    }

    /// Intersects the clip with the inside of `path` (in user space) under `rule`,
    /// anti-aliased. Nested clips intersect; `restore()` undoes them.
    public func clip(to path: Path, rule: FillRule = .nonZero) {
        clipTarget(path.flattened(tolerance: tolerance, transform: state.transform, keepingCurves: false), rule: rule)
    }

    /// Intersects the clip with polygons already in device space (the canvas's pixels).
    public func clipDevice(_ polys: [Polyline], rule: FillRule) { clipTarget(shiftedToTarget(polys), rule: rule) }

    /// Intersects the clip with polygons in the current target's pixels.
    func clipTarget(_ polys: [Polyline], rule: FillRule) {
        // The mask covers the polygons' box within the current clip box: memory is
        // bounded by the canvas whatever the coordinates.
        var bx0 = Double.infinity, by0 = Double.infinity, bx1 = -Double.infinity, by1 = -Double.infinity
        for pl in polys where pl.points.count >= 2 {
            for p in pl.points where p.isFinite {
                bx0 = min(bx0, p.x); by0 = min(by0, p.y); bx1 = max(bx1, p.x); by1 = max(by1, p.y)
            }
        }
        guard bx0 <= bx1, by0 <= by1 else { clipToNothing(); return }
        func i(_ v: Double) -> Int { Int(min(1e9, max(-1e9, v))) }
        let x0 = max(state.clipX0, i(bx0.rounded(.down))), y0 = max(state.clipY0, i(by0.rounded(.down)))
        let x1 = min(state.clipX1, i(bx1.rounded(.up))), y1 = min(state.clipY1, i(by1.rounded(.up)))
        guard x1 > x0, y1 > y0 else { clipToNothing(); return }
        let old = state.mask
        // The same clip as before on the same box, not nested in another mask (a chart's
        // plot clip on every frame): the mask made then, which these inputs determine.
        if old == nil, let memo = clipMemo, memo.rule == rule, memo.x0 == x0, memo.y0 == y0, memo.x1 == x1, memo.y1 == y1,
           memo.polys == polys {
            state.mask = memo.mask
            state.clipX0 = x0; state.clipY0 = y0; state.clipX1 = x1; state.clipY1 = y1
            return
        }
        let w = x1 - x0, h = y1 - y0
        var data = [UInt8](repeating: 0, count: w * h)
        rasterizer.reset(clipX: x0, clipY: y0, clipWidth: w, clipHeight: h)
        rasterizer.add(polys)
        let ox = old?.x ?? 0, oy = old?.y ?? 0, ow = old?.width ?? 0
        var any = false
        data.withUnsafeMutableBufferPointer { d in
            let base = d.baseAddress!
            withMaskPointer(old) { oldBase in
                rasterizer.sweep(rule: rule) { y, spans in
                    for s in spans {
                        let x = Int(s.x), len = Int(s.length), a = UInt32(s.alpha)
                        let dst = base + (y - y0) * w + (x - x0)
                        if let ob = oldBase {
                            // Nested clips intersect: coverage multiplies.
                            let src = ob + (y - oy) * ow + (x - ox)
                            for k in 0..<len { dst[k] = UInt8(truncatingIfNeeded: div255(a &* UInt32(src[k]))) }
                        } else {
                            dst.update(repeating: UInt8(truncatingIfNeeded: a), count: len)
                        }
                    }
                    any = true
                }
            }
        }
        guard any else { clipToNothing(); return }
        let mask = ClipMask(x: x0, y: y0, width: w, height: h, data: data)
        state.mask = mask
        state.clipX0 = x0; state.clipY0 = y0; state.clipX1 = x1; state.clipY1 = y1
        if old == nil { clipMemo = ClipMemo(polys: polys, rule: rule, x0: x0, y0: y0, x1: x1, y1: y1, mask: mask) }
    }

    /// Narrows the clip box; the mask, if any, still covers the narrower box.
    func narrowClip(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        state.clipX0 = max(state.clipX0, x0); state.clipY0 = max(state.clipY0, y0)
        state.clipX1 = min(state.clipX1, x1); state.clipY1 = min(state.clipY1, y1)
        if state.clipX1 <= state.clipX0 || state.clipY1 <= state.clipY0 { clipToNothing() }
    }

    /// An empty clip: nothing draws until `restore()`.
    func clipToNothing() {
        state.clipX1 = state.clipX0; state.clipY1 = state.clipY0
        state.mask = nil
    }

    /// The device box drawing is confined to (x0, y0, x1, y1), empty when x1 ≤ x0 or y1 ≤ y0.
    public var clipBounds: (x0: Int, y0: Int, x1: Int, y1: Int) {
        (state.clipX0 + originX, state.clipY0 + originY, state.clipX1 + originX, state.clipY1 + originY)
    }

    /// True when the clip needs a coverage mask (it is not a whole-pixel rectangle).
    public var hasClipMask: Bool { state.mask != nil }
}
