// Reading pixels back, for tests that check a frame: "is there ink here yet?",
// "what colour is the line at this point?". Nothing here is on a rendering path, so
// it favours plain, obviously correct loops over speed; a 1000×1000 scan is a few
// milliseconds in a debug build, which is what test suites run.
import Geometry

extension Pixmap {
    /// The colour at (x, y), unpremultiplied, channels in 0…1; nil outside the pixmap.
    ///
    /// Tests compare it with a tolerance, since anti-aliasing and 8-bit storage make
    /// exact Double equality meaningless: `abs(c.r - 0.42) < 1.0 / 255`.
    public func color(x: Int, y: Int) -> Color? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let p = pixel(x, y).unpremultiplied
        return Color(r8: p.r, g8: p.g, b8: p.b, a8: p.a)
    }

    /// Whether the pixel at (x, y) differs from `background` by more than `tolerance`
    /// (0–255) in some channel, comparing premultiplied bytes as `PixmapDifference` does.
    /// False outside the pixmap.
    public func isInk(x: Int, y: Int, background: Color, tolerance: Int = 0) -> Bool {
        guard x >= 0, y >= 0, x < width, y < height else { return false }
        return Self.differs(pixel(x, y), background.premultiplied, tolerance)
    }

    /// The smallest rectangle holding every pixel that differs from `background` by more
    /// than `tolerance` in some channel, or nil when there is none.
    ///
    /// The rectangle is in pixel units with pixel (x, y) covering [x, x + 1) × [y, y + 1),
    /// so ink in columns 10…19 gives `minX` 10 and `maxX` 20. `region` limits the search
    /// (clipped to the pixmap, outer edges rounded outwards), e.g. to a chart's plot area
    /// so its axes do not count.
    public func bounds(ofInk background: Color, in region: Rect? = nil, tolerance: Int = 0) -> Rect? {
        let (x0, y0, x1, y1) = pixelRange(region)
        guard x0 < x1, y0 < y1 else { return nil }
        let bg = background.premultiplied
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in y0..<y1 {
            for x in x0..<x1 where Self.differs(pixel(x, y), bg, tolerance) {
                if x < minX { minX = x }
                if x > maxX { maxX = x }
                if y < minY { minY = y }
                if y > maxY { maxY = y }
            }
        }
        guard maxX >= 0 else { return nil }
        return Rect(x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
    }

    /// How many pixels in `region` (the whole pixmap when nil) differ from `background`
    /// by more than `tolerance` in some channel.
    public func inkPixelCount(background: Color, in region: Rect? = nil, tolerance: Int = 0) -> Int {
        let (x0, y0, x1, y1) = pixelRange(region)
        guard x0 < x1, y0 < y1 else { return 0 }
        let bg = background.premultiplied
        var n = 0
        for y in y0..<y1 { for x in x0..<x1 where Self.differs(pixel(x, y), bg, tolerance) { n += 1 } }
        return n
    }

    /// A copy of the pixels in `rect` (clipped to the pixmap); nil when nothing is left.
    public func cropped(to rect: Rect) -> Pixmap? {
        let (x0, y0, x1, y1) = pixelRange(rect)
        guard x0 < x1, y0 < y1 else { return nil }
        var out = Pixmap(width: x1 - x0, height: y1 - y0)
        for y in y0..<y1 {
            let src = (y * width + x0) * 4, dst = (y - y0) * out.width * 4
            out.data.replaceSubrange(dst..<(dst + out.width * 4), with: data[src..<(src + out.width * 4)])
        }
        return out
    }

    /// Integer pixel bounds [x0, x1) × [y0, y1) of `region` inside the pixmap.
    func pixelRange(_ region: Rect?) -> (Int, Int, Int, Int) {
        guard let r = region else { return (0, 0, width, height) }
        func clampInt(_ v: Double, _ hi: Int) -> Int {
            guard v.isFinite else { return v > 0 ? hi : 0 }
            return Int(max(0, min(Double(hi), v)))
        }
        return (clampInt(r.minX.rounded(.down), width), clampInt(r.minY.rounded(.down), height),
                clampInt(r.maxX.rounded(.up), width), clampInt(r.maxY.rounded(.up), height))
    }

    @inline(__always)
    static func differs(_ p: PremultipliedRGBA8, _ q: PremultipliedRGBA8, _ tolerance: Int) -> Bool {
        abs(Int(p.r) - Int(q.r)) > tolerance || abs(Int(p.g) - Int(q.g)) > tolerance
            || abs(Int(p.b) - Int(q.b)) > tolerance || abs(Int(p.a) - Int(q.a)) > tolerance
    }
}
