// Packed-pixel arithmetic shared by the blitters.
//
// Pixels are four 8-bit channels in a UInt32. Scaling works on two channels at a
// time (R,B and G,A in 16-bit lanes), with the exact rounded division by 255
// `(t + (t >> 8)) >> 8`, t = x + 128, so every result equals `div255` per channel.
//
// Blend modes follow W3C Compositing and Blending Level 1 for separable modes:
// co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs), αo = αs + αb − αs·αb, where c are
// premultiplied and C = c/α straight. For each mode the last term is rewritten on
// premultiplied 8-bit values (αs·αb·Cs·Cb = cs·cb, αs·αb·min(Cs, Cb) = min(cs·αb, cb·αs),
// …), so the whole sum is an integer in units of 1/255² and is rounded once by `div255`:
// the result is the exact value rounded to nearest (≤ ½ level off). Colour-dodge and
// colour-burn divide, soft-light needs a square root; their term is computed in Double
// and rounded to 1/255², which adds at most 1/510 of a level.

/// How a source colour combines with the colour already in the pixmap.
public enum BlendMode: String, Hashable, Sendable, CaseIterable {
    /// The source over the destination (the default).
    case sourceOver
    /// Cs·Cb: darkens; white leaves the backdrop unchanged.
    case multiply
    /// Cs + Cb − Cs·Cb: lightens; black leaves the backdrop unchanged.
    case screen
    /// Hard-light with source and backdrop swapped: keeps the backdrop's highlights and shadows.
    case overlay
    /// min(Cs, Cb).
    case darken
    /// max(Cs, Cb).
    case lighten
    /// Brightens the backdrop towards the source: Cb / (1 − Cs), at most 1.
    case colorDodge
    /// Darkens the backdrop towards the source: 1 − (1 − Cb) / Cs, at least 0.
    case colorBurn
    /// Multiply where the source is dark (Cs ≤ ½), screen where it is light.
    case hardLight
    /// A softer hard-light (the W3C formula, with its square-root branch).
    case softLight
    /// |Cs − Cb|.
    case difference
    /// Cs + Cb − 2·Cs·Cb: difference with less contrast.
    case exclusion
}

/// Every channel of `c` times `a`/255, rounded to nearest.
@inline(__always)
func scalePacked(_ c: UInt32, _ a: UInt32) -> UInt32 {
    var rb = (c & 0x00FF_00FF) &* a &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    var ag = ((c >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
    ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
    return rb | ag
}

/// `a` + (`b` − `a`)·k/255 per channel, rounded once: (a·(255 − k) + b·k)/255 fits the
/// 16-bit lanes (at most 255·255 + 128).
@inline(__always)
func lerpPacked(_ a: UInt32, _ b: UInt32, _ k: UInt32) -> UInt32 {
    let j = 255 &- k
    var rb = (a & 0x00FF_00FF) &* j &+ (b & 0x00FF_00FF) &* k &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    var ag = ((a >> 8) & 0x00FF_00FF) &* j &+ ((b >> 8) & 0x00FF_00FF) &* k &+ 0x0080_0080
    ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
    return rb | ag
}

/// Source-over of premultiplied `src` onto premultiplied `dst`.
@inline(__always)
func sourceOver(_ src: UInt32, _ dst: UInt32) -> UInt32 {
    let inv = 255 &- (src >> 24)
    return src &+ scalePacked(dst, inv)
}

/// `src` blended onto `dst` with `mode`; both premultiplied. Call with a literal mode
/// (or inside a switch on it) so the per-mode code is selected at compile time.
@inline(__always)
func blend(_ mode: BlendMode, _ src: UInt32, _ dst: UInt32) -> UInt32 {
    if mode == .sourceOver { return sourceOver(src, dst) }
    let sa = Int32(src >> 24), da = Int32(dst >> 24)
    // With either alpha zero every separable mode reduces to the other pixel.
    if sa == 0 { return dst }
    if da == 0 { return src }
    let ao = UInt32(sa &+ da) &- div255(UInt32(sa &* da))
    var out = ao << 24
    var shift: UInt32 = 0
    while shift < 24 {
        let sc = Int32((src >> shift) & 0xFF), dc = Int32((dst >> shift) & 0xFF)
        let n = blendChannel(mode, sc, dc, sa, da)
        out |= min(div255(UInt32(max(0, n))), ao) << shift
        shift &+= 8
    }
    return out
}

/// One premultiplied colour channel of the W3C formula, times 255² (see the file comment).
@inline(__always)
func blendChannel(_ mode: BlendMode, _ sc: Int32, _ dc: Int32, _ sa: Int32, _ da: Int32) -> Int32 {
    // cs·(1 − αb) + cb·(1 − αs), the part every mode shares.
    let base = sc &* (255 &- da) &+ dc &* (255 &- sa)
    let sada = sa &* da
    switch mode {
    case .sourceOver:
        return sc &* 255 &+ dc &* (255 &- sa)
    case .multiply:
        return base &+ sc &* dc
    case .screen:
        return 255 &* (sc &+ dc) &- sc &* dc
    case .overlay:
        return base &+ (2 &* dc <= da ? 2 &* sc &* dc : sada &- 2 &* (sa &- sc) &* (da &- dc))
    case .hardLight:
        return base &+ (2 &* sc <= sa ? 2 &* sc &* dc : sada &- 2 &* (sa &- sc) &* (da &- dc))
    case .darken:
        return 255 &* (sc &+ dc) &- max(sc &* da, dc &* sa)
    case .lighten:
        return 255 &* (sc &+ dc) &- min(sc &* da, dc &* sa)
    case .difference:
        return 255 &* (sc &+ dc) &- 2 &* min(sc &* da, dc &* sa)
    case .exclusion:
        return 255 &* (sc &+ dc) &- 2 &* sc &* dc
    case .colorDodge:
        // αs·αb·min(1, Cb / (1 − Cs)) = min(αs·αb, αs²·cb / (αs − cs)).
        if dc == 0 { return base }
        if sc >= sa { return base &+ sada }
        let q = Double(sa) * Double(sa) * Double(dc) / Double(sa &- sc)
        return base &+ (q >= Double(sada) ? sada : Int32(q + 0.5))
    case .colorBurn:
        // αs·αb·(1 − min(1, (1 − Cb) / Cs)) = αs·αb − min(αs·αb, αs²·(αb − cb) / cs).
        if dc >= da { return base &+ sada }
        if sc == 0 { return base }
        let q = Double(sa) * Double(sa) * Double(da &- dc) / Double(sc)
        return base &+ (q >= Double(sada) ? 0 : sada &- Int32(q + 0.5))
    case .softLight:
        // Clamped so a malformed pixel (a channel above its alpha) cannot overflow.
        let cs = min(1, Double(sc) / Double(sa)), cb = min(1, Double(dc) / Double(da))
        let b: Double
        if cs <= 0.5 {
            b = cb - (1 - 2 * cs) * cb * (1 - cb)
        } else {
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            b = cb + (2 * cs - 1) * (d - cb)
        }
        return base &+ Int32(b * Double(sada) + 0.5)
    }
}
