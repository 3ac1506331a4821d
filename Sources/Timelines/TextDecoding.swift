import Text

// The text options of the document format (issue 17): how a title, subtitle or text
// mark is set in lines ("wrap") and shaped ("features", "language", "direction").
extension TimelineDecoder {
    /// Keys of a text mark's or title's shaping options.
    static let shapingKeys = ["features", "language", "direction"]
    /// Keys of a text mark's "text" object.
    static let textKeys = ["field", "value", "format", "size", "color", "position", "offset", "angle", "background", "atPeak", "insideColor",
                           "wrap", "separate", "separation"] + shapingKeys

    /// `"wrap": { "maxWidth", "overflow": "wrap" | "truncate", "maxLines", "lineHeight",
    /// "align": "leading" | "center" | "trailing" }`; `"wrap": true` wraps at the default width.
    static func textBlockStyle(_ c: JSONCursor) -> TextBlockStyle? {
        if case .bool(let on) = c.value { return on ? TextBlockStyle(overflow: .wrap) : nil }
        guard let o = c.object(allowedKeys: ["maxWidth", "overflow", "maxLines", "lineHeight", "align"]) else { return nil }
        var s = TextBlockStyle()
        s.maxWidth = o.optional("maxWidth")?.double(min: 1, max: 100_000)
        if let v = o.optional("overflow")?.stringEnum(TextOverflow.self) { s.overflow = v }
        s.maxLines = o.optional("maxLines")?.int(min: 1, max: 1000)
        if let v = o.optional("lineHeight")?.double(min: 0.1, max: 10) { s.lineHeight = v }
        if let v = o.optional("align")?.stringEnum(TextAlignment.self) { s.alignment = v }
        return s
    }

    /// `"features": ["tnum", "-liga"]`, `"language": "ar"`, `"direction": "auto" | "leftToRight" | "rightToLeft"`,
    /// read from an object that has them among its keys.
    static func shaping(_ o: JSONObjectCursor, into s: inout ShapingOptions) {
        if let f = o.optional("features"), let items = f.array(maxCount: 64) {
            var features: [String] = []
            for item in items {
                guard let name = item.string() else { continue }
                guard isFeature(name) else {
                    item.report("not an OpenType feature setting: \(quotedForMessage(name)) (expected a four-letter tag such as \"tnum\", \"-liga\" or \"ss01=1\")")
                    continue
                }
                features.append(name)
            }
            s.features = features
        }
        if let l = o.optional("language"), let tag = l.string() {
            if tag.isEmpty || tag.count > 35 || !tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
                l.report("not a BCP 47 language tag: \(quotedForMessage(tag)) (expected something like \"ar\" or \"zh-Hans\")")
            } else {
                s.language = tag
            }
        }
        if let d = o.optional("direction")?.stringEnum(TextDirection.self) { s.direction = d }
    }

    /// A feature setting as HarfBuzz reads it: an optional + or -, a tag of one to four
    /// letters or digits, an optional "=value".
    static func isFeature(_ s: String) -> Bool {
        var body = Substring(s)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        let parts = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let tag = parts.first, (1...4).contains(tag.count), tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return false }
        if parts.count == 2 { return !parts[1].isEmpty && parts[1].allSatisfy { $0.isASCII && $0.isNumber } }
        return true
    }
}
