import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

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
    static let rootKeys = ["$schema", "canvas", "fps", "duration", "hold", "data", "charts"]

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
        try JSONCursor.decode(bytes, file: file) { root in decodeScene(root, limits: limits) }
    }

    static func decodeScene(_ root: JSONCursor, limits: DocumentLimits) -> Scene? {
        guard let obj = root.object(allowedKeys: rootKeys) else { return nil }
        var width = 800, height = 600
        var background = Color.white
        if let canvas = obj.optional("canvas")?.object(allowedKeys: ["width", "height", "background"]) {
            if let w = canvas.optional("width")?.int(min: 1, max: limits.maxCanvasSide) { width = w }
            if let h = canvas.optional("height")?.int(min: 1, max: limits.maxCanvasSide) { height = h }
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

        var tables: [String: [[String: Double]]] = [:]
        var tableCursors: [String: JSONCursor] = [:]
        if let data = obj.optional("data")?.object() {
            for (name, value) in data.entries {
                tableCursors[name] = value
                if let t = table(value) { tables[name] = t }
            }
        }
        var nodes: [Node] = []
        if let charts = obj.required("charts")?.array(minCount: 1) {
            for (i, c) in charts.enumerated() {
                let frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
                if let spec = chart(c, frame: frame, tables: tables, known: Set(tableCursors.keys)) {
                    nodes.append(spec.build(id: "chart\(i)"))
                }
            }
        }
        return Scene(width: width, height: height, background: background, fps: fps,
                     duration: duration, hold: hold, nodes: nodes)
    }

    /// A data table: `{ "values": [ { "field": number, … }, … ] }`.
    static func table(_ c: JSONCursor) -> [[String: Double]]? {
        guard let obj = c.object(allowedKeys: ["values"]) else { return nil }
        guard let rows = obj.required("values")?.array(minCount: 1) else { return nil }
        var out: [[String: Double]] = []
        for r in rows {
            guard let ro = r.object() else { continue }
            var row: [String: Double] = [:]
            for (k, v) in ro.entries {
                if let d = v.double() {
                    if d.isFinite { row[k] = d } else { v.report("expected a finite number, found \(d)") }
                }
            }
            out.append(row)
        }
        return out
    }

    static func chart(_ c: JSONCursor, frame: Rect, tables: [String: [[String: Double]]], known: Set<String>) -> ChartSpec? {
        guard let obj = c.object(allowedKeys: ["data", "inset", "x", "y", "grid", "marks"]) else { return nil }
        var xField = "x", yField = "y"
        var xDomain: (Double, Double)? = nil, yDomain: (Double, Double)? = nil
        for (key, isX) in [("x", true), ("y", false)] {
            guard let axis = obj.optional(key)?.object(allowedKeys: ["field", "domain"]) else { continue }
            if let f = axis.optional("field")?.string() { if isX { xField = f } else { yField = f } }
            if let d = axis.optional("domain"), let arr = d.array(minCount: 2, maxCount: 2) {
                if let lo = arr[0].double(), let hi = arr[1].double() {
                    if lo == hi || !lo.isFinite || !hi.isFinite { d.report("expected two different finite numbers [low, high]") }
                    else if isX { xDomain = (lo, hi) } else { yDomain = (lo, hi) }
                }
            }
        }
        var points: [DataPoint] = []
        if let d = obj.required("data"), let name = d.string() {
            if let rows = tables[name] {
                for (i, row) in rows.enumerated() {
                    guard let x = row[xField], let y = row[yField] else {
                        let missing = row[xField] == nil ? xField : yField
                        d.report("row \(i) of data \"\(name)\" has no numeric field \"\(missing)\"")
                        continue
                    }
                    points.append(DataPoint(x: x, y: y))
                }
            } else if !known.contains(name) {
                var msg = "unknown data \"\(name)\""
                if let s = nearestCandidate(to: name, in: Array(known)) { msg += "; did you mean \"\(s)\"?" }
                else if !known.isEmpty { msg += "; the document defines " + known.sorted().map { "\"\($0)\"" }.joined(separator: ", ") }
                d.report(msg)
            }
        }
        var inset = 40.0
        if let i = obj.optional("inset")?.double(min: 0, max: min(frame.width, frame.height) / 2) { inset = i }
        var grid: GridSpec? = nil
        if let g = obj.optional("grid")?.object(allowedKeys: ["x", "y", "color", "width"]) {
            var spec = GridSpec()
            if let x = g.optional("x")?.object(allowedKeys: ["step"]), let s = x.required("step")?.double(min: 1e-9) { spec.xStep = s }
            if let y = g.optional("y")?.object(allowedKeys: ["step"]), let s = y.required("step")?.double(min: 1e-9) { spec.yStep = s }
            if let col = g.optional("color"), let cc = color(col) { spec.color = cc }
            if let w = g.optional("width")?.double(min: 0, max: 1000) { spec.width = w }
            grid = spec
        }
        var marks: [MarkSpec] = []
        if let ms = obj.optional("marks")?.array() {
            for m in ms { if let spec = mark(m) { marks.append(spec) } }
        }
        return ChartSpec(frame: frame, inset: inset, data: points, xDomain: xDomain, yDomain: yDomain, grid: grid, marks: marks)
    }

    static let markKeys = ["id", "type", "interpolation", "startAtOrigin", "stroke", "fill", "opacity", "animate"]

    static func mark(_ c: JSONCursor) -> MarkSpec? {
        guard let obj = c.object(allowedKeys: markKeys) else { return nil }
        guard let kind = obj.required("type")?.stringEnum(MarkKind.self) else { return nil }
        var m = MarkSpec(id: obj.optional("id")?.string(), kind: kind)
        if let i = obj.optional("interpolation") { m.interpolation = interpolation(i) ?? .linear }
        if let s = obj.optional("startAtOrigin")?.bool() { m.startAtOrigin = s }
        if let s = obj.optional("stroke") { m.stroke = stroke(s) }
        if let f = obj.optional("fill") { m.fill = paint(f) }
        if let o = obj.optional("opacity")?.double(min: 0, max: 1) { m.opacity = .constant(o) }
        if kind == .line && m.stroke == nil && !obj.contains("stroke") {
            m.stroke = (.solid(Color(r: 0, g: 0.478, b: 1)), StrokeStyle(width: 2, cap: .round, join: .round))
        }
        if kind == .area && m.fill == nil && !obj.contains("fill") {
            m.fill = .solid(Color(r: 0, g: 0.478, b: 1, a: 0.3))
        }
        if let a = obj.optional("animate")?.object(allowedKeys: ["trim", "opacity"]) {
            if let t = a.optional("trim")?.object(allowedKeys: ["from", "to"]) {
                if let f = t.optional("from") { m.trimStart = animated(f, min: 0, max: 1) ?? m.trimStart }
                if let e = t.optional("to") { m.trimEnd = animated(e, min: 0, max: 1) ?? m.trimEnd }
            }
            if let o = a.optional("opacity") { m.opacity = animated(o, min: 0, max: 1) ?? m.opacity }
        }
        return m
    }

    static func interpolation(_ c: JSONCursor) -> Interpolation? {
        if case .string = c.value {
            guard let s = c.stringEnum(["linear"]) else { return nil }
            _ = s
            return .linear
        }
        guard let obj = c.object(allowedKeys: ["bezier"]) else { return nil }
        if let r = obj.required("bezier")?.double(min: 0, max: 1) { return .bezier(r) }
        return nil
    }

    static func stroke(_ c: JSONCursor) -> (paint: NodePaint, style: StrokeStyle)? {
        guard let obj = c.object(allowedKeys: ["width", "cap", "join", "miterLimit", "paint"]) else { return nil }
        var style = StrokeStyle(width: 1, cap: .butt, join: .miter)
        if let w = obj.optional("width")?.double(min: 0, max: 10_000) { style.width = w }
        if let cap = obj.optional("cap")?.stringEnum(LineCap.self) { style.cap = cap }
        if let join = obj.optional("join")?.stringEnum(LineJoin.self) { style.join = join }
        if let ml = obj.optional("miterLimit")?.double(min: 1, max: 1000) { style.miterLimit = ml }
        var p = NodePaint.solid(.black)
        if let pc = obj.optional("paint") { p = paint(pc) ?? p }
        return (p, style)
    }

    /// A colour string `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA`.
    static func color(_ c: JSONCursor) -> Color? {
        guard let s = c.string() else { return nil }
        if let col = Color(hex: s) { return col }
        return c.fail("expected a colour like \"#6A5ACD\" or \"#6A5ACD99\", found \"\(s)\"")
    }

    static let unitPoints: [String: PaintPoint] = [
        "top": .top, "bottom": .bottom, "leading": .leading, "trailing": .trailing, "center": .center,
        "topLeading": .topLeading, "topTrailing": .topTrailing, "bottomLeading": .bottomLeading, "bottomTrailing": .bottomTrailing,
    ]

    static func paintPoint(_ c: JSONCursor) -> PaintPoint? {
        if case .string = c.value {
            guard let name = c.stringEnum(unitPoints.keys.sorted()) else { return nil }
            return unitPoints[name]
        }
        guard let arr = c.array(minCount: 2, maxCount: 2), let u = arr[0].double(), let v = arr[1].double() else { return nil }
        return .unit(u, v)
    }

    /// A paint: a colour string, or `{ "linear": { "from", "to", "stops" } }`.
    static func paint(_ c: JSONCursor) -> NodePaint? {
        if case .string = c.value { return color(c).map { .solid($0) } }
        guard let obj = c.object(allowedKeys: ["linear"]) else { return nil }
        guard let lin = obj.required("linear")?.object(allowedKeys: ["from", "to", "stops"]) else { return nil }
        let from = lin.optional("from").flatMap(paintPoint) ?? .leading
        let to = lin.optional("to").flatMap(paintPoint) ?? .trailing
        guard let stopsC = lin.required("stops")?.array(minCount: 1) else { return nil }
        var stops: [GradientStop] = []
        for (i, s) in stopsC.enumerated() {
            if case .string = s.value {
                if let col = color(s) {
                    stops.append(GradientStop(offset: stopsC.count > 1 ? Double(i) / Double(stopsC.count - 1) : 0, color: col))
                }
            } else if let so = s.object(allowedKeys: ["offset", "color"]) {
                if let off = so.required("offset")?.double(min: 0, max: 1), let cc = so.required("color"), let col = color(cc) {
                    stops.append(GradientStop(offset: off, color: col))
                }
            }
        }
        return .linear(stops: stops, from: from, to: to)
    }

    /// A number (constant) or an animation `{ "from", "to", "curve", "duration", "delay", "speed" }`.
    static func animated(_ c: JSONCursor, min lo: Double, max hi: Double) -> AnimatedValue? {
        if case .number = c.value { return c.double(min: lo, max: hi).map { .constant($0) } }
        guard let obj = c.object(allowedKeys: ["from", "to", "curve", "duration", "delay", "speed"]) else { return nil }
        let from = obj.required("from")?.double(min: lo, max: hi)
        let to = obj.required("to")?.double(min: lo, max: hi)
        var anim = Animation()
        if let cc = obj.optional("curve") {
            if let name = cc.stringEnum(Easing.names), let e = Easing(name: name) { anim.curve = e }
        }
        if let d = obj.optional("duration"), let v = d.double(min: 0, max: 3600) {
            if v <= 0 { d.report("expected a duration greater than 0 seconds, found \(v)") } else { anim.duration = v }
        }
        if let d = obj.optional("delay")?.double(min: 0, max: 3600) { anim.delay = d }
        if let s = obj.optional("speed"), let v = s.double(min: 0, max: 1000) {
            if v <= 0 { s.report("expected a speed greater than 0, found \(v)") } else { anim.speed = v }
        }
        guard let f = from, let t = to else { return nil }
        return .tween(Tween(from: f, to: t, animation: anim))
    }
}
