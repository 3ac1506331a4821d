import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts
import Text

/// Reads timeline documents (docs/timeline-format.md) into scenes.
///
/// Decoding walks the parsed JSON once with `JSONCursor`s: every problem is reported
/// with its file, line:column and JSON path, decoding carries on past it, and the
/// document is refused with all of them at once.
public enum TimelineDecoder {
    /// The keys a document may have at its root.
    static let rootKeys = ["$schema", "canvas", "fps", "duration", "hold", "font", "layout", "params", "data", "sequence", "charts"]

    /// Reads and decodes the document at `path` (data and font files are resolved next to it).
    ///
    /// - Throws: `DocumentErrors` holding every problem: a path that is missing, a
    ///   directory, a FIFO or unreadable; text that is not JSON; and every mistake in
    ///   the document, each with its file, line:column and JSON path.
    ///
    /// Warnings (a filter that leaves no rows, a column of dates read as text) go to
    /// `warnings`, or to standard error when it is nil; with `strict` they are errors.
    public static func load(path: String, limits: DocumentLimits = DocumentLimits(), strict: Bool = false,
                            warnings: ((DocumentError) -> Void)? = nil) throws(DocumentErrors) -> Scene {
        switch FileReading.contents(path) {
        case .success(let bytes):
            return try decode(bytes, file: path, limits: limits, strict: strict, warnings: warnings)
        case .failure(let failure):
            throw DocumentErrors([DocumentError(file: path, path: JSONPath(), location: nil,
                                                message: failure.message(expected: "a timeline document (.json)"))])
        }
    }

    /// A decoded document and the parameters it declares, with their values.
    public struct Loaded {
        /// The scene to render.
        public var scene: Scene
        /// The document's `"params"`, in document order, each with the value in force.
        public var parameters: [DocumentParameter]
    }

    /// Reads and decodes the document at `path` as `load(path:limits:strict:warnings:)`
    /// does, with the command line's changes (`--set`, `--data`, `--param`) applied to it
    /// first.
    ///
    /// - Throws: `InputError` for a change that cannot be applied (a path past the end of
    ///   an array, an unknown table or parameter), or `DocumentErrors`; a value set from the
    ///   command line that the decoder refuses is reported as the flag's
    ///   (`--set fps=0: fps: expected …`), not as a place in the file.
    public static func load(path: String, inputs: DocumentInputs, limits: DocumentLimits = DocumentLimits(),
                            strict: Bool = false, warnings: ((DocumentError) -> Void)? = nil) throws -> Loaded {
        switch FileReading.contents(path) {
        case .success(let bytes):
            return try decodeDocument(bytes, file: path, inputs: inputs, limits: limits, strict: strict, warnings: warnings)
        case .failure(let failure):
            throw DocumentErrors([DocumentError(file: path, path: JSONPath(), location: nil,
                                                message: failure.message(expected: "a timeline document (.json)"))])
        }
    }

    /// Decodes a document from its bytes; `file` names it in messages and locates
    /// the files it refers to.
    public static func decode(_ bytes: [UInt8], file: String, limits: DocumentLimits = DocumentLimits(),
                              strict: Bool = false,
                              warnings: ((DocumentError) -> Void)? = nil) throws(DocumentErrors) -> Scene {
        do {
            return try decodeDocument(bytes, file: file, inputs: DocumentInputs(), limits: limits, strict: strict,
                                      warnings: warnings).scene
        } catch let e as DocumentErrors {
            throw e
        } catch {
            // Without inputs nothing throws an InputError.
            throw DocumentErrors([DocumentError(file: file, path: JSONPath(), location: nil, message: "\(error)")])
        }
    }

    /// Decodes a document from its bytes with `inputs` applied (see `load(path:inputs:…)`).
    public static func decodeDocument(_ bytes: [UInt8], file: String, inputs: DocumentInputs,
                                      limits: DocumentLimits = DocumentLimits(), strict: Bool = false,
                                      warnings: ((DocumentError) -> Void)? = nil) throws -> Loaded {
        if let (encoding, how) = wideEncoding(bytes) {
            throw DocumentErrors([DocumentError(file: file, path: JSONPath(), location: SourceLocation(line: 1, column: 1),
                                                message: "the file is \(encoding) (\(how)); save it as UTF-8")])
        }
        let base = (file as NSString).deletingLastPathComponent
        let charged = MemoryBudget.inputs(documentBytes: bytes.count, csvBytes: 0)
        if let limit = limits.maxMemory, charged > limit {
            throw DocumentErrors([DocumentError(file: file, path: JSONPath(), location: nil,
                                                message: MemoryBudget.overMessage(input: "the document", inputBytes: bytes.count, total: charged, limit: limit,
                                                                                  kind: "\(MemoryBudget.perDocumentByte) bytes per byte of JSON"))])
        }
        let context = DecodingContext(limits: limits)
        context.memoryCharged = charged
        context.strict = strict
        // The folders the document's files must lie in, as real paths.
        // The folders the document's files must lie in: its own, --allow-path's, and those
        // of files named by --data (the user named them).
        let folders = [base] + limits.allowedDirectories + inputs.dataDirectories
        context.allowedFiles = FileReading.Allowed(directories: folders.compactMap(FileReading.realDirectory),
                                                   documentFolder: base.isEmpty ? "." : base)
        var root: JSONNode
        do throws(JSONSyntaxError) {
            root = try JSONParser.parse(bytes)
        } catch {
            throw DocumentErrors([DocumentError(file: file, syntaxError: error)])
        }
        try inputs.apply(to: &root)
        let given = try givenParameterValues(inputs.parameters, root: root)
        let tree = root
        let result: Result<Loaded, DocumentErrors> = $context.withValue(context) {
            do throws(DocumentErrors) {
                return .success(try JSONCursor.decode(root: tree, file: file) { root in
                    let (resolved, parameters) = resolveParameters(root, given: given)
                    let cursor = JSONCursor(node: resolved, file: file, sink: root.sink)
                    return decodeScene(cursor, limits: limits, base: base).map { Loaded(scene: $0, parameters: parameters) }
                })
            } catch {
                return .failure(error)
            }
        }
        let loaded: Loaded
        do throws(DocumentErrors) {
            loaded = try result.get()
        } catch {
            throw DocumentErrors(error.errors.map { relocate($0, inputs) })
        }
        for w in context.warnings { let w = relocate(w, inputs); if let warnings { warnings(w) } else { writeWarning(w) } }
        return loaded
    }

    /// An error about a value from the command line (a location on line 0, see
    /// DocumentInputs.swift) told as the flag's: `--set fps=0: fps: expected …`.
    static func relocate(_ e: DocumentError, _ inputs: DocumentInputs) -> DocumentError {
        guard let location = e.location, location.line == 0 else { return e }
        let k = location.column - 1
        let flag = k < inputs.assignments.count ? inputs.assignments[k].flag
            : k - inputs.assignments.count < inputs.dataSources.count ? inputs.dataSources[k - inputs.assignments.count].flag : "--set"
        return DocumentError(file: flag, path: e.path, location: nil, message: e.message)
    }

    /// Writes a warning to standard error: `warning: doc.json:3:5: path: message`.
    public static func defaultWarning(_ message: String) {
        FileHandle.standardError.write(Data(("warning: " + message + "\n").utf8))
    }

    /// The encoding of a document in UTF-16 or UTF-32, and how it shows: a byte order
    /// mark, or (without one) the zero bytes around its first character, which JSON
    /// makes ASCII (RFC 4627, section 3). UTF-32LE's mark begins with UTF-16LE's, so it
    /// is tested first.
    static func wideEncoding(_ bytes: [UInt8]) -> (String, String)? {
        let b = bytes.prefix(4).map { $0 } + Array(repeating: 0xAA, count: max(0, 4 - bytes.count))
        let mark = "it starts with a byte order mark"
        if bytes.count >= 4 && b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0 { return ("UTF-32LE", mark) }
        if bytes.count >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF { return ("UTF-32BE", mark) }
        if bytes.count >= 2 && b[0] == 0xFF && b[1] == 0xFE { return ("UTF-16LE", mark) }
        if bytes.count >= 2 && b[0] == 0xFE && b[1] == 0xFF { return ("UTF-16BE", mark) }
        let zeros = "it has no byte order mark, but zero bytes around its first character"
        if bytes.count >= 4 && b[0] != 0 && b[1] == 0 && b[2] == 0 && b[3] == 0 { return ("UTF-32LE", zeros) }
        if bytes.count >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] != 0 { return ("UTF-32BE", zeros) }
        if bytes.count >= 2 && b[0] != 0 && b[1] == 0 { return ("UTF-16LE", zeros) }
        if bytes.count >= 2 && b[0] == 0 && b[1] != 0 { return ("UTF-16BE", zeros) }
        return nil
    }

    /// What decoders deep in the tree need to know about the whole document.
    ///
    /// A class so the flag can be set from anywhere in one decode; it is created per
    /// decode and used by one thread only, hence `@unchecked Sendable`.
    final class DecodingContext: @unchecked Sendable {
        /// The limits in force.
        let limits: DocumentLimits
        /// True when the document gives `"duration"`, which cuts long animations short.
        var hasDuration = false
        /// True once an animation was reported as too long, so the whole video is not reported again.
        var lengthReported = false
        /// Warnings are errors (`--strict`).
        var strict = false
        /// The directories the document's files must lie in.
        var allowedFiles: FileReading.Allowed?
        /// Things a reader should know that do not stop the document (an `"after"` the
        /// sequence overrides), reported after a successful decode.
        var warnings: [DocumentError] = []
        /// The memory estimate of the inputs read so far (`MemoryBudget`).
        var memoryCharged = 0

        init(limits: DocumentLimits) { self.limits = limits }

        /// Adds a CSV file of `bytes` to the estimate; the message when it goes over the limit.
        func chargeCSV(_ bytes: Int, path: String) -> String? {
            memoryCharged += bytes.multipliedReportingOverflow(by: MemoryBudget.perCSVByte).partialValue
            guard let limit = limits.maxMemory, memoryCharged > limit else { return nil }
            return MemoryBudget.overMessage(input: quotedForMessage(path, maxLength: 400), inputBytes: bytes, total: memoryCharged, limit: limit,
                                            kind: "\(MemoryBudget.perCSVByte) bytes per byte of CSV, with the document")
        }
    }

    /// The context of the document being decoded; nil when a part is decoded on its own
    /// (in tests), which then uses the default limits and checks no video length.
    @TaskLocal static var context: DecodingContext?

    /// The longest label the document being decoded may give, in Unicode scalars.
    static var labelLimit: Int { (context?.limits ?? DocumentLimits()).maxLabelLength }

    static func decodeScene(_ root: JSONCursor, limits: DocumentLimits, base: String) -> Scene? {
        guard let obj = root.object(allowedKeys: rootKeys) else { return nil }
        let side = limits.maxCanvasSide
        let sideLimit = "the canvas limit per side"
        var width = 800, height = 600
        var autoHeight = false
        var background = Color.white
        if let canvas = obj.optional("canvas")?.object(allowedKeys: ["width", "height", "background"]) {
            if let w = canvas.optional("width")?.int(min: 1, limit: side, unit: "pixels", limitName: sideLimit) { width = w }
            if let hc = canvas.optional("height") {
                if case .string = hc.value { if hc.stringEnum(["auto"]) != nil { autoHeight = true } }
                else if let h = hc.int(min: 1, limit: side, unit: "pixels", limitName: sideLimit) { height = h }
            }
            if let b = canvas.optional("background") { background = color(b) ?? background }
        }
        var fps = 60.0
        if let f = obj.optional("fps"), let v = f.double() {
            if v < 1 {
                f.report("expected a frame rate of at least 1 frame per second, found \(literal(f))")
            } else if v > limits.maxFPS {
                f.report("expected a frame rate of at most \(format(limits.maxFPS)) frames per second (the frame-rate limit), found \(literal(f))")
            } else {
                fps = v
            }
        }
        var duration: Double? = nil
        if let d = obj.optional("duration") {
            context?.hasDuration = true
            duration = d.positive("a duration", unit: "seconds", limit: limits.maxDuration, limitName: "the limit on a video's length")
        }
        var hold = 0.5
        if let h = obj.optional("hold"),
           let v = h.nonNegative("a hold", unit: "seconds", limit: limits.maxDuration, limitName: "the limit on a video's length") {
            hold = v
        }
        let style = fontStyle(obj.optional("font"), root: root, base: base)

        var tables: [String: DecodedTable] = [:]
        if let data = obj.optional("data")?.object() {
            for (name, value) in data.entries {
                tables[name] = table(value, base: base)
            }
        }
        var layout = DashboardLayout()
        if let lc = obj.optional("layout")?.object(allowedKeys: ["columns", "spacing", "padding"]) {
            if let c = lc.optional("columns")?.int(min: 1, max: 64) { layout.columns = c }
            if let s = lc.optional("spacing")?.double(min: 0, max: 10_000) { layout.spacing = s }
            if let p = lc.optional("padding")?.double(min: 0, max: 10_000) { layout.padding = p }
        }
        let given = obj.optional("layout") != nil
        var canvas = ChartCanvas(width: width, height: autoHeight ? nil : height, background: background, fps: fps,
                                 duration: duration, hold: hold, layout: given ? layout : nil, maxSide: limits.maxCanvasSide)
        var specs: [ChartSpec?] = []
        var cursors: [JSONCursor] = []
        if let charts = obj.required("charts")?.array(minCount: 1) {
            let heights: [Double?] = charts.map { c in
                guard case .object = c.value, let h = c.object()?.optional("height") else { return nil }
                return h.double(min: 1, max: Double(limits.maxCanvasSide))
            }
            let placed = canvas.frames(chartHeights: heights)
            canvas.height = placed.height
            cursors = charts
            if let style {
                let starts = Chaining.resolve(root: obj, tables: tables)
                Chaining.$starts.withValue(starts) {
                    for (i, c) in charts.enumerated() {
                        specs.append(chart(c, frame: placed.frames[i], style: style, tables: tables))
                    }
                }
            }
        }
        // Every label is shaped when the scene is built: refuse a document whose text is
        // over the glyph limit before shaping any of it.
        if !checkGlyphs(specs, cursors: cursors, limit: limits.maxGlyphsPerFrame) { return nil }
        // The assembly ChartScene uses too, so both front doors give the same frames.
        let scene = canvas.scene(charts: specs, height: canvas.height ?? height)
        if duration == nil && context?.lengthReported != true {
            // The scene holds a node for each chart that decoded, in order.
            let built = zip(specs.indices.filter { specs[$0] != nil }, scene.nodes).map { (cursor: cursors[$0.0], node: $0.1) }
            checkVideoLength(built, hold: hold, limit: limits.maxDuration, root: root)
        }
        return scene
    }

    /// False (reported) when the charts' text, estimated without shaping any
    /// (`ChartSpec.glyphEstimate`), comes to more than `limit` glyphs a frame: reported
    /// at the text mark or the chart where the running total crosses the limit.
    static func checkGlyphs(_ specs: [ChartSpec?], cursors: [JSONCursor], limit: Int) -> Bool {
        var total = 0
        func over(_ glyphs: Int) -> Bool {
            total = GlyphEstimate.add(total, glyphs)
            return total > limit
        }
        let tail = ", over the limit of \(limit) glyphs a frame (the glyph limit); show fewer labels "
            + "(a \"filter\" or \"top\" transform, or a timeline that shows one time at once) or shorter ones"
        for (i, spec) in specs.enumerated() {
            guard let spec, i < cursors.count else { continue }
            let chart = cursors[i]
            let estimate = spec.glyphEstimate()
            let before = total
            if over(estimate.guides) {
                chart.report("the chart's titles, axis labels and legend come to up to \(estimate.guides) characters"
                             + (before > 0 ? ", which takes the document's text to \(total)" : "") + tail)
                return false
            }
            // The marks as written, when each decoded (else the chart is named).
            let written = chart.object()?.optional("marks")?.array() ?? []
            for (j, labels) in estimate.marks.enumerated() where labels.glyphs > 0 {
                let before = total
                guard over(labels.glyphs) else { continue }
                let at = written.count == estimate.marks.count ? written[j] : chart
                at.report("the mark shows up to \(labels.count) labels at once, of up to \(labels.longest) characters "
                          + "(\(labels.glyphs) glyphs a frame)"
                          + (before > 0 ? ", which takes the document's text to \(total)" : "") + tail)
                return false
            }
        }
        return true
    }

    /// Refuses a video whose animations end after the duration limit or never end (the
    /// frame count would be astronomical or infinite). Animations too long by
    /// themselves are reported where they are written (`checkLength`); this catches
    /// what only adds up across the document, such as long staggers or chains.
    static func checkVideoLength(_ built: [(cursor: JSONCursor, node: Node)], hold: Double, limit: Double, root: JSONCursor) {
        guard let last = built.max(by: { !($0.node.endTime >= $1.node.endTime) }) else { return }
        let end = last.node.endTime
        let owner = latestID(last.node).map { " of \(quotedForMessage($0))" } ?? ""
        if !end.isFinite {
            last.cursor.report("the animations\(owner) never end, so the video has no length; give the document a \"duration\"")
        } else if end + hold > limit {
            last.cursor.report("the video would last \(format(end + hold)) seconds (the animations\(owner) end at \(format(end)) s, "
                               + "then a hold of \(format(hold)) s), over the limit of \(format(limit)) seconds; "
                               + "shorten the animations, or give the document a \"duration\"")
        }
    }

    /// The id of the deepest named node whose animations end last.
    private static func latestID(_ node: Node) -> String? {
        var current = node
        var id: String? = nil
        while case .group(let g) = current, let next = g.children.max(by: { !($0.endTime >= $1.endTime) }),
              !(next.endTime < current.endTime) {
            if let i = next.id, !i.hasPrefix("chart") { id = i }
            current = next
        }
        return id
    }

    /// The fonts: `"font": { "family": "DejaVu Sans" }` or `{ "file": "fonts/X.ttf" }`
    /// (relative to the document), with an optional `"boldFile"`.
    ///
    /// A font that cannot be found or loaded is reported where it is named; the default
    /// font then stands in, so the rest of the document is still checked.
    static func fontStyle(_ c: JSONCursor?, root: JSONCursor, base: String) -> ChartStyle? {
        var regular: (family: String?, at: JSONCursor?) = (nil, nil)
        var bold: (family: String?, at: JSONCursor?) = (nil, nil)
        var failed = false
        /// A font file's path for FontLocator, which takes a name with a `/` as a path.
        func file(_ f: JSONCursor) -> String? {
            guard let name = f.string() else { failed = true; return nil }
            let path = name.hasPrefix("/") || base.isEmpty ? name : base + "/" + name
            if case .failure(let failure) = FileReading.contents(path, allowed: context?.allowedFiles) {
                f.report(failure.message(path: path, expected: "a font file (.ttf, .otf)"))
                failed = true
                return nil
            }
            return path.contains("/") ? path : "./" + path
        }
        var fontStyle = FontStyle.regular
        if let c, let o = c.object(allowedKeys: ["family", "file", "boldFile", "weight", "italic"]) {
            if let w = o.optional("weight")?.int(min: 1, max: 1000) { fontStyle.weight = w }
            if let i = o.optional("italic")?.bool() { fontStyle.italic = i }
            if o.contains("family") && o.contains("file") { c.report("a font takes \"family\" or \"file\", not both") }
            if let f = o.optional("family") {
                if let name = f.string() { regular = (name, f) } else { failed = true }
            }
            if let f = o.optional("file") { regular = (file(f), f) }
            if let f = o.optional("boldFile") { bold = (file(f), f) }
        }
        if !failed {
            do {
                let r = try FontCache.font(family: regular.family, style: fontStyle)
                do {
                    // The bold face: 700, or 900 when the regular text is already heavy.
                    let boldStyle = FontStyle(weight: fontStyle.weight > 600 ? 900 : 700, italic: fontStyle.italic)
                    let b = bold.family != nil ? try FontCache.font(family: bold.family) : try FontCache.font(family: regular.family, style: boldStyle)
                    return ChartStyle(font: r, boldFont: b)
                } catch {
                    (bold.at ?? regular.at ?? c ?? root).report("\(error)")
                }
            } catch {
                (regular.at ?? c ?? root).report("\(error)")
            }
        }
        // Stand-in so the charts are still decoded and their errors reported too.
        guard let r = try? FontCache.font(), let b = try? FontCache.font(bold: true) else { return nil }
        return ChartStyle(font: r, boldFont: b)
    }
}
