import Geometry

// The edge walk: polygon edges in, signed-area cells out (see `Rasterizer`).

extension Rasterizer {
    /// The cells of the shape being built and the edge walker that deposits them.
    /// A value type worked on through a local `inout` copy, so the hot loops touch
    /// no class properties (whose dynamic exclusivity checks cost ~15 % here).
    struct Accumulator {
        var cells = CellBuffer()
        // The cell being accumulated (merged until the walk leaves it).
        var curX: Int32 = -1, curY: Int32 = -1, curCover = 0.0, curArea = 0.0, hasCur = false
        var minRow = Int.max, maxRow = Int.min
        var clipMinX = 0, clipMinY = 0, clipMaxX = 0, clipMaxY = 0

        mutating func flush() {
            if hasCur { cells.append(Cell(x: curX, y: curY, cover: curCover, area: curArea)); hasCur = false }
        }

        /// Ends a closed chain of edges whose cells start at index `first`: the walk starts
        /// and ends at the same vertex, `closing`, so when its last cell is its first they
        /// are one cell, as for every other vertex of the chain. (Two cells in one column
        /// mark a pixel holding separate edges, which an even-odd sweep samples.) Only when
        /// that vertex lies inside the clip's rows: otherwise the chain was cut there, and
        /// its first and last cells are not neighbours along it.
        mutating func mergeClosingCell(at closing: Point, first: Int) {
            guard closing.y > Double(clipMinY) && closing.y < Double(clipMaxY) && hasCur && cells.count > first else { return }
            let f = cells.base.unsafelyUnwrapped + first
            if f.pointee.x == curX && f.pointee.y == curY {
                f.pointee.cover += curCover; f.pointee.area += curArea
                hasCur = false
            }
        }

        @inline(__always)
        mutating func addCell(_ x: Int32, _ y: Int32, _ cover: Double, _ area: Double) {
            if hasCur && x == curX && y == curY {
                curCover += cover; curArea += area; return
            }
            if hasCur { cells.append(Cell(x: curX, y: curY, cover: curCover, area: curArea)) }
            curX = x; curY = y; curCover = cover; curArea = area; hasCur = true
        }

        mutating func addEdge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
            guard ax.isFinite, ay.isFinite, bx.isFinite, by.isFinite, ay != by else { return }
            let left = Double(clipMinX), right = Double(clipMaxX)
            if min(ax, bx) >= left && max(ax, bx) <= right { walk(ax, ay, bx, by); return }
            // Split where the edge crosses the clip's left and right sides; the parts outside
            // run along the side, where they still carry their winding to the pixels on the right.
            var ts: (Double, Double) = (2, 2)
            let dx = bx - ax
            if dx != 0 {
                let tl = (left - ax) / dx, tr = (right - ax) / dx
                if tl > 0 && tl < 1 { ts.0 = tl }
                if tr > 0 && tr < 1 { ts.1 = tr }
                if ts.1 < ts.0 { ts = (ts.1, ts.0) }
            }
            var t0 = 0.0, px = ax, py = ay
            for t in [ts.0, ts.1, 1.0] where t <= 1 && t > t0 {
                let qx = t == 1 ? bx : ax + dx * t, qy = t == 1 ? by : ay + (by - ay) * t
                walk(min(max(px, left), right), py, min(max(qx, left), right), qy)
                t0 = t; px = qx; py = qy
            }
        }

        mutating func walk(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
            var x0 = ax, y0 = ay, x1 = bx, y1 = by
            var dir = 1.0
            if y0 > y1 { swap(&x0, &x1); swap(&y0, &y1); dir = -1 }
            let top = Double(clipMinY), bottom = Double(clipMaxY)
            // Where the clip's top or bottom cuts the chain of edges, the cells on either
            // side of the cut are not neighbours along it: the current cell is closed, so
            // a chain that leaves and comes back through one pixel leaves two cells there,
            // as it does without the clip (an even-odd sweep samples such pixels, and bands
            // must find what one sweep finds).
            if y1 <= top || y0 >= bottom { flush(); return }
            // Within one row of the clip (most edges of flattened curves and stroke
            // outlines): one piece, as the loops below would make it, without the slope.
            if y0 >= top && y1 <= bottom, case let firstRow = floorInClip(y0), y1 <= firstRow + 1 {
                let row = Int(int32(ofWhole: firstRow))
                if row < minRow { minRow = row }
                if row > maxRow { maxRow = row }
                let r = Int32(truncatingIfNeeded: row)
                if dir > 0 { rowPiece(x0, y0, x1, y1, dir, r) } else { rowPiece(x1, y0, x0, y1, dir, r) }
                return
            }
            let dxdy = (x1 - x0) / (y1 - y0)
            // The x where the edge meets height y, kept between its ends. An edge a few
            // denormals tall (a transform scaling y by 5e-324) overflows the slope to ∞;
            // then x comes from the fraction of the height, which cannot overflow (an
            // infinite x once sent the column walk below into an endless loop).
            let slopeIsFinite = dxdy.isFinite
            let xLow = min(x0, x1), xHigh = max(x0, x1)
            @inline(__always) func x(at y: Double) -> Double {
                let v = slopeIsFinite ? x0 + (y - y0) * dxdy : x0 + (x1 - x0) * ((y - y0) / (y1 - y0))
                // Both spans overflowing (x and y ends ±1e308 apart) make ∞·0 = NaN here;
                // any x between the ends will do for such an edge (found by fuzzing).
                return v.isNaN ? xLow : min(max(v, xLow), xHigh)
            }
            let ys = max(y0, top), ye = min(y1, bottom)
            // The walk starts at the upper end of an edge going down and at the lower end of
            // one going up; a cut there closes the cell before it, a cut at the other end
            // the cell after it.
            let cutTop = ys != y0, cutBottom = ye != y1
            if dir > 0 ? cutTop : cutBottom { flush() }
            defer { if dir > 0 ? cutBottom : cutTop { flush() } }
            var row = Int(int32(ofWhole: floorInClip(ys)))
            // The loops below visit every row that starts before `ye`, so the last is
            // ⌈ye⌉ − 1. (An epsilon here once missed the row of an edge ending 1e-13
            // past a row boundary, and the sweep's counting sort wrote past its table.)
            let lastRow = Int(int32(ofWhole: ceilInClip(ye))) - 1
            if row < minRow { minRow = row }
            if lastRow > maxRow { maxRow = lastRow }
            var y = ys
            var xa = ys == y0 ? x0 : x(at: ys)
            // An edge going up is walked up from its lower end, so that a chain of edges
            // deposits its cells in the order it passes them and the cells it shares at a
            // vertex merge. (Walked down, every vertex between two rising edges left two
            // cells in one pixel, which an even-odd sweep takes for two separate edges.)
            // The pieces are the same numbers either way: the same x at each row boundary,
            // and a row piece's cells do not depend on which end its column walk starts at.
            if x0 == x1 {
                // Vertical edges (rectangles, grid lines): one cell per row, no column walk.
                let c = floorInClip(x0)
                let areaFactor = c + 1 - x0
                if dir > 0 {
                    while y < ye {
                        let rowEnd = min(Double(row + 1), ye)
                        let dy = rowEnd - y
                        addCell(int32(ofWhole: c), Int32(truncatingIfNeeded: row), dy, dy * areaFactor)
                        y = rowEnd; row += 1
                    }
                } else {
                    var yb = ye, r = lastRow
                    while yb > ys {
                        let rowStart = max(Double(r), ys)
                        let dy = rowStart - yb
                        addCell(int32(ofWhole: c), Int32(truncatingIfNeeded: r), dy, dy * areaFactor)
                        yb = rowStart; r -= 1
                    }
                }
                return
            }
            if row == lastRow {
                // Within one row (most edges of flattened curves and stroke outlines): one
                // piece, as the loops below would make it.
                let xb = ye == y1 ? x1 : x(at: ye)
                if dir > 0 { rowPiece(xa, ys, xb, ye, dir, Int32(truncatingIfNeeded: row)) } else { rowPiece(xb, ys, xa, ye, dir, Int32(truncatingIfNeeded: row)) }
                return
            }
            if dir > 0 {
                while y < ye {
                    let rowEnd = min(Double(row + 1), ye)
                    let xb = rowEnd == y1 ? x1 : x(at: rowEnd)
                    rowPiece(xa, y, xb, rowEnd, dir, Int32(truncatingIfNeeded: row))
                    y = rowEnd; xa = xb; row += 1
                }
            } else {
                var yb = ye, r = lastRow
                var xb = ye == y1 ? x1 : x(at: ye)
                while yb > ys {
                    let rowStart = max(Double(r), ys)
                    let xt = rowStart == ys ? xa : x(at: rowStart)
                    rowPiece(xb, rowStart, xt, yb, dir, Int32(truncatingIfNeeded: r))
                    yb = rowStart; xb = xt; r -= 1
                }
            }
        }

        /// Deposits the part of an edge inside one row between heights ya < yb, whose ends
        /// are at xa and xb (either may be the upper), visiting columns from xa to xb.
        @inline(__always)
        mutating func rowPiece(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, _ dir: Double, _ row: Int32) {
            let dy = (yb - ya) * dir
            let ca = floorInClip(xa), cb = floorInClip(xb)
            if ca == cb {
                addCell(int32(ofWhole: ca), row, dy, dy * (ca + 1 - (xa + xb) * 0.5))
                return
            }
            // Crosses column boundaries: share dy between columns by horizontal extent,
            // visiting columns in the walking direction so consecutive cells merge. (One
            // division per piece, not per column: a flat curve's pieces cross dozens.)
            if xa < xb {
                let k = dy / (xb - xa)
                var c = ca, px = xa
                while px < xb {
                    let nx = min(c + 1, xb)
                    let part = k * (nx - px)
                    if nx > px { addCell(int32(ofWhole: c), row, part, part * (c + 1 - (px + nx) * 0.5)) }
                    px = nx; c += 1
                }
            } else {
                let k = dy / (xa - xb)
                var c = ca, qx = xa
                while qx > xb {
                    let nx = max(c, xb)
                    let part = k * (qx - nx)
                    if qx > nx { addCell(int32(ofWhole: c), row, part, part * (c + 1 - (qx + nx) * 0.5)) }
                    qx = nx; c -= 1
                }
            }
        }
    }
}

/// 1.5 · 2⁵²: adding it to a Double below 2⁵¹ in magnitude rounds it to an integer (the
/// spacing of Doubles there is 1), and that integer is the low bits of the sum's pattern.
let integerMagic = 6755399441055744.0

/// ⌊x⌋ for a coordinate already clamped to the clip box (|x| < 2⁵¹). `rounded(.down)` is a
/// call into libm on the baseline x86-64 target (no SSE4.1 `roundsd`), and `Int(x)` checks
/// that x is finite and in range (eight instructions and three branches, for a value
/// the clip already bounds); this is two additions, a compare and a subtraction, inline
/// (the walk takes two per row piece).
@inline(__always)
func floorInClip(_ x: Double) -> Double {
    let t = (x + integerMagic) - integerMagic
    return t > x ? t - 1 : t
}

/// ⌈x⌉ for a coordinate already clamped to the clip box, as `floorInClip`.
@inline(__always)
func ceilInClip(_ x: Double) -> Double {
    let t = (x + integerMagic) - integerMagic
    return t < x ? t + 1 : t
}

/// The integer `f` (a whole number below 2³¹ in magnitude, from `floorInClip`) as an
/// Int32, without the range checks of `Int32(f)`.
@inline(__always)
func int32(ofWhole f: Double) -> Int32 {
    Int32(truncatingIfNeeded: (f + integerMagic).bitPattern)
}

/// The cells of one shape: a growable buffer appended to once per cell. `Array.append`
/// checks uniqueness and capacity out of line on every call; this is a compare and a
/// store. Owned by one `Rasterizer`, which frees it.
struct CellBuffer {
    var base: UnsafeMutablePointer<Rasterizer.Cell>? = nil
    var count = 0
    var capacity = 0

    @inline(__always)
    mutating func append(_ c: Rasterizer.Cell) {
        if count == capacity { grow() }
        base.unsafelyUnwrapped[count] = c
        count &+= 1
    }

    /// Out of line: the cold path of `append`, kept out of `walk`, whose inlining
    /// (`rowPiece` in it) is worth 10 % of line-4k's frame (perf).
    @inline(never)
    mutating func grow() {
        let n = max(1024, capacity * 2)
        let p = UnsafeMutablePointer<Rasterizer.Cell>.allocate(capacity: n)
        Pixmap.adviseHugePages(p, n * MemoryLayout<Rasterizer.Cell>.stride)   // line-4k: 6 MB of cells
        if let old = base {
            p.moveInitialize(from: old, count: count)
            old.deallocate()
        }
        base = p; capacity = n
    }

    func free() { base?.deallocate() }
}
