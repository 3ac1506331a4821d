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

// Large non-zero shapes summed in boxes of a few rows (`sweepBandBox`).
//
// A band of a dense line (line-4k: 262,144 cells over a few hundred rows, each row crossed
// hundreds of times) was counted and scattered by row as keys, and each dense row then
// read its cells through the keys, one cache miss per cell: about half of what was left of
// `sweepRuns` there. Here the cells are binned by groups of a few rows (a power of two,
// so that the group's box of cover and area pairs stays within about 512 KB), copied
// whole into their group's stretch of a second buffer in their order, and each group is
// summed into its box reading its cells in sequence, then scanned row by row by the bits
// of its touched columns.
//
// Why the bytes are the same: the binning is stable, so each pixel's cells reach the box
// in the order they were deposited, which is the order the sorted path sums them in
// (ascending keys; a sparse row merges a column's cells in that order, a dense row adds
// them to its zeroed column one by one in that order, and both give (0 + c1) + c2 + …).
// A cell left of the clip would be summed differently by the two paths of `sweepRuns`
// (into the running cover one by one in a dense row, merged by column first in a sparse
// one), so a shape with such a cell is left to them. The spans of each row are those of
// the dense row's scan (above). Rows are handed over one at a time rather than in runs
// of equal rows: the same pixels.

extension Rasterizer {
    /// The most pixels of one group's box: 512 KB of cover and area pairs.
    static var bandBoxPixels = 32_768

    /// Sweeps the gathered non-zero cells in boxes of a few rows, when they are many for
    /// their rows and no cell lies left of the clip; returns false, having changed nothing,
    /// otherwise. `scale` is the sweep's 255 × opacity. Out of line: inlined, it made
    /// `sweepRuns` larger and curved-line's frames (which never come here) a few per cent
    /// slower.
    @inline(never)
    func sweepBandBox(_ cells: UnsafeBufferPointer<Cell>, base: Int, rows: Int, minX: Int32, maxX: Int32,
                      spans: UnsafeMutablePointer<Span>, scale: Double,
                      _ body: (Int, Int, UnsafeBufferPointer<Span>) -> Void) -> Bool {
        // `sweepRuns`'s alpha for a non-zero rule, the same arithmetic.
        @inline(__always) func alpha(_ v: Double) -> UInt8 {
            var a = abs(v)
            if a > 1 { a = 1 }
            return UInt8(a * scale + 0.5)
        }
        let width = Int(maxX) - Int(minX)
        guard width > 0, cells.count >= Rasterizer.bandBoxCells, width <= Rasterizer.bandBoxPixels else { return false }
        let words = (width + 63) >> 6
        // The scan reads every word of bits of every row: no more of them than cells.
        guard rows * words <= cells.count else { return false }
        var shift = 0
        while (2 << shift) * width <= Rasterizer.bandBoxPixels && (1 << shift) < rows { shift += 1 }
        let groupRows = 1 << shift
        let groups = (rows + groupRows - 1) >> shift
        let cs = cells.baseAddress!
        let n = cells.count
        let base32 = Int32(truncatingIfNeeded: base)
        // Count per group; any cell left of the clip sends the shape back.
        if groupStart.count < groups + 1 { groupStart = [Int](repeating: 0, count: groups + 1) }
        let ok = groupStart.withUnsafeMutableBufferPointer { gs -> Bool in
            for g in 0...groups { gs[g] = 0 }
            var left = false
            for k in 0..<n {
                let c = cs[k]
                if c.x < minX { left = true }
                gs[Int(truncatingIfNeeded: (c.y &- base32) &>> Int32(shift))] &+= 1
            }
            if left { return false }
            // Running starts.
            var sum = 0
            for g in 0..<groups { let v = gs[g]; gs[g] = sum; sum &+= v }
            gs[groups] = sum
            return true
        }
        guard ok else { return false }
        if binnedCapacity < n {
            binned.deallocate()
            binnedCapacity = max(n, 2 * binnedCapacity)
            binned = .allocate(capacity: binnedCapacity)
            Pixmap.adviseHugePages(binned, binnedCapacity * MemoryLayout<Cell>.stride)
        }
        let boxPairs = groupRows * width
        if bandBoxCapacity < boxPairs {
            bandBox.deallocate(); bandBits.deallocate()
            bandBoxCapacity = boxPairs
            bandBox = .allocate(capacity: 2 * boxPairs); bandBox.initialize(repeating: 0, count: 2 * boxPairs)
            bandBitsCapacity = groupRows * words
            bandBits = .allocate(capacity: bandBitsCapacity); bandBits.initialize(repeating: 0, count: bandBitsCapacity)
        } else if bandBitsCapacity < groupRows * words {
            bandBits.deallocate()
            bandBitsCapacity = groupRows * words
            bandBits = .allocate(capacity: bandBitsCapacity); bandBits.initialize(repeating: 0, count: bandBitsCapacity)
        }
        let out = binned, box = bandBox, bits = bandBits
        lastSweptAsBandBox = true
        groupStart.withUnsafeMutableBufferPointer { gs in
            // Stable scatter: a cursor per group, advanced as its cells arrive in order.
            var next = Array(gs[0..<groups])
            next.withUnsafeMutableBufferPointer { nx in
                for k in 0..<n {
                    let c = cs[k]
                    let g = Int(truncatingIfNeeded: (c.y &- base32) &>> Int32(shift))
                    out[nx[g]] = c
                    nx[g] &+= 1
                }
            }
            for g in 0..<groups {
                let top = g << shift
                let top32 = base32 &+ Int32(truncatingIfNeeded: top)
                for k in gs[g]..<gs[g + 1] {
                    let c = out[k]
                    guard c.x < maxX else { continue }
                    let r = Int(truncatingIfNeeded: c.y &- top32)
                    let col = Int(truncatingIfNeeded: c.x &- minX)
                    let i = r &* width &+ col
                    box[2 &* i] += c.cover; box[2 &* i &+ 1] += c.area
                    bits[r &* words &+ (col &>> 6)] |= 1 &<< UInt64(col & 63)
                }
                for r in 0..<min(groupRows, rows - top) {
                    var count = 0
                    var cover = 0.0
                    var nextX = minX   // first column not yet emitted
                    let rowBits = bits + r &* words, rowBox = box + 2 &* (r &* width)
                    for w in 0..<words {
                        var b = rowBits[w]
                        if b == 0 { continue }
                        rowBits[w] = 0
                        while b != 0 {
                            let col = (w &<< 6) | b.trailingZeroBitCount
                            b &= b &- 1
                            let x = minX &+ Int32(truncatingIfNeeded: col)
                            if x > nextX {
                                let a = alpha(cover)
                                if a != 0 { emitSpan(spans, &count, nextX, x &- nextX, a) }
                            }
                            let p = rowBox + 2 &* col
                            let a = alpha(cover + p[1])
                            if a != 0 { emitSpan(spans, &count, x, 1, a) }
                            cover += p[0]
                            p[0] = 0; p[1] = 0
                            nextX = x &+ 1
                        }
                    }
                    if nextX < maxX {
                        let a = alpha(cover)
                        if a != 0 { emitSpan(spans, &count, nextX, maxX &- nextX, a) }
                    }
                    if count > 0 { body(base + top + r, 1, UnsafeBufferPointer(start: spans, count: count)) }
                }
            }
        }
        return true
    }
}
