import Foundation
import Motion
import Scene
import Export

/// One animated property of one node, for the `validate` table.
struct AnimationRow {
    var node: String
    var property: String
    var tween: Tween
}

/// Every tween in the scene, depth first; a node without an id is named by its parent's
/// id and its position (`chart0[2]`).
func animationRows(_ scene: Scene) -> [AnimationRow] {
    var rows: [AnimationRow] = []
    func add(_ name: String, _ property: String, _ v: AnimatedValue) {
        if case .tween(let t) = v { rows.append(AnimationRow(node: name, property: property, tween: t)) }
    }
    func walk(_ node: Node, name: String) {
        switch node {
        case .shape(let s):
            add(name, "trim.start", s.trimStart)
            add(name, "trim.end", s.trimEnd)
            add(name, "opacity", s.opacity)
        case .group(let g):
            add(name, "opacity", g.opacity)
            for (i, c) in g.children.enumerated() { walk(c, name: c.id ?? "\(name)[\(i)]") }
        }
    }
    for (i, n) in scene.nodes.enumerated() { walk(n, name: n.id ?? "[\(i)]") }
    return rows
}

/// The curve's name as a document writes it.
func curveName(_ e: Easing) -> String {
    switch e {
    case .linear: return "linear"
    case .easeIn: return "easeIn"
    case .easeOut: return "easeOut"
    case .easeInOut: return "easeInOut"
    case let .cubicBezier(a, b, c, d):
        if e == .ease { return "ease" }
        return "bezier(\(fmt(a)), \(fmt(b)), \(fmt(c)), \(fmt(d)))"
    }
}

/// `chartreel validate DOC`: checks the document without rendering and describes it.
func runValidate(_ args: [String]) throws {
    let a = try Arguments(args, flags: ["-h", "--help"], valued: ["--fps"])
    if a.flag("-h", "--help") { print(validateHelp); return }
    guard a.positional.count == 1 else { throw UsageError("validate needs one document: chartreel validate DOC") }
    var scene = try loadScene(a.positional[0])
    if let f = try a.double("--fps", min: 1, max: 1000) { scene.fps = f }
    let bg = scene.background
    print("\(a.positional[0]): valid")
    print("size        \(scene.width)x\(scene.height), background \(bg)\(bg.a == 0 ? " (transparent)" : "")")
    print("fps         \(fmt(scene.fps))")
    let how = scene.duration != nil ? "set by the document"
        : "last animation ends at \(secs(scene.lastAnimationEnd)), then \(secs(scene.hold)) hold"
    print("duration    \(secs(scene.effectiveDuration)) (\(how))")
    print("frames      \(scene.frameCount) (0..<\(scene.frameCount), frame i shows i / \(fmt(scene.fps)) s)")
    let rows = animationRows(scene)
    print("")
    guard !rows.isEmpty else { print("no animations"); return }
    var table = [["node", "property", "from", "to", "curve", "start", "end"]]
    for r in rows {
        let an = r.tween.animation
        table.append([r.node, r.property, fmt(r.tween.from), fmt(r.tween.to), curveName(an.curve),
                      secs(an.start), secs(an.end)])
    }
    let widths = (0..<table[0].count).map { c in table.map { $0[c].count }.max()! }
    for row in table {
        print(row.enumerated().map { c, cell in
            c >= 5 ? String(repeating: " ", count: widths[c] - cell.count) + cell
                   : cell + String(repeating: " ", count: widths[c] - cell.count)
        }.joined(separator: "  ").trimmingCharacters(in: .whitespaces))
    }
}

/// `1.600 s`.
private func secs(_ t: Double) -> String { String(format: "%.3f s", t) }
