import Geometry
import Raster
import Motion
import Scene

/// How lines and areas join their points: what `LineMarkSpec` and `AreaMarkSpec` share.
struct ConnectedShape: Sendable {
    /// An area closes its path down to the baseline (or back along its low values).
    var isArea: Bool
    /// How points are connected.
    var interpolation: Interpolation
    /// Start the curve at the plot's bottom-left corner.
    var startAtOrigin: Bool
}

extension ChartSpec {
    /// Whether lines and areas with more points than pixel columns are drawn from their
    /// M4 points (Decimation.swift). Always on; tests turn it off to compare with the
    /// full drawing.
    nonisolated(unsafe) static var decimatesLines = true

    /// Whether big series are decimated before their elements are made
    /// (`decimatedSeries`). Always on; tests turn it off to check it changes no byte.
    nonisolated(unsafe) static var decimatesBeforeElements = true

    /// A line or area mark whose series are decimated before their elements are made: the
    /// kept rows' elements, each series' path and trim map, and each series' highest value
    /// (for a stagger by value). Nil when the mark does not qualify (stacks, ranges, rows
    /// that grow, a curve, a line from the origin) or no series has more points than
    /// columns, and then the elements are made and decimated as usual.
    func decimatedSeries(_ m: any ChartMark, _ shape: ConnectedShape, _ l: ChartState, horizontal: Bool)
        -> (elements: [MarkElement], paths: [(path: Path, remap: TrimRemap?)?], highest: [Double])? {
        let o = m.options
        let second = horizontal ? o.x2 : o.y2
        guard shape.interpolation == .linear, !shape.startAtOrigin, o.stack == .none, second == nil,
              !data.has(DataTimeline.growField) else { return nil }
        let span = horizontal ? l.plot.height : l.plot.width
        guard Double(data.count) > max(1, span * M4.columnsPerPixel) else { return nil }
        let keyValues = horizontal ? l.yResolved.values : l.xResolved.values
        let valValues = horizontal ? l.xResolved.values : l.yResolved.values
        let names = seriesNames(m)
        var slot: [String: Int] = [:]
        for (k, n) in names.enumerated() where slot[n] == nil { slot[n] = k }
        guard slot.count == names.count else { return nil }
        var rows = [[Int]](repeating: [], count: names.count)
        var pts = [[Point]](repeating: [], count: names.count)
        var highest = [Double](repeating: -.infinity, count: names.count)
        let seriesColumn = o.series.flatMap { data.column($0) }
        for i in rowIndices(m) {
            guard let k = keyValues[i], let v = valValues[i], k.isFinite, v.isFinite else { continue }
            let s: Int
            if o.series == nil { s = 0 } else if let found = slot[key(seriesColumn?[i])] { s = found } else { continue }
            rows[s].append(i)
            pts[s].append(horizontal ? Point(l.x(v), l.y(k)) : Point(l.x(k), l.y(v)))
            highest[s] = max(highest[s], v)
        }
        var keptRows: [Int] = [], paths: [(path: Path, remap: TrimRemap?)?] = []
        var any = false
        for s in names.indices {
            if let kept = M4.keptIndices(pts[s], horizontal: horizontal, span: span) {
                any = true
                keptRows += kept.map { rows[s][$0] }
                paths.append((Path(), shape.isArea ? nil : M4.trimRemap(pts[s], kept: kept)))
                pts[s] = kept.map { pts[s][$0] }
            } else {
                keptRows += rows[s]
                paths.append(nil)
            }
        }
        guard any else { return nil }
        // Elements in row order, as `elements` makes them.
        keptRows.sort()
        let els = elements(m, l, rows: keptRows)
        var bySlot = [[MarkElement]](repeating: [], count: names.count)
        for e in els { if let k = slot[e.series] { bySlot[k].append(e) } }
        for s in names.indices where paths[s] != nil {
            paths[s]!.path = connectedPath(shape, o, l, bySlot[s], points: pts[s], horizontal: horizontal, decimate: true)
        }
        return (els, paths, highest.map { $0 > -.infinity ? $0 : 0 })
    }

    /// The pixel points of a series' elements, at their high (or low) values.
    func seriesPoints(_ els: [MarkElement], _ l: ChartState, horizontal: Bool, useLow: Bool) -> [Point] {
        els.map { e in
            let v = useLow ? e.low : e.high
            return horizontal ? Point(l.x(v), l.y(e.key)) : Point(l.x(e.key), l.y(v))
        }
    }

    /// The path of one series: the line through its points, closed down to the baseline
    /// or back along its low values for an area.
    func connectedPath(_ shape: ConnectedShape, _ o: MarkOptions, _ l: ChartState, _ els: [MarkElement], horizontal: Bool) -> Path {
        connectedPath(shape, o, l, els, horizontal: horizontal, decimate: false).path
    }

    /// `connectedPath`, with `decimate` drawn from the M4 points of a straight-segment
    /// series that has more points than the plot has quarter-pixel columns
    /// (Decimation.swift); `remap` then maps a line's trims onto the shorter path.
    func connectedPath(_ shape: ConnectedShape, _ o: MarkOptions, _ l: ChartState, _ els: [MarkElement], horizontal: Bool,
                       decimate: Bool) -> (path: Path, remap: TrimRemap?, decimated: Bool) {
        var pts = seriesPoints(els, l, horizontal: horizontal, useLow: false)
        if shape.startAtOrigin { pts.insert(Point(l.plot.minX, l.plot.maxY), at: 0) }
        let span = horizontal ? l.plot.height : l.plot.width
        let decimates = decimate && shape.interpolation == .linear
        var remap: TrimRemap? = nil
        var decimated = false
        if decimates, let kept = M4.keptIndices(pts, horizontal: horizontal, span: span) {
            if !shape.isArea { remap = M4.trimRemap(pts, kept: kept) }
            pts = kept.map { pts[$0] }
            decimated = true
        }
        return (connectedPath(shape, o, l, els, points: pts, horizontal: horizontal, decimate: decimates), remap, decimated)
    }

    /// The path through `pts` (the series' points, decimated or not).
    private func connectedPath(_ shape: ConnectedShape, _ o: MarkOptions, _ l: ChartState, _ els: [MarkElement],
                               points pts: [Point], horizontal: Bool, decimate: Bool) -> Path {
        var path = Path()
        guard let first = pts.first else { return path }
        path.move(to: first)
        shape.interpolation.appendSegments(through: pts, to: &path)
        // A line through one point is a zero-length segment, which the stroker draws as
        // its cap: a dot of the stroke's width, so a series of one value still shows.
        if !shape.isArea && pts.count == 1 { path.line(to: first) }
        if shape.isArea, let last = pts.last {
            let ranged = o.stack != .none || o.y2 != nil || o.x2 != nil
            if ranged {
                var low = seriesPoints(els, l, horizontal: horizontal, useLow: true)
                if decimate, let kept = M4.keptIndices(low, horizontal: horizontal, span: horizontal ? l.plot.height : l.plot.width) {
                    low = kept.map { low[$0] }
                }
                low.reverse()
                path.line(to: low[0])
                shape.interpolation.appendSegments(through: low, to: &path)
            } else {
                let r = horizontal ? l.xResolved : l.yResolved
                let d = r.domain
                let zero = r.type == .linear ? max(min(d.0, d.1), min(0, max(d.0, d.1))) : min(d.0, d.1)
                if horizontal {
                    let base = l.x(zero)
                    path.line(to: Point(base, last.y)); path.line(to: Point(base, first.y))
                } else {
                    let base = l.y(zero)
                    path.line(to: Point(last.x, base)); path.line(to: Point(first.x, base))
                }
            }
            path.close()
        }
        return path
    }

    /// The line through a series' points (an area's top boundary).
    func topLine(_ shape: ConnectedShape, _ l: ChartState, _ els: [MarkElement], horizontal: Bool) -> Path {
        var pts = seriesPoints(els, l, horizontal: horizontal, useLow: false)
        if shape.startAtOrigin { pts.insert(Point(l.plot.minX, l.plot.maxY), at: 0) }
        var path = Path()
        guard let first = pts.first else { return path }
        path.move(to: first)
        shape.interpolation.appendSegments(through: pts, to: &path)
        return path
    }

    /// An area's low boundary: the curve through its low values (flattened, first point
    /// first) for stacks and ranges, else the baseline's coordinate.
    func lowBoundary(_ shape: ConnectedShape, _ o: MarkOptions, _ l: ChartState, _ els: [MarkElement], horizontal: Bool) -> (points: [Point]?, base: Double) {
        if o.stack != .none || o.y2 != nil || o.x2 != nil {
            let low = seriesPoints(els, l, horizontal: horizontal, useLow: true)
            var path = Path()
            if let first = low.first { path.move(to: first); shape.interpolation.appendSegments(through: low, to: &path) }
            return (path.flattened(tolerance: 0.05).flatMap(\.points), 0)
        }
        let r = horizontal ? l.xResolved : l.yResolved
        let d = r.domain
        let zero = r.type == .linear ? max(min(d.0, d.1), min(0, max(d.0, d.1))) : min(d.0, d.1)
        return (nil, horizontal ? l.x(zero) : l.y(zero))
    }

    /// One shape per series of a line or area mark, trimmed and faded under the mark's
    /// stagger (series count as elements), morphing to a transition's values when it has one.
    ///
    /// - `fill`: an area's paint when it has one series and no colour encoding.
    /// - `stroke`: the outline (a line's stroke).
    /// - `points`: dots at a line's points.
    func connectedNodes(_ m: any ChartMark, _ shape: ConnectedShape, _ l: ChartState, fill: NodePaint?,
                        stroke: (paint: NodePaint, style: StrokeStyle)?, points: PointStyle?) -> [Node] {
        let o = m.options
        let horizontal = isHorizontal(m, l)
        let morphs = o.transition != nil
        let trimmed = o.trimStart.isAnimated || o.trimEnd.isAnimated || o.trimStart.value(at: 0) != 0 || o.trimEnd.value(at: 0) != 1
        let decimates = ChartSpec.decimatesLines && !morphs && !(shape.isArea && trimmed)
        // Series of more points than the plot has columns, drawn from their M4 points: their
        // rows become pixel points and only the kept rows become elements (80 bytes each;
        // a line of ten million rows needed 800 MB of them). The same points, path and trim
        // map as decimating the elements' points.
        let big = decimates && points == nil && ChartSpec.decimatesBeforeElements ? decimatedSeries(m, shape, l, horizontal: horizontal) : nil
        let all = big?.elements ?? elements(m, l)
        let names = seriesNames(m)
        // Each series' elements, split in one pass (one series: the elements themselves,
        // not a copy; a line of ten million rows made three copies of 80 bytes a row).
        let bySeries: [[MarkElement]]
        if names.count == 1 {
            bySeries = [all.allSatisfy { $0.series == names[0] } ? all : all.filter { $0.series == names[0] }]
        } else {
            var slot: [String: Int] = [:]
            for (k, n) in names.enumerated() where slot[n] == nil { slot[n] = k }
            var split = [[MarkElement]](repeating: [], count: names.count)
            for e in all { if let k = slot[e.series] { split[k].append(e) } }
            // A name listed twice gets the same elements at each place, as filtering did.
            for (k, n) in names.enumerated() where slot[n] != k { split[k] = split[slot[n]!] }
            bySeries = split
        }
        let offsets = staggerOffsets(o, count: names.count, values: big?.highest ?? bySeries.map { $0.lazy.map(\.high).max() ?? 0 })
        var out: [Node] = []
        let target = transitionTarget(m, l)
        for (si, name) in names.enumerated() {
            let els = bySeries[si]
            guard !els.isEmpty else { continue }
            // Decimated unless the path morphs (its points must match the target's one to
            // one) or an area is trimmed (its outline's length is not the line's).
            let decimated: Bool
            let drawn: (path: Path, remap: TrimRemap?)
            if let early = big?.paths[si] {
                (drawn, decimated) = (early, true)
            } else {
                let late = connectedPath(shape, o, l, els, horizontal: horizontal,
                                         decimate: ChartSpec.decimatesLines && !(target != nil && morphs) && !(shape.isArea && trimmed))
                (drawn, decimated) = ((late.path, late.remap), late.decimated)
            }
            let path = drawn.path
            var node = ShapeNode(id: names.count > 1 ? "\(o.id ?? m.kind.rawValue)[\(name)]" : o.id, path: path, frame: l.plot)
            node.trimRemap = drawn.remap
            let multi = names.count > 1 || o.color != nil
            if shape.isArea {
                let paint: NodePaint = multi ? .solid(els[0].color) : (fill ?? .solid(els[0].color.opacity(0.3)))
                node.fill = (paint, .nonZero)
            }
            if let s = stroke {
                var style = s.style
                // A butt cap draws nothing on a zero-length segment; one point shows as a round dot.
                if !shape.isArea && els.count == 1 && !shape.startAtOrigin && style.cap == .butt { style.cap = .round }
                // A decimated series is stroked with round joins: the miters of a zigzag of
                // sub-pixel segments reach far past its points (spikes the data does not
                // have), and the decimated line turns elsewhere; a round join stays within
                // half the width of the points, which M4 keeps.
                if decimated && style.join == .miter { style.join = .round }
                node.stroke = (multi ? .solid(els[0].color) : s.paint, style)
            }
            var trimStart = staggered(o.trimStart, offsets, si), trimEnd = staggered(o.trimEnd, offsets, si)
            let trims = !(trimStart.isConstant0 && trimEnd.isConstant1)
            if trims, marksAreClipped(l), x.animatedDomain == nil, y.animatedDomain == nil, let (a, b) = Self.visibleFractions(shape.isArea ? topLine(shape, l, els, horizontal: horizontal) : path,
                                                                     plot: l.plot, horizontal: horizontal) {
                // A trim spends its time on the part of the path in view.
                trimStart = trimStart.mapped(scale: b - a, offset: a)
                trimEnd = trimEnd.mapped(scale: b - a, offset: a)
            }
            if shape.isArea && trims && o.transition == nil {
                // The area under the trimmed part of its top line, not the trimmed outline.
                let top = topLine(shape, l, els, horizontal: horizontal)
                let low = lowBoundary(shape, o, l, els, horizontal: horizontal)
                let start = trimStart, end = trimEnd
                node.dynamicPath = { t in
                    ChartSpec.trimmedArea(top: top, low: low.points, base: low.base, horizontal: horizontal,
                                          from: start.value(at: t), to: end.value(at: t))
                }
                node.dynamicPathEnd = max(start.displayEnd, end.displayEnd)
                node.path = node.dynamicPath!(node.dynamicPathEnd)
            } else {
                node.trimStart = trimStart
                node.trimEnd = trimEnd
            }
            node.opacity = staggered(o.opacity, offsets, si)
            node.blendMode = o.blend
            if let tgt = target?.filter({ $0.series == name }), tgt.count == els.count, let t = o.transition {
                let from = els, spec = self
                node.dynamicPath = { time in
                    let p = t.animation.progress(at: time)
                    var mixed = from
                    for k in mixed.indices {
                        mixed[k].low += (tgt[k].low - from[k].low) * p
                        mixed[k].high += (tgt[k].high - from[k].high) * p
                        mixed[k].key += (tgt[k].key - from[k].key) * p
                    }
                    return spec.connectedPath(shape, o, l, mixed, horizontal: horizontal)
                }
                node.dynamicPathEnd = t.animation.displayEnd
                node.dynamicPathStart = t.animation.start
            }
            out.append(.shape(node))
            if !shape.isArea, let ps = points {
                out.append(contentsOf: dotNodes(m, l, els, size: { _ in ps.size }, fill: { ps.fill ?? $0.color },
                                                stroke: ps.stroke.map { (.solid($0.color), StrokeStyle(width: $0.width)) }, moves: false))
            }
        }
        return out
    }

    /// The elements of a mark's transition target, resolved on the same scales.
    func transitionTarget(_ m: any ChartMark, _ l: ChartState) -> [MarkElement]? {
        guard let t = m.options.transition else { return nil }
        var other = self
        other.data = t.rows
        var ol = l
        ol.xResolved = other.resolve(x); ol.yResolved = other.resolve(y)
        return other.elements(m, ol)
    }

    /// A dot per element: a point mark's points, or the dots on a line.
    ///
    /// - `fill`: each dot's colour.
    /// - `moves`: the dots slide to the mark's transition values, when it has one.
    func dotNodes(_ m: any ChartMark, _ l: ChartState, _ els: [MarkElement], size: (MarkElement) -> Double, fill: (MarkElement) -> Color,
                  stroke: (paint: NodePaint, style: StrokeStyle)?, moves: Bool) -> [Node] {
        let o = m.options
        let horizontal = isHorizontal(m, l)
        let offsets = staggerOffsets(o, count: els.count, values: els.map(\.high))
        let target = moves ? transitionTarget(m, l) : nil
        var out: [Node] = []
        for (i, e) in els.enumerated() {
            let c = horizontal ? Point(l.x(e.high), l.y(e.key)) : Point(l.x(e.key), l.y(e.high))
            let size = size(e) * elementGrowth(row: e.row)
            var node = ShapeNode(id: "\(o.id ?? "point")[\(i)]", path: .circle(center: c, radius: size / 2))
            if let tgt = target, tgt.count == els.count, let t = o.transition {
                // The dot moves to its value in the other table.
                let d = horizontal ? Point(l.x(tgt[i].high), l.y(tgt[i].key)) : Point(l.x(tgt[i].key), l.y(tgt[i].high))
                let anim = t.animation.delay(i < offsets.count ? offsets[i] : 0)
                node.dynamicPath = { time in .circle(center: c.lerp(d, anim.progress(at: time)), radius: size / 2) }
                node.dynamicPathEnd = anim.displayEnd
                node.dynamicPathStart = anim.start
            }
            node.fill = (.solid(fill(e)), .nonZero)
            if let s = stroke { node.stroke = s }
            node.opacity = elementOpacity(staggered(o.opacity, offsets, i), row: e.row)
            if let sc = o.scale {
                node.motion.scaleX = staggered(sc, offsets, i); node.motion.scaleY = staggered(sc, offsets, i)
                node.motion.anchor = c
            }
            out.append(flown(.shape(node), row: e.row, l))
        }
        return out
    }
}
