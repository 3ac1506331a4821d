// Blocks of text: paragraphs, wrapping, truncation, line height and alignment.
//
// Line-break opportunities come from ICU's line break iterator (UAX #14, the rules
// browsers follow), through CTextSupport. Why ICU: it implements the current Unicode
// line-breaking rules, including dictionary-based breaks for Thai, Lao, Khmer and
// Burmese (written without spaces), and CJK breaks between ideographs; it is already on
// every Debian machine that has the Swift toolchain (libicu72), and the alternatives in
// Debian either lack dictionaries (libunibreak) or follow an old Unicode version.
//
// Lines are filled greedily: each takes the longest run of text up to a break
// opportunity whose shaped width (trailing spaces not counted) fits the maximum width.
// A word wider than the maximum on its own is broken between grapheme clusters. Each
// paragraph (split at "\n") is shaped on its own; a line is shaped as its own string.
// Truncation cuts the last allowed line between grapheme clusters and appends "…" so
// that it fits.
import CTextSupport
import Geometry

/// How lines of a block are placed horizontally within the block's width.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
    /// Lines start at the left edge.
    case leading
    /// Lines are centred.
    case center
    /// Lines end at the right edge.
    case trailing
    /// Lines start where their paragraph starts: the left edge for a left-to-right
    /// paragraph, the right edge for a right-to-left one (CSS's `text-align: start`).
    case start
    /// Lines end where their paragraph ends: the right edge for a left-to-right
    /// paragraph, the left edge for a right-to-left one.
    case end
}

/// What happens to text wider than the maximum width.
public enum TextOverflow: String, Hashable, Sendable, CaseIterable {
    /// Break into lines at line-break opportunities.
    case wrap
    /// Keep to `maxLines` (one by default) and end the last with an ellipsis.
    case truncate
}

/// How a block of text is set: maximum width, overflow, line height and alignment.
public struct TextBlockStyle: Hashable, Sendable {
    /// The widest a line may be, in pixels; nil for no limit (each paragraph one line).
    public var maxWidth: Double?
    /// Wrap or truncate text wider than `maxWidth`.
    public var overflow: TextOverflow
    /// The most lines shown (nil: no limit when wrapping, one when truncating); the last
    /// shown line ends with an ellipsis when text remains.
    public var maxLines: Int?
    /// Distance between baselines as a multiple of the font's line height.
    public var lineHeight: Double
    /// Placement of each line within the block.
    public var alignment: TextAlignment

    /// Creates a style.
    public init(maxWidth: Double? = nil, overflow: TextOverflow = .wrap, maxLines: Int? = nil,
                lineHeight: Double = 1, alignment: TextAlignment = .leading) {
        self.maxWidth = maxWidth; self.overflow = overflow; self.maxLines = maxLines
        self.lineHeight = lineHeight; self.alignment = alignment
    }

    /// One line per paragraph, no limit.
    public static let singleLine = TextBlockStyle()
}

/// Text set in lines: each a shaped `TextLine` with its baseline-left origin.
public struct TextBlock: Sendable {
    /// The lines, top to bottom, with their baseline-left origins relative to the first
    /// line's baseline at the block's left edge.
    public let lines: [(line: TextLine, origin: Point)]
    /// The block's size: `width` is the widest line; `ascent` the first line's; `descent`
    /// reaches from the first baseline to the bottom of the last line; `bounds` is the
    /// ink of every line.
    public let metrics: TextMetrics
    /// The text of each line as set (with an ellipsis where truncated).
    public let strings: [String]

    /// Sets `s` in `font` at `size` with `options` and `style`. `keepShaping: false` does
    /// not keep its lines' shaping in the process's table (see `TextLine`).
    public init(_ s: String, font: Font, size: Double, options: ShapingOptions = .default, style: TextBlockStyle = .singleLine,
                keepShaping: Bool = true) {
        var texts: [String] = []
        let limit = style.maxLines ?? (style.overflow == .truncate ? 1 : Int.max)
        // (Without a newline, the one paragraph as it is: splitting cost a label drawn anew
        // every frame, a counter's, more than shaping it.)
        let paragraphs = s.utf8.contains(0x0A) ? s.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [s]
        // Each line is shaped in its paragraph's direction: a wrapped Arabic paragraph whose
        // second line starts with a Latin word is still a right-to-left line.
        var directions: [TextDirection] = []
        outer: for (p, paragraph) in paragraphs.enumerated() {
            let pieces = style.maxWidth.map { TextBlock.wrap(paragraph, width: $0, font: font, size: size, options: options,
                                                            wrap: style.overflow == .wrap) } ?? [paragraph]
            var direction = options.direction
            if direction == .auto && pieces.count > 1 {
                direction = TextLine(paragraph, font: font, size: size, options: options, keepShaping: keepShaping).isRightToLeft
                    ? .rightToLeft : .leftToRight
            }
            for (k, piece) in pieces.enumerated() {
                directions.append(direction)
                if texts.count == limit - 1 && (k < pieces.count - 1 || p < paragraphs.count - 1) {
                    // The last line allowed, with text after it: end it with an ellipsis.
                    let rest = pieces[k...].joined(separator: " ")
                    texts.append(TextBlock.truncate(rest, width: style.maxWidth ?? .infinity, font: font, size: size,
                                                    options: options, always: true))
                    break outer
                }
                texts.append(piece)
                if texts.count >= limit { break outer }
            }
        }
        if texts.isEmpty { texts = [""] }
        let set = texts.indices.map { i -> TextLine in
            var o = options
            if i < directions.count { o.direction = directions[i] }
            return TextLine(texts[i], font: font, size: size, options: o, keepShaping: keepShaping)
        }
        let width = set.map(\.metrics.width).max() ?? 0
        let advance = font.lineHeight(size: size) * style.lineHeight
        var lines: [(line: TextLine, origin: Point)] = []
        var bounds = Rect.null
        for (i, line) in set.enumerated() {
            let free = width - line.metrics.width
            let x: Double
            switch style.alignment {
            case .leading: x = 0
            case .center: x = free / 2
            case .trailing: x = free
            case .start: x = line.isRightToLeft ? free : 0
            case .end: x = line.isRightToLeft ? 0 : free
            }
            let origin = Point(x, Double(i) * advance)
            lines.append((line, origin))
            if !line.metrics.bounds.isNull {
                bounds = bounds.union(line.metrics.bounds.offsetBy(dx: origin.x, dy: origin.y))
            }
        }
        self.lines = lines
        strings = texts
        let first = set[0], last = set[set.count - 1]
        metrics = TextMetrics(width: width, ascent: first.metrics.ascent,
                              descent: Double(set.count - 1) * advance + last.metrics.descent, bounds: bounds)
    }

    /// The outlines of every line, with the first baseline's left end at `origin`.
    public func path(at origin: Point = .zero) -> Path {
        if lines.count == 1 { return lines[0].line.path(at: Point(origin.x + lines[0].origin.x, origin.y)) }
        var out = Path()
        for (line, o) in lines { out.append(contentsOf: line.path(at: Point(origin.x + o.x, origin.y + o.y))) }
        return out
    }

    /// The outline glyphs of every line with their pen positions, the first baseline's
    /// left end at `origin`: `path(at:)` is the concatenation of their glyph paths, in
    /// this order (see `TextLine.outlineGlyphs(at:)`).
    public func outlineGlyphs(at origin: Point = .zero) -> [PlacedOutline] {
        if lines.count == 1 { return lines[0].line.outlineGlyphs(at: Point(origin.x + lines[0].origin.x, origin.y)) }
        return lines.flatMap { line, o in line.outlineGlyphs(at: Point(origin.x + o.x, origin.y + o.y)) }
    }

    /// The colour glyphs of every line, placed relative to the first baseline's left end.
    public var colorGlyphs: [PlacedColorGlyph] {
        lines.flatMap { line, o in
            line.colorGlyphs.map { PlacedColorGlyph(image: $0.image, rect: $0.rect.offsetBy(dx: o.x, dy: o.y)) }
        }
    }

    /// The block `TextBlock(s, font:size:options:style:keepShaping: false)` sets, as its
    /// metrics and `outlineGlyphs(at: .zero)`, for `s` of printable ASCII that `font`
    /// covers under a style without a maximum width (one line, no fallback font, no bidi):
    /// the same values bit for bit (tested against the general path on random strings,
    /// options and styles), without shaping through the general path's tables and objects
    /// or making the block's lines. A counter's value is laid out anew on most frames and
    /// this was half of its cost in a 300-label frame. Nil outside that case.
    public static func printableASCIILine(_ s: String, font: Font, size: Double, options: ShapingOptions,
                                          style: TextBlockStyle) -> (metrics: TextMetrics, outlines: [PlacedOutline])? {
        guard style.maxWidth == nil else { return nil }
        var glyphs: [(glyph: UInt32, x: Double, y: Double)] = []
        glyphs.reserveCapacity(s.utf8.count)
        guard let shaped = Shaper.shapePrintableASCII(s, font: font, options: options, into: &glyphs) else { return nil }
        // TextLine: ems to pixels.
        let bounds = shaped.ink.map { Rect(x: $0.0 * size, y: $0.1 * size, width: ($0.2 - $0.0) * size, height: ($0.3 - $0.1) * size) }
        let line = TextMetrics(width: shaped.width * size, ascent: shaped.ascent * size, descent: shaped.descent * size,
                               bounds: bounds ?? .null)
        // TextBlock.init with one line (left to right).
        let width = line.width
        let advance = font.lineHeight(size: size) * style.lineHeight
        let free = width - line.width
        let x: Double
        switch style.alignment {
        case .leading, .start: x = 0
        case .center: x = free / 2
        case .trailing, .end: x = free
        }
        let origin = Point(x, Double(0) * advance)
        var inked = Rect.null
        if !line.bounds.isNull { inked = inked.union(line.bounds.offsetBy(dx: origin.x, dy: origin.y)) }
        let metrics = TextMetrics(width: width, ascent: line.ascent, descent: Double(0) * advance + line.descent, bounds: inked)
        // outlineGlyphs(at: .zero): the line's origin, then each glyph's position.
        let o = Point(0 + origin.x, 0.0)
        let outlines = glyphs.map { g in PlacedOutline(font: font, glyph: g.glyph, origin: Point(o.x + g.x * size, o.y + g.y * size)) }
        return (metrics, outlines)
    }

    // MARK: Breaking

    /// The width of `s` on one line, trailing white space not counted.
    static func width(_ s: Substring, _ font: Font, _ size: Double, _ options: ShapingOptions) -> Double {
        var t = s
        while let c = t.last, c.isWhitespace { t = t.dropLast() }
        return TextLine(String(t), font: font, size: size, options: options).metrics.width
    }

    /// Where lines of `s` may end, as string indices (the end of `s` included).
    static func breakOpportunities(_ s: String) -> [String.Index] {
        let utf16 = Array(s.utf16)
        guard !utf16.isEmpty else { return [] }
        var out = [Int32](repeating: 0, count: utf16.count + 1)
        let n = utf16.withUnsafeBufferPointer { u in
            out.withUnsafeMutableBufferPointer { ctext_line_breaks(u.baseAddress, Int32(u.count), "en", $0.baseAddress, Int32($0.count)) }
        }
        guard n > 0 else {
            // ICU unavailable: break after spaces only.
            var indices = s.indices.filter { s[$0] == " " }.map { s.index(after: $0) }
            indices.append(s.endIndex)
            return indices
        }
        return out[0..<Int(n)].compactMap { String.Index(utf16Offset: Int($0), in: s).samePosition(in: s) }
    }

    /// `s` broken greedily into lines no wider than `width` (see the file's notes). When
    /// `wrap` is false the whole paragraph is one line, truncated with an ellipsis.
    static func wrap(_ s: String, width: Double, font: Font, size: Double, options: ShapingOptions, wrap: Bool) -> [String] {
        guard self.width(s[...], font, size, options) > width else { return [s] }
        guard wrap else { return [truncate(s, width: width, font: font, size: size, options: options, always: false)] }
        var lines: [String] = []
        var start = s.startIndex
        var best: String.Index? = nil
        let breaks = breakOpportunities(s)
        var k = 0
        while k < breaks.count {
            let b = breaks[k]
            if b <= start { k += 1; continue }
            if self.width(s[start..<b], font, size, options) <= width {
                best = b; k += 1; continue
            }
            if let fit = best {
                lines.append(trimmed(s[start..<fit]))
                start = fit; best = nil
                continue  // try b again from the new start
            }
            // One word wider than the line: break it between grapheme clusters.
            var end = s.index(after: start)
            while end < b, self.width(s[start..<s.index(after: end)], font, size, options) <= width { end = s.index(after: end) }
            lines.append(String(s[start..<end]))
            start = end
        }
        if start < s.endIndex { lines.append(trimmed(s[start...])) }
        return lines
    }

    static func trimmed(_ s: Substring) -> String {
        var t = s
        while let c = t.last, c.isWhitespace { t = t.dropLast() }
        return String(t)
    }

    /// `s` cut between grapheme clusters so that it and an ellipsis fit `width`; with
    /// `always`, the ellipsis is added even when `s` fits (text follows it).
    ///
    /// The cut is the longest prefix whose candidate fits, found by halving over the
    /// grapheme boundaries: about log2(n) shapings. It used to step back one grapheme at a
    /// time from the end, shaping the whole candidate each time; a 2,700-character text
    /// truncated to a narrow width took 30 s under the fuzzer (Fuzz/corpus/text/
    /// timeout-truncate-long-text). Widths grow with the prefix, so both find the same cut;
    /// where joining forms or kerning make them grow unevenly, the eight cuts after the one
    /// found are tried too (a longer prefix than that narrower than a shorter one is not
    /// looked for).
    static func truncate(_ s: String, width: Double, font: Font, size: Double, options: ShapingOptions, always: Bool) -> String {
        if !always && self.width(s[...], font, size, options) <= width { return s }
        // cuts[k]: the end of the first k graphemes.
        var cuts = [s.startIndex]
        var i = s.startIndex
        while i < s.endIndex { i = s.index(after: i); cuts.append(i) }
        func candidate(_ k: Int) -> String { trimmed(s[..<cuts[k]]) + "…" }
        func fits(_ k: Int) -> Bool { self.width(candidate(k)[...], font, size, options) <= width }
        if fits(cuts.count - 1) { return candidate(cuts.count - 1) }
        // The ellipsis alone is the answer when nothing fits (cut 0).
        var lo = 0, hi = cuts.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if fits(mid) { lo = mid } else { hi = mid }
        }
        // Joining forms (Arabic), kerning and ligatures make widths grow unevenly: a few
        // cuts past the one found may fit too, and the longest that does is taken.
        var best = lo
        for k in stride(from: min(cuts.count - 2, lo + 8), to: lo, by: -1) where fits(k) { best = k; break }
        return candidate(best)
    }
}

extension Rect {
    /// The rectangle moved by (dx, dy).
    func offsetBy(dx: Double, dy: Double) -> Rect { Rect(x: x + dx, y: y + dy, width: width, height: height) }
    /// True for `Rect.null` (no ink).
    var isNull: Bool { width < 0 }
    /// The smallest rectangle containing both (`Rect.null` is the identity).
    func union(_ r: Rect) -> Rect {
        if r.isNull { return self }
        return union(Point(r.minX, r.minY)).union(Point(r.maxX, r.maxY))
    }
}
