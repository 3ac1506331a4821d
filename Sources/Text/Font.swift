// Text: fonts through FreeType, glyphs as Geometry paths.
//
// Why outlines and not FreeType's bitmaps: a glyph becomes a `Path` that Raster
// fills with the same exact-area coverage rasterizer as every other shape, so
// text and shapes share one anti-aliasing (same gamma, same edge quality, same
// sub-pixel positioning), text can be transformed, trimmed, gradient-filled and
// animated like any path, and frames stay byte-identical whatever FreeType's
// hinting or rendering settings are. FreeType is used only to parse the font:
// outlines are loaded unhinted at font-unit scale (FT_LOAD_NO_SCALE), cached once
// per glyph, and scaled by size / unitsPerEm when used, so one cache serves every
// text size and repeated labels cost a dictionary lookup.
//
// Shaping (which glyphs, where) is HarfBuzz's: each Font also holds a HarfBuzz font
// on the same file and face, at a scale of one unit per font unit, so shaped advances
// and offsets are in the same font units as the FreeType outlines (see Shaping.swift).
// Colour emoji fonts (CBDT bitmaps, such as Noto Color Emoji) have no outlines: their
// glyphs are loaded as premultiplied RGBA images at the font's bitmap size and
// resampled when drawn (see ColorGlyph.swift).
import CFreeType
import CHarfBuzz
import Geometry
import Synchronization

/// One glyph at font-unit scale, y up, as stored in the font (cached per glyph index).
struct UnitGlyph: Sendable {
    /// The outline in font units, y up (as FreeType gives it).
    var outline: Path
    /// Horizontal advance in font units.
    var advance: Double
    /// Exact ink box in font units, y up: (xMin, yMin, xMax, yMax); nil for a glyph without ink.
    var ink: (xMin: Double, yMin: Double, xMax: Double, yMax: Double)?
}

/// A font face loaded from a file, giving metrics and glyph outlines at any size.
///
/// Sizes are in pixels per em. All FreeType calls on the face happen under one
/// lock (a FreeType face is not thread-safe), so a `Font` may be shared by the
/// threads that render frames in parallel; glyph outlines, advances and glyph
/// indices are cached after their first use.
public final class Font: @unchecked Sendable {
    /// The file the face was loaded from.
    public let path: String
    /// The face's index in the file (a .ttc collection holds several; 0 otherwise).
    public let faceIndex: Int
    /// True when the face's glyphs are colour bitmaps (CBDT/sbix, such as Noto Color
    /// Emoji) rather than outlines: they are drawn as images, not filled paths.
    public let isColorBitmap: Bool
    /// The face's style flags: bold and italic (from the font's OS/2 and head tables).
    public let isBold: Bool, isItalic: Bool
    /// The face's family name (for example "DejaVu Sans").
    public let familyName: String
    /// Font units per em: the scale of the outlines in the file (2048 for DejaVu Sans).
    public let unitsPerEm: Double
    /// True when the face has a TrueType 'kern' table, FreeType's `FT_HAS_KERNING`.
    /// Kerning stored only in OpenType GPOS is not applied (that needs a shaper).
    public let hasKerning: Bool

    // Immutable after init; read without the lock.
    private let ascender: Double, descender: Double, lineSpacing: Double

    private struct State: ~Copyable {
        let library: FT_Library
        let face: FT_Face
        var glyphs: [UInt32: UnitGlyph] = [:]
        var indices: [UInt32: UInt32] = [:]
        var colorGlyphs: [UInt32: ColorGlyphImage?] = [:]

        deinit {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
        }
    }
    private let state: Mutex<State>
    /// The HarfBuzz font on the same face (`hb_font_t *`), scaled to font units. HarfBuzz
    /// fonts are safe to shape with from several threads once set up, so no lock.
    let hbFont: OpaquePointer
    /// The pixels per em of the bitmap strike colour glyphs are loaded at (0 for outline fonts).
    let strikePPEM: Double

    /// Loads face `faceIndex` (0: the first) of the font file at `path`.
    ///
    /// - Throws: `TextError.fontLoadFailed` when FreeType cannot open the file,
    ///   `TextError.fontNotScalable` when the face has neither outlines nor colour bitmaps.
    public init(path: String, faceIndex: Int = 0) throws {
        var library: FT_Library?
        let initError = FT_Init_FreeType(&library)
        guard initError == 0, let library else { throw TextError.fontLoadFailed(path: path, code: initError) }
        var faceOut: FT_Face?
        let faceError = FT_New_Face(library, path, FT_Long(faceIndex), &faceOut)
        guard faceError == 0, let face = faceOut else {
            FT_Done_FreeType(library)
            throw TextError.fontLoadFailed(path: path, code: faceError)
        }
        let flags = face.pointee.face_flags
        let scalable = flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        let color = flags & FT_Long(FT_FACE_FLAG_COLOR) != 0 && face.pointee.num_fixed_sizes > 0
        guard scalable || color, let blob = hb_blob_create_from_file_or_fail(path) else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            throw TextError.fontNotScalable(path: path)
        }
        let hbFace = hb_face_create(blob, UInt32(faceIndex))
        hb_blob_destroy(blob)
        // FreeType leaves units_per_EM at 0 for bitmap-only faces; the head table has it.
        let upem = scalable ? Int32(face.pointee.units_per_EM) : Int32(hb_face_get_upem(hbFace))
        let hbFont = hb_font_create(hbFace)!
        hb_face_destroy(hbFace)
        guard upem > 0 else {
            hb_font_destroy(hbFont)
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            throw TextError.fontNotScalable(path: path)
        }
        hb_font_set_scale(hbFont, upem, upem)
        hb_font_make_immutable(hbFont)
        self.hbFont = hbFont
        var strike = 0.0
        if !scalable {
            // The largest bitmap strike, resampled down when drawn.
            var best = 0
            for i in 0..<Int(face.pointee.num_fixed_sizes) where
                face.pointee.available_sizes[i].y_ppem > face.pointee.available_sizes[best].y_ppem { best = i }
            FT_Select_Size(face, FT_Int(best))
            strike = Double(face.pointee.available_sizes[best].y_ppem) / 64
        }
        strikePPEM = strike
        self.path = path
        self.faceIndex = faceIndex
        isColorBitmap = !scalable
        let style = face.pointee.style_flags
        isBold = style & FT_Long(FT_STYLE_FLAG_BOLD) != 0
        isItalic = style & FT_Long(FT_STYLE_FLAG_ITALIC) != 0
        familyName = face.pointee.family_name.map { String(cString: $0) } ?? ""
        unitsPerEm = Double(upem)
        hasKerning = flags & FT_Long(FT_FACE_FLAG_KERNING) != 0
        if scalable {
            ascender = Double(face.pointee.ascender)
            descender = Double(face.pointee.descender)
            lineSpacing = Double(face.pointee.height)
        } else {
            // Bitmap faces: FreeType's values are in pixels of the strike; HarfBuzz reads hhea/OS2.
            var extents = hb_font_extents_t()
            hb_font_get_h_extents(hbFont, &extents)
            ascender = Double(extents.ascender)
            descender = Double(extents.descender)
            lineSpacing = Double(extents.ascender - extents.descender + extents.line_gap)
        }
        // Which printable ASCII characters the face has, read once: the shaper asks for
        // every string of them (numbers, counters), and a lookup per character under the
        // lock cost more than the rest of choosing fonts for them.
        var ascii: (UInt64, UInt64) = (0, 0)
        for v in 0x20...0x7E where FT_Get_Char_Index(face, FT_ULong(v)) != 0 {
            if v < 64 { ascii.0 |= 1 << UInt64(v) } else { ascii.1 |= 1 << UInt64(v - 64) }
        }
        printableASCII = ascii
        state = Mutex(State(library: library, face: face))
    }

    /// Bits of the printable ASCII characters (0x20…0x7E) the face has a glyph for.
    private let printableASCII: (UInt64, UInt64)

    /// True when every byte of `utf8` is printable ASCII (0x20…0x7E) that the face has a
    /// glyph for (`covers`), without taking the lock.
    func coversPrintableASCII(_ utf8: String.UTF8View) -> Bool {
        utf8.allSatisfy { b in
            guard b >= 0x20 && b <= 0x7E else { return false }
            return b < 64 ? printableASCII.0 & (1 << UInt64(b)) != 0 : printableASCII.1 & (1 << UInt64(b - 64)) != 0
        }
    }

    deinit { hb_font_destroy(hbFont) }

    /// True when the font maps `scalar` to a glyph of its own (not `.notdef`).
    public func covers(_ scalar: Unicode.Scalar) -> Bool { glyphIndex(for: scalar) != 0 }

    /// The colour image of `glyph` at the font's bitmap strike; nil for outline fonts
    /// and glyphs without a bitmap. Loaded once and cached.
    func colorImage(glyph: UInt32) -> ColorGlyphImage? {
        guard isColorBitmap else { return nil }
        return state.withLock { state in
            if let cached = state.colorGlyphs[glyph] { return cached }
            let image = ColorGlyphImage.load(glyph, face: state.face)
            state.colorGlyphs[glyph] = image
            return image
        }
    }

    /// The ink box of a glyph in font units, y up, from its outline or its colour bitmap.
    func unitInk(glyph: UInt32) -> (xMin: Double, yMin: Double, xMax: Double, yMax: Double)? {
        if isColorBitmap {
            guard let image = colorImage(glyph: glyph), strikePPEM > 0 else { return nil }
            let k = unitsPerEm / strikePPEM
            return (Double(image.left) * k, Double(image.top - image.height) * k,
                    Double(image.left + image.width) * k, Double(image.top) * k)
        }
        return state.withLock { Font.unitGlyph(glyph, in: &$0).ink }
    }

    /// The outline of a glyph in font units (empty for colour bitmap glyphs).
    func unitOutline(glyph: UInt32) -> Path {
        isColorBitmap ? Path() : state.withLock { Font.unitGlyph(glyph, in: &$0).outline }
    }

    /// Outlines and ink boxes of several glyphs under one lock (layout pays one lock per run).
    func unitGlyphs(_ glyphs: [UInt32]) -> [UnitGlyph] {
        if isColorBitmap {
            return glyphs.map { g in
                UnitGlyph(outline: Path(), advance: 0, ink: unitInk(glyph: g))
            }
        }
        return state.withLock { state in glyphs.map { Font.unitGlyph($0, in: &state) } }
    }

    /// Pixels per font unit at `size` pixels per em.
    @inline(__always) func scale(_ size: Double) -> Double { size / unitsPerEm }

    /// The glyph index for a Unicode scalar; 0 (the font's `.notdef` glyph, a
    /// box in DejaVu) when the font has no glyph for it.
    public func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        state.withLock { Font.index(for: scalar, in: &$0) }
    }

    /// The distance from the baseline up to the top of the line box (the face's ascender), in pixels.
    public func ascent(size: Double) -> Double { ascender * scale(size) }

    /// The distance from the baseline down to the bottom of the line box, in
    /// pixels, as a positive number (the face's descender negated).
    public func descent(size: Double) -> Double { -descender * scale(size) }

    /// The distance between successive baselines, in pixels (ascent + descent + line gap).
    public func lineHeight(size: Double) -> Double { lineSpacing * scale(size) }

    /// How far the pen moves after drawing `glyph`, in pixels.
    public func advance(glyph: UInt32, size: Double) -> Double {
        state.withLock { Font.unitGlyph(glyph, in: &$0).advance } * scale(size)
    }

    /// The kerning adjustment between two glyphs drawn in order, in pixels
    /// (negative moves `right` closer). Read from the 'kern' table with
    /// `FT_KERNING_UNSCALED`; 0 when the face has none (`hasKerning` is false).
    public func kerning(left: UInt32, right: UInt32, size: Double) -> Double {
        guard hasKerning else { return 0 }
        return state.withLock { Font.unitKerning(left, right, in: $0) } * scale(size)
    }

    /// The outline of `glyph` at `size` in pixel space (y down), with the pen at
    /// `origin` on the baseline. Empty for glyphs without ink, such as the space,
    /// and for indices the font does not have.
    public func glyphPath(glyph: UInt32, size: Double, origin: Point) -> Path {
        let outline = state.withLock { Font.unitGlyph(glyph, in: &$0).outline }
        return outline.applying(unitTransform(size: size, origin: origin))
    }

    /// Maps font units (y up, pen at 0) to pixels (y down, pen at `origin`).
    func unitTransform(size: Double, origin: Point) -> Transform {
        let s = scale(size)
        return Transform(a: s, b: 0, c: 0, d: -s, tx: origin.x, ty: origin.y)
    }

    // MARK: FreeType calls; each runs with the lock held (it takes the locked state).

    private static func index(for scalar: Unicode.Scalar, in state: inout State) -> UInt32 {
        if let g = state.indices[scalar.value] { return g }
        let g = UInt32(FT_Get_Char_Index(state.face, FT_ULong(scalar.value)))
        state.indices[scalar.value] = g
        return g
    }

    private static func unitKerning(_ left: UInt32, _ right: UInt32, in state: borrowing State) -> Double {
        var v = FT_Vector(x: 0, y: 0)
        guard FT_Get_Kerning(state.face, left, right, FT_UInt(FT_KERNING_UNSCALED.rawValue), &v) == 0 else { return 0 }
        return Double(v.x)
    }

    private static func unitGlyph(_ glyph: UInt32, in state: inout State) -> UnitGlyph {
        if let cached = state.glyphs[glyph] { return cached }
        let loaded = load(glyph, face: state.face)
        state.glyphs[glyph] = loaded
        return loaded
    }

    private static func load(_ glyph: UInt32, face: FT_Face) -> UnitGlyph {
        let empty = UnitGlyph(outline: Path(), advance: 0, ink: nil)
        guard FT_Load_Glyph(face, glyph, FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) == 0,
              let slot = face.pointee.glyph else { return empty }
        // With FT_LOAD_NO_SCALE the metrics are in font units, not 26.6 pixels.
        let advance = Double(slot.pointee.metrics.horiAdvance)
        guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE, slot.pointee.outline.n_contours > 0 else {
            return UnitGlyph(outline: Path(), advance: advance, ink: nil)
        }
        var bbox = FT_BBox()
        // Exact box of the curves, not of their control points.
        let ink: (Double, Double, Double, Double)? = FT_Outline_Get_BBox(&slot.pointee.outline, &bbox) == 0
            ? (Double(bbox.xMin), Double(bbox.yMin), Double(bbox.xMax), Double(bbox.yMax)) : nil
        return UnitGlyph(outline: decompose(&slot.pointee.outline), advance: advance, ink: ink)
    }

    /// Receives FT_Outline_Decompose's callbacks through the `user` pointer.
    private final class OutlineSink {
        var path = Path()
        var open = false

        static func from(_ user: UnsafeMutableRawPointer?) -> OutlineSink {
            Unmanaged<OutlineSink>.fromOpaque(user!).takeUnretainedValue()
        }
    }

    @inline(__always) private static func point(_ v: UnsafePointer<FT_Vector>?) -> Point {
        Point(Double(v!.pointee.x), Double(v!.pointee.y))
    }

    /// Converts a FreeType outline into a Path in font units (y up). FreeType
    /// ends each contour with an explicit segment back to its start point but
    /// never reports the end of a contour, so a contour is closed when the next
    /// one starts and after the last.
    private static func decompose(_ outline: UnsafeMutablePointer<FT_Outline>) -> Path {
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in
                let sink = OutlineSink.from(user)
                if sink.open { sink.path.close() }
                sink.path.move(to: Font.point(to))
                sink.open = true
                return 0
            },
            line_to: { to, user in
                OutlineSink.from(user).path.line(to: Font.point(to))
                return 0
            },
            conic_to: { control, to, user in
                OutlineSink.from(user).path.quad(to: Font.point(to), control: Font.point(control))
                return 0
            },
            cubic_to: { c1, c2, to, user in
                OutlineSink.from(user).path.cubic(to: Font.point(to), control1: Font.point(c1), control2: Font.point(c2))
                return 0
            },
            shift: 0, delta: 0)
        let sink = OutlineSink()
        let error = withExtendedLifetime(sink) {
            FT_Outline_Decompose(outline, &funcs, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard error == 0 else { return Path() }
        if sink.open { sink.path.close() }
        return sink.path
    }
}
