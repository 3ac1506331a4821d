import Geometry
import Motion
import Raster
import Scene
import Text

/// The default font, loaded once.
let dejaVu: Font = {
    do { return try FontCache.font() } catch { fatalError("default font: \(error)") }
}()

/// A tween of `from` → `to` on SwiftUI's easeInOut.
func tween(_ from: Double, _ to: Double, duration: Double, delay: Double = 0) -> AnimatedValue {
    .tween(Tween(from: from, to: to, animation: Animation(curve: .easeInOut, duration: duration, delay: delay)))
}

/// A smooth curve through `points`: cubic pieces with horizontal tangents at each point,
/// as a chart's bezier interpolation draws a line.
func curve(through points: [Point]) -> Path {
    var p = Path()
    p.move(to: points[0])
    for (a, b) in zip(points, points.dropFirst()) {
        let dx = (b.x - a.x) / 2
        p.cubic(to: b, control1: Point(a.x + dx, a.y), control2: Point(b.x - dx, b.y))
    }
    return p
}

/// The curved-line reveal of `timelines/curved-line-reveal.json`, built by hand from
/// nodes: an 800×600 chart whose draw list is grid, fill, line and two axes. The axes
/// fade in over 0.3 s, the line draws itself from 0.2 s to 1.0 s, the area under it
/// fades in from 0.6 s to 1.6 s; the video holds the end for 0.5 s (2.1 s in all).
func curvedLineReveal() -> Scene {
    let plot = Rect(x: 40, y: 40, width: 720, height: 520)
    let ys: [Double] = [5, 4, 15, 6, 9, 12, 14, 11]
    func at(_ x: Double, _ y: Double) -> Point { Point(plot.minX + x / 8 * plot.width, plot.maxY - y / 15 * plot.height) }
    let points = [at(0, 0)] + ys.enumerated().map { at(Double($0.offset + 1), $0.element) }

    var grid = Path()
    for i in 0...8 { let x = at(Double(i), 0).x; grid.move(to: Point(x, plot.minY)); grid.line(to: Point(x, plot.maxY)) }
    for v in stride(from: 0.0, through: 15, by: 3) { let y = at(0, v).y; grid.move(to: Point(plot.minX, y)); grid.line(to: Point(plot.maxX, y)) }
    let gridNode = ShapeNode(id: "grid", path: grid, stroke: (.solid(Color(hex: "#D3D3D3")!), StrokeStyle(width: 1)))

    var area = curve(through: points)
    area.line(to: at(8, 0))
    area.close()
    let fillStops = [GradientStop(offset: 0, color: .white), GradientStop(offset: 1, color: Color(hex: "#6A5ACD99")!)]
    var fill = ShapeNode(id: "fill", path: area, fill: (.linear(stops: fillStops, from: .bottom, to: .top), .nonZero), frame: plot)
    fill.opacity = tween(0, 1, duration: 1.0, delay: 0.6)

    let lineStops = [GradientStop(offset: 0, color: Color(hex: "#6A5ACD")!), GradientStop(offset: 1, color: Color(hex: "#00BFFF")!)]
    var line = ShapeNode(id: "line", path: curve(through: points),
                         stroke: (.linear(stops: lineStops, from: .leading, to: .trailing), StrokeStyle(width: 3, cap: .round, join: .round)),
                         frame: plot)
    line.trimEnd = tween(0, 1, duration: 0.8, delay: 0.2)

    let bottom = (0...8).map { i in
        Node.text(TextNode("\(i)", font: dejaVu, size: 12, color: .black, position: Point(at(Double(i), 0).x, plot.maxY + 16),
                           anchor: TextAnchor(.center, .top)))
    }
    let leading = stride(from: 0, through: 15, by: 3).map { v in
        Node.text(TextNode("\(v)", font: dejaVu, size: 12, color: .black, position: Point(plot.minX - 8, at(0, Double(v)).y),
                           anchor: TextAnchor(.trailing, .center)))
    }
    let axes = [("axis-bottom", bottom), ("axis-leading", leading)].map { id, labels in
        Node.group(GroupNode(id: id, children: labels, opacity: tween(0, 1, duration: 0.3)))
    }
    let chart = GroupNode(id: "chart0", children: [.shape(gridNode), .shape(fill), .shape(line)] + axes)
    return Scene(width: 800, height: 600, background: .white, fps: 60, nodes: [.group(chart)])
}

extension Rect {
    /// Whether `r` lies inside (edges included).
    func contains(_ r: Rect) -> Bool { r.minX >= minX && r.minY >= minY && r.maxX <= maxX && r.maxY <= maxY }
}
