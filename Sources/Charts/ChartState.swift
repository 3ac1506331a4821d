#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Motion
import Scene
import Text

extension ChartSpec {
    /// When anything the chart's state depends on changes: the union of its animated
    /// domains and its data's timeline; `ChangeSpan.never` for a chart whose state is
    /// the same at every time.
    public var stateChangeSpan: ChangeSpan {
        var s = ChangeSpan.never
        if let d = x.animatedDomain { s = s.union(d.changeSpan) }
        if let d = y.animatedDomain { s = s.union(d.changeSpan) }
        if let tl = timeline { s = s.union(tl.changeSpan) }
        return s
    }

    /// The chart with the rows shown at time `t`: its timeline's rows at that moment, or
    /// itself when its rows are fixed.
    public func snapshot(at t: Double) -> ChartSpec {
        guard let tl = timeline else { return self }
        var s = self
        s.data = tl.rows(at: t)
        s.moment = tl.moment(at: t)
        s.timeline = nil
        if s.fieldOrders[tl.keyField] == nil { s.fieldOrders[tl.keyField] = tl.keys }
        return s
    }

    /// Whether the chart's state is the same at every time (every chart without an
    /// animated domain or moving data): it is computed once and its nodes built once.
    public var isStatic: Bool { stateChangeSpan == .never }

    /// The chart's state at time `t`: its domains resolved from the data and the
    /// document, widened for stacks and ranges, its ticks, and the plot rectangle the
    /// guides leave, with the scales onto it. A pure function of the spec and `t`.
    public func state(at t: Double) -> ChartState {
        if timeline != nil { return snapshot(at: t).state(at: t) }
        var xr = resolve(x, at: t), yr = resolve(y, at: t)
        // Stacked marks and value ranges reach beyond the raw values: widen the domains
        // the data decides (not the ones the document fixes) to cover them.
        let provisional = ChartState.unplaced(frame, x: xr, y: yr)
        for (isX, channel) in [(false, y), (true, x)] where channel.domain == nil && channel.animatedDomain == nil {
            guard let ext = stackedExtent(isX, provisional) else { continue }
            var r = isX ? xr : yr
            guard r.type == .linear else { continue }
            var lo = min(r.domain.0, ext.0), hi = max(r.domain.1, ext.1)
            if marks.contains(where: { $0.options.stack == StackMode.center || $0.options.stack == StackMode.normalized }) { lo = ext.0; hi = ext.1 }
            if channel.nice { (lo, hi) = NiceTicks.nice(lo, hi, count: 5) }
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
        return ChartState(plot: plot, x: xs, y: ys, xResolved: xr, yResolved: yr, xTicks: xt, yTicks: yt, content: content)
    }
}

/// A chart laid out at one moment: the plot rectangle, the scales onto it and their
/// ticks. Marks and guides are built from it (`ChartMark.nodes(in:state:)`).
public struct ChartState: Sendable {
    /// Where the marks are drawn.
    public var plot: Rect
    /// The horizontal scale onto the plot.
    public var x: PositionScale
    /// The vertical scale onto the plot.
    public var y: PositionScale
    /// What the data says about x: its scale kind, each row's value, the domain.
    public var xResolved: ChartSpec.Resolved
    /// What the data says about y.
    public var yResolved: ChartSpec.Resolved
    /// The x axis' ticks.
    public var xTicks: [AxisTick]
    /// The y axis' ticks.
    public var yTicks: [AxisTick]
    /// Where the title block, legend and value labels go.
    public var content: Rect
}

extension ChartState {
    /// Resolved channels before any layout (unit scales, no ticks): enough to turn rows
    /// into elements, for the stacked extent and for legend colours.
    static func unplaced(_ frame: Rect, x: ChartSpec.Resolved, y: ChartSpec.Resolved) -> ChartState {
        ChartState(plot: frame, x: .linear(LinearScale(domain: (0, 1), range: (0, 1))),
                   y: .linear(LinearScale(domain: (0, 1), range: (0, 1))),
                   xResolved: x, yResolved: y, xTicks: [], yTicks: [], content: frame)
    }
}
