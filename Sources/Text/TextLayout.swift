// Single-line layout: one glyph per Unicode scalar, placed by advances plus
// 'kern'-table kerning. Out of scope: shaping (ligatures, GPOS, complex
// scripts, combining marks), line breaking and bidirectional text; chart labels
// are short Latin/Greek/Cyrillic strings that this covers. A scalar the font
// lacks is drawn as glyph 0, the font's `.notdef` box, so missing characters are
// visible instead of silently dropped. Newlines and other control characters
// are not interpreted: they map to whatever glyph the font has for them.
import Geometry

/// The size of a line of text at a given font size, in pixels.
public struct TextMetrics: Hashable, Sendable {
    /// The advance width: the sum of glyph advances plus kerning between neighbours.
    public var width: Double
    /// The font's ascent above the baseline (the same for every string; see `Font.ascent(size:)`).
    public var ascent: Double
    /// The font's descent below the baseline, positive (see `Font.descent(size:)`).
    public var descent: Double
    /// The exact ink box of the glyph outlines, relative to a baseline-left origin
    /// at (0, 0) with y down (so `bounds.minY` is negative for ink above the
    /// baseline); `Rect.null` when the text has no ink (empty or only spaces).
    public var bounds: Rect

    /// Creates metrics from their parts.
    public init(width: Double, ascent: Double, descent: Double, bounds: Rect) {
        self.width = width; self.ascent = ascent; self.descent = descent; self.bounds = bounds
    }
}

/// Measures `s` set on one line in `font` at `size` pixels per em.
public func measure(_ s: String, font: Font, size: Double) -> TextMetrics {
    let s1 = font.scale(size)
    var pen = 0.0
    var bounds = Rect.null
    for (_, data, kern) in font.unitRun(s) {
        pen += kern * s1
        if let ink = data.ink {
            // Font units are y up; pixel space is y down.
            bounds = bounds.union(Point(pen + ink.xMin * s1, -ink.yMax * s1))
                           .union(Point(pen + ink.xMax * s1, -ink.yMin * s1))
        }
        pen += data.advance * s1
    }
    return TextMetrics(width: pen, ascent: font.ascent(size: size), descent: font.descent(size: size), bounds: bounds)
}

/// The outlines of `s` set on one line in `font` at `size` pixels per em, as one
/// path in pixel space (y down) with the baseline starting at `origin`. Fill it
/// with the non-zero rule: contours of one glyph may overlap (composite glyphs,
/// outlines exported from variable fonts), and even-odd would cut holes there.
public func path(for s: String, font: Font, size: Double, at origin: Point) -> Path {
    let s1 = font.scale(size)
    var out = Path()
    var pen = origin.x
    for (_, data, kern) in font.unitRun(s) {
        pen += kern * s1
        if !data.outline.isEmpty {
            out.append(contentsOf: data.outline.applying(font.unitTransform(size: size, origin: Point(pen, origin.y))))
        }
        pen += data.advance * s1
    }
    return out
}

extension Font {
    /// Measures `s` on one line at `size` (the free `measure(_:font:size:)`, as a method so
    /// a type with its own `measure` or `path` member can still reach it).
    public func measure(_ s: String, size: Double) -> TextMetrics { Text.measure(s, font: self, size: size) }

    /// The outlines of `s` on one line at `size`, baseline starting at `origin`.
    public func path(for s: String, size: Double, at origin: Point) -> Path { Text.path(for: s, font: self, size: size, at: origin) }
}
