// Limits on what a document may ask for, and the checks that name them.
//
// A document is untrusted input: a canvas of 100,000 × 100,000 pixels is 40 GB per
// frame, an fps of 10,000 or an animation repeated 100,000 times makes billions of
// frames, and an undamped spring never ends. Each is refused while decoding, with a
// message that names the limit, rather than discovered by running out of memory or time.

/// Limits a document must stay within; refused documents name the limit.
public struct DocumentLimits: Sendable {
    /// Largest canvas side in pixels (a 16,384 × 16,384 frame is 1 GiB of RGBA).
    public var maxCanvasSide = 16_384
    /// Highest frame rate, in frames per second.
    public var maxFPS = 1_000.0
    /// Longest video, and longest single duration or delay, in seconds.
    public var maxDuration = 3_600.0
    /// Longest text a label may hold, in Unicode scalars: a title, a text mark's value,
    /// a format's literal text. Each character costs a glyph outline and coverage cells
    /// (a 1 MB title asked for 1 GB), so this bounds a label's memory at ~10 MB.
    public var maxLabelLength = 10_000
    /// Most characters of text the charts may lay out in one frame (the glyph limit),
    /// estimated before any is shaped (`ChartSpec.glyphEstimate`): labels, titles, tick
    /// labels and legends. Each glyph laid out costs about 2 KB (its shaping, outline
    /// and coverage) and 10 µs, so at the limit a frame's text takes about 1 GB and 5 s;
    /// a 1,000-key race showing every key's label is estimated at 134,000.
    public var maxGlyphsPerFrame = 500_000
    /// Directories besides the document's own folder whose files (CSV data, fonts) the
    /// document may read (`--allow-path DIR`). A file named by a document must otherwise
    /// lie inside the document's folder once every symlink is resolved.
    public var allowedDirectories: [String] = []
    /// The most memory the document's inputs may be estimated to take
    /// (`MemoryBudget`); nil does not check. The CLI's `--max-memory`.
    public var maxMemory: Int?
    /// Default limits.
    public init() {}
}

extension JSONCursor {
    /// A whole number from `min` to `limit`; a value above `limit` is refused with
    /// `limitName` in the message (`expected at most 16384 pixels (the canvas limit per side)`).
    func int(min: Int, limit: Int, unit: String, limitName: String) -> Int? {
        guard case .number(let value, let literal) = node.value else { return int() }
        if value > Double(limit) {
            return fail("expected at most \(limit) \(unit) (\(limitName)), found \(literal)")
        }
        return int(min: min, max: limit)
    }

    /// A number greater than 0 (or at least `min` when given) and at most `limit`;
    /// `what` names the quantity (`a duration`), `unit` its unit (`seconds`).
    func positive(_ what: String, unit: String, min: Double? = nil, limit: Double, limitName: String) -> Double? {
        guard case .number(let value, let literal) = node.value else { return double() }
        let u = unit.isEmpty ? "" : " " + unit
        if let min, value < min {
            return fail("expected \(what) of at least \(format(min))\(u), found \(literal)")
        }
        if value <= 0 {
            return fail("expected \(what) greater than 0\(u), found \(literal)")
        }
        if value > limit {
            return fail("expected \(what) of at most \(format(limit))\(u) (\(limitName)), found \(literal)")
        }
        return value
    }

    /// A number from 0 to `limit` (a delay, a hold); `what` names it for messages.
    func nonNegative(_ what: String, unit: String, limit: Double, limitName: String) -> Double? {
        guard case .number(let value, let literal) = node.value else { return double() }
        if value < 0 {
            return fail("expected \(what) of 0 \(unit) or more, found \(literal)")
        }
        if value > limit {
            return fail("expected \(what) of at most \(format(limit)) \(unit) (\(limitName)), found \(literal)")
        }
        return value
    }
}

/// A number as people write it: `0`, `1`, `0.5`, `3600`.
func format(_ value: Double) -> String {
    if value.rounded() == value && abs(value) < 1e15 { return String(Int(value)) }
    return String(value)
}
