import Foundation
import Motion
import Scene
import Export
import Timelines

/// One animated property of one node, for the `validate` table.
struct AnimationRow {
    var node: String
    var property: String
    var from: String
    var to: String
    var curve: String
    var start: Double
    var end: Double
}

/// Every animation in the scene, depth first; a node without an id is named by its
/// parent's id and its position (`chart0[2]`).
func animationRows(_ scene: Scene) -> [AnimationRow] {
    var rows: [AnimationRow] = []
    func add(_ name: String, _ property: String, _ v: AnimatedValue) {
        switch v {
        case .constant:
            return
        case .tween(let t):
            rows.append(AnimationRow(node: name, property: property, from: fmt(t.from), to: fmt(t.to),
                                     curve: describe(t.animation), start: t.animation.start, end: t.animation.end))
        case .keyframes(let k):
            rows.append(AnimationRow(node: name, property: property, from: fmt(k.keyframes.first!.value),
                                     to: fmt(k.keyframes.last!.value), curve: "\(k.keyframes.count) keyframes",
                                     start: k.startTime, end: k.endTime))
        }
    }
    func add(_ name: String, _ property: String, _ c: AnimatedColor?) {
        guard let c else { return }
        rows.append(AnimationRow(node: name, property: property, from: "\(c.from)", to: "\(c.to)",
                                 curve: describe(c.animation), start: c.animation.start, end: c.animation.end))
    }
    func add(_ name: String, _ m: AnimatedTransform) {
        add(name, "translate.x", m.translateX)
        add(name, "translate.y", m.translateY)
        add(name, "scale.x", m.scaleX)
        add(name, "scale.y", m.scaleY)
        add(name, "rotation", m.rotation)
    }
    func walk(_ node: Node, name: String) {
        switch node {
        case .shape(let s):
            add(name, "trim.start", s.trimStart)
            add(name, "trim.end", s.trimEnd)
            if let o = s.trimOffset { add(name, "trim.offset", o) }
            add(name, "opacity", s.opacity)
            add(name, s.motion)
            add(name, "fill.color", s.fillColor)
            add(name, "stroke.color", s.strokeColor)
            if s.dynamicPath != nil {
                rows.append(AnimationRow(node: name, property: "path", from: "", to: "", curve: "",
                                         start: s.dynamicPathStart, end: s.dynamicPathEnd))
            }
        case .group(let g):
            add(name, "opacity", g.opacity)
            add(name, g.motion)
            if g.dynamicChildren != nil, g.dynamicSpan != .never {
                // A chart whose scales or data move: its plot is laid out again every frame.
                rows.append(AnimationRow(node: name, property: "layout", from: "", to: "", curve: "per frame",
                                         start: g.dynamicSpan.start, end: g.dynamicSpan.end))
            }
            for (i, c) in g.children.enumerated() { walk(c, name: c.id ?? "\(name)[\(i)]") }
        case .text(let t):
            add(name, "opacity", t.opacity)
            add(name, t.motion)
            if let counter = t.counter { add(name, "counter", counter.value) }
        }
    }
    for (i, n) in scene.nodes.enumerated() { walk(n, name: n.id ?? "[\(i)]") }
    return rows
}

/// The curve's name as a document writes it, with repetition when there is any.
func describe(_ a: Animation) -> String {
    var text = curveName(a.curve)
    switch a.repetition {
    case .forever: text += ", repeats forever"
    case .count(let n) where n > 1: text += ", \(n) passes"
    default: break
    }
    return text
}

/// A curve's document name (`easeInOut`), or its function form for unnamed ones.
func curveName(_ e: Easing) -> String {
    if let name = Easing.names.first(where: { Easing(name: $0) == e }) { return name }
    switch e {
    case let .cubicBezier(a, b, c, d): return "cubic-bezier(\(fmt(a)), \(fmt(b)), \(fmt(c)), \(fmt(d)))"
    case let .steps(n, _): return "steps(\(n))"
    case .spring: return "spring"
    case .piecewiseLinear: return "linear(...)"
    default: return "custom"
    }
}

/// `chartreel validate DOC`: checks the document without rendering and describes it.
func runValidate(_ args: [String]) throws {
    let a = try Arguments(args, flags: ["-h", "--help", "--strict", "--json"], valued: Set(["--fps"]).union(documentOptions))
    if a.flag("-h", "--help") { print(validateHelp); return }
    guard a.positional.count == 1 else { throw UsageError("validate needs one document: chartreel validate DOC") }
    var warnings: [String] = []
    let loaded = try loadDocument(a.positional[0], a) { warnings.append($0); report("warning: \($0)") }
    var scene = loaded.scene
    if let f = try a.double("--fps", min: 1, max: 1000) { scene.fps = f }
    if a.flag("--json") {
        printJSON([
            "document": a.positional[0], "valid": true, "width": scene.width, "height": scene.height,
            "background": "\(scene.background)", "fps": scene.fps, "seconds": scene.effectiveDuration,
            "frames": scene.frameCount, "warnings": warnings,
            "params": loaded.parameters.map { p -> [String: Any] in
                var o: [String: Any] = ["name": p.name, "type": p.type.rawValue, "value": DocumentParameter.text(p.value)]
                if let d = p.defaultValue { o["default"] = DocumentParameter.text(d) }
                if let g = p.givenBy { o["givenBy"] = g }
                return o
            },
            "animations": animationRows(scene).map { r -> [String: Any] in
                ["node": r.node, "property": r.property, "from": r.from, "to": r.to, "curve": r.curve,
                 "start": r.start, "end": r.end.isFinite ? r.end as Any : NSNull()]
            },
        ] as [String: Any])
        return
    }
    let bg = scene.background
    print("\(a.positional[0]): valid")
    print("size        \(scene.width)x\(scene.height), background \(bg)\(bg.a == 0 ? " (transparent)" : "")")
    print("fps         \(fmt(scene.fps))")
    let how = scene.duration != nil ? "set by the document"
        : "last animation ends at \(secs(scene.lastAnimationEnd)), then \(secs(scene.hold)) hold"
    print("duration    \(secs(scene.effectiveDuration)) (\(how))")
    print("frames      \(scene.frameCount) (0..<\(scene.frameCount), frame i shows i / \(fmt(scene.fps)) s)")
    if !loaded.parameters.isEmpty {
        print("")
        var table = [["param", "type", "value", "default", "description"]]
        for p in loaded.parameters {
            table.append([p.name, p.type.rawValue, DocumentParameter.text(p.value) + (p.givenBy.map { " (\($0))" } ?? ""),
                          p.defaultValue.map(DocumentParameter.text) ?? "(none)", p.description ?? ""])
        }
        printTable(table, rightAligned: [])
    }
    let rows = animationRows(scene)
    print("")
    guard !rows.isEmpty else { print("no animations"); return }
    var table = [["node", "property", "from", "to", "curve", "start", "end"]]
    for r in rows {
        table.append([r.node, r.property, r.from, r.to, r.curve, secs(r.start), r.end.isFinite ? secs(r.end) : "never"])
    }
    printTable(table, rightAligned: [5, 6])
}

/// Prints `table` in columns two spaces apart; the columns in `rightAligned` align right.
func printTable(_ table: [[String]], rightAligned: Set<Int>) {
    for line in tableLines(table, rightAligned: rightAligned) { print(line) }
}

/// `1.600 s`.
private func secs(_ t: Double) -> String { String(format: "%.3f s", t) }
