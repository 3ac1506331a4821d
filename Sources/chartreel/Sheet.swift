// `chartreel sheet`: a contact sheet, so a person sees a whole animation in one picture.
//
// Each thumbnail is the scene drawn at thumbnail size (Scene.scaled), not a frame shrunk
// afterwards: lines stay crisp and no resampling filter is needed. Labels are glyph
// outlines from the Text module filled by the same rasterizer as the charts.
import Foundation
import Geometry
import Raster
import Scene
import Text
import Export
import Timelines

/// Layout constants of the sheet, in pixels.
private enum SheetLayout {
    static let margin = 16
    static let gap = 16
    static let labelHeight = 24
    static let fontSize = 13.0
    static let maxThumbnails = 1000
}

/// `chartreel sheet DOC -o SHEET.png [--every SECONDS | --count N] [--columns C] [--width W]`.
func runSheet(_ args: [String]) throws {
    let a = try Arguments(args, flags: ["-y", "--overwrite", "-h", "--help", "--strict", "-q", "--quiet"],
                          valued: Set(["-o", "--output", "--every", "--count", "--columns", "--width", "--allow-path"]).union(documentOptions))
    if a.flag("-h", "--help") { print(sheetHelp); return }
    guard a.positional.count == 1 else { throw UsageError("sheet needs one document: chartreel sheet DOC -o SHEET.png") }
    guard let output = a.value("-o", "--output") else { throw UsageError("sheet needs an output: -o SHEET.png") }
    if output == "-" { try requireStandardOutput() }
    let written = try writeSheet(document: a.positional[0], output: output, a, overwrite: a.flag("-y", "--overwrite"))
    if !a.flag("-q", "--quiet") {
        report("chartreel: wrote \(output == "-" ? "the sheet to stdout" : output): \(written)")
    }
}

/// Draws the contact sheet of `document` with `sheet`'s options in `a` (`--every`,
/// `--count`, `--columns`, `--width`) into `output`; says what it holds
/// (`6 thumbnails (3 × 2) from 0.00 s to 2.083 s, 664x396 px`). `watch --sheet` uses it too.
func writeSheet(document: String, output: String, _ a: Arguments, overwrite: Bool) throws -> String {
    let every = try a.double("--every", min: 0.001, max: 3600)
    let count = try a.int("--count", min: 1, max: SheetLayout.maxThumbnails)
    guard every == nil || count == nil else { throw UsageError("give --every SECONDS or --count N, not both") }
    let thumbWidth = try a.int("--width", min: 16, max: 4096) ?? 240
    _ = try OutputTarget.prepare(output, format: nil, overwrite: overwrite, inputs: inputFiles(ofDocument: document, a))

    let scene = try loadScene(document, a)
    let times = try sheetTimes(scene: scene, every: every, count: count)
    let columns = min(times.count, try a.int("--columns", min: 1, max: 100) ?? 4)
    try checkSheetSize(scene: scene, thumbnails: times.count, columns: columns, thumbWidth: thumbWidth)
    let sheet = try contactSheet(scene: scene, times: times, columns: columns, thumbWidth: thumbWidth)
    removeStalePartials(of: output)
    try FramePNG.write(sheet, toFile: output)
    let rows = (times.count + columns - 1) / columns
    return "\(times.count) thumbnail\(times.count == 1 ? "" : "s") "
        + "(\(columns) × \(rows)) from \(timeLabel(times.first ?? 0)) to \(timeLabel(times.last ?? 0)), \(sheet.width)x\(sheet.height) px"
}

/// The instants shown: every `every` seconds from 0, or `count` evenly spaced from the
/// first frame to the last (12 when neither is given), never past the last frame.
func sheetTimes(scene: Scene, every: Double?, count: Int?) throws -> [Double] {
    let last = Scene.time(ofFrame: scene.frameCount - 1, fps: scene.fps)
    if let step = every {
        let n = Int((last / step + 1e-9).rounded(.down)) + 1
        guard n <= SheetLayout.maxThumbnails else {
            throw UsageError("--every \(fmt(step)) gives \(n) thumbnails; the limit is \(SheetLayout.maxThumbnails)")
        }
        return (0..<n).map { Double($0) * step }   // multiplied, not summed: no drift
    }
    let n = min(count ?? 12, scene.frameCount)
    if n == 1 { return [0] }
    return (0..<n).map { last * Double($0) / Double(n - 1) }
}

/// `0.40 s`, or `0.125 s` when two decimals would round the time.
func timeLabel(_ t: Double) -> String {
    let two = (t * 100).rounded() / 100
    return String(format: abs(two - t) < 1e-9 ? "%.2f s" : "%.3f s", t)
}

/// The sheet's size in pixels: `count` thumbnails `thumbWidth` wide (and as tall as the
/// canvas's proportions make them) in `columns`, with margins, gaps and labels.
func sheetSize(scene: Scene, count: Int, columns: Int, thumbWidth: Int) -> (width: Int, height: Int, thumbHeight: Int) {
    let th = scene.scaled(by: Double(thumbWidth) / Double(scene.width)).height
    let rows = (count + columns - 1) / columns
    let m = SheetLayout.margin, g = SheetLayout.gap, lh = SheetLayout.labelHeight
    return (2 * m + columns * thumbWidth + (columns - 1) * g, 2 * m + rows * (th + lh) + (rows - 1) * g, th)
}

/// Refuses a sheet larger than the canvas limit per side before anything is drawn:
/// `--count 1000 --width 4096 --columns 100` are each in range but make a 38 GB sheet.
func checkSheetSize(scene: Scene, thumbnails: Int, columns: Int, thumbWidth: Int) throws {
    let s = sheetSize(scene: scene, count: thumbnails, columns: columns, thumbWidth: thumbWidth)
    guard s.width > maxCanvasSide || s.height > maxCanvasSide else { return }
    throw UsageError("\(thumbnails) thumbnails of \(thumbWidth)x\(s.thumbHeight) in \(columns) columns make a sheet of "
                     + "\(s.width)x\(s.height) pixels, over the limit of \(maxCanvasSide) pixels per side (the canvas limit "
                     + "per side); use fewer thumbnails (--count, --every), fewer --columns or a smaller --width")
}

/// Draws the thumbnails of `scene` at `times` in a grid of `columns`, each labelled with its time.
func contactSheet(scene: Scene, times: [Double], columns: Int, thumbWidth: Int) throws -> Pixmap {
    let thumbScene = scene.scaled(by: Double(thumbWidth) / Double(scene.width))
    let tw = thumbScene.width, th = thumbScene.height
    let rows = (times.count + columns - 1) / columns
    let m = SheetLayout.margin, g = SheetLayout.gap, lh = SheetLayout.labelHeight
    let width = 2 * m + columns * tw + (columns - 1) * g
    let height = 2 * m + rows * (th + lh) + (rows - 1) * g
    var sheet = Pixmap(width: width, height: height, fill: Color.white.premultiplied)

    // Thumbnails are independent: render them on every core.
    let thumbs = ThumbnailBox(count: times.count)
    DispatchQueue.concurrentPerform(iterations: times.count) { i in
        thumbs.set(i, thumbScene.frame(at: times[i]))
    }
    let transparent = scene.background.a < 1
    for (i, thumb) in thumbs.all.enumerated() {
        let x = m + (i % columns) * (tw + g), y = m + (i / columns) * (th + lh + g)
        if transparent { checkerboard(&sheet, x: x, y: y, width: tw, height: th) }
        composite(thumb, onto: &sheet, x: x, y: y)
    }

    let canvas = Canvas(pixmap: sheet)
    let font = try Font(path: FontLocator.locate())
    let border = Paint.solid(Color(r8: 200, g8: 200, b8: 200))
    let ink = Paint.solid(Color(r8: 51, g8: 51, b8: 51))
    for (i, t) in times.enumerated() {
        let x = Double(m + (i % columns) * (tw + g)), y = Double(m + (i / columns) * (th + lh + g))
        canvas.stroke(.rect(Rect(x: x - 0.5, y: y - 0.5, width: Double(tw) + 1, height: Double(th) + 1)),
                      style: StrokeStyle(width: 1), paint: border)
        let label = timeLabel(t)
        let size = SheetLayout.fontSize
        let w = Text.measure(label, font: font, size: size).width
        let baseline = y + Double(th) + Double(lh) / 2 + font.ascent(size: size) / 2 - 1
        canvas.fill(Text.path(for: label, font: font, size: size,
                              at: Point((x + (Double(tw) - w) / 2).rounded(), baseline.rounded())),
                    paint: ink)
    }
    return canvas.pixmap
}

/// Collects thumbnails rendered on several threads.
private final class ThumbnailBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Pixmap?]
    init(count: Int) { items = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ p: Pixmap) { lock.lock(); items[i] = p; lock.unlock() }
    var all: [Pixmap] { lock.lock(); defer { lock.unlock() }; return items.map { $0! } }
}

/// Light 8-pixel checks under a transparent thumbnail, so its transparency shows.
private func checkerboard(_ p: inout Pixmap, x: Int, y: Int, width: Int, height: Int) {
    let light = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)
    let dark = PremultipliedRGBA8(r: 230, g: 230, b: 230, a: 255)
    for row in 0..<height {
        for col in 0..<width {
            p.setPixel(x + col, y + row, ((col / 8) + (row / 8)) % 2 == 0 ? light : dark)
        }
    }
}

/// Draws `src` over `dst` at (x, y): premultiplied source-over.
private func composite(_ src: Pixmap, onto dst: inout Pixmap, x: Int, y: Int) {
    let dw = dst.width, sw = src.width
    src.data.withUnsafeBufferPointer { s in
        dst.data.withUnsafeMutableBufferPointer { d in
            for row in 0..<src.height {
                var si = row * sw * 4
                var di = ((y + row) * dw + x) * 4
                for _ in 0..<sw {
                    let inv = 255 &- UInt32(s[si &+ 3])
                    for k in 0..<4 {
                        d[di &+ k] = UInt8(UInt32(s[si &+ k]) &+ div255(UInt32(d[di &+ k]) &* inv))
                    }
                    si &+= 4; di &+= 4
                }
            }
        }
    }
}
