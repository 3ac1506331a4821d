import Geometry
import Raster
import Scene
import Text

/// A line across the plot at each row's x (vertical) or y (horizontal), optionally
/// between two values; `atPeak` puts one rule at each series' peak.
public struct RuleMarkSpec: StrokedMark {
    public static let kind = MarkKind.rule
    /// What every mark has.
    public var options: MarkOptions
    /// Vertical rules at x (true) or horizontal rules at y.
    public var vertical = true
    /// The stroke: 1 px of grey by default.
    public var stroke: (paint: NodePaint, style: StrokeStyle)? = RuleMarkSpec.defaultStroke
    /// One rule per series, at the row where the series is thickest (the baby-names rulers).
    public var atPeak = false
    /// A label beside each rule (Swift Charts' annotation on a rule).
    public var label: RuleLabel?

    /// The stroke a rule has unless it says otherwise.
    public static let defaultStroke: (paint: NodePaint, style: StrokeStyle) = (.solid(Color(r: 0.4, g: 0.4, b: 0.4)), StrokeStyle(width: 1))

    /// Creates rules.
    public init(options: MarkOptions = MarkOptions()) { self.options = options }

    public func nodes(in chart: ChartSpec, state l: ChartState) -> [Node] {
        let o = options, p = l.plot, data = chart.data
        var out: [Node] = []
        var rows = chart.rowIndices(self)
        if atPeak { rows = chart.peaks(chart.elements(self, l)).map(\.row) }
        let offsets = chart.staggerOffsets(o, count: rows.count, values: [])
        for (i, r) in rows.enumerated() {
            let seg: (Point, Point)
            if vertical {
                guard let xv = l.xResolved.values[r] else { continue }
                let x0 = l.x(xv)
                var y0 = p.minY, y1 = p.maxY
                if let f = o.y2, let a = l.yResolved.values[r], let b = data[r][f]?.number { y0 = l.y(a); y1 = l.y(b) }
                seg = (Point(x0, min(y0, y1)), Point(x0, max(y0, y1)))
            } else {
                guard let yv = l.yResolved.values[r] else { continue }
                let y0 = l.y(yv)
                var x0 = p.minX, x1 = p.maxX
                if let f = o.x2, let a = l.xResolved.values[r], let b = data[r][f]?.number { x0 = l.x(a); x1 = l.x(b) }
                seg = (Point(min(x0, x1), y0), Point(max(x0, x1), y0))
            }
            var path = Path()
            path.move(to: seg.0); path.line(to: seg.1)
            let style = stroke?.style ?? StrokeStyle(width: 1)
            let frame = Rect(corner: seg.0, seg.1).insetBy(-style.width / 2)
            var node = ShapeNode(id: "\(o.id ?? "rule")[\(i)]", path: path, frame: frame)
            node.stroke = (stroke?.paint ?? .solid(legendColor), style)
            node.opacity = chart.staggered(o.opacity, offsets, i)
            node.trimEnd = chart.staggered(o.trimEnd, offsets, i)
            node.blendMode = o.blend
            out.append(.shape(node))
            if let lb = label, let text = data[r][lb.field].map({ chart.key($0) }), !text.isEmpty {
                var t = lb.node(text, seg.0, seg.1, vertical: vertical, chart: chart, id: "\(o.id ?? "rule")-label[\(i)]")
                t.opacity = node.opacity
                out.append(.text(t))
            }
        }
        return out
    }
}

/// The text beside a rule: at which end or side, how far, how large.
public struct RuleLabel: Sendable {
    /// The field holding each rule's text.
    public var field: String
    /// Above or below a horizontal rule, beside a vertical one (`.top`, `.bottom`,
    /// `.leading`, `.trailing`; `.center` sits on the line).
    public var position: TextPosition = .top
    /// Along the rule: at its start (`.leading`: left end, or top), middle or end.
    public var alignment: TextAnchor.Horizontal = .center
    /// Pixels between the rule and the text.
    public var offset: Double = 4
    /// Text size in pixels.
    public var fontSize: Double = 11
    /// Colour; the chart's text colour when nil.
    public var color: Color?
    /// A label reading `field`.
    public init(field: String) { self.field = field }

    /// The label's node for a rule from `a` to `b`.
    func node(_ text: String, _ a: Point, _ b: Point, vertical: Bool, chart: ChartSpec, id: String) -> TextNode {
        let style = chart.style
        var p: Point, anchor: TextAnchor
        if vertical {
            // Along the rule: the top, the middle or the bottom; beside it by position.
            let y = alignment == .leading ? a.y : alignment == .trailing ? b.y : (a.y + b.y) / 2
            let v: TextAnchor.Vertical = alignment == .leading ? .top : alignment == .trailing ? .bottom : .center
            switch position {
            case .top: p = Point(a.x, a.y - offset); anchor = TextAnchor(.center, .bottom)
            case .bottom: p = Point(a.x, b.y + offset); anchor = TextAnchor(.center, .top)
            case .leading: p = Point(a.x - offset, y); anchor = TextAnchor(.trailing, v)
            case .center: p = Point(a.x, y); anchor = TextAnchor(.center, v)
            case .trailing, .insideEnd: p = Point(a.x + offset, y); anchor = TextAnchor(.leading, v)
            }
        } else {
            let x = alignment == .leading ? a.x : alignment == .trailing ? b.x : (a.x + b.x) / 2
            switch position {
            case .top: p = Point(x, a.y - offset); anchor = TextAnchor(alignment, .bottom)
            case .bottom: p = Point(x, a.y + offset); anchor = TextAnchor(alignment, .top)
            case .leading: p = Point(a.x - offset, a.y); anchor = TextAnchor(.trailing, .center)
            case .center: p = Point(x, a.y); anchor = TextAnchor(alignment, .center)
            case .trailing, .insideEnd: p = Point(b.x + offset, a.y); anchor = TextAnchor(.leading, .center)
            }
        }
        return TextNode(id: id, text, font: style.font, size: fontSize, color: color ?? style.textColor, position: p, anchor: anchor)
    }
}

extension ChartSpec {
    /// One element per series, where the series is thickest (high − low), in the order
    /// the series first appear: where peak rules and labels stand.
    func peaks(_ els: [MarkElement]) -> [MarkElement] {
        var best: [String: MarkElement] = [:], order: [String] = []
        for e in els {
            if best[e.series] == nil { order.append(e.series); best[e.series] = e }
            else if e.high - e.low > best[e.series]!.high - best[e.series]!.low { best[e.series] = e }
        }
        return order.compactMap { best[$0] }
    }
}
