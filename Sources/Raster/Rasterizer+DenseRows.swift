// Dense rows scanned by their touched columns (see `Rasterizer.sweepRuns`).
//
// A row crossed by more than `denseRowCells` cells (a dense polyline crossing it again
// and again) is summed into a dense row of columns, cells in the order they were
// deposited. The scan that turns that row into spans went column by column over the
// cells' whole range: on line-4k (100,000 points across 3840 columns) the ranges add up to
// about 4.1 million columns a frame, of which about 7 % hold a cell, and that scan was
// nearly half of `sweepRuns`. Here the deposit also sets a bit per touched column, and the
// scan visits only those, emitting each stretch between them as one span.
//
// Why the bytes are the same: a column without cells has cover and area exactly zero, so
// its alpha is alpha(cover + 0) = alpha(cover) (0 + x is x up to the sign of a zero, which
// `abs` drops) and the running cover after it is unchanged; a stretch of such columns is
// pixels of one alpha, which `emitSpan` merges into one span whether they come one pixel
// at a time or as one span. The touched columns are summed, read and cleared as before, in
// the same order, with the same arithmetic.

extension Rasterizer {
    /// Sweeps one dense row of non-zero cells, `n` keys from `keys` (in deposit order), into
    /// `spans`, and returns how many it wrote. `scale` is the sweep's 255 × opacity.
    @inline(__always)
    func sweepDenseRow(_ cs: UnsafePointer<Cell>, _ keys: UnsafePointer<UInt64>, _ n: Int, minX: Int32, maxX: Int32,
                       spans: UnsafeMutablePointer<Span>, _ alpha: (Double) -> UInt8) -> Int {
        let dc = denseCover, da = denseArea, bits = denseBits
        var cover = 0.0
        var kLo = Int.max, kHi = -1
        for i in 0..<n {
            let c = cs[keyIndex(keys[i])]
            if c.x < minX { cover += c.cover } else if c.x < maxX {
                let k = Int(truncatingIfNeeded: c.x &- minX)
                dc[k] += c.cover; da[k] += c.area
                bits[k &>> 6] |= 1 &<< UInt64(k & 63)
                if k < kLo { kLo = k }
                if k > kHi { kHi = k }
            }
        }
        var count = 0
        var nextX = minX   // first column not yet emitted
        if kHi >= 0 {
            for w in (kLo &>> 6)...(kHi &>> 6) {
                var b = bits[w]
                bits[w] = 0
                while b != 0 {
                    let k = (w &<< 6) | b.trailingZeroBitCount
                    b &= b &- 1
                    let x = minX &+ Int32(truncatingIfNeeded: k)
                    if x > nextX {
                        let a = alpha(cover)
                        if a != 0 { emitSpan(spans, &count, nextX, x &- nextX, a) }
                    }
                    let a = alpha(cover + da[k])
                    if a != 0 { emitSpan(spans, &count, x, 1, a) }
                    cover += dc[k]
                    dc[k] = 0; da[k] = 0
                    nextX = x &+ 1
                }
            }
        }
        if nextX < maxX {
            let a = alpha(cover)
            if a != 0 { emitSpan(spans, &count, nextX, maxX &- nextX, a) }
        }
        return count
    }
}
