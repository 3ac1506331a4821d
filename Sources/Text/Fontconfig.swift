// Font lookup and fallback through fontconfig's library.
//
// fontconfig is initialised once per process, on first need (loading its cache takes a
// few milliseconds; a document that uses only the default font at its standard path
// never pays it). Two questions are asked of it:
//
// - `match`: the file of a family at a weight and slant (what `fc-match` answers), for
//   fonts a document names;
// - `fallback`: for a character the chosen font lacks, the first font in fontconfig's
//   sorted list for that family, weight, slant and language whose character set has all
//   of the character's code points (emoji prefer a colour font). The sorted list is built
//   once per (family, weight, slant, language) and each answer is cached, so fallback
//   costs a dictionary lookup after a character's first use.
//
// The language is part of the pattern and defaults to "en" rather than the machine's
// locale (which fontconfig would otherwise add), so the fonts chosen do not depend on
// the environment a render runs in.
import CFontconfig
import Synchronization

/// A font face on disk: a file and the face's index in it.
public struct FontFace: Hashable, Sendable {
    /// The font file.
    public var path: String
    /// The face's index in the file (0 unless the file is a collection).
    public var index: Int
    /// Creates a face reference.
    public init(path: String, index: Int = 0) { self.path = path; self.index = index }
}

/// A style asked of fontconfig: a weight on the OpenType scale (400 regular, 700 bold)
/// and upright or italic.
public struct FontStyle: Hashable, Sendable {
    /// OpenType weight: 100 thin … 400 regular … 700 bold … 900 black.
    public var weight: Int
    /// True for an italic (or oblique) face.
    public var italic: Bool
    /// Creates a style.
    public init(weight: Int = 400, italic: Bool = false) { self.weight = weight; self.italic = italic }
    /// Regular upright.
    public static let regular = FontStyle()
    /// Bold upright.
    public static let bold = FontStyle(weight: 700)
}

enum Fontconfig {
    private struct Candidate {
        let face: FontFace
        let charset: OpaquePointer
        let color: Bool
    }
    private struct SortedList {
        // Kept alive for the process: the candidates' character sets belong to it.
        let set: UnsafeMutablePointer<FcFontSet>
        let candidates: [Candidate]
    }
    private struct FallbackKey: Hashable {
        let family: String, style: FontStyle, language: String, scalars: [UInt32], color: Bool
    }
    private final class State: @unchecked Sendable {
        var initialised = false
        var config: OpaquePointer?
        var sorted: [String: SortedList] = [:]
        var answers: [FallbackKey: FontFace?] = [:]
    }
    // fontconfig's own thread safety varies by version; all calls go through this lock.
    private static let state = Mutex(State())

    private static func loadedConfig(_ s: State) -> OpaquePointer? {
        if !s.initialised {
            s.initialised = true
            s.config = FcInitLoadConfigAndFonts()
        }
        return s.config
    }

    /// A pattern for family, style and language, with fontconfig's substitutions applied.
    private static func pattern(family: String, style: FontStyle, language: String, config: OpaquePointer) -> OpaquePointer? {
        guard let p = FcPatternCreate() else { return nil }
        addString(p, FC_FAMILY, family)
        addString(p, FC_LANG, language)
        FcPatternAddInteger(p, FC_WEIGHT, FcWeightFromOpenType(Int32(style.weight)))
        FcPatternAddInteger(p, FC_SLANT, style.italic ? Int32(FC_SLANT_ITALIC) : Int32(FC_SLANT_ROMAN))
        FcConfigSubstitute(config, p, FcMatchPattern)
        FcDefaultSubstitute(p)
        return p
    }

    private static func addString(_ p: OpaquePointer, _ object: String, _ value: String) {
        var bytes = Array(value.utf8)
        bytes.append(0)
        _ = bytes.withUnsafeBufferPointer { FcPatternAddString(p, object, $0.baseAddress) }
    }

    private static func string(_ p: OpaquePointer, _ object: String, _ n: Int32 = 0) -> String? {
        var out: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(p, object, n, &out) == FcResultMatch, let out else { return nil }
        return String(cString: out)
    }

    private static func face(of p: OpaquePointer) -> FontFace? {
        guard let file = string(p, FC_FILE) else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(p, FC_INDEX, 0, &index)
        return FontFace(path: file, index: Int(index))
    }

    /// The face fontconfig matches for `family` in `style`, with every family name the
    /// face carries (localised names included); nil when fontconfig is unavailable.
    static func match(family: String, style: FontStyle, language: String = "en") -> (face: FontFace, families: [String])? {
        state.withLock { s -> (FontFace, [String])? in
            guard let config = loadedConfig(s), let p = pattern(family: family, style: style, language: language, config: config)
            else { return nil }
            defer { FcPatternDestroy(p) }
            var result = FcResultNoMatch
            guard let m = FcFontMatch(config, p, &result) else { return nil }
            defer { FcPatternDestroy(m) }
            guard let f = face(of: m) else { return nil }
            var names: [String] = []
            var i: Int32 = 0
            while let name = string(m, FC_FAMILY, i) { names.append(name); i += 1 }
            return (f, names)
        }
    }

    /// The first face in fontconfig's order for (family, style, language) that has every
    /// one of `scalars`; with `color`, a colour font is preferred when one has them.
    /// `excluding` is skipped (the font that already lacks them). Nil when none has them.
    static func fallback(for scalars: [UInt32], family: String, style: FontStyle, language: String?,
                         color: Bool, excluding: FontFace?) -> FontFace? {
        let lang = language ?? "en"
        let key = FallbackKey(family: family, style: style, language: lang, scalars: scalars, color: color)
        return state.withLock { s -> FontFace? in
            if let known = s.answers[key] { return known }
            guard let config = loadedConfig(s) else { return nil }
            let listKey = "\(family)|\(style.weight)|\(style.italic)|\(lang)"
            var list = s.sorted[listKey]
            if list == nil, let p = pattern(family: family, style: style, language: lang, config: config) {
                var result = FcResultNoMatch
                if let set = FcFontSort(config, p, FcFalse, nil, &result) {
                    var candidates: [Candidate] = []
                    for i in 0..<Int(set.pointee.nfont) {
                        guard let fp = set.pointee.fonts[i], let f = face(of: fp) else { continue }
                        var cs: OpaquePointer?
                        guard FcPatternGetCharSet(fp, FC_CHARSET, 0, &cs) == FcResultMatch, let cs else { continue }
                        var isColor: FcBool = FcFalse
                        _ = FcPatternGetBool(fp, FC_COLOR, 0, &isColor)
                        candidates.append(Candidate(face: f, charset: cs, color: isColor != FcFalse))
                    }
                    list = SortedList(set: set, candidates: candidates)
                    s.sorted[listKey] = list
                }
                FcPatternDestroy(p)
            }
            var answer: FontFace? = nil
            if let list {
                func hasAll(_ c: Candidate) -> Bool {
                    c.face != excluding && scalars.allSatisfy { FcCharSetHasChar(c.charset, $0) != FcFalse }
                }
                if color { answer = list.candidates.first { $0.color && hasAll($0) }?.face }
                if answer == nil { answer = list.candidates.first(where: hasAll)?.face }
            }
            s.answers[key] = answer
            return answer
        }
    }
}
