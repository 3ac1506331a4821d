#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Motion
import Scene
import Text

/// One position channel of a chart: which field it reads and how it scales.
public struct Channel: Sendable {
    /// The field of each row.
    public var field: String
    /// The scale kind; chosen from the data when nil (numbers: linear, ISO dates: time, text: band).
    public var scale: ScaleType?
    /// The data interval shown; from the data when nil (numbers: min(0, min)…max).
    public var domain: (Double, Double)?
    /// Band order; the order of first appearance when nil.
    public var categories: [String]?
    /// Widen the domain to nice round ticks.
    public var nice = false
    /// For band scales: padding between and around the bands, in steps.
    public var paddingInner = 0.1, paddingOuter = 0.1
    /// Creates a channel reading `field`.
    public init(field: String) { self.field = field }
}

/// A tick of an axis: a data value and its label.
public struct Tick: Hashable, Sendable {
    public var value: Double
    public var label: String
}

/// A chart: data, scales, guides and marks in a frame on the canvas.
///
/// Building a chart measures its guides (titles, tick labels, legend) with the real font
/// to lay out the plot rectangle, then emits scene nodes in drawing order: card, title,
/// grid, marks, axes, value labels, legend.
public struct ChartSpec: Sendable {
    /// The rectangle the chart occupies on the canvas.
    public var frame: Rect
    /// Fonts and colours of the guides.
    public var style: ChartStyle
    /// The rows.
    public var data: [DataRow]
    /// The horizontal channel.
    public var x = Channel(field: "x")
    /// The vertical channel.
    public var y = Channel(field: "y")
    /// Fixed distance from the frame to the plot on every side; laid out from the guides when nil.
    public var inset: Double?
    /// The grid, if any.
    public var grid: GridSpec?
    /// Axes.
    public var axes: [AxisSpec] = []
    /// A legend, if any.
    public var legend: LegendSpec?
    /// Title and subtitle.
    public var title: TitleSpec?
    /// The card behind the chart.
    public var card: CardSpec?
    /// Highest-value and zero labels.
    public var extremes: ExtremesSpec?
    /// Marks, drawn in order.
    public var marks: [MarkSpec] = []

    /// Creates a chart.
    public init(frame: Rect, style: ChartStyle, data: [DataRow]) {
        self.frame = frame; self.style = style; self.data = data
    }

    // MARK: Resolving data to numbers

    /// What the data says about one channel, before any pixels.
    public struct Resolved: Sendable {
        public var type: ScaleType
        public var values: [Double?]
        public var domain: (Double, Double)
        public var categories: [String]
    }

    /// Each row's value on `c`, the scale kind and the domain.
    public func resolve(_ c: Channel) -> Resolved {
        let cells = data.map { $0[c.field] }
        var type = c.scale
        if type == nil {
            if cells.allSatisfy({ $0?.number != nil || $0 == nil }) { type = .linear }
            else if cells.allSatisfy({ $0 == nil || $0!.string.flatMap(CivilDate.parseISO) != nil }) { type = .time }
            else { type = .band }
        }
        var categories: [String] = c.categories ?? []
        var values: [Double?] = []
        switch type! {
        case .band:
            var seen = Set(categories)
            for cell in cells {
                guard let cell else { values.append(nil); continue }
                let key: String
                switch cell { case .string(let s): key = s; case .number(let v): key = NumberFormat(maxFractionDigits: 6).format(v) }
                if !seen.contains(key) { if c.categories == nil { categories.append(key); seen.insert(key) } }
                values.append(categories.firstIndex(of: key).map(Double.init))
            }
            return Resolved(type: .band, values: values, domain: (0, Double(max(1, categories.count)) - 1), categories: categories)
        case .time:
            values = cells.map { cell in
                switch cell { case .string(let s)?: return CivilDate.parseISO(s); case .number(let v)?: return v; case nil: return nil }
            }
        case .linear, .log:
            values = cells.map { $0?.number }
        }
        let finite = values.compactMap { $0 }.filter(\.isFinite)
        var lo = finite.min() ?? 0, hi = finite.max() ?? 1
        // A linear domain includes zero on both sides, so bars of all-negative data hang
        // from a zero inside the plot (as Swift Charts and Vega-Lite do).
        if type == .linear { lo = min(0, lo); hi = max(0, hi) }
        if type == .log { lo = finite.filter { $0 > 0 }.min() ?? 1; hi = max(hi, lo) }
        if let d = c.domain { lo = d.0; hi = d.1 }
        if lo == hi { if type == .log { hi = lo * 10 } else if lo == 0 { hi = 1 } else { lo = min(0, lo); hi = max(0, hi); if lo == hi { hi = lo + 1 } } }
        if c.nice && c.domain == nil && type == .linear { (lo, hi) = Ticks.nice(lo, hi, count: 5) }
        return Resolved(type: type!, values: values, domain: (lo, hi), categories: categories)
    }

    /// The ticks of an axis on a resolved channel.
    public func ticks(_ r: Resolved, axis: AxisSpec?) -> [Tick] {
        let count = axis?.tickCount ?? 5
        switch r.type {
        case .band:
            return r.categories.enumerated().map { Tick(value: Double($0.offset), label: $0.element) }
        case .linear:
            let values = axis?.values ?? Ticks.ticks(r.domain.0, r.domain.1, count: count)
            let digits = values.count > 1 ? Ticks.fractionDigits(forStep: Ticks.step(r.domain.0, r.domain.1, count: count)) : 2
            let fmt: NumberFormat
            if case .number(let f?)? = axis?.format { fmt = f } else { fmt = NumberFormat(minFractionDigits: digits, maxFractionDigits: digits) }
            return values.map { Tick(value: $0, label: fmt.format($0)) }
        case .log:
            let values = axis?.values ?? Ticks.logTicks(r.domain.0, r.domain.1, count: count)
            let fmt: NumberFormat
            if case .number(let f?)? = axis?.format { fmt = f } else { fmt = NumberFormat(maxFractionDigits: 6) }
            return values.map { Tick(value: $0, label: fmt.format($0)) }
        case .time:
            let iv = TimeTicks.interval(r.domain.0, r.domain.1, count: count)
            let values = axis?.values ?? TimeTicks.ticks(r.domain.0, r.domain.1, interval: iv)
            let fmt: DateFormat
            if case .date(let f?)? = axis?.format { fmt = f } else { fmt = DateFormat(iv.labelPattern) }
            return values.map { Tick(value: $0, label: fmt.format($0)) }
        }
    }

    /// A position scale for a resolved channel onto a pixel range.
    public func scale(_ r: Resolved, _ c: Channel, range: (Double, Double)) -> PositionScale {
        switch r.type {
        case .linear: return .linear(LinearScale(domain: r.domain, range: range))
        case .log: return .log(LogScale(domain: r.domain, range: range))
        case .time: return .time(TimeScale(domain: r.domain, range: range))
        case .band: return .band(BandScale(domain: r.categories, range: range, paddingInner: c.paddingInner, paddingOuter: c.paddingOuter))
        }
    }

    // MARK: Layout

    /// The laid-out chart: the plot rectangle and the scales onto it.
    public struct Layout: Sendable {
        public var plot: Rect
        public var x: PositionScale
        public var y: PositionScale
        public var xResolved: Resolved
        public var yResolved: Resolved
        public var xTicks: [Tick]
        public var yTicks: [Tick]
        /// Where the title block, legend and value labels go.
        public var content: Rect
    }

    func lineHeight(_ f: Font, _ size: Double) -> Double { f.ascent(size: size) + f.descent(size: size) }

    /// How far an axis reaches out from the plot edge.
    func axisExtent(_ a: AxisSpec, _ ticks: [Tick]) -> Double {
        let s = style
        let lh = lineHeight(s.font, s.labelSize)
        var labels = 0.0
        let angle = a.labelAngle * .pi / 180
        for t in ticks {
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

    var legendEntries: [(name: String, color: Color)] {
        if let e = legend?.entries { return e }
        var out: [(name: String, color: Color)] = []
        for m in marks {
            if m.kind == .sector {
                out += sectorSlices(m).map { ($0.name, $0.color) }
                continue
            }
            let names = seriesNames(m)
            if m.series != nil && names.count > 1 {
                // One entry per series, in the colour its first element gets.
                let l = Layout(plot: frame, x: .linear(LinearScale(domain: (0, 1), range: (0, 1))),
                               y: .linear(LinearScale(domain: (0, 1), range: (0, 1))),
                               xResolved: resolve(x), yResolved: resolve(y), xTicks: [], yTicks: [], content: frame)
                let els = elements(m, l)
                for n in names { if let e = els.first(where: { $0.series == n }) { out.append((n, e.color)) } }
            } else if let n = m.name {
                out.append((n, m.legendColor))
            }
        }
        return out
    }

    func legendSize(_ width: Double) -> (w: Double, h: Double) {
        let rows = legendRows(width)
        let lh = lineHeight(style.font, style.labelSize)
        let w = rows.map { r in r.last.map { $0.x + $0.w } ?? 0 }.max() ?? 0
        return (w, Double(rows.count) * lh + Double(max(0, rows.count - 1)) * 4)
    }

    /// Lays the chart out in its frame.
    public func layout() -> Layout {
        var xr = resolve(x), yr = resolve(y)
        // Stacked marks and value ranges reach beyond the raw values: widen the domains
        // the data decides (not the ones the document fixes) to cover them.
        let provisional = Layout(plot: frame, x: .linear(LinearScale(domain: (0, 1), range: (0, 1))),
                                 y: .linear(LinearScale(domain: (0, 1), range: (0, 1))),
                                 xResolved: xr, yResolved: yr, xTicks: [], yTicks: [], content: frame)
        for (isX, channel) in [(false, y), (true, x)] where channel.domain == nil {
            guard let ext = stackedExtent(isX, provisional) else { continue }
            var r = isX ? xr : yr
            guard r.type == .linear else { continue }
            var lo = min(r.domain.0, ext.0), hi = max(r.domain.1, ext.1)
            if marks.contains(where: { $0.stack == .center || $0.stack == .normalized }) { lo = ext.0; hi = ext.1 }
            if channel.nice { (lo, hi) = Ticks.nice(lo, hi, count: 5) }
            r.domain = (lo, hi)
            if isX { xr = r } else { yr = r }
        }
        let xAxis = axes.first { $0.side == .top || $0.side == .bottom }
        let yAxis = axes.first { $0.side == .leading || $0.side == .trailing }
        let xt = ticks(xr, axis: xAxis), yt = ticks(yr, axis: yAxis)
        // A card pads its content; without one a small margin keeps labels off the frame's edge.
        let content = frame.insetBy(card?.padding ?? 8)
        var top = content.minY, bottom = content.maxY, left = content.minX, right = content.maxX
        let s = style
        if let t = title {
            if t.textStyle != nil {
                let (tn, sn) = titleTextNodes(t, width: content.width, y: 0)
                top += tn.box.height
                if let sn { top += 2 + sn.box.height }
            } else {
                top += lineHeight(s.boldFont, s.titleSize)
                if t.subtitle != nil { top += 2 + lineHeight(s.font, s.subtitleSize) }
            }
            top += 10
        }
        if let l = legend, !legendEntries.isEmpty {
            let size = legendSize(right - left)
            switch l.side {
            case .top: top += size.h + 10
            case .bottom: bottom -= size.h + 10
            case .leading: left += legendSize(120).w + 14
            case .trailing: right -= legendSize(120).w + 14
            }
        }
        if extremes != nil {
            let lh = lineHeight(s.font, s.labelSize)
            top += lh + 6; bottom -= lh + 6
        }
        for a in axes {
            let e = axisExtent(a, (a.side == .top || a.side == .bottom) ? xt : yt)
            switch a.side {
            case .top: top += e
            case .bottom: bottom -= e
            case .leading: left += e
            case .trailing: right -= e
            }
        }
        var plot = Rect(x: left, y: top, width: max(1, right - left), height: max(1, bottom - top))
        if let i = inset { plot = frame.insetBy(i) }
        let xs = scale(xr, x, range: (plot.minX, plot.maxX))
        // Values grow upwards; categories read top to bottom, as in Swift Charts.
        let ys = scale(yr, y, range: yr.type == .band ? (plot.minY, plot.maxY) : (plot.maxY, plot.minY))
        return Layout(plot: plot, x: xs, y: ys, xResolved: xr, yResolved: yr, xTicks: xt, yTicks: yt, content: content)
    }

    // MARK: Building the scene

    /// The chart's scene nodes, in drawing order, inside one group.
    public func build(id: String? = nil) -> Node {
        let l = layout()
        var children: [Node] = []
        if let c = card {
            children.append(.shape(ShapeNode(id: "card", path: Path.roundedRect(frame, cornerRadius: c.cornerRadius), fill: (.solid(c.color), .nonZero))))
        }
        if let t = title { children.append(contentsOf: titleNodes(t, l)) }
        if let g = grid { children.append(contentsOf: gridNodes(g, l)) }
        for m in marks { children.append(markNode(m, l)) }
        for a in axes { children.append(axisNode(a, l)) }
        if let e = extremes { children.append(contentsOf: extremeNodes(e, l)) }
        if let lg = legend, !legendEntries.isEmpty { children.append(legendNode(lg, l)) }
        return .group(GroupNode(id: id, children: children))
    }

    /// The title's and subtitle's text nodes when the title has a text style: set as
    /// blocks no wider than `width` (unless the style says), the title's first baseline at `y`.
    func titleTextNodes(_ t: TitleSpec, width: Double, y: Double, x: Double = 0) -> (TextNode, TextNode?) {
        let s = style
        var block = t.textStyle ?? .singleLine
        if block.maxWidth == nil { block.maxWidth = width }
        let n = TextNode(id: "title", t.title, font: s.boldFont, size: s.titleSize, color: s.textColor,
                         position: Point(x, y + s.boldFont.ascent(size: s.titleSize)), options: t.shaping, style: block)
        guard let sub = t.subtitle else { return (n, nil) }
        let top = n.position.y + n.metrics.descent + 2
        var m = TextNode(id: "subtitle", sub, font: s.font, size: s.subtitleSize, color: s.secondaryTextColor,
                         position: Point(x, top), options: t.shaping, style: block)
        m.position.y += m.metrics.ascent
        return (n, m)
    }

    func titleNodes(_ t: TitleSpec, _ l: Layout) -> [Node] {
        if t.textStyle != nil {
            var (n, m) = titleTextNodes(t, width: l.content.width, y: l.content.minY, x: l.content.minX)
            n.opacity = t.opacity
            m?.opacity = t.opacity
            return [.text(n)] + (m.map { [.text($0)] } ?? [])
        }
        let s = style
        var y = l.content.minY + s.boldFont.ascent(size: s.titleSize)
        var out: [Node] = []
        var n = TextNode(id: "title", t.title, font: s.boldFont, size: s.titleSize, color: s.textColor, position: Point(l.content.minX, y))
        n.opacity = t.opacity
        out.append(.text(n))
        if let sub = t.subtitle {
            y += s.boldFont.descent(size: s.titleSize) + 2 + s.font.ascent(size: s.subtitleSize)
            var m = TextNode(id: "subtitle", sub, font: s.font, size: s.subtitleSize, color: s.secondaryTextColor, position: Point(l.content.minX, y))
            m.opacity = t.opacity
            out.append(.text(m))
        }
        return out
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

    func gridNodes(_ g: GridSpec, _ l: Layout) -> [Node] {
        let p = l.plot
        var path = Path()
        let xs: [Double] = g.xStep.map { steps(min(l.xResolved.domain.0, l.xResolved.domain.1), max(l.xResolved.domain.0, l.xResolved.domain.1), $0) }
            ?? (g.xAtTicks ? l.xTicks.map(\.value) : [])
        let ys: [Double] = g.yStep.map { steps(min(l.yResolved.domain.0, l.yResolved.domain.1), max(l.yResolved.domain.0, l.yResolved.domain.1), $0) }
            ?? (g.yAtTicks ? l.yTicks.map(\.value) : [])
        for v in xs {
            let px = snap(min(l.x(v), p.maxX - 0.5), g.width)
            path.move(to: Point(px, p.minY)); path.line(to: Point(px, p.maxY))
        }
        for v in ys {
            let py = snap(min(l.y(v), p.maxY - 0.5), g.width)
            path.move(to: Point(p.minX, py)); path.line(to: Point(p.maxX, py))
        }
        var node = ShapeNode(id: "grid", path: path, stroke: (.solid(g.color), StrokeStyle(width: g.width, cap: .butt)), frame: p)
        node.opacity = g.opacity
        var out: [Node] = [.shape(node)]
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

    func axisNode(_ a: AxisSpec, _ l: Layout) -> Node {
        let s = style, p = l.plot
        let horizontal = a.side == .top || a.side == .bottom
        let ticks = horizontal ? l.xTicks : l.yTicks
        let scale = horizontal ? l.x : l.y
        var lines = Path()
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
                if horizontal { lines.move(to: Point(pos, edge)); lines.line(to: Point(pos, edge + out * a.tickLength)) }
                else { lines.move(to: Point(edge, pos)); lines.line(to: Point(edge + out * a.tickLength, pos)) }
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
            let node = TextNode(id: "tick-label", t.label, font: s.font, size: s.labelSize, color: s.secondaryTextColor,
                                position: position, anchor: anchor, rotation: horizontal ? angle : 0)
            let lh = lineHeight(s.font, s.labelSize)
            labelReach = max(labelReach, horizontal ? abs(node.metrics.width * sin(angle)) + abs(lh * cos(angle)) : node.metrics.width)
            children.append(.text(node))
        }
        children.insert(.shape(ShapeNode(id: "axis-line", path: lines, stroke: (.solid(s.axisColor), StrokeStyle(width: 1, cap: .butt)), frame: p)), at: 0)
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

    func extremeNodes(_ e: ExtremesSpec, _ l: Layout) -> [Node] {
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

    func legendNode(_ lg: LegendSpec, _ l: Layout) -> Node {
        let s = style, p = l.plot
        let width: Double = (lg.side == .top || lg.side == .bottom) ? l.content.width : 120
        let rows = legendRows(width)
        let size = legendSize(width)
        let lh = lineHeight(s.font, s.labelSize)
        var origin: Point
        switch lg.side {
        case .top: origin = Point(l.content.minX, p.minY - size.h - 10 - (extremes != nil ? lh + 6 : 0) - axisReach(.top, l))
        case .bottom: origin = Point(l.content.minX, l.content.maxY - size.h)
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

    func axisReach(_ side: Side, _ l: Layout) -> Double {
        guard let a = axes.first(where: { $0.side == side }) else { return 0 }
        return axisExtent(a, (side == .top || side == .bottom) ? l.xTicks : l.yTicks)
    }

}
