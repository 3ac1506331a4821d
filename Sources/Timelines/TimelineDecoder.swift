import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts
import Text

/// Limits a document must stay within; refused documents name the limit.
public struct DocumentLimits: Sendable {
    /// Largest canvas side in pixels.
    public var maxCanvasSide = 16_384
    /// Highest frame rate.
    public var maxFPS = 1_000.0
    /// Longest duration in seconds.
    public var maxDuration = 3_600.0
    /// Default limits.
    public init() {}
}

/// Reads timeline documents (docs/timeline-format.md) into scenes.
///
/// Decoding walks the parsed JSON once with `JSONCursor`s: every problem is reported
/// with its file, line:column and JSON path, decoding carries on past it, and the
/// document is refused with all of them at once.
public enum TimelineDecoder {
    /// The keys a document may have at its root.
    static let rootKeys = ["$schema", "canvas", "fps", "duration", "hold", "font", "layout", "data", "sequence", "charts"]

    /// Reads and decodes the document at `path` (data files are resolved next to it).
    public static func load(path: String, limits: DocumentLimits = DocumentLimits()) throws -> Scene {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw DocumentErrors([DocumentError(file: path, path: JSONPath(), location: nil, message: "no such file")])
        }
        if isDir.boolValue {
            throw DocumentErrors([DocumentError(file: path, path: JSONPath(), location: nil,
                                                message: "is a directory, expected a timeline document (.json)")])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DocumentErrors([DocumentError(file: path, path: JSONPath(), location: nil, message: "cannot read the file (permission denied?)")])
        }
        return try decode([UInt8](data), file: path, limits: limits)
    }

    /// Decodes a document from its bytes; `file` names it in messages.
    public static func decode(_ bytes: [UInt8], file: String, limits: DocumentLimits = DocumentLimits()) throws -> Scene {
        let base = (file as NSString).deletingLastPathComponent
        return try JSONCursor.decode(bytes, file: file) { root in decodeScene(root, limits: limits, base: base) }
    }

    static func decodeScene(_ root: JSONCursor, limits: DocumentLimits, base: String) -> Scene? {
        guard let obj = root.object(allowedKeys: rootKeys) else { return nil }
        var width = 800, height = 600
        var autoHeight = false
        var background = Color.white
        if let canvas = obj.optional("canvas")?.object(allowedKeys: ["width", "height", "background"]) {
            if let w = canvas.optional("width")?.int(min: 1, max: limits.maxCanvasSide) { width = w }
            if let hc = canvas.optional("height") {
                if case .string = hc.value { if hc.stringEnum(["auto"]) != nil { autoHeight = true } }
                else if let h = hc.int(min: 1, max: limits.maxCanvasSide) { height = h }
            }
            if let b = canvas.optional("background") { background = color(b) ?? background }
        }
        var fps = 60.0
        if let f = obj.optional("fps") {
            if let v = f.double(min: 1, max: limits.maxFPS) { fps = v }
        }
        var duration: Double? = nil
        if let d = obj.optional("duration") {
            if let v = d.double(min: 0, max: limits.maxDuration) {
                if v <= 0 { d.report("expected a duration greater than 0 seconds, found \(v)") } else { duration = v }
            }
        }
        var hold = 0.5
        if let h = obj.optional("hold"), let v = h.double(min: 0, max: limits.maxDuration) { hold = v }
        let style = fontStyle(obj.optional("font"), root: root)

        var tables: [String: [DataRow]] = [:]
        if let data = obj.optional("data")?.object() {
            for (name, value) in data.entries {
                tables[name] = table(value, base: base) ?? []
            }
        }
        var layout = DashboardLayout()
        if let lc = obj.optional("layout")?.object(allowedKeys: ["columns", "spacing", "padding"]) {
            if let c = lc.optional("columns")?.int(min: 1, max: 64) { layout.columns = c }
            if let s = lc.optional("spacing")?.double(min: 0, max: 10_000) { layout.spacing = s }
            if let p = lc.optional("padding")?.double(min: 0, max: 10_000) { layout.padding = p }
        }
        var nodes: [Node] = []
        if let charts = obj.required("charts")?.array(minCount: 1) {
            let heights: [Double?] = charts.map { c in
                guard case .object = c.value, let h = c.object()?.optional("height") else { return nil }
                return h.double(min: 1, max: Double(limits.maxCanvasSide))
            }
            if autoHeight {
                height = min(limits.maxCanvasSide, max(1, Int(layout.contentHeight(rowHeights: heights, defaultHeight: 300).rounded(.up))))
            }
            let frames = layout.frames(count: charts.count, canvas: Rect(x: 0, y: 0, width: Double(width), height: Double(height)),
                                       heights: heights, single: obj.optional("layout") == nil)
            if let style {
                let starts = Chaining.resolve(root: obj)
                Chaining.$starts.withValue(starts) {
                    for (i, c) in charts.enumerated() {
                        if let spec = chart(c, frame: frames[i], style: style, tables: tables) {
                            nodes.append(spec.build(id: "chart\(i)"))
                        }
                    }
                }
            }
        }
        return Scene(width: width, height: height, background: background, fps: fps,
                     duration: duration, hold: hold, nodes: nodes)
    }

    /// The fonts: `"font": { "family": "DejaVu Sans" }` or `{ "file": "fonts/X.ttf" }`.
    static func fontStyle(_ c: JSONCursor?, root: JSONCursor) -> ChartStyle? {
        var family: String? = nil
        var boldFamily: String? = nil
        var at: JSONCursor? = c
        if let c, let o = c.object(allowedKeys: ["family", "file", "boldFile"]) {
            if let f = o.optional("family")?.string() { family = f }
            if let f = o.optional("file") { at = f; family = f.string() }
            if let f = o.optional("boldFile")?.string() { boldFamily = f }
        }
        do {
            let regular = try FontCache.font(family: family)
            let bold = try FontCache.font(family: boldFamily ?? family, bold: boldFamily == nil)
            return ChartStyle(font: regular, boldFont: bold)
        } catch {
            (at ?? root).report("\(error)")
            return nil
        }
    }

    /// A data table: `{ "values": [ { "field": number or text, … }, … ] }` inline, or
    /// `{ "file": "data/names.csv", "columns": { "year": "number", "day": { "date": "MMM d yyyy" } } }`
    /// read from a CSV file next to the document; `"fold"` turns wide data (one column per
    /// series) into long rows: `{ "columns": ["a", "b"], "as": ["series", "value"] }`.
    static func table(_ c: JSONCursor, base: String) -> [DataRow]? {
        guard let obj = c.object(allowedKeys: ["values", "file", "columns", "fold"]) else { return nil }
        var out: [DataRow] = []
        if let f = obj.optional("file"), let name = f.string() {
            if obj.contains("values") { c.report("a table takes \"values\" or \"file\", not both") }
            let path = name.hasPrefix("/") ? name : (base.isEmpty ? name : base + "/" + name)
            var types: [String: CSVReader.ColumnType] = [:]
            if let cols = obj.optional("columns")?.object() {
                for (k, v) in cols.entries {
                    if case .string = v.value {
                        switch v.stringEnum(["number", "string", "date"]) {
                        case "number": types[k] = .number
                        case "string": types[k] = .string
                        case "date": types[k] = .date(nil)
                        default: break
                        }
                    } else if let vo = v.object(allowedKeys: ["date"]), let p = vo.required("date")?.string() {
                        types[k] = .date(p)
                    }
                }
            }
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else {
                f.report("no data file at \"\(path)\""); return nil
            }
            guard let data = FileManager.default.contents(atPath: path) else { f.report("cannot read \"\(path)\""); return nil }
            do {
                let parsed = try CSVReader.parse([UInt8](data), file: path)
                out = try CSVReader.table(header: parsed.header, rows: parsed.rows, types: types, file: path)
                for k in types.keys where !parsed.header.contains(k) {
                    f.report("\"\(path)\" has no column \"\(k)\"; its columns are " + parsed.header.map { "\"\($0)\"" }.joined(separator: ", "))
                }
            } catch let e as CSVError {
                c.sink.report(DocumentError(file: e.file, path: c.path, location: SourceLocation(line: e.row, column: e.column ?? 1), message: e.message))
                return nil
            } catch {
                f.report("\(error)"); return nil
            }
        } else {
            guard let rows = obj.required("values")?.array(minCount: 1) else { return nil }
            for r in rows {
                guard let ro = r.object() else { continue }
                var row: DataRow = [:]
                for (k, v) in ro.entries {
                    switch v.value {
                    case .number: if let d = v.double() { row[k] = .number(d) }
                    case .string(let s): row[k] = .string(s)
                    case .null: break
                    default: v.report("expected a number or a string, found \(v.value.kindDescription)")
                    }
                }
                out.append(row)
            }
        }
        if let fold = obj.optional("fold")?.object(allowedKeys: ["columns", "as"]) {
            let cols = fold.required("columns")?.array(minCount: 1)?.compactMap { $0.string() } ?? []
            var names = ("series", "value")
            if let a = fold.optional("as")?.array(minCount: 2, maxCount: 2), let k = a[0].string(), let v = a[1].string() { names = (k, v) }
            var long: [DataRow] = []
            for row in out {
                var rest = row
                for c in cols { rest[c] = nil }
                for c in cols {
                    var r = rest
                    r[names.0] = .string(c)
                    r[names.1] = row[c]
                    long.append(r)
                }
            }
            out = long
        }
        return out
    }
}
