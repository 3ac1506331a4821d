import CRasterKernels

// Span blitters: the loops that write pixels.
//
// The fast paths — solid colour and linear gradient, source-over, no clip mask — are
// fused loops that read the paint and write the pixel in one pass; they are what charts
// draw nearly all the time. Everything else goes through two passes per span: the
// shader writes the span's colours into a scratch row (`shadeSpan`), then
// `compositeSpan` applies coverage, the clip mask and the blend mode. The switch on the
// blend mode and on the mask's presence happens once per span, outside the loops.

/// Source-over of one colour at coverage `cov` onto `len` pixels.
@inline(__always)
func blitSolid(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ len: Int, _ cov: UInt32, _ color: UInt32) {
    let p = row + x
    if cov == 255 && color >> 24 == 255 {
        // The colour's own word stored `len` times: the same bytes at every SIMD level,
        // as memset is for the clear.
        if len >= wideFillMinimum { crk_fill_span(p, len, color) } else { p.update(repeating: color, count: len) }
        return
    }
    let src = cov == 255 ? color : scalePacked(color, cov)
    let inv = 255 &- (src >> 24)
    // Four pixels at a time in 16-bit lanes: x86-64's baseline (SSE2) multiplies 16-bit
    // lanes in one instruction but has no 32-bit lane multiply, so the packed form of
    // `scalePacked` vectorised into shuffles around 64-bit multiplies. Same arithmetic,
    // same bytes (BlendModeTests checks them against `scalePacked`).
    let sv = SIMD4<UInt32>(repeating: src)
    let k = SIMD8<UInt16>(repeating: UInt16(inv))
    var i = 0
    while i &+ 4 <= len {
        let d = UnsafeRawPointer(p + i).loadUnaligned(as: SIMD16<UInt8>.self)
        let out = unsafeBitCast(scaleBytes(d, k), to: SIMD4<UInt32>.self) &+ sv
        UnsafeMutableRawPointer(p + i).storeBytes(of: out, as: SIMD4<UInt32>.self)
        i &+= 4
    }
    while i < len { p[i] = src &+ scalePacked(p[i], inv); i &+= 1 }
}

/// Spans at most this long, the same in every row of a run, are drawn a column at a time
/// (`blitSolidColumn`) rather than a row at a time.
let columnSpanMaximum = 3

/// `blitSolid` on `rows` rows `stride` pixels apart, `len` pixels each from `p`: the
/// same bytes, with the colour's factors worked out once instead of once a row. A run of
/// rows whose spans are a pixel or two (a vertical hairline: the dashboard's 84 vertical
/// grid lines are 22,848 one-pixel rows a frame) spent more on the call and its checks
/// for each row than on the pixel.
@inline(__always)
func blitSolidColumn(_ p: UnsafeMutablePointer<UInt32>, _ stride: Int, _ rows: Int, _ len: Int, _ cov: UInt32,
                     _ color: UInt32) {
    var q = p
    if cov == 255 && color >> 24 == 255 {
        for _ in 0..<rows {
            for i in 0..<len { q[i] = color }
            q += stride
        }
        return
    }
    let src = cov == 255 ? color : scalePacked(color, cov)
    let inv = 255 &- (src >> 24)
    for _ in 0..<rows {
        for i in 0..<len { q[i] = src &+ scalePacked(q[i], inv) }
        q += stride
    }
}

/// Each byte of `d` times the matching 16-bit factor in `k` (both halves use `k`),
/// divided by 255 and rounded as `div255` does.
@inline(__always)
func scaleBytes(_ d: SIMD16<UInt8>, _ k: SIMD8<UInt16>) -> SIMD16<UInt8> {
    var lo = SIMD8<UInt16>(truncatingIfNeeded: d.lowHalf) &* k &+ 128
    var hi = SIMD8<UInt16>(truncatingIfNeeded: d.highHalf) &* k &+ 128
    lo = (lo &+ (lo &>> 8)) &>> 8
    hi = (hi &+ (hi &>> 8)) &>> 8
    return SIMD16<UInt8>(lowHalf: SIMD8<UInt8>(truncatingIfNeeded: lo), highHalf: SIMD8<UInt8>(truncatingIfNeeded: hi))
}

/// Source-over of a linear gradient at coverage `cov` onto `len` pixels from column `x`;
/// pixel x's shifted table position (`tableIndex(shifted:)`) is q0 + a·x, q0 being the
/// row's start (`Shader.Params.linearRowStart`). The colours
/// are looked up into `scratch` first, then composited by `overSpan`: split in two, the
/// compositing loop has no branch and LLVM vectorises it. Measured on 200 overlapping
/// translucent gradient shapes at 1920×1080, together with radial spans composited the
/// same way: 2.8 frames/s with the fused loop (a branch on each pixel's alpha), 9.5
/// after, in runs next to each other on a loaded machine.
@inline(__always)
func blitLinear(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ len: Int, _ cov: UInt32,
                _ lut: UnsafePointer<UInt32>, _ n: Int, _ spread: SpreadMode, _ q0: Float, _ a: Float,
                _ scratch: UnsafeMutablePointer<UInt32>) {
    if len < linearFusedMaximum {
        // A short span (the edge pixels of a gradient-stroked line, nearly all of its
        // spans): one pass, each pixel's colour composited as it is looked up, without
        // the scratch row and the two loops' set-up (LLVM's overlap checks between
        // scratch and row). The same arithmetic as `overSpan`, pixel by pixel.
        let p = row + x
        for i in 0..<len {
            let c = lut[tableIndex(shifted: q0 + a * Float(x &+ i), spread, n)]
            let s = cov == 255 ? c : scalePacked(c, cov)
            p[i] = s &+ scalePacked(p[i], 255 &- (s >> 24))
        }
        return
    }
    for i in 0..<len { scratch[i] = lut[tableIndex(shifted: q0 + a * Float(x &+ i), spread, n)] }
    overSpan(row + x, scratch, len, cov)
}

/// Linear-gradient spans shorter than this are composited in one pass (`blitLinear`).
let linearFusedMaximum = 8

/// Source-over of `len` premultiplied source pixels scaled by `cov` onto `dst`, without a
/// branch per pixel so that LLVM vectorises it: a transparent source leaves the pixel as
/// it was (scaling by 255 is exact) and an opaque one replaces it (scaling by 0 gives 0),
/// so the result equals `sourceOver` pixel by pixel.
@inline(__always)
func overSpan(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ len: Int, _ cov: UInt32) {
    if cov == 255 {
        for i in 0..<len {
            let s = src[i]
            dst[i] = s &+ scalePacked(dst[i], 255 &- (s >> 24))
        }
    } else {
        for i in 0..<len {
            let s = scalePacked(src[i], cov)
            dst[i] = s &+ scalePacked(dst[i], 255 &- (s >> 24))
        }
    }
}

/// Source-over of one premultiplied colour through `len` coverage bytes (a replayed
/// coverage mask, Canvas+CoverageCache.swift): pixel i takes `color` scaled by `mask[i]`,
/// exactly as `blitSolid` composites a span of that coverage, so a mask built from a
/// fill's spans gives the fill's bytes. The reference for `crk_mask_solid`.
@inline(__always)
func maskSolidSpan(_ dst: UnsafeMutablePointer<UInt32>, _ mask: UnsafePointer<UInt8>, _ len: Int, _ color: UInt32) {
    for i in 0..<len {
        let m = UInt32(mask[i])
        if m == 0 { continue }
        let s = m == 255 ? color : scalePacked(color, m)
        dst[i] = s &+ scalePacked(dst[i], 255 &- (s >> 24))
    }
}

/// Source-over of the solid colour `color[0]` at coverage `cov` onto `len` pixels from
/// column `x` of `row`, through a clip mask whose row is `maskRow` (its first byte is
/// column `maskX`) and is 255 from column `full0` to `full1` (exclusive). The part of the
/// span over the full run takes the fused blitter, the rest the mask loop: the bytes of
/// `compositeSpan` over the whole span (at mask 255 it scales by `cov` alone, as
/// `blitSolid` does). A chart's plot clip has fractional edges, so its mask is full but
/// for its edge pixels, and its bars drew through the mask loop pixel by pixel.
@inline(__always)
func blitSolidMasked(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ len: Int, _ cov: UInt32, _ color: UnsafePointer<UInt32>,
                     _ maskRow: UnsafePointer<UInt8>, _ maskX: Int, _ full0: Int, _ full1: Int, wide: Bool) {
    let e = x + len
    let a = min(max(x, full0), e), b = max(min(e, full1), a)
    if a > x { compositeSpan(.sourceOver, row + x, color, 0, a - x, cov, maskRow + (x - maskX)) }
    if b > a {
        if wide { blitSolidWide(row, a, b - a, cov, color[0]) } else { blitSolid(row, a, b - a, cov, color[0]) }
    }
    if e > b { compositeSpan(.sourceOver, row + b, color, 0, e - b, cov, maskRow + (b - maskX)) }
}

/// Composites `len` premultiplied source pixels onto `dst` with `mode`, each scaled by
/// `cov` and, when `mask` is given, by its coverage too. `srcStride` 0 repeats `src[0]`
/// (a solid colour without a scratch row).
func compositeSpan(_ mode: BlendMode, _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>,
                   _ srcStride: Int, _ len: Int, _ cov: UInt32, _ mask: UnsafePointer<UInt8>?) {
    switch mode {
    case .sourceOver: compositeLoop(.sourceOver, dst, src, srcStride, len, cov, mask)
    case .multiply: compositeLoop(.multiply, dst, src, srcStride, len, cov, mask)
    case .screen: compositeLoop(.screen, dst, src, srcStride, len, cov, mask)
    case .overlay: compositeLoop(.overlay, dst, src, srcStride, len, cov, mask)
    case .darken: compositeLoop(.darken, dst, src, srcStride, len, cov, mask)
    case .lighten: compositeLoop(.lighten, dst, src, srcStride, len, cov, mask)
    case .colorDodge: compositeLoop(.colorDodge, dst, src, srcStride, len, cov, mask)
    case .colorBurn: compositeLoop(.colorBurn, dst, src, srcStride, len, cov, mask)
    case .hardLight: compositeLoop(.hardLight, dst, src, srcStride, len, cov, mask)
    case .softLight: compositeLoop(.softLight, dst, src, srcStride, len, cov, mask)
    case .difference: compositeLoop(.difference, dst, src, srcStride, len, cov, mask)
    case .exclusion: compositeLoop(.exclusion, dst, src, srcStride, len, cov, mask)
    }
}

/// The loop behind `compositeSpan`, specialised per mode by the literal at each call.
/// Source-over scales the source by coverage (the same as interpolating, and one
/// rounding fewer); the other modes interpolate between the backdrop and the
/// full-coverage result with one rounding (`lerpPacked`), so partial coverage adds at
/// most ½ level to the blend's own error. For separable modes both are the same value:
/// the W3C formula is linear in (cs, αs) once Cs is fixed.
@inline(__always)
func compositeLoop(_ mode: BlendMode, _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>,
                   _ srcStride: Int, _ len: Int, _ cov: UInt32, _ mask: UnsafePointer<UInt8>?) {
    @inline(__always) func put(_ i: Int, _ s: UInt32, _ k: UInt32) {
        if mode == .sourceOver {
            dst[i] = sourceOver(k == 255 ? s : scalePacked(s, k), dst[i])
        } else {
            let d = dst[i]
            let r = blend(mode, s, d)
            dst[i] = k == 255 ? r : lerpPacked(d, r, k)
        }
    }
    if let m = mask {
        for i in 0..<len {
            let mc = UInt32(m[i])
            if mc == 0 { continue }
            let s = src[i &* srcStride]
            if s == 0 { continue }
            put(i, s, cov == 255 ? mc : div255(cov &* mc))
        }
    } else {
        for i in 0..<len {
            let s = src[i &* srcStride]
            if s == 0 { continue }
            put(i, s, cov)
        }
    }
}

// MARK: The wide kernels (CRasterKernels), used when `crk_wide()` says the CPU has them

/// Spans shorter than this stay on the Swift loops even with wide kernels: most are the
/// one-pixel edge spans of anti-aliased outlines, where a call into C costs more than
/// the loop.
let wideSpanMinimum = 8

/// Opaque spans at least this long are stored by `crk_fill_span` (libc's wmemset, with
/// its own AVX2 and AVX-512 variants) rather than Swift's 16-byte loop, in `blitSolid`.
let wideFillMinimum = 32

extension SpreadMode {
    /// The spread as CRasterKernels numbers it.
    var kernelCode: Int32 {
        switch self {
        case .pad: return 0
        case .repeat: return 1
        case .reflect: return 2
        }
    }
}

/// `blitSolid` through the wide kernel when the span is long enough: the same bytes.
@inline(__always)
func blitSolidWide(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ len: Int, _ cov: UInt32, _ color: UInt32) {
    if len >= wideSpanMinimum && !(cov == 255 && color >> 24 == 255) {
        crk_solid_span(row + x, len, cov, color)
    } else {
        blitSolid(row, x, len, cov, color)
    }
}

