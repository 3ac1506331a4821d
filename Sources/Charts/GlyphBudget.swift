/// An upper bound on the characters a chart lays out as text in one frame, so a document
/// can be refused before any label is shaped (the glyph limit, `DocumentLimits.maxGlyphsPerFrame`).
///
/// Each character costs a glyph's shaping, outline and coverage; the label limit bounds one
/// label, this bounds them all: a text mark over a million rows, or a thousand charts each
/// with a 10,000-character title. Counted in Unicode scalars, one glyph each (a ligature
/// is fewer glyphs, a decomposed mark one more), from what the chart holds, without
/// shaping anything:
///
/// - a text mark: the labels it can show at once (one per key of a chart driven by its
///   data's time, else one per row) times its longest label (the longest cell of its
///   field, the longest number its format writes, or its fixed text with every `{…}` as
///   long as the longest cell of the data); a rule's labels alike;
/// - titles, subtitles, axis titles and the period label as written (a `{…}` as the
///   longest cell);
/// - tick labels: a category axis one per distinct value of its field, a number axis its
///   tick count (at least 12) of the longest number; legend entries one per distinct
///   value of the colour field.
///
/// Each field is measured once (one pass over the rows), so a million-row table costs
/// milliseconds.
public struct GlyphEstimate: Sendable, Equatable {
    /// A mark's labels: how many it shows at once and the longest, in characters.
    public struct Labels: Sendable, Equatable {
        public var count: Int
        public var longest: Int
        /// Their characters, at most.
        public var glyphs: Int { GlyphEstimate.mul(count, longest) }
    }
    /// The chart's own text: titles, axes, legend, period label.
    public var guides: Int
    /// Each mark's labels, in the chart's order (none for marks without text).
    public var marks: [Labels]
    /// The whole chart.
    public var total: Int { marks.reduce(guides) { Self.add($0, $1.glyphs) } }

    /// `a + b`, or `Int.max` when that overflows.
    public static func add(_ a: Int, _ b: Int) -> Int { let (s, o) = a.addingReportingOverflow(b); return o ? .max : s }
    /// `a × b`, or `Int.max` when that overflows.
    public static func mul(_ a: Int, _ b: Int) -> Int { let (s, o) = a.multipliedReportingOverflow(by: b); return o ? .max : s }
}

extension ChartSpec {
    /// The characters the chart can lay out in one frame, at most (see `GlyphEstimate`).
    public func glyphEstimate() -> GlyphEstimate {
        var cells = CellLengths(data)
        let add = GlyphEstimate.add, mul = GlyphEstimate.mul
        /// A text as written, each `{…}` counted as the longest cell.
        func template(_ s: String) -> Int {
            let braces = s.unicodeScalars.reduce(0) { $0 + ($1 == "{" ? 1 : 0) }
            return add(s.unicodeScalars.count, mul(braces, cells.longestCell))
        }
        var guides = 0
        if let t = title { guides = add(guides, add(template(t.title), t.subtitle.map(template) ?? 0)) }
        if let p = periodLabel { guides = add(guides, template(p.text)) }
        for a in axes {
            guides = add(guides, a.title.map(template) ?? 0)
            guard a.showLabels else { continue }
            let channel = a.side == .bottom || a.side == .top ? x : y
            if let values = a.values { guides = add(guides, mul(values.count, CellLengths.longestNumber)) }
            else if cells.holdsText(channel.field) {
                guides = add(guides, cells.distinctText(channel.field))
            } else {
                guides = add(guides, mul(max(12, a.tickCount), max(CellLengths.longestNumber, cells.longest(channel.field))))
            }
        }
        if let l = legend {
            if let entries = l.entries { guides = entries.reduce(guides) { add($0, $1.name.unicodeScalars.count) } }
        }
        // A legend entry per value of each field a mark colours by (counted once a field).
        var coloured = Set<String>()
        for m in marks {
            switch m.options.color {
            case .category(let f?, _, _)?, .ramp(let f?, _)?:
                if coloured.insert(f).inserted { guides = add(guides, cells.distinctText(f)) }
            default: break
            }
        }
        if extremes != nil { guides = add(guides, 2 * CellLengths.longestNumber) }
        // Labels a text mark shows at once: one per key of a data-driven timeline.
        let atOnce = timeline.map { min($0.keys.count, data.count) } ?? data.count
        var out: [GlyphEstimate.Labels] = []
        for m in marks {
            if let t = m as? TextMarkSpec {
                let longest: Int
                if let lit = t.literal { longest = template(lit) }
                else if t.atPeak { longest = cells.longestCell }
                else {
                    // A field's cells, or the value axis's numbers, in the mark's format.
                    let affixes = t.format.prefix.unicodeScalars.count + t.format.suffix.unicodeScalars.count
                    let cell = t.field.map { cells.longest($0) } ?? max(cells.longest(x.field), cells.longest(y.field))
                    longest = add(cell, affixes)
                }
                out.append(GlyphEstimate.Labels(count: atOnce, longest: longest))
            } else if let r = m as? RuleMarkSpec, let label = r.label {
                out.append(GlyphEstimate.Labels(count: atOnce, longest: cells.longest(label.field)))
            } else {
                out.append(GlyphEstimate.Labels(count: 0, longest: 0))
            }
        }
        return GlyphEstimate(guides: guides, marks: out)
    }
}

/// Lengths of a table's cells, measured once per field when asked.
struct CellLengths {
    /// The most characters a number up to 10^15 is written with: a sign, 16 digits, a
    /// separator every three, a point, up to 17 fraction digits and a unit, with room.
    static let longestNumber = 48

    /// The most characters a number of magnitude `v` is written with: its whole digits
    /// (309 for 1e308: numbers are written out, not in exponent form), a separator every
    /// three, and what `longestNumber` allows for the rest.
    static func numberLength(_ v: Double) -> Int {
        guard v.isFinite, v >= 1e15 else { return longestNumber }
        let digits = Int(v.exponent) * 30_103 / 100_000 + 2
        return longestNumber + digits + digits / 3
    }

    let rows: DataTable
    private var longestOf: [String: Int] = [:]
    private var distinctOf: [String: Int] = [:]
    private var textIn: [String: Bool] = [:]
    private var longestAny: Int?

    init(_ rows: DataTable) { self.rows = rows }

    /// The longest cell of `field`, a number counting `longestNumber`.
    mutating func longest(_ field: String) -> Int {
        if let n = longestOf[field] { return n }
        var n = 0
        var biggest = -1.0
        // Column by column: a million-row table's cells are not looked up row by row.
        switch rows.column(field)?.storage {
        case .numbers(let a)?:
            for v in a where !DataColumn.isMissing(v) { biggest = max(biggest, abs(v)) }
        case .texts(let codes, let values)?:
            // Only the distinct strings that some cell uses.
            var used = [Bool](repeating: false, count: values.count)
            for c in codes where c != DataColumn.missingCode { used[Int(c)] = true }
            for (k, s) in values.enumerated() where used[k] && s.utf8.count > n { n = max(n, s.unicodeScalars.count) }
        case .mixed(let a)?:
            for v in a {
                switch v {
                // Scalars are at most the UTF-8 bytes, which are counted in O(1).
                case .string(let s)?: if s.utf8.count > n { n = max(n, s.unicodeScalars.count) }
                case .number(let v)?: biggest = max(biggest, abs(v))
                case nil: break
                }
            }
        case nil: break
        }
        if biggest >= 0 { n = max(n, Self.numberLength(biggest)) }
        longestOf[field] = n
        return n
    }

    /// The longest cell of any field.
    var longestCell: Int {
        mutating get {
            if let n = longestAny { return n }
            let n = rows.fields.reduce(0) { max($0, longest($1)) }
            longestAny = n
            return n
        }
    }

    /// Whether some cell of `field` is text.
    mutating func holdsText(_ field: String) -> Bool {
        if let b = textIn[field] { return b }
        let b: Bool
        switch rows.column(field)?.storage {
        case .numbers?, nil: b = false
        case .texts(let codes, _)?: b = codes.contains { $0 != DataColumn.missingCode }
        case .mixed(let a)?: b = a.contains { if case .string? = $0 { return true }; return false }
        }
        textIn[field] = b
        return b
    }

    /// The characters of the distinct values of `field`, each once (a category axis's
    /// tick labels, a legend's entries).
    mutating func distinctText(_ field: String) -> Int {
        if let n = distinctOf[field] { return n }
        var seen = Set<DataValue>()
        var n = 0
        for row in rows {
            guard let v = row[field], seen.insert(v).inserted else { continue }
            switch v {
            case .string(let s): n = GlyphEstimate.add(n, s.unicodeScalars.count)
            case .number(let x): n = GlyphEstimate.add(n, Self.numberLength(abs(x)))
            }
        }
        distinctOf[field] = n
        return n
    }
}
