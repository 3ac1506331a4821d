// Fuzz target: arbitrary Unicode text through shaping, line setting and rendering.
//
// The first byte picks the size (1–64 px), the second the direction, wrapping and
// features; the rest is the text, decoded as UTF-8 (invalid bytes become U+FFFD, as in
// a document that was read). The text is shaped as one line (TextLine: bidi, script
// runs, font fallback, HarfBuzz), set as a block wrapped at a width from the input
// (TextBlock: line breaking, truncation with an ellipsis), and both are filled on a
// small canvas, the block as a Scene text node (colour glyphs included). Besides not crashing: metrics are finite, no more glyphs come out than
// the text's scalars allow (a cluster shapes to at most a few glyphs; the label limit
// cuts very long text), and every pixel is premultiplied.
import Geometry
import Raster
import Scene
import Text

private let font: Font = {
    do { return try Font(path: FontLocator.locate()) } catch { fatalError("default font: \(error)") }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let px = Double(1 + Int(data[0]) % 64)
    let mode = data[1]
    let text = String(decoding: UnsafeBufferPointer(start: data + 2, count: size - 2), as: UTF8.self)
    var options = ShapingOptions()
    options.direction = [TextDirection.auto, .leftToRight, .rightToLeft][Int(mode % 3)]
    if mode & 4 != 0 { options.features = ["tnum", "-liga"] }
    if mode & 8 != 0 { options.language = "ar" }
    let line = TextLine(text, font: font, size: px, options: options)
    let m = line.metrics
    guard m.width.isFinite, m.ascent.isFinite, m.descent.isFinite else { fatalError("metrics not finite: \(m)") }
    let scalars = min(text.unicodeScalars.count, 10_000) + 1
    if line.glyphs.count > 8 * scalars { fatalError("\(line.glyphs.count) glyphs from \(scalars) scalars") }

    let width = Double(8 + Int(mode >> 4) * 16)
    let style = TextBlockStyle(maxWidth: width, overflow: mode & 16 != 0 ? .truncate : .wrap, maxLines: mode & 32 != 0 ? 2 : nil)
    let block = TextBlock(text, font: font, size: px, options: options, style: style)
    guard block.metrics.width.isFinite, block.metrics.descent.isFinite else { fatalError("block metrics not finite") }

    let canvas = Canvas(width: 64, height: 48, background: .white)
    canvas.fill(line.path(at: Point(2, 20)), paint: .solid(Color(r8: 20, g8: 20, b8: 20)))
    // As a chart draws a label: a text node, colour glyphs (emoji) included.
    let node = TextNode(text, font: font, size: px, color: Color(r8: 200, g8: 30, b8: 30, a8: 180),
                        position: Point(2, 34), rotation: Double(mode % 7) * 15, options: options, style: style)
    node.render(at: 0, on: canvas)
    let p = canvas.pixmap
    for y in 0..<p.height {
        for x in 0..<p.width {
            let q = p.pixel(x, y)
            if q.r > q.a || q.g > q.a || q.b > q.a { fatalError("pixel (\(x), \(y)) is not premultiplied: \(q)") }
        }
    }
    return 0
}
