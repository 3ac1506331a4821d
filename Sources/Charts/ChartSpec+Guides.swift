#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Motion
import Scene
import Text

extension ChartSpec {
    /// This chart on a canvas of colour `canvas`: the guide colours left unset follow what
    /// lies under them, the chart's card or else the canvas for text and axes, its plot
    /// area's background or else that for the grid (`ChartStyle.onBackdrop(_:)`).
    public func onBackdrop(_ canvas: Color) -> ChartSpec {
        let behindText = card.map { Palette.seen($0.color, over: canvas) } ?? canvas
        var c = self
        c.style = style.onBackdrop(behindText)
        c.grid = grid?.onBackdrop(plotArea?.background.map { Palette.seen($0, over: behindText) } ?? behindText)
        return c
    }

    func lineHeight(_ f: Font, _ size: Double) -> Double { f.ascent(size: size) + f.descent(size: size) }

    /// How far an axis reaches out from the plot edge.
    func axisExtent(_ a: AxisSpec, _ ticks: [AxisTick]) -> Double {
        let s = style
        let lh = lineHeight(s.font, s.labelSize)
        var labels = 0.0
        let angle = a.labelAngle * .pi / 180
        for t in ticks where a.showLabels {
            let w = s.font.measure(t.label, size: s.labelSize).width
            switch a.side {
            case .top, .bottom: labels = max(labels, abs(w * sin(angle)) + abs(lh * cos(angle)))
            case .leading, .trailing: labels = max(labels, abs(w * cos(angle)) + abs(lh * sin(angle)))
            }
        }
        var e = max(0, a.tickLength) + 3 + labels
        if a.title != nil { e += 6 + lineHeight(s.font, s.axisTitleSize) }
        return e
    }

    /// The title's and subtitle's text nodes when the title has a text style: set as
    /// blocks no wider than `width` (unless the style says), the title's first baseline at `y`.
    func titleTextNodes(_ t: TitleSpec, width: Double, y: Double, x: Double = 0) -> (TextNode, TextNode?) {
        let s = style
        var block = t.textStyle ?? .singleLine
        if block.maxWidth == nil { block.maxWidth = width }
        let n = TextNode(id: "title", momentText(t.title), font: s.boldFont, size: s.titleSize, color: s.textColor,
                         position: Point(x, y + s.boldFont.ascent(size: s.titleSize)), options: t.shaping, style: block)
        guard let sub = t.subtitle else { return (n, nil) }
        let top = n.position.y + n.metrics.descent + 2
        var m = TextNode(id: "subtitle", momentText(sub), font: s.font, size: s.subtitleSize, color: s.secondaryTextColor,
                         position: Point(x, top), options: t.shaping, style: block)
        m.position.y += m.metrics.ascent
        return (n, m)
    }

    /// The caption's text node, its block's bottom at `bottom` and its left at `x`: set as
    /// a block no wider than `width` when it has a text style (unless the style says),
    /// one line otherwise, as the subtitle is.
    func captionTextNode(_ c: CaptionSpec, width: Double, bottom: Double, x: Double = 0) -> TextNode {
        let s = style
        var block = c.textStyle ?? .singleLine
        if c.textStyle != nil && block.maxWidth == nil { block.maxWidth = width }
        var n = TextNode(id: "caption", momentText(c.text), font: s.font, size: s.captionSize, color: s.secondaryTextColor,
                         position: Point(x, bottom), anchor: TextAnchor(.leading, .bottom), options: c.shaping, style: block)
        n.opacity = c.opacity
        return n
    }

    /// How much of the content's bottom the caption takes: its lines and the gap above
    /// them (0 without a caption). The legend and the axes go above it.
    func captionReach(width: Double) -> Double {
        guard let c = caption else { return 0 }
        return captionTextNode(c, width: width, bottom: 0).box.height + 10
    }

    /// The title block and the caption: what is drawn once whatever the state (unless
    /// they name the moment).
    func titleNodes(_ l: ChartState) -> [Node] {
        headingNodes(l) + (caption.map { [.text(captionTextNode($0, width: l.content.width, bottom: l.content.maxY, x: l.content.minX))] } ?? [])
    }

    func headingNodes(_ l: ChartState) -> [Node] {
        guard let t = title else { return [] }
        if t.textStyle != nil {
            var (n, m) = titleTextNodes(t, width: l.content.width, y: l.content.minY, x: l.content.minX)
            n.opacity = t.opacity
            m?.opacity = t.opacity
            return [.text(n)] + (m.map { [.text($0)] } ?? [])
        }
        let s = style
        var y = l.content.minY + s.boldFont.ascent(size: s.titleSize)
        var out: [Node] = []
        var n = TextNode(id: "title", momentText(t.title), font: s.boldFont, size: s.titleSize, color: s.textColor, position: Point(l.content.minX, y))
        n.opacity = t.opacity
        out.append(.text(n))
        if let sub = t.subtitle {
            y += s.boldFont.descent(size: s.titleSize) + 2 + s.font.ascent(size: s.subtitleSize)
            var m = TextNode(id: "subtitle", momentText(sub), font: s.font, size: s.subtitleSize, color: s.secondaryTextColor, position: Point(l.content.minX, y))
            m.opacity = t.opacity
            out.append(.text(m))
        }
        return out
    }

    /// `text` with its placeholders filled for the moment shown, in a chart of moving
    /// data; as written otherwise.
    func momentText(_ text: String, row: DataTable.Row? = nil) -> String {
        guard moment != nil, text.contains("{"), let template = MomentTemplate.cached(text) else { return text }
        return template.render(moment, rows: data, row: row)
    }

    /// Whether the title block or the caption names the moment, and so is redrawn as the data moves.
    var titleNamesTheMoment: Bool {
        guard timeline != nil || moment != nil else { return false }
        return [title?.title ?? "", title?.subtitle ?? "", caption?.text ?? ""].contains { (try? MomentTemplate($0))?.isDynamic ?? false }
    }

    /// The period label in its corner of the plot.
    func periodLabelNode(_ p: PeriodLabelSpec, _ l: ChartState) -> Node {
        let pad = 8.0, plot = l.plot
        let position: Point, anchor: TextAnchor
        switch p.corner {
        case .topLeading: position = Point(plot.minX + pad, plot.minY + pad); anchor = TextAnchor(.leading, .top)
        case .topTrailing: position = Point(plot.maxX - pad, plot.minY + pad); anchor = TextAnchor(.trailing, .top)
        case .bottomLeading: position = Point(plot.minX + pad, plot.maxY - pad); anchor = TextAnchor(.leading, .bottom)
        case .bottomTrailing: position = Point(plot.maxX - pad, plot.maxY - pad); anchor = TextAnchor(.trailing, .bottom)
        }
        let text = moment == nil ? "" : momentText(p.text)
        // Tabular figures, so the year does not shift sideways as its digits change.
        var shaping = ShapingOptions.default
        shaping.features.append("tnum")
        return .text(TextNode(id: "period-label", text, font: style.boldFont, size: p.size,
                              color: p.color ?? style.secondaryTextColor.opacity(0.4), position: position, anchor: anchor,
                              options: shaping))
    }

    /// `v` moved to the nearest pixel centre when a line of `width` would otherwise straddle two pixels.
    func snap(_ v: Double, _ width: Double) -> Double {
        let w = width.rounded()
        guard w == width, Int(w) % 2 == 1 else { return v }
        return v.rounded(.down) + 0.5
    }

    func steps(_ lo: Double, _ hi: Double, _ step: Double) -> [Double] {
        guard step > 0, step.isFinite, hi >= lo else { return [] }
        let first = (lo / step).rounded(.up), last = (hi / step + 1e-9).rounded(.down)
        guard last - first < 10_000 else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * step }
    }

    func gridNodes(_ g: GridSpec, _ l: ChartState) -> [Node] {
        let p = l.plot
        // Lines at fading ticks go into shapes of their own, at the tick's opacity.
        var paths: [(opacity: Double, path: Path)] = [(1, Path())]
        func add(_ opacity: Double, _ from: Point, _ to: Point) {
            let k = paths.firstIndex { $0.opacity == opacity } ?? { paths.append((opacity, Path())); return paths.count - 1 }()
            paths[k].path.move(to: from); paths[k].path.line(to: to)
        }
        let xs: [AxisTick] = g.xStep.map { steps(min(l.xResolved.domain.0, l.xResolved.domain.1), max(l.xResolved.domain.0, l.xResolved.domain.1), $0).map { AxisTick(value: $0, label: "") } }
            ?? (g.xAtTicks ? l.xTicks : [])
        let ys: [AxisTick] = g.yStep.map { steps(min(l.yResolved.domain.0, l.yResolved.domain.1), max(l.yResolved.domain.0, l.yResolved.domain.1), $0).map { AxisTick(value: $0, label: "") } }
            ?? (g.yAtTicks ? l.yTicks : [])
        for v in xs {
            let px = snap(min(l.x(v.value), p.maxX - 0.5), g.width)
            add(v.opacity, Point(px, p.minY), Point(px, p.maxY))
        }
        for v in ys {
            let py = snap(min(l.y(v.value), p.maxY - 0.5), g.width)
            add(v.opacity, Point(p.minX, py), Point(p.maxX, py))
        }
        var out: [Node] = []
        for (opacity, path) in paths where opacity == 1 || !path.isEmpty {
            var node = ShapeNode(id: "grid", path: path, stroke: (.solid(g.color), StrokeStyle(width: g.width, cap: .butt)), frame: p)
            node.opacity = g.opacity
            out.append(opacity == 1 ? .shape(node) : .group(GroupNode(id: "grid-fading", children: [.shape(node)], opacity: .constant(opacity))))
        }
        if let zc = g.zeroColor {
            var zero = Path()
            let (ylo, yhi) = (min(l.yResolved.domain.0, l.yResolved.domain.1), max(l.yResolved.domain.0, l.yResolved.domain.1))
            if l.yResolved.type == .linear && ylo <= 0 && yhi >= 0 {
                let py = snap(min(l.y(0), p.maxY - 0.5), g.width)
                zero.move(to: Point(p.minX, py)); zero.line(to: Point(p.maxX, py))
            }
            let (xlo, xhi) = (min(l.xResolved.domain.0, l.xResolved.domain.1), max(l.xResolved.domain.0, l.xResolved.domain.1))
            if l.xResolved.type == .linear && xlo <= 0 && xhi >= 0 && xlo < 0 {
                let px = snap(min(l.x(0), p.maxX - 0.5), g.width)
                zero.move(to: Point(px, p.minY)); zero.line(to: Point(px, p.maxY))
            }
            if !zero.isEmpty {
                var z = ShapeNode(id: "zero", path: zero, stroke: (.solid(zc), StrokeStyle(width: max(1, g.width), cap: .butt)), frame: p)
                z.opacity = g.opacity
                out.append(.shape(z))
            }
        }
        return out
    }

    func axisNode(_ a: AxisSpec, _ l: ChartState) -> Node {
        let s = style, p = l.plot
        let horizontal = a.side == .top || a.side == .bottom
        let ticks = horizontal ? l.xTicks : l.yTicks
        let scale = horizontal ? l.x : l.y
        var lines = Path()
        var fadingLines: [(opacity: Double, path: Path)] = []
        var children: [Node] = []
        let edge: Double
        switch a.side {
        case .bottom: edge = snap(p.maxY, 1)
        case .top: edge = snap(p.minY, 1) - 1
        case .leading: edge = snap(p.minX, 1) - 1
        case .trailing: edge = snap(p.maxX, 1)
        }
        if a.showLine {
            if horizontal { lines.move(to: Point(p.minX, edge)); lines.line(to: Point(p.maxX, edge)) }
            else { lines.move(to: Point(edge, p.minY)); lines.line(to: Point(edge, p.maxY)) }
        }
        let out: Double = (a.side == .bottom || a.side == .trailing) ? 1 : -1
        let angle = a.labelAngle * .pi / 180
        var labelReach = 0.0
        for t in ticks {
            let pos = snap(scale(t.value), 1)
            if horizontal && (pos < p.minX - 1 || pos > p.maxX + 1) { continue }
            if !horizontal && (pos < p.minY - 1 || pos > p.maxY + 1) { continue }
            if a.tickLength > 0 {
                var tickPath = Path()
                if horizontal { tickPath.move(to: Point(pos, edge)); tickPath.line(to: Point(pos, edge + out * a.tickLength)) }
                else { tickPath.move(to: Point(edge, pos)); tickPath.line(to: Point(edge + out * a.tickLength, pos)) }
                if t.opacity == 1 { lines.append(contentsOf: tickPath) }
                else if let k = fadingLines.firstIndex(where: { $0.opacity == t.opacity }) { fadingLines[k].path.append(contentsOf: tickPath) }
                else { fadingLines.append((t.opacity, tickPath)) }
            }
            let gap = max(0, a.tickLength) + 3
            let position: Point, anchor: TextAnchor
            switch a.side {
            case .bottom:
                position = Point(scale(t.value), edge + gap)
                anchor = angle == 0 ? TextAnchor(.center, .top) : TextAnchor(angle < 0 ? .trailing : .leading, .center)
            case .top:
                position = Point(scale(t.value), edge - gap)
                anchor = angle == 0 ? TextAnchor(.center, .bottom) : TextAnchor(angle < 0 ? .leading : .trailing, .center)
            case .leading:
                position = Point(edge - gap, scale(t.value)); anchor = TextAnchor(.trailing, .center)
            case .trailing:
                position = Point(edge + gap, scale(t.value)); anchor = TextAnchor(.leading, .center)
            }
            guard a.showLabels else { continue }
            var node = TextNode(id: "tick-label", t.label, font: s.font, size: s.labelSize, color: s.secondaryTextColor,
                                position: position, anchor: anchor, rotation: horizontal ? angle : 0)
            if t.opacity < 1 { node.opacity = .constant(t.opacity) }
            let lh = lineHeight(s.font, s.labelSize)
            labelReach = max(labelReach, horizontal ? abs(node.metrics.width * sin(angle)) + abs(lh * cos(angle)) : node.metrics.width)
            children.append(.text(node))
        }
        children.insert(.shape(ShapeNode(id: "axis-line", path: lines, stroke: (.solid(s.axisColor), StrokeStyle(width: 1, cap: .butt)), frame: p)), at: 0)
        for (k, f) in fadingLines.enumerated() {
            var tick = ShapeNode(id: "axis-ticks-fading", path: f.path, stroke: (.solid(s.axisColor), StrokeStyle(width: 1, cap: .butt)), frame: p)
            tick.opacity = .constant(f.opacity)
            children.insert(.shape(tick), at: 1 + k)
        }
        if let title = a.title {
            let reach = max(0, a.tickLength) + 3 + labelReach + 6
            let node: TextNode
            switch a.side {
            case .bottom:
                node = TextNode(id: "axis-title", title, font: s.font, size: s.axisTitleSize, color: s.textColor,
                                position: Point(p.midX, edge + reach), anchor: TextAnchor(.center, .top))
            case .top:
                node = TextNode(id: "axis-title", title, font: s.font, size: s.axisTitleSize, color: s.textColor,
                                position: Point(p.midX, edge - reach), anchor: TextAnchor(.center, .bottom))
            case .leading:
                node = TextNode(id: "axis-title", title, font: s.font, size: s.axisTitleSize, color: s.textColor,
                                position: Point(edge - reach, p.midY), anchor: TextAnchor(.center, .bottom), rotation: -.pi / 2)
            case .trailing:
                node = TextNode(id: "axis-title", title, font: s.font, size: s.axisTitleSize, color: s.textColor,
                                position: Point(edge + reach, p.midY), anchor: TextAnchor(.center, .bottom), rotation: .pi / 2)
            }
            children.append(.text(node))
        }
        return .group(GroupNode(id: "axis-\(a.side.rawValue)", children: children, opacity: a.opacity))
    }

    func extremeNodes(_ e: ExtremesSpec, _ l: ChartState) -> [Node] {
        let s = style, p = l.plot
        let ys = l.yResolved.values.compactMap { $0 }
        guard let maxV = ys.max() else { return [] }
        var hi = TextNode(id: "max-label", e.format.format(maxV), font: s.font, size: s.labelSize, color: s.secondaryTextColor,
                          position: Point(p.minX, p.minY - 6 - axisReach(.top, l)), anchor: TextAnchor(.leading, .bottom))
        var lo = TextNode(id: "zero-label", e.format.format(0), font: s.font, size: s.labelSize, color: s.secondaryTextColor,
                          position: Point(p.minX, p.maxY + 6 + axisReach(.bottom, l)), anchor: TextAnchor(.leading, .top))
        hi.opacity = e.opacity; lo.opacity = e.opacity
        return [.text(hi), .text(lo)]
    }

    func axisReach(_ side: Side, _ l: ChartState) -> Double {
        guard let a = axes.first(where: { $0.side == side }) else { return 0 }
        return axisExtent(a, (side == .top || side == .bottom) ? l.xTicks : l.yTicks)
    }

}
