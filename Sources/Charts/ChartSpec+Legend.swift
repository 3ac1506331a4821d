#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Motion
import Scene
import Text

extension ChartSpec {
    /// Legend rows: entries placed left to right, wrapping at `width`.
    func legendRows(_ width: Double) -> [[(name: String, color: Color, x: Double, w: Double)]] {
        let s = style
        let entries = legendEntries
        var rows: [[(name: String, color: Color, x: Double, w: Double)]] = [[]]
        var x = 0.0
        let sw = s.labelSize * 0.8
        for e in entries {
            let w = sw + 5 + s.font.measure(e.name, size: s.labelSize).width
            if x > 0 && x + w > width { rows.append([]); x = 0 }
            rows[rows.count - 1].append((e.name, e.color, x, w))
            x += w + 14
        }
        return rows.filter { !$0.isEmpty }
    }

    /// The legend's entries: the ones it lists, else each mark's (`ChartMark.legendEntries(in:)`),
    /// an entry that repeats one before it (same name, same colour: a series drawn by two
    /// marks, bars and their labels) listed once.
    public var legendEntries: [(name: String, color: Color)] {
        if let given = legend?.entries { return given }
        var out: [(name: String, color: Color)] = []
        for e in marks.flatMap({ $0.legendEntries(in: self) }) where !out.contains(where: { $0.name == e.name && $0.color == e.color }) {
            out.append(e)
        }
        return out
    }

    func legendSize(_ width: Double) -> (w: Double, h: Double) {
        let rows = legendRows(width)
        let lh = lineHeight(style.font, style.labelSize)
        let w = rows.map { r in r.last.map { $0.x + $0.w } ?? 0 }.max() ?? 0
        return (w, Double(rows.count) * lh + Double(max(0, rows.count - 1)) * 4)
    }

    func legendNode(_ lg: LegendSpec, _ l: ChartState) -> Node {
        let s = style, p = l.plot
        let width: Double = (lg.side == .top || lg.side == .bottom) ? l.content.width : 120
        let rows = legendRows(width)
        let size = legendSize(width)
        let lh = lineHeight(s.font, s.labelSize)
        var origin: Point
        switch lg.side {
        case .top: origin = Point(l.content.minX, p.minY - size.h - 10 - (extremes != nil ? lh + 6 : 0) - axisReach(.top, l))
        case .bottom: origin = Point(l.content.minX, l.content.maxY - captionReach(width: l.content.width) - size.h)
        case .leading: origin = Point(l.content.minX, p.minY)
        case .trailing: origin = Point(l.content.maxX - size.w, p.minY)
        }
        var children: [Node] = []
        let sw = s.labelSize * 0.8
        for (r, row) in rows.enumerated() {
            let cy = origin.y + Double(r) * (lh + 4) + lh / 2
            for e in row {
                let x0 = origin.x + e.x
                let swatch: Path
                switch lg.swatch {
                case .circle: swatch = .circle(center: Point(x0 + sw / 2, cy), radius: sw / 2)
                case .square: swatch = .rect(Rect(x: x0, y: cy - sw / 2, width: sw, height: sw))
                case .line: swatch = .rect(Rect(x: x0, y: cy - 1.5, width: sw, height: 3))
                }
                children.append(.shape(ShapeNode(id: "legend-swatch", path: swatch, fill: (.solid(e.color), .nonZero))))
                children.append(.text(TextNode(id: "legend-label", e.name, font: s.font, size: s.labelSize, color: s.textColor,
                                               position: Point(x0 + sw + 5, cy), anchor: TextAnchor(.leading, .center))))
            }
        }
        return .group(GroupNode(id: "legend", children: children, opacity: lg.opacity))
    }
}
