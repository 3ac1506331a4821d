import Geometry
import Raster
import Scene
import Text

/// Where a text mark sits relative to its data point.
///
/// `insideEnd` is for labels on horizontal bars (a race): inside the bar's end when the
/// label fits between the bar's base and its end, in `insideColor` (by default white or
/// the text colour, whichever reads better on the bar); after the end, in the label's
/// colour, when it does not. A bar below zero has its end on the left: the label sits
/// inside it from there, or before it.
public enum TextPosition: String, Hashable, Sendable, CaseIterable { case center, top, bottom, leading, trailing, insideEnd }

/// A label per row at its data point: a field's value, a number formatted, or a fixed
/// text; `count` makes numbers count up, `atPeak` puts one label per series where it is
/// thickest.
public struct TextMarkSpec: ChartMark {
    public static let kind = MarkKind.text
    /// What every mark has.
    public var options: MarkOptions
    /// The field whose value is shown.
    public var field: String?
    /// Fixed text instead of a field.
    public var literal: String?
    /// How numbers are written.
    public var format = NumberFormat()
    /// Size in pixels.
    public var fontSize: Double = 12
    /// Colour; the chart's text colour when nil.
    public var color: Color?
    /// Where the label sits relative to its point.
    public var position: TextPosition = .top
    /// Distance in pixels from the point, away from it.
    public var offset: Double = 6
    /// Rotation in degrees.
    public var angle: Double = 0
    /// A pill behind each label.
    public var background: TextBackground?
    /// OpenType features, language and direction. Number labels get tabular figures
    /// unless the features say otherwise (`"-tnum"`).
    public var shaping: ShapingOptions = .default
    /// Maximum width, wrapping or truncation, line height and alignment.
    public var block: TextBlockStyle = .singleLine
    /// One label per series at its peak, naming the series, centred in its band (the baby-names labels).
    public var atPeak = false
    /// The colour of an `insideEnd` label that fits inside its bar; nil: white or a dark
    /// text colour, whichever has the higher contrast with the bar it sits on (the chart's
    /// first bar mark, in that row's colour), white where there is no bar mark.
    public var insideColor: Color?
    /// Labels that would overlap are pushed apart vertically, each keeping a thin leader
    /// line to its point (labels at the ends or heads of lines).
    public var separate = false
    /// Smallest room between separated labels, in pixels.
    public var separation: Double = 2
    /// Labels of grouped bars: the field that places bars side by side in their band
    /// (`BarMarkSpec.groupField`), so each label stands over its own bar.
    public var groupField: String?

    /// Creates labels.
    public init(options: MarkOptions = MarkOptions()) { self.options = options }

    /// Labels with the encoding's colours grow from their bar's base only when they sit
    /// on a bar's end.
    public var growsFromBaseline: Bool { position == .insideEnd }

    public func nodes(in chart: ChartSpec, state l: ChartState) -> [Node] {
        let o = options, data = chart.data, style = chart.style
        var els = chart.elements(self, l)
        let horizontal = chart.isHorizontal(self, l)
        if atPeak { els = chart.peaks(els) }
        let offsets = chart.staggerOffsets(o, count: els.count, values: els.map(\.high))
        // A colour encoding colours the labels (a label per series in its series' colour).
        let encoded = o.color != nil
        var labels: [(node: TextNode, point: Point, row: Int)] = []
        let groups = chart.groupSlots(els, field: groupField)
        let inside = insideColors(els, chart: chart)
        for (i, e) in els.enumerated() {
            let value = atPeak ? (e.low + e.high) / 2 : e.high
            var point = horizontal ? Point(l.x(value), l.y(e.key)) : Point(l.x(e.key), l.y(value))
            if let g = groups[i] { point = chart.grouped(point, g, l, horizontal: horizontal) }
            let text: String
            var isNumber = false
            if let lit = literal {
                text = chart.momentText(lit, row: data[e.row])
                // A label that names the moment or its row's numbers counts as they change.
                isNumber = text != lit
            }
            else if atPeak { text = e.series }
            else if let f = field {
                switch data[e.row][f] { case .number(let v)?: text = format.format(v); isNumber = true; case .string(let s)?: text = s; case nil: text = "" }
            } else { text = format.format(e.high); isNumber = true }
            var shaping = self.shaping
            // Value labels: tabular figures, so labels of one column line up digit by digit
            // and a counting number does not jitter.
            if isNumber && !shaping.features.contains(where: { $0.contains("tnum") }) { shaping.features.append("tnum") }
            let anchor: TextAnchor, pos: Point
            let off = atPeak ? 0 : offset
            switch atPeak ? .center : position {
            case .center: anchor = TextAnchor(.center, .center); pos = point
            case .top: anchor = TextAnchor(.center, .bottom); pos = Point(point.x, point.y - off)
            case .bottom: anchor = TextAnchor(.center, .top); pos = Point(point.x, point.y + off)
            case .leading: anchor = TextAnchor(.trailing, .center); pos = Point(point.x - off, point.y)
            case .trailing, .insideEnd: anchor = TextAnchor(.leading, .center); pos = Point(point.x + off, point.y)
            }
            var node = TextNode(id: "\(o.id ?? "label")[\(i)]", text, font: style.font, size: fontSize,
                                color: color ?? (encoded ? e.color : style.textColor), position: pos, anchor: anchor,
                                rotation: angle * .pi / 180, background: background, options: shaping, style: block)
            if position == .insideEnd && !atPeak {
                // Inside the bar's end when the label fits between its base and its end; a
                // bar below zero ends on the left, so the label goes the other way.
                let base = l.x(0), below = point.x < base
                let room = abs(point.x - base)
                let fits = node.metrics.width + 2 * off <= room
                let place: (Point, TextAnchor.Horizontal)? = switch (fits, below) {
                case (true, false): (Point(point.x - off, point.y), .trailing)
                case (true, true): (Point(point.x + off, point.y), .leading)
                case (false, true): (Point(point.x - off, point.y), .trailing)
                case (false, false): nil
                }
                if let (p, h) = place {
                    node = TextNode(id: node.id, text, font: style.font, size: fontSize,
                                    color: fits ? inside[i] : node.color,
                                    position: p, anchor: TextAnchor(h, .center),
                                    rotation: angle * .pi / 180, background: background, options: shaping, style: block)
                }
            }
            if let count = o.count, literal == nil, !atPeak {
                // The number counts up to its value with the animation's easing.
                let target = field.flatMap { data[e.row][$0]?.number } ?? e.high
                // Floored while it counts (a year counter at 1999.7 reads 1999), the label's
                // own text once it arrives.
                let fmt = format, counting = format.counting
                node.counter = (chart.staggered(count, offsets, i).scaled(by: target), { $0 == target ? fmt.format($0) : counting.format($0) })
            }
            node.opacity = chart.elementOpacity(chart.staggered(o.opacity, offsets, i), row: e.row)
            if let sc = o.scale {
                node.motion.scaleX = chart.staggered(sc, offsets, i); node.motion.scaleY = chart.staggered(sc, offsets, i); node.motion.anchor = pos
            }
            // Labels of data in motion move every frame (riding a race's bars, a line's
            // head): placed to a quarter pixel, their coverage is drawn once per quarter and
            // replayed (at most 1/8 px from the exact place; TextNode.subpixelSteps).
            if chart.timeline != nil || chart.moment != nil { node.subpixelSteps = 4 }
            labels.append((node, point, e.row))
        }
        if separate { return separated(labels, l, chart) }
        return labels.map { chart.flown(.text($0.node), row: $0.row, l) }
    }

    /// The colour of each element's label inside its bar: `insideColor`, or the better
    /// reading of white and a dark text colour on the colour the chart's first bar mark
    /// gives that row.
    func insideColors(_ els: [MarkElement], chart: ChartSpec) -> [Color] {
        guard position == .insideEnd && !atPeak else { return [] }
        if let insideColor { return Array(repeating: insideColor, count: els.count) }
        guard let bar = chart.marks.first(where: { $0 is BarMarkSpec }) else { return Array(repeating: .white, count: els.count) }
        let text = chart.style.textColor
        let dark = Palette.luminance(text) < 0.2 ? text : Color(hex: "#1A1A1A")!
        let names = chart.seriesNames(bar)
        var cache = ColorCache()
        var chosen: [Color: Color] = [:]
        return els.map { e in
            let c = chart.color(of: e, bar, seriesNames: names, cache: &cache)
            if let hit = chosen[c] { return hit }
            let pick = Palette.readable(on: Palette.seen(c), light: .white, dark: dark)
            chosen[c] = pick
            return pick
        }
    }

    /// The labels pushed apart vertically so none overlaps another, each moved as little
    /// as it can: labels are sorted by where they want to be, and a run of labels that
    /// would touch is set as one block centred on their wanted places (the mean), kept
    /// inside the plot, merging with the run above when it reaches it. A block moves
    /// continuously as its labels do, so separated labels do not jitter from frame to
    /// frame. A label moved from its point gets a thin leader line back to it.
    func separated(_ labels: [(node: TextNode, point: Point, row: Int)], _ l: ChartState, _ chart: ChartSpec) -> [Node] {
        guard labels.count > 1 else { return labels.map { chart.flown(.text($0.node), row: $0.row, l) } }
        struct Block { var items: [Int]; var top: Double; var height: Double; var sum: Double }
        let heights = labels.map { $0.node.metrics.ascent + $0.node.metrics.descent + separation }
        // Where each label's box would start (its centre minus half its height).
        let wanted = labels.indices.map { i in labels[i].node.position.y - heights[i] / 2 }
        let order = labels.indices.sorted { wanted[$0] != wanted[$1] ? wanted[$0] < wanted[$1] : $0 < $1 }
        let minY = l.plot.minY, maxY = l.plot.maxY
        var blocks: [Block] = []
        for i in order {
            // `sum` is the total of (wanted top − offset in the block), whose mean is the
            // block's best top.
            var b = Block(items: [i], top: wanted[i], height: heights[i], sum: wanted[i])
            func place(_ b: inout Block) {
                b.top = b.sum / Double(b.items.count)
                b.top = max(minY, min(b.top, maxY - b.height))
            }
            place(&b)
            while let last = blocks.last, last.top + last.height > b.top {
                blocks.removeLast()
                var merged = Block(items: last.items + b.items, top: 0, height: last.height + b.height, sum: last.sum)
                var offset = last.height
                for j in b.items { merged.sum += wanted[j] - offset; offset += heights[j] }
                place(&merged)
                b = merged
            }
            blocks.append(b)
        }
        var out: [Node] = []
        for b in blocks {
            var y = b.top
            for i in b.items {
                var node = labels[i].node
                let centre = y + heights[i] / 2
                let moved = centre - node.position.y
                node.position.y = centre
                y += heights[i]
                if abs(moved) > 0.5 {
                    // A leader from the point to the label's near side.
                    let p = labels[i].point
                    let toX = node.anchor.horizontal == .trailing ? node.position.x + 2 : node.position.x - 2
                    var path = Path()
                    path.move(to: p); path.line(to: Point(toX, centre))
                    var leader = ShapeNode(id: "leader", path: path, stroke: (.solid(node.color.opacity(0.6)), StrokeStyle(width: 1, cap: .butt)))
                    leader.opacity = node.opacity
                    out.append(chart.flown(.shape(leader), row: labels[i].row, l))
                }
                out.append(chart.flown(.text(node), row: labels[i].row, l))
            }
        }
        return out
    }
}
