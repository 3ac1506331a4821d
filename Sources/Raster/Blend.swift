/// Packed-pixel arithmetic shared by the blitters.
///
/// Pixels are four 8-bit channels in a UInt32. Scaling works on two channels at a
/// time (R,B and G,A in 16-bit lanes), with the exact rounded division by 255
/// `(t + (t >> 8)) >> 8`, t = x + 128, so every result equals `div255` per channel.

/// Every channel of `c` times `a`/255, rounded to nearest.
@inline(__always)
func scalePacked(_ c: UInt32, _ a: UInt32) -> UInt32 {
    var rb = (c & 0x00FF_00FF) &* a &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    var ag = ((c >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
    ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
    return rb | ag
}

/// Source-over of premultiplied `src` onto premultiplied `dst`.
@inline(__always)
func sourceOver(_ src: UInt32, _ dst: UInt32) -> UInt32 {
    let inv = 255 &- (src >> 24)
    return src &+ scalePacked(dst, inv)
}
