// Single-line layout on top of the shaper (Shaping.swift): glyphs chosen and placed by
// HarfBuzz (ligatures, GPOS kerning, marks, Arabic joining, Indic reordering), fonts
// falling back cluster by cluster through fontconfig, right-to-left runs ordered by
// FriBidi's levels. A character no installed font has is drawn as the label font's
// missing-glyph box (glyph 0) and reported once through `TextWarnings`. Control
// characters such as newlines are not interpreted here: `TextBlock` (TextBlock.swift)
// splits paragraphs and wraps lines.
import Geometry
import Synchronization

/// The size of a line of text at a given font size, in pixels.
public struct TextMetrics: Hashable, Sendable {
    /// The advance width: the sum of the shaped glyphs' advances (kerning included).
    public var width: Double
    /// The ascent above the baseline: the font's (see `Font.ascent(size:)`), or a fallback
    /// font's where one used on the line reaches higher.
    public var ascent: Double
    /// The descent below the baseline, positive: the font's or a taller fallback's.
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

/// One glyph placed on a line.
public struct PlacedGlyph: Sendable {
    /// The font the glyph is in (the label's font or a fallback).
    public let font: Font
    /// The glyph's index in `font`.
    public let glyph: UInt32
    /// The glyph's origin (pen position plus any mark offset) relative to the line's
    /// baseline-left, in pixels, y down.
    public let position: Point
    /// The index of the first Unicode scalar of the string that the glyph's cluster covers.
    public let cluster: Int
}

/// An outline glyph with the pen position its outline is placed at
/// (`Font.glyphPath(glyph:size:origin:)` gives its path).
public struct PlacedOutline: Sendable {
    /// The font the glyph is in.
    public let font: Font
    /// The glyph's index in `font`.
    public let glyph: UInt32
    /// The pen position, in pixels, y down.
    public let origin: Point
}

/// A colour glyph (an emoji) placed on a line, to be drawn as an image.
public struct PlacedColorGlyph: Sendable {
    /// The image, already reduced with an area filter to about its size on the line.
    public let image: ColorGlyphImage
    /// Where the image goes, relative to the line's baseline-left, in pixels, y down.
    public let rect: Rect
}

/// A string shaped and set on one line at one size.
public struct TextLine: Sendable {
    /// The glyphs in visual order, left to right.
    public let glyphs: [PlacedGlyph]
    /// Advance width, ascent, descent and ink box.
    public let metrics: TextMetrics
    /// True when the paragraph runs right to left (its first character is drawn at the right).
    public let isRightToLeft: Bool
    /// The characters no installed font has (drawn as missing-glyph boxes).
    public let missing: [Unicode.Scalar]
    /// The size in pixels per em.
    public let size: Double

    /// Shapes `s` in `font` (with fallback fonts) and sets it at `size` pixels per em.
    /// `keepShaping: false` neither looks the string up in the process's table of shaped
    /// strings nor keeps it there (a counter's value, which is not drawn again).
    public init(_ s: String, font: Font, size: Double, options: ShapingOptions = .default, keepShaping: Bool = true) {
        let shaped = Shaper.shape(s, font: font, options: options, keep: keepShaping)
        glyphs = shaped.glyphs.map {
            PlacedGlyph(font: $0.font, glyph: $0.glyph, position: Point($0.x * size, $0.y * size), cluster: $0.cluster)
        }
        let bounds = shaped.ink.map { Rect(x: $0.0 * size, y: $0.1 * size, width: ($0.2 - $0.0) * size, height: ($0.3 - $0.1) * size) }
        metrics = TextMetrics(width: shaped.width * size, ascent: shaped.ascent * size, descent: shaped.descent * size,
                              bounds: bounds ?? .null)
        isRightToLeft = shaped.isRightToLeft
        missing = shaped.missing
        self.size = size
    }

    /// The outlines of the line's outline glyphs as one path, baseline-left at `origin`
    /// (colour glyphs are not included: see `colorGlyphs`). Fill it with the non-zero
    /// rule: contours of one glyph may overlap (composite glyphs, outlines exported from
    /// variable fonts), and even-odd would cut holes there.
    public func path(at origin: Point = .zero) -> Path {
        var out = Path()
        var i = 0
        // One lock per run of glyphs in one font.
        while i < glyphs.count {
            let font = glyphs[i].font
            var j = i
            while j < glyphs.count && glyphs[j].font === font { j += 1 }
            if !font.isColorBitmap {
                let outlines = font.unitGlyphs(glyphs[i..<j].map(\.glyph))
                for (k, g) in glyphs[i..<j].enumerated() where !outlines[k].outline.isEmpty {
                    let at = Point(origin.x + g.position.x, origin.y + g.position.y)
                    out.append(contentsOf: outlines[k].outline.applying(font.unitTransform(size: size, origin: at)))
                }
            }
            i = j
        }
        return out
    }

    /// The outline glyphs of the line in the order `path(at:)` draws them, each with the
    /// pen position its outline is placed at: `path(at:)` is the concatenation of
    /// `font.glyphPath(glyph:size:origin:)` over them (glyphs without ink give empty paths).
    public func outlineGlyphs(at origin: Point = .zero) -> [PlacedOutline] {
        glyphs.compactMap { g in
            g.font.isColorBitmap ? nil
                : PlacedOutline(font: g.font, glyph: g.glyph, origin: Point(origin.x + g.position.x, origin.y + g.position.y))
        }
    }

    /// The colour glyphs of the line (emoji), each reduced to its size on the line and
    /// placed relative to the baseline-left origin.
    public var colorGlyphs: [PlacedColorGlyph] {
        glyphs.compactMap { g -> PlacedColorGlyph? in
            guard g.font.isColorBitmap, let image = g.font.colorImage(glyph: g.glyph), g.font.strikePPEM > 0 else { return nil }
            let k = size / g.font.strikePPEM
            let rect = Rect(x: g.position.x + Double(image.left) * k, y: g.position.y - Double(image.top) * k,
                            width: Double(image.width) * k, height: Double(image.height) * k)
            let w = max(1, Int(rect.width.rounded(.up))), h = max(1, Int(rect.height.rounded(.up)))
            return PlacedColorGlyph(image: ColorGlyphCache.resampled(g.font, g.glyph, image, w, h), rect: rect)
        }
    }
}

/// Colour glyph images reduced to the sizes they are drawn at, kept across frames.
enum ColorGlyphCache {
    private struct Key: Hashable { let font: ObjectIdentifier, glyph: UInt32, width: Int, height: Int }
    // The font is kept with its images so its address (part of the key) is not reused.
    // Bounded by images and by bytes: 4,096 emoji drawn at 500 px would be 4 GB.
    private static let table = Mutex<(images: [Key: (Font, ColorGlyphImage)], bytes: Int)>(([:], 0))
    /// The most pixel bytes kept (64 MB).
    static let byteCapacity = 64 << 20

    static func resampled(_ font: Font, _ glyph: UInt32, _ image: ColorGlyphImage, _ w: Int, _ h: Int) -> ColorGlyphImage {
        let key = Key(font: ObjectIdentifier(font), glyph: glyph, width: w, height: h)
        if let hit = table.withLock({ $0.images[key] }) { return hit.1 }
        let out = image.areaResampled(width: w, height: h)
        table.withLock { t in
            if t.images.count > 4096 || t.bytes + out.pixels.count > byteCapacity {
                t.images.removeAll()
                t.bytes = 0
            }
            if t.images.updateValue((font, out), forKey: key) == nil { t.bytes += out.pixels.count }
        }
        return out
    }
}

/// Measures `s` set on one line in `font` at `size` pixels per em (shaped, with fallback fonts).
public func measure(_ s: String, font: Font, size: Double) -> TextMetrics {
    TextLine(s, font: font, size: size).metrics
}

/// The outlines of `s` set on one line in `font` at `size` pixels per em, as one
/// path in pixel space (y down) with the baseline starting at `origin`. Fill it with
/// the non-zero rule (see `TextLine.path(at:)`). Colour glyphs are not included.
public func path(for s: String, font: Font, size: Double, at origin: Point) -> Path {
    TextLine(s, font: font, size: size).path(at: origin)
}

extension Font {
    /// Measures `s` on one line at `size` (the free `measure(_:font:size:)`, as a method so
    /// a type with its own `measure` or `path` member can still reach it).
    public func measure(_ s: String, size: Double) -> TextMetrics { Text.measure(s, font: self, size: size) }

    /// The outlines of `s` on one line at `size`, baseline starting at `origin`.
    public func path(for s: String, size: Double, at origin: Point) -> Path { Text.path(for: s, font: self, size: size, at: origin) }

    /// `s` shaped and set on one line at `size` with `options`.
    public func line(_ s: String, size: Double, options: ShapingOptions = .default) -> TextLine {
        TextLine(s, font: self, size: size, options: options)
    }
}
