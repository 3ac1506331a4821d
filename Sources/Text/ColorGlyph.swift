// Colour glyphs: the bitmaps of colour emoji fonts (CBDT/CBLC, as in Noto Color Emoji).
//
// FreeType loads them with FT_LOAD_COLOR as premultiplied BGRA at the font's one bitmap
// size (109 pixels per em for Noto Color Emoji). Labels are drawn far smaller, so a glyph
// is resampled once per (glyph, pixel size) with an area filter — every source pixel
// contributes to the destination pixels it overlaps, in proportion to the overlap — the
// filter that keeps a 5:1 reduction free of the aliasing that bilinear sampling alone
// gives. The canvas then maps the reduced image onto the glyph's box with bilinear
// sampling (sub-pixel positions, rotation, motion), composited as a paint like any other.
import CFreeType

/// A colour glyph's image: premultiplied RGBA8 rows, top row first.
public struct ColorGlyphImage: Hashable, Sendable {
    /// Width and height in pixels.
    public let width: Int, height: Int
    /// Where the image's left edge lies right of the pen, and its top edge above the
    /// baseline, in pixels of the image's own size.
    public let left: Int, top: Int
    /// Premultiplied RGBA8, `width * height * 4` bytes, rows top to bottom.
    public let pixels: [UInt8]

    /// Creates an image from its parts.
    public init(width: Int, height: Int, left: Int, top: Int, pixels: [UInt8]) {
        self.width = width; self.height = height; self.left = left; self.top = top; self.pixels = pixels
    }

    /// Loads `glyph` as a colour bitmap at the face's selected strike; nil when it has none.
    static func load(_ glyph: UInt32, face: FT_Face) -> ColorGlyphImage? {
        guard FT_Load_Glyph(face, glyph, FT_Int32(FT_LOAD_COLOR)) == 0, let slot = face.pointee.glyph else { return nil }
        let bitmap = slot.pointee.bitmap
        guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), bitmap.width > 0, bitmap.rows > 0,
              let buffer = bitmap.buffer else { return nil }
        let w = Int(bitmap.width), h = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let row = buffer + (pitch >= 0 ? y * pitch : (h - 1 - y) * -pitch)
            for x in 0..<w {
                let s = row + 4 * x, d = 4 * (y * w + x)
                pixels[d] = s[2]; pixels[d + 1] = s[1]; pixels[d + 2] = s[0]; pixels[d + 3] = s[3]
            }
        }
        return ColorGlyphImage(width: w, height: h, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
                               pixels: pixels)
    }

    /// The image reduced to `width` × `height` with an area filter (each destination pixel
    /// is the average of the source area it covers, partial pixels weighted by overlap).
    /// Returns the image unchanged when the target is not smaller in both directions.
    public func areaResampled(width dw: Int, height dh: Int) -> ColorGlyphImage {
        guard dw > 0, dh > 0, dw < width || dh < height else { return self }
        let xw = ColorGlyphImage.weights(from: width, to: dw), yw = ColorGlyphImage.weights(from: height, to: dh)
        // Horizontal pass into doubles, then vertical.
        var mid = [Double](repeating: 0, count: dw * height * 4)
        for y in 0..<height {
            for (dx, taps) in xw.enumerated() {
                var acc = (0.0, 0.0, 0.0, 0.0)
                for (sx, w) in taps {
                    let s = 4 * (y * width + sx)
                    acc.0 += w * Double(pixels[s]); acc.1 += w * Double(pixels[s + 1])
                    acc.2 += w * Double(pixels[s + 2]); acc.3 += w * Double(pixels[s + 3])
                }
                let d = 4 * (y * dw + dx)
                mid[d] = acc.0; mid[d + 1] = acc.1; mid[d + 2] = acc.2; mid[d + 3] = acc.3
            }
        }
        var out = [UInt8](repeating: 0, count: dw * dh * 4)
        for (dy, taps) in yw.enumerated() {
            for dx in 0..<dw {
                var acc = (0.0, 0.0, 0.0, 0.0)
                for (sy, w) in taps {
                    let s = 4 * (sy * dw + dx)
                    acc.0 += w * mid[s]; acc.1 += w * mid[s + 1]; acc.2 += w * mid[s + 2]; acc.3 += w * mid[s + 3]
                }
                let d = 4 * (dy * dw + dx)
                let a = min(255, (acc.3 + 0.5).rounded(.down))
                // Premultiplied: no channel may exceed alpha after rounding.
                out[d] = UInt8(min(a, (acc.0 + 0.5).rounded(.down)))
                out[d + 1] = UInt8(min(a, (acc.1 + 0.5).rounded(.down)))
                out[d + 2] = UInt8(min(a, (acc.2 + 0.5).rounded(.down)))
                out[d + 3] = UInt8(a)
            }
        }
        let kx = Double(dw) / Double(width), ky = Double(dh) / Double(height)
        return ColorGlyphImage(width: dw, height: dh, left: Int((Double(left) * kx).rounded()),
                               top: Int((Double(top) * ky).rounded()), pixels: out)
    }

    /// For each of `n` destination pixels, the source pixels it covers and their weights
    /// (overlap / destination pixel size in source pixels; they sum to 1).
    static func weights(from m: Int, to n: Int) -> [[(Int, Double)]] {
        let step = Double(m) / Double(n)
        return (0..<n).map { i in
            let a = Double(i) * step, b = Double(i + 1) * step
            var taps: [(Int, Double)] = []
            var s = Int(a.rounded(.down))
            while Double(s) < b && s < m {
                let overlap = min(b, Double(s + 1)) - max(a, Double(s))
                if overlap > 0 { taps.append((s, overlap / step)) }
                s += 1
            }
            return taps
        }
    }
}
