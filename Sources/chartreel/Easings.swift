// `chartreel easings`: every curve a document can name, and with -o a small plot of each,
// so a person choosing an easing sees its shape (docs/images/easings is made this way).
import Foundation
import Geometry
import Raster
import Motion
import Text
import Export

/// `chartreel easings [-o DIR] [--size PX]`.
func runEasings(_ args: [String]) throws {
    let a = try Arguments(args, flags: ["-y", "--overwrite", "-h", "--help"], valued: ["-o", "--output", "--size"])
    if a.flag("-h", "--help") { print(easingsHelp); return }
    guard a.positional.isEmpty else { throw UsageError("easings takes no document") }
    guard let dir = a.value("-o", "--output") else {
        for name in Easing.names { print(name) }
        return
    }
    let size = try a.int("--size", min: 48, max: 2048) ?? 160
    var isDir: ObjCBool = false
    if FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), !isDir.boolValue {
        throw UsageError("\(dir) exists and is not a directory")
    }
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let font = try FontCache.font()
    for name in Easing.names {
        guard let e = Easing(name: name) else { continue }
        let file = (dir as NSString).appendingPathComponent("\(name).png")
        if FileManager.default.fileExists(atPath: file) && !a.flag("-y", "--overwrite") { throw ExportError.outputExists(file) }
        try FramePNG.write(easingPlot(e, name: name, size: size, font: font), toFile: file)
    }
    print("\(Easing.names.count) plots in \(dir)")
}

/// A square plot of `e` over 0…1: the unit box, the curve (springs over their settling
/// time), room above and below for curves that overshoot, and the name.
func easingPlot(_ e: Easing, name: String, size: Int, font: Font) -> Pixmap {
    let s = Double(size)
    let c = Canvas(width: size, height: size, background: .white)
    let pad = s * 0.1, label = s * 0.16
    // Plot box: y 0…1 in the middle of a −0.45…1.45 range, so back, elastic and spring
    // overshoot stays visible.
    let unit = (s - label - pad) / 1.9
    let box = Rect(x: pad, y: label + 0.45 * unit, width: s - 2 * pad, height: unit)
    func point(_ x: Double, _ y: Double) -> Point { Point(box.minX + x * box.width, box.maxY - y * box.height) }
    c.stroke(.rect(box), style: StrokeStyle(width: 1), paint: .solid(Color(r: 0.85, g: 0.85, b: 0.88)))
    var curve = Path()
    let steps = 240
    for i in 0...steps {
        let x = Double(i) / Double(steps)
        let y = min(1.6, max(-0.6, e(x)))
        if i == 0 { curve.move(to: point(x, y)) } else { curve.line(to: point(x, y)) }
    }
    c.save()
    c.clip(to: Rect(x: 0, y: label, width: s, height: s - label))
    c.stroke(curve, style: StrokeStyle(width: max(1.5, s / 80), cap: .round, join: .round),
             paint: .solid(Color(r: 0.04, g: 0.52, b: 1)))
    c.restore()
    let text = font.path(for: name, size: s * 0.085, at: Point(pad, label * 0.75))
    c.fill(text, paint: .solid(Color(r: 0.2, g: 0.2, b: 0.2)))
    return c.pixmap
}
