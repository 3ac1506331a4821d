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
import CFreeType
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

        deinit {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
        }
    }
    private let state: Mutex<State>

    /// Loads the first face in the font file at `path`.
    ///
    /// - Throws: `TextError.fontLoadFailed` when FreeType cannot open the file,
    ///   `TextError.fontNotScalable` when the face has no outlines.
    public init(path: String) throws {
        var library: FT_Library?
        let initError = FT_Init_FreeType(&library)
        guard initError == 0, let library else { throw TextError.fontLoadFailed(path: path, code: initError) }
        var faceOut: FT_Face?
        let faceError = FT_New_Face(library, path, 0, &faceOut)
        guard faceError == 0, let face = faceOut else {
            FT_Done_FreeType(library)
            throw TextError.fontLoadFailed(path: path, code: faceError)
        }
        let flags = face.pointee.face_flags
        guard flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0, face.pointee.units_per_EM > 0 else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            throw TextError.fontNotScalable(path: path)
        }
        self.path = path
        familyName = face.pointee.family_name.map { String(cString: $0) } ?? ""
        unitsPerEm = Double(face.pointee.units_per_EM)
        hasKerning = flags & FT_Long(FT_FACE_FLAG_KERNING) != 0
        ascender = Double(face.pointee.ascender)
        descender = Double(face.pointee.descender)
        lineSpacing = Double(face.pointee.height)
        state = Mutex(State(library: library, face: face))
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

    /// Glyph data and kerning for each scalar of `s`, taken under one lock so
    /// layout pays for one lock per string rather than three per glyph.
    /// `kern` is the adjustment before the glyph (0 for the first), in font units.
    func unitRun(_ s: String) -> [(glyph: UInt32, data: UnitGlyph, kern: Double)] {
        state.withLock { state in
            var run: [(glyph: UInt32, data: UnitGlyph, kern: Double)] = []
            run.reserveCapacity(s.unicodeScalars.count)
            var previous: UInt32? = nil
            for scalar in s.unicodeScalars {
                let g = Font.index(for: scalar, in: &state)
                let kern = previous.map { hasKerning ? Font.unitKerning($0, g, in: state) : 0 } ?? 0
                run.append((g, Font.unitGlyph(g, in: &state), kern))
                previous = g
            }
            return run
        }
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
