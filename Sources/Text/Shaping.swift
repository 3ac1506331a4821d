// Shaping: a string and a font become positioned glyphs, the way a browser sets a line.
//
// 1. Fonts, cluster by cluster: each grapheme cluster (Swift's `Character`: a base with
//    its marks, a flag's two regional indicators, an emoji ZWJ sequence) takes the first
//    font that has all of its code points: the label's font, else fontconfig's fallback
//    for that family, style and language (Fontconfig.swift). Emoji clusters try a colour
//    font first. A cluster no installed font has is drawn in the label's font, whose
//    glyph 0 is its missing-glyph box, and reported once (`TextWarnings`).
// 2. Bidirectional levels (UAX #9) through FriBidi, only when the string holds a
//    right-to-left character or a bidi control; the paragraph direction comes from the
//    first strong character unless the options force one. Why FriBidi and not HarfBuzz
//    alone: HarfBuzz shapes one run in one direction and leaves splitting a mixed
//    paragraph into runs and ordering them to the caller.
// 3. Scripts: HarfBuzz's script of each code point; Common and Inherited ones (spaces,
//    digits, punctuation, marks) take the script before them.
// 4. Runs: maximal ranges of one font, level and script, each shaped by HarfBuzz with
//    the whole string as context (so Arabic joins across a run boundary), then ordered
//    for display by rule L2 of UAX #9 (reverse every sequence at level ≥ k, for k from
//    the highest level down to the lowest odd one). HarfBuzz already returns a
//    right-to-left run's glyphs in visual order.
//
// Results are in ems (font units / units per em, each glyph in its own font's units), so
// one shaping serves every size; they are cached per (string, font, options), which is
// what makes a label drawn on every frame cost one dictionary lookup after its first.
import CHarfBuzz
import CTextSupport
import Foundation
import Geometry
import Synchronization

/// The direction of a paragraph.
public enum TextDirection: String, Hashable, Sendable, CaseIterable {
    /// From the first strong character (Arabic or Hebrew: right to left), left to right when none.
    case auto
    /// Left to right.
    case leftToRight
    /// Right to left.
    case rightToLeft
}

/// How a string is shaped: OpenType features, language and paragraph direction.
public struct ShapingOptions: Hashable, Sendable {
    /// OpenType features in HarfBuzz's syntax: `"tnum"` (tabular figures), `"-liga"`
    /// (no standard ligatures), `"ss01"`, `"cv01=2"`. Applied to the whole string, on top
    /// of the defaults HarfBuzz applies for each script (kerning, ligatures, marks, …).
    public var features: [String]
    /// A BCP 47 language tag ("en", "ar", "zh-Hans", "ja"): chooses localised glyph forms
    /// and the fallback fonts fontconfig prefers (CJK glyph variants). "en" when nil, so
    /// a render does not depend on the machine's locale.
    public var language: String?
    /// The paragraph direction.
    public var direction: TextDirection

    /// Creates options.
    public init(features: [String] = [], language: String? = nil, direction: TextDirection = .auto) {
        self.features = features; self.language = language; self.direction = direction
    }

    /// HarfBuzz's defaults, language "en", direction from the text.
    public static let `default` = ShapingOptions()
    /// Tabular figures: every digit has the same advance, so a number changing from
    /// frame to frame keeps its digits in place (counters, value labels).
    public static let tabularFigures = ShapingOptions(features: ["tnum"])
}

/// One glyph as shaped, in ems of the size it will be drawn at.
struct ShapedGlyph: Sendable {
    let font: Font
    let glyph: UInt32
    /// The glyph's origin relative to the line's baseline-left, in ems, y down.
    let x: Double, y: Double
    /// The index of the first Unicode scalar of the glyph's cluster.
    let cluster: Int
}

/// A whole string shaped, size-independent (ems), in visual order.
final class ShapedText: Sendable {
    /// The font it was shaped in: held so that the font, whose identity keys the cache,
    /// cannot be freed and its address reused by another font while the entry exists.
    let font: Font
    let glyphs: [ShapedGlyph]
    let width: Double
    let ascent: Double, descent: Double
    /// The ink box in ems, y down: (minX, minY, maxX, maxY); nil without ink.
    let ink: (Double, Double, Double, Double)?
    /// The scalars no installed font has.
    let missing: [Unicode.Scalar]
    /// True when the paragraph resolved to right to left.
    let isRightToLeft: Bool

    init(font: Font, glyphs: [ShapedGlyph], width: Double, ascent: Double, descent: Double,
         ink: (Double, Double, Double, Double)?, missing: [Unicode.Scalar], isRightToLeft: Bool) {
        self.font = font; self.glyphs = glyphs; self.width = width; self.ascent = ascent; self.descent = descent
        self.ink = ink; self.missing = missing; self.isRightToLeft = isRightToLeft
    }
}

enum Shaper {
    private struct Key: Hashable {
        let string: String
        let font: ObjectIdentifier
        let options: ShapingOptions
    }
    /// Shaped strings; cleared when it reaches `capacity` strings or `glyphCapacity`
    /// glyphs (a counter over a long video makes a new string each frame; the labels
    /// that repeat are re-shaped once after). Counted in glyphs too, since a count of
    /// strings alone let long labels pile up: the text fuzz target's memory grew by
    /// ~0.2 MB an input, toward 16,384 × 10,000 glyphs (GBs).
    private static let cache = Mutex<(table: [Key: ShapedText], glyphs: Int)>(([:], 0))
    static let capacity = 16_384
    /// About 40 MB of shaped glyphs.
    static let glyphCapacity = 1 << 20
    /// The strings and glyphs the cache holds now (tests).
    static var cached: (strings: Int, glyphs: Int) { cache.withLock { ($0.table.count, $0.glyphs) } }

    /// `s` shaped in `font` (with fallback) under `options`, from the cache when it was before.
    /// The most Unicode scalars one label is shaped with; the rest is cut and an ellipsis
    /// drawn. Documents are refused long before (`DocumentLimits.maxLabelLength`, the
    /// same 10,000); this bounds what the Swift API and data-driven labels can ask for:
    /// every glyph costs an outline and coverage, and a 1 MB title took 1 GB.
    static let maxScalars = 10_000

    /// `keep: false` neither looks the string up nor stores it (a counter's value, new on
    /// most frames: a lookup in the full table missed its cache lines on every frame).
    static func shape(_ original: String, font: Font, options: ShapingOptions, keep: Bool = true) -> ShapedText {
        var s = original
        if s.utf8.count > maxScalars && s.unicodeScalars.count > maxScalars {
            var cut = String.UnicodeScalarView(s.unicodeScalars.prefix(maxScalars))
            cut.append("…")
            s = String(cut)
            TextWarnings.labelTooLong(original.unicodeScalars.count, start: String(s.unicodeScalars.prefix(40)))
        }
        let key = Key(string: s, font: ObjectIdentifier(font), options: options)
        if keep, let hit = cache.withLock({ $0.table[key] }) { return hit }
        let shaped = shapeUncached(s, font: font, options: options)
        if keep {
            cache.withLock { c in
                if c.table.count >= capacity || c.glyphs + shaped.glyphs.count > glyphCapacity {
                    c.table.removeAll(keepingCapacity: c.table.count < capacity)
                    c.glyphs = 0
                }
                if c.table.updateValue(shaped, forKey: key) == nil { c.glyphs += shaped.glyphs.count }
            }
        }
        if !shaped.missing.isEmpty { TextWarnings.missingGlyphs(shaped.missing, in: s) }
        return shaped
    }

    // MARK: Steps

    /// Code points that need no glyph of their own when choosing a font: joiners,
    /// variation selectors, bidi controls, the soft hyphen, line ends.
    static func isIgnorableForCoverage(_ v: UInt32) -> Bool {
        switch v {
        case 0x00...0x1F, 0x7F, 0xAD, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFE00...0xFE0F, 0xFEFF,
             0xE0100...0xE01EF: return true
        default: return false
        }
    }

    /// A cluster drawn as an emoji: emoji presentation by default, or asked for with VS16,
    /// a flag, a ZWJ sequence of emoji, or one with a skin-tone modifier.
    static func isEmojiCluster(_ scalars: Substring.UnicodeScalarView) -> Bool {
        guard let first = scalars.first else { return false }
        if first.properties.isEmojiPresentation { return true }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return true }
        for s in scalars {
            if s.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(s.value) { return true }
            if s.value == 0x200D && first.properties.isEmoji { return true }
        }
        return false
    }

    /// Right-to-left letters and bidi controls: a string without them is all level 0
    /// (unless the paragraph is forced right to left) and skips FriBidi.
    static func needsBidi(_ v: UInt32) -> Bool {
        switch v {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
             0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// HarfBuzz's language (English unless the options name one) and the options' font
    /// features that HarfBuzz can read, as both shaping paths hand them to `hb_shape`.
    static func harfBuzzSettings(_ options: ShapingOptions) -> (language: hb_language_t?, features: [hb_feature_t]) {
        let language = hb_language_from_string(options.language ?? "en", -1)
        let features = options.features.compactMap { f -> hb_feature_t? in
            var out = hb_feature_t()
            return hb_feature_from_string(f, -1, &out) != 0 ? out : nil
        }
        return (language, features)
    }

    private static func shapeUncached(_ s: String, font primary: Font, options: ShapingOptions) -> ShapedText {
        let scalars = s.unicodeScalars.map(\.value)
        let n = scalars.count
        guard n > 0 else {
            return ShapedText(font: primary, glyphs: [], width: 0, ascent: primary.ascent(size: 1), descent: primary.descent(size: 1),
                              ink: nil, missing: [], isRightToLeft: options.direction == .rightToLeft)
        }

        // 1. A font for each cluster.
        // Printable ASCII that the label's font has (numbers, counters, most Latin labels):
        // every scalar is a cluster of its own, none is ignorable or an emoji, and each
        // takes the label's font, which is what the loop below finds for it; skipped, and
        // `fontOf` left empty for "all the label's font" (and `levels` below for "all
        // level 0"): a counter's string is shaped on every frame, and making these arrays
        // cost more than HarfBuzz's shaping of it (perf, in a 300-label frame).
        let allPrimary = primary.coversPrintableASCII(s.utf8)
        var fonts: [Font] = [primary]
        var fontOf: [Int] = allPrimary ? [] : [Int](repeating: 0, count: n)
        var missing: [Unicode.Scalar] = []
        let style = FontStyle(weight: primary.isBold ? 700 : 400, italic: primary.isItalic)
        let primaryFace = FontFace(path: primary.path, index: primary.faceIndex)
        var i = 0, previousFont = 0
        for character in allPrimary ? "" : s {
            let cluster = character.unicodeScalars
            let count = cluster.count
            let needed = cluster.map(\.value).filter { !isIgnorableForCoverage($0) }
            var chosen: Int? = nil
            if needed.isEmpty {
                chosen = previousFont
            } else {
                let emoji = isEmojiCluster(Substring(String(character)).unicodeScalars)
                func fallback(color: Bool) -> Font? {
                    guard let face = Fontconfig.fallback(for: needed, family: primary.familyName, style: style,
                                                         language: options.language, color: color, excluding: primaryFace)
                    else { return nil }
                    return try? FontCache.font(face: face)
                }
                var candidates: [() -> Font?] = [{ primary.coversAll(needed) ? primary : nil }, { fallback(color: false) }]
                if emoji { candidates.insert({ fallback(color: true) }, at: 0) }
                for candidate in candidates {
                    guard let f = candidate(), f.coversAll(needed) else { continue }
                    if let k = fonts.firstIndex(where: { $0 === f }) { chosen = k } else { fonts.append(f); chosen = fonts.count - 1 }
                    break
                }
                if chosen == nil {
                    chosen = 0
                    for v in needed where !primary.covers(Unicode.Scalar(v)!) { missing.append(Unicode.Scalar(v)!) }
                }
            }
            for k in i..<(i + count) { fontOf[k] = chosen! }
            previousFont = chosen!
            i += count
        }

        // 2. Bidi levels (none: every scalar at level 0).
        var levels: [UInt8] = []
        var rtlParagraph = options.direction == .rightToLeft
        if options.direction == .rightToLeft || scalars.contains(where: needsBidi) {
            levels = [UInt8](repeating: options.direction == .rightToLeft ? 1 : 0, count: n)
            let base: Int32 = options.direction == .leftToRight ? 1 : options.direction == .rightToLeft ? 2 : 0
            let resolved = levels.withUnsafeMutableBufferPointer { lv in
                scalars.withUnsafeBufferPointer { ctext_bidi_levels($0.baseAddress, Int32(n), base, lv.baseAddress) }
            }
            if resolved >= 0 { rtlParagraph = resolved == 1 }
        }

        // 3. Scripts, Common and Inherited resolved to their neighbours.
        let unicode = hb_unicode_funcs_get_default()
        var scripts = scalars.map { hb_unicode_script(unicode, $0) }
        func isWeak(_ sc: hb_script_t) -> Bool { sc == HB_SCRIPT_COMMON || sc == HB_SCRIPT_INHERITED || sc == HB_SCRIPT_UNKNOWN }
        var last = scripts.first(where: { !isWeak($0) }) ?? HB_SCRIPT_COMMON
        for k in 0..<n { if isWeak(scripts[k]) { scripts[k] = last } else { last = scripts[k] } }

        // 4. Runs, shaped and ordered.
        struct Run { let start: Int, end: Int, level: UInt8; var glyphs: [ShapedGlyph] }
        var runs: [Run] = []
        var start = 0
        let oneFont = fontOf.isEmpty, levelZero = levels.isEmpty
        for k in 1...n where k == n || (!oneFont && fontOf[k] != fontOf[start]) || (!levelZero && levels[k] != levels[start])
                               || scripts[k] != scripts[start] {
            runs.append(Run(start: start, end: k, level: levelZero ? 0 : levels[start], glyphs: []))
            start = k
        }
        var (language, features) = harfBuzzSettings(options)
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        for r in runs.indices {
            let run = runs[r]
            let font = fonts[oneFont ? 0 : fontOf[run.start]]
            hb_buffer_clear_contents(buffer)
            scalars.withUnsafeBufferPointer {
                hb_buffer_add_utf32(buffer, $0.baseAddress, Int32(n), UInt32(run.start), Int32(run.end - run.start))
            }
            hb_buffer_set_direction(buffer, run.level & 1 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
            hb_buffer_set_script(buffer, scripts[run.start])
            hb_buffer_set_language(buffer, language)
            features.withUnsafeMutableBufferPointer { hb_shape(font.hbFont, buffer, $0.baseAddress, UInt32($0.count)) }
            var count: UInt32 = 0
            let infos = hb_buffer_get_glyph_infos(buffer, &count)!
            let positions = hb_buffer_get_glyph_positions(buffer, &count)!
            let em = 1 / font.unitsPerEm
            var pen = 0.0
            var glyphs: [ShapedGlyph] = []
            glyphs.reserveCapacity(Int(count))
            for g in 0..<Int(count) {
                let p = positions[g]
                glyphs.append(ShapedGlyph(font: font, glyph: infos[g].codepoint,
                                          x: pen + Double(p.x_offset) * em, y: -Double(p.y_offset) * em,
                                          cluster: Int(infos[g].cluster)))
                pen += Double(p.x_advance) * em
            }
            // Advance of the run, stored as a trailing pen position in the last slot below.
            runs[r].glyphs = glyphs
            runs[r].glyphs.append(ShapedGlyph(font: font, glyph: UInt32.max, x: pen, y: 0, cluster: -1))
        }
        var order = Array(runs.indices)
        if let maxLevel = levels.max(), maxLevel > 0 {
            let lowestOdd = (levels.min()! | 1)
            var k = maxLevel
            while k >= lowestOdd {
                var a = 0
                while a < order.count {
                    guard runs[order[a]].level >= k else { a += 1; continue }
                    var b = a
                    while b < order.count && runs[order[b]].level >= k { b += 1 }
                    order[a..<b].reverse()
                    a = b
                }
                k -= 1
            }
        }

        // Pen positions across runs; metrics.
        var placed: [ShapedGlyph] = []
        placed.reserveCapacity(runs.reduce(0) { $0 + $1.glyphs.count })
        var pen = 0.0
        var ascent = primary.ascent(size: 1), descent = primary.descent(size: 1)
        var ink: (Double, Double, Double, Double)? = nil
        for r in order {
            var advance = 0.0
            for g in runs[r].glyphs {
                if g.glyph == UInt32.max { advance = g.x; continue }
                let shifted = ShapedGlyph(font: g.font, glyph: g.glyph, x: pen + g.x, y: g.y, cluster: g.cluster)
                placed.append(shifted)
                if let b = g.font.unitInk(glyph: g.glyph) {
                    let em = 1 / g.font.unitsPerEm
                    let box = (shifted.x + b.xMin * em, shifted.y - b.yMax * em, shifted.x + b.xMax * em, shifted.y - b.yMin * em)
                    ink = ink.map { (min($0.0, box.0), min($0.1, box.1), max($0.2, box.2), max($0.3, box.3)) } ?? box
                }
            }
            pen += advance
            let f = fonts[oneFont ? 0 : fontOf[runs[r].start]]
            ascent = max(ascent, f.ascent(size: 1)); descent = max(descent, f.descent(size: 1))
        }
        return ShapedText(font: primary, glyphs: placed, width: pen, ascent: ascent, descent: descent, ink: ink,
                          missing: missing, isRightToLeft: rtlParagraph)
    }
}

extension Shaper {
    /// HarfBuzz's script of each ASCII code point (a pure function of the code point,
    /// looked up once instead of per scalar per frame).
    private static let asciiScripts: [hb_script_t] = {
        let unicode = hb_unicode_funcs_get_default()
        return (0..<128).map { hb_unicode_script(unicode, UInt32($0)) }
    }()

    /// `s` shaped as `shapeUncached` shapes a string of printable ASCII that `font` covers
    /// in a paragraph that is not forced right to left (no fallback font, no bidi levels:
    /// every scalar in `font` at level 0), without the objects the general path makes:
    /// the same runs, the same HarfBuzz calls and the same arithmetic, so the same glyphs,
    /// positions, width and ink, bit for bit (tested against `shape`). `glyphs` receives
    /// each glyph and its origin in ems (y down), in visual order. For a counter's value,
    /// laid out anew on every frame (`TextBlock.printableASCIILine`). Nil when `s` is
    /// outside that case.
    static func shapePrintableASCII(_ s: String, font: Font, options: ShapingOptions,
                                    into glyphs: inout [(glyph: UInt32, x: Double, y: Double)])
        -> (width: Double, ascent: Double, descent: Double, ink: (Double, Double, Double, Double)?)? {
        let utf8 = s.utf8
        let n = utf8.count
        guard n > 0, n <= maxScalars, options.direction != .rightToLeft, !font.isColorBitmap,
              font.coversPrintableASCII(utf8) else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: n) { scalars in
            var k = 0
            for b in utf8 { scalars[k] = UInt32(b); k += 1 }
            // Scripts, Common and Inherited resolved to their neighbours (as in shapeUncached).
            func isWeak(_ sc: hb_script_t) -> Bool { sc == HB_SCRIPT_COMMON || sc == HB_SCRIPT_INHERITED || sc == HB_SCRIPT_UNKNOWN }
            return withUnsafeTemporaryAllocation(of: hb_script_t.self, capacity: n) { scripts in
                for i in 0..<n { scripts[i] = asciiScripts[Int(scalars[i])] }
                var last = HB_SCRIPT_COMMON
                for i in 0..<n where !isWeak(scripts[i]) { last = scripts[i]; break }
                for i in 0..<n { if isWeak(scripts[i]) { scripts[i] = last } else { last = scripts[i] } }

                var (language, features) = harfBuzzSettings(options)
                let buffer = hb_buffer_create()
                defer { hb_buffer_destroy(buffer) }
                let em = 1 / font.unitsPerEm
                glyphs.removeAll(keepingCapacity: true)
                // Runs of one script, in logical order (all at level 0, so also in visual
                // order); each glyph placed at the pen of the runs before it plus its own.
                var pen = 0.0
                var start = 0
                for end in 1...n where end == n || scripts[end] != scripts[start] {
                    hb_buffer_clear_contents(buffer)
                    hb_buffer_add_utf32(buffer, scalars.baseAddress, Int32(n), UInt32(start), Int32(end - start))
                    hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
                    hb_buffer_set_script(buffer, scripts[start])
                    hb_buffer_set_language(buffer, language)
                    features.withUnsafeMutableBufferPointer { hb_shape(font.hbFont, buffer, $0.baseAddress, UInt32($0.count)) }
                    var count: UInt32 = 0
                    let infos = hb_buffer_get_glyph_infos(buffer, &count)!
                    let positions = hb_buffer_get_glyph_positions(buffer, &count)!
                    var runPen = 0.0
                    for g in 0..<Int(count) {
                        let p = positions[g]
                        let x = runPen + Double(p.x_offset) * em, y = -Double(p.y_offset) * em
                        glyphs.append((infos[g].codepoint, pen + x, y))
                        runPen += Double(p.x_advance) * em
                    }
                    pen += runPen
                    start = end
                }
                // Ink of every glyph (one lock), as the general path's placement loop takes it.
                var ink: (Double, Double, Double, Double)? = nil
                let units = font.unitGlyphs(glyphs.map(\.glyph))
                for (g, u) in zip(glyphs, units) {
                    guard let b = u.ink else { continue }
                    let box = (g.x + b.xMin * em, g.y - b.yMax * em, g.x + b.xMax * em, g.y - b.yMin * em)
                    ink = ink.map { (min($0.0, box.0), min($0.1, box.1), max($0.2, box.2), max($0.3, box.3)) } ?? box
                }
                return (pen, font.ascent(size: 1), font.descent(size: 1), ink)
            }
        }
    }
}

extension Font {
    /// True when the font has a glyph of its own for every one of `scalars`.
    func coversAll(_ scalars: [UInt32]) -> Bool {
        scalars.allSatisfy { Unicode.Scalar($0).map(covers) ?? false }
    }
}

/// Warnings from text layout, such as a character no installed font has. Each is
/// reported once per process; the default handler writes it to standard error.
public enum TextWarnings {
    private static let seen = Mutex<Set<String>>([])
    private static let handler = Mutex<@Sendable (String) -> Void>({ message in
        FileHandle.standardError.write(Data(("warning: " + message + "\n").utf8))
    })

    /// Replaces where warnings go (tests collect them; a tool may route them to its log).
    public static func setHandler(_ h: @escaping @Sendable (String) -> Void) { handler.withLock { $0 = h } }

    static func labelTooLong(_ count: Int, start: String) {
        let message = "a label of \(count) characters was cut to the first \(Shaper.maxScalars) (the label limit): \"\(start)…\""
        let isNew = seen.withLock { $0.insert(message).inserted }
        if isNew { handler.withLock { $0 }(message) }
    }

    static func missingGlyphs(_ scalars: [Unicode.Scalar], in label: String) {
        for scalar in scalars {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            let message = "no installed font has U+\(code) '\(Character(scalar))' (in the label \"\(label)\"); it is drawn as the missing-glyph box. Install a font that has it (scripts/setup installs the Noto set)."
            let isNew = seen.withLock { $0.insert(message).inserted }
            if isNew { handler.withLock { $0 }(message) }
        }
    }
}
