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
        if let tl = timeline {
            var span = tl.changeSpan
            // A wake keeps catching up with the data for its length after the data stops.
            let wake = marks.compactMap { $0.options.trail?.length }.max() ?? 0
            if span != .never && wake > 0 { span = ChangeSpan(start: span.start, end: span.end + wake) }
            s = s.union(span)
        }
        return s
    }

    /// The chart with the rows shown at time `t`: its timeline's rows at that moment, or
    /// itself when its rows are fixed. Domains that follow the data are fixed for the
    /// moment (see `DomainFollow`).
    public func snapshot(at t: Double) -> ChartSpec {
        guard let tl = timeline else { return self }
        let p = tl.position(at: t)
        var s = snapshot(tl, atPosition: p)
        for (i, m) in marks.enumerated() where m.options.trail != nil || m.options.trace != nil {
            let g = ghosts(of: m, tl, t: t, position: p)
            if !g.isEmpty { s.ghostRows[i] = g }
        }
        return s
    }

    /// The chart with the rows at a fractional step position of its timeline.
    func snapshot(_ tl: DataTimeline, atPosition p: Double) -> ChartSpec {
        var s = stepBase(tl)
        s.data = tl.table(atPosition: p)
        s.moment = tl.moment(atPosition: p)
        let followsX = follows(s.x), followsY = follows(s.y)
        guard followsX || followsY, !tl.steps.isEmpty else { return s }
        let i = max(0, min(tl.steps.count - 1, Int(p.rounded(.down)))), f = max(0, min(1, p - Double(i)))
        let j = min(i + 1, tl.steps.count - 1)
        let a = s.stepDomains(tl, step: i)
        let b = (j == i || f == 0) ? a : s.stepDomains(tl, step: j)
        func blend(_ c: inout Channel, _ da: (Double, Double)?, _ db: (Double, Double)?) {
            guard let da, let db else { return }
            c.domain = (da.0 + (db.0 - da.0) * f, da.1 + (db.1 - da.1) * f)
            c.tickBlend = TickBlend(from: da, to: db, fraction: f)
            c.nice = false
            c.domainFollows = true
        }
        if followsX { blend(&s.x, a.x, b.x) }
        if followsY { blend(&s.y, a.y, b.y) }
        return s
    }

    /// The spec a snapshot starts from: no timeline, the keys' order fixed for the whole
    /// video, and the time field's axis not reaching for zero.
    private func stepBase(_ tl: DataTimeline) -> ChartSpec {
        var s = self
        s.timeline = nil
        if s.fieldOrders[tl.keyField] == nil {
            s.fieldOrders[tl.keyField] = tl.keys
            s.fieldOrderIndex[tl.keyField] = (tl.keys, tl.keyIndex)
        }
        if let names = tl.stepNames, s.fieldOrders[tl.timeField] == nil {
            s.fieldOrders[tl.timeField] = names
            s.namedStepField = tl.timeField
        }
        if s.x.includesZero == nil && s.x.field == tl.timeField { s.x.includesZero = false }
        if s.y.includesZero == nil && s.y.field == tl.timeField { s.y.includesZero = false }
        if s.fieldExtents.isEmpty { s.fieldExtents = Self.extents(tl.allTable) }
        return s
    }

    /// Whether a channel's domain follows moving data: the document fixes none and does
    /// not animate it, and the follow rule moves it.
    private func follows(_ c: Channel) -> Bool {
        c.domain == nil && c.animatedDomain == nil && c.scale != .band
    }

    /// The following domains at time step `i`: those of a still chart of the step's rows
    /// (stacks included), padded at the moving ends, the fixed ends taken from the whole
    /// timeline, then made nice when the channel asks. Nil for a band channel.
    func stepDomains(_ tl: DataTimeline, step i: Int) -> (x: (Double, Double)?, y: (Double, Double)?) {
        var s = self
        s.data = tl.table(atPosition: Double(i))
        s.x.nice = false; s.y.nice = false
        let (xr, yr) = s.resolvedChannels(at: 0)
        func domain(_ c: Channel, _ r: Resolved, isX: Bool) -> (Double, Double)? {
            guard follows(c), r.type != .band else { return nil }
            var (lo, hi) = r.domain
            let whole = c.follow.ends == .both ? nil : (c.timelineExtent ?? timelineExtent(tl, isX: isX))
            if c.follow.ends == .fixed, let w = whole { (lo, hi) = w }
            let isLog = r.type == .log && lo > 0 && hi > 0
            let pad = c.follow.padding
            if pad > 0 {
                if isLog {
                    let span = log(hi / lo)
                    if c.follow.ends != .max { lo /= exp(span * pad) }
                    hi *= exp(span * pad)
                } else {
                    let span = hi - lo
                    if c.follow.ends != .max { lo -= span * pad }
                    hi += span * pad
                }
            }
            if c.follow.ends == .max, let w = whole { lo = w.0 }
            if hi - lo < c.follow.minSpan {
                if c.follow.ends == .max { hi = lo + c.follow.minSpan }
                else { let mid = (lo + hi) / 2; lo = mid - c.follow.minSpan / 2; hi = mid + c.follow.minSpan / 2 }
            }
            if c.nice && r.type == .linear { (lo, hi) = NiceTicks.nice(lo, hi, count: 5) }
            return (lo, hi)
        }
        return (domain(x, xr, isX: true), domain(y, yr, isX: false))
    }

    /// A channel's domain over every row of the timeline (a still chart of all of them).
    func timelineExtent(_ tl: DataTimeline, isX: Bool) -> (Double, Double) {
        var s = self
        s.data = tl.allTable
        s.x.nice = false; s.y.nice = false
        let (xr, yr) = s.resolvedChannels(at: 0)
        return isX ? xr.domain : yr.domain
    }

    /// The chart with the extents its following domains need worked out once, so frames
    /// do not walk the whole timeline.
    func preparedForFrames() -> ChartSpec {
        guard let tl = timeline else { return self }
        var s = self
        s.fieldExtents = Self.extents(tl.allTable)
        let base = s.stepBase(tl)
        if follows(s.x) && s.x.follow.ends != .both { s.x.timelineExtent = base.timelineExtent(tl, isX: true) }
        if follows(s.y) && s.y.follow.ends != .both { s.y.timelineExtent = base.timelineExtent(tl, isX: false) }
        return s
    }

    /// Each number field's smallest and largest finite value over a table's rows.
    static func extents(_ table: DataTable) -> [String: (Double, Double)] {
        var out: [String: (Double, Double)] = [:]
        for (f, c) in zip(table.fields, table.columns) where !f.hasPrefix("\u{1}") {
            var lo = Double.infinity, hi = -Double.infinity
            for i in 0..<c.count { if let x = c.number(at: i), x.isFinite { lo = min(lo, x); hi = max(hi, x) } }
            if lo <= hi { out[f] = (lo, hi) }
        }
        return out
    }

    /// A number field's extent over the whole data (every time step of moving data).
    public func fieldExtent(_ field: String) -> (Double, Double)? {
        if let e = fieldExtents[field] { return e }
        if let tl = timeline { return Self.extents(tl.allTable)[field] }
        return Self.extents(data)[field]
    }

    /// Whether marks are drawn only inside the plot: as `clipsMarks` says, else when a
    /// domain animates or a domain the document fixes leaves some row's value outside it
    /// (a line would otherwise run across the axis into the margin).
    public func marksAreClipped(_ l: ChartState) -> Bool {
        if let c = clipsMarks { return c }
        if x.animatedDomain != nil || y.animatedDomain != nil { return true }
        func outside(_ c: Channel, _ r: Resolved) -> Bool {
            guard let d = c.domain, !c.domainFollows, r.type != .band else { return false }
            return r.values.contains { v in v.map { !$0.isNaN && !Self.domain(d, contains: $0) } ?? false }
        }
        return outside(x, l.xResolved) || outside(y, l.yResolved)
    }

    /// Whether the chart's state is the same at every time (every chart without an
    /// animated domain or moving data): it is computed once and its nodes built once.
    public var isStatic: Bool { stateChangeSpan == .never }

    /// What the data says about x and y at time `t`: each row's values and the domains,
    /// widened for stacks and value ranges where the document does not fix them.
    func resolvedChannels(at t: Double) -> (x: Resolved, y: Resolved) {
        var xr = resolve(x, at: t), yr = resolve(y, at: t)
        // An x domain the document narrows hides rows; the y domain, when the data decides
        // it, covers the rows in view only.
        func inView(_ c: Channel, _ r: Resolved, _ other: Channel, _ o: Resolved) -> Resolved? {
            guard let d = c.domain, !c.domainFollows, c.animatedDomain == nil, other.domain == nil, other.animatedDomain == nil,
                  r.type != .band, o.type != .band else { return nil }
            let shown = data.indices.filter { i in r.values[i].map { Self.domain(d, contains: $0) } ?? false }
            guard !shown.isEmpty, shown.count < data.count else { return nil }
            var visible = self
            visible.data = data.gathering(shown)
            var narrowed = o
            narrowed.domain = visible.resolve(other, at: t).domain
            return narrowed
        }
        // (The x axis only: narrowing values on y, a zoom into a range, keeps every x.)
        if let ny = inView(x, xr, y, yr) { yr = ny }
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
        // Bars standing on a time or number axis take the data's interval (a month per
        // bar for monthly rows): the domain the data decides gets half an interval on each
        // side, so the first and last bars lie inside the plot.
        for (isX, channel) in [(true, x), (false, y)] where channel.domain == nil && channel.animatedDomain == nil {
            var r = isX ? xr : yr
            guard r.type == .time || r.type == .linear,
                  let iv = barInterval(onX: isX, ChartState.unplaced(frame, x: xr, y: yr)) else { continue }
            r.domain = r.domain.0 <= r.domain.1 ? (r.domain.0 - iv / 2, r.domain.1 + iv / 2)
                                                : (r.domain.0 + iv / 2, r.domain.1 - iv / 2)
            if isX { xr = r } else { yr = r }
        }
        return (xr, yr)
    }

    /// The interval of the bars that stand on x (`onX`) or y over a time or number axis,
    /// without a `slot`: the smallest gap between their distinct positions. Nil when no
    /// such bars are drawn or they have fewer than two positions.
    func barInterval(onX: Bool, _ l: ChartState) -> Double? {
        let key = onX ? l.xResolved : l.yResolved
        guard key.type == .time || key.type == .linear else { return nil }
        var best: Double?
        for m in marks {
            guard let bar = m as? BarMarkSpec, bar.slot == nil, isHorizontal(bar, l) != onX else { continue }
            if let iv = Self.smallestGap(rowIndices(bar).map { key.values[$0] }) { best = min(best ?? iv, iv) }
        }
        return best
    }

    /// The smallest positive distance between distinct finite values; nil for fewer than two.
    static func smallestGap(_ values: [Double?]) -> Double? {
        let sorted = Set(values.compactMap { $0 }.filter(\.isFinite)).sorted()
        guard sorted.count > 1 else { return nil }
        var best = Double.infinity
        for i in 1..<sorted.count { best = min(best, sorted[i] - sorted[i - 1]) }
        return best
    }

    /// The chart's state at time `t`: its domains resolved from the data and the
    /// document, widened for stacks and ranges, its ticks, and the plot rectangle the
    /// guides leave, with the scales onto it. A pure function of the spec and `t`.
    public func state(at t: Double) -> ChartState {
        if timeline != nil { return snapshot(at: t).state(at: t) }
        let (xr, yr) = resolvedChannels(at: t)
        let xAxis = axes.first { $0.side == .top || $0.side == .bottom }
        let yAxis = axes.first { $0.side == .leading || $0.side == .trailing }
        let xt = ticks(xr, axis: xAxis, blending: x.tickBlend), yt = ticks(yr, axis: yAxis, blending: y.tickBlend)
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
        bottom -= captionReach(width: content.width)
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
        // Labels centred on the first and last ticks of a horizontal axis stay inside the
        // chart's frame: the plot gives up what they would reach beyond it.
        if inset == nil, let a = xAxis, a.labelAngle == 0,
           let first = xt.first(where: { !$0.label.isEmpty }), let last = xt.last(where: { !$0.label.isEmpty }) {
            let provisional = scale(xr, x, range: (left, right))
            func half(_ t: AxisTick) -> Double { s.font.measure(t.label, size: s.labelSize).width / 2 }
            let overRight = provisional(last.value) + half(last) - (frame.maxX - 1)
            let overLeft = (frame.minX + 1) - (provisional(first.value) - half(first))
            if overRight > 0 { right -= overRight }
            if overLeft > 0 { left += overLeft }
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
