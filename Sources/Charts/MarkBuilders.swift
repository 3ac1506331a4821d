#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Motion
import Scene
import Text

extension ChartSpec {
    /// The scene node of one mark: a group with one child per series or element.
    func markNode(_ m: MarkSpec, _ l: Layout) -> Node {
        let children: [Node]
        switch m.kind {
        case .line, .area: children = lineAreaNodes(m, l)
        case .bar: children = barNodes(m, l)
        case .point: children = pointNodes(m, l, elements(m, l))
        case .rule: children = ruleNodes(m, l)
        case .text: children = textNodes(m, l)
        case .sector: children = sectorNodes(m, l)
        case .shape: children = shapeNodes(m, l)
        }
        let offsets = staggerOffsets(m, count: children.count, values: [])
        let decorated = children.enumerated().map { decorate($0.element, m, offsets, $0.offset) }
        return .group(GroupNode(id: m.id, children: decorated))
    }

    /// Applies the mark's movement, rotation and colour animations to one of its elements.
    func decorate(_ node: Node, _ m: MarkSpec, _ offsets: [Double], _ i: Int) -> Node {
        func motion(_ t: inout AnimatedTransform, center: Point) {
            if let x = m.translateX { t.translateX = staggered(x, offsets, i) }
            if let y = m.translateY { t.translateY = staggered(y, offsets, i) }
            if let r = m.rotation { t.rotation = staggered(r.scaled(by: .pi / 180), offsets, i); t.anchor = center }
        }
        switch node {
        case .shape(var s):
            let b = s.path.controlBounds
            motion(&s.motion, center: s.motion.isIdentity ? Point(b.midX, b.midY) : s.motion.anchor)
            if let o = m.trimOffset { s.trimOffset = staggered(o, offsets, i) }
            if var c = m.colorAnimation {
                c.animation = c.animation.delay(i < offsets.count ? offsets[i] : 0)
                if s.fill != nil { s.fillColor = c } else { s.strokeColor = c }
            }
            return .shape(s)
        case .text(var t):
            motion(&t.motion, center: t.position)
            return .text(t)
        case .group(var g):
            motion(&g.motion, center: .zero)
            return .group(g)
        }
    }

    /// Element i's copy of an animated value under the mark's stagger.
    func staggered(_ v: AnimatedValue, _ offsets: [Double], _ i: Int) -> AnimatedValue {
        i < offsets.count ? v.delayed(by: offsets[i]) : v
    }

    func staggerOffsets(_ m: MarkSpec, count: Int, values: [Double]) -> [Double] {
        m.stagger?.offsets(count: count, values: values) ?? []
    }

    func blend(_ m: MarkSpec) -> BlendMode { m.blendMode.flatMap(BlendMode.init(rawValue:)) ?? .sourceOver }

    // MARK: Lines and areas

    func seriesPoints(_ els: [MarkElement], _ l: Layout, horizontal: Bool, useLow: Bool) -> [Point] {
        els.map { e in
            let v = useLow ? e.low : e.high
            return horizontal ? Point(l.x(v), l.y(e.key)) : Point(l.x(e.key), l.y(v))
        }
    }

    func lineAreaGeometry(_ m: MarkSpec, _ l: Layout, _ els: [MarkElement], horizontal: Bool) -> Path {
        var pts = seriesPoints(els, l, horizontal: horizontal, useLow: false)
        if m.startAtOrigin { pts.insert(Point(l.plot.minX, l.plot.maxY), at: 0) }
        var path = Path()
        guard let first = pts.first else { return path }
        path.move(to: first)
        m.interpolation.appendSegments(through: pts, to: &path)
        // A line through one point is a zero-length segment, which the stroker draws as
        // its cap: a dot of the stroke's width, so a series of one value still shows.
        if m.kind == .line && pts.count == 1 { path.line(to: first) }
        if m.kind == .area, let last = pts.last {
            let ranged = m.stack != .none || m.y2 != nil || m.x2 != nil
            if ranged {
                var low = seriesPoints(els, l, horizontal: horizontal, useLow: true)
                low.reverse()
                path.line(to: low[0])
                m.interpolation.appendSegments(through: low, to: &path)
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

    func lineAreaNodes(_ m: MarkSpec, _ l: Layout) -> [Node] {
        let horizontal = isHorizontal(m, l)
        let all = elements(m, l)
        let names = seriesNames(m)
        let offsets = staggerOffsets(m, count: names.count, values: names.map { n in all.filter { $0.series == n }.map(\.high).max() ?? 0 })
        var out: [Node] = []
        let target = transitionTarget(m, l)
        for (si, name) in names.enumerated() {
            let els = all.filter { $0.series == name }
            guard !els.isEmpty else { continue }
            let path = lineAreaGeometry(m, l, els, horizontal: horizontal)
            var node = ShapeNode(id: names.count > 1 ? "\(m.id ?? m.kind.rawValue)[\(name)]" : m.id, path: path, frame: l.plot)
            let multi = names.count > 1 || m.color != nil
            if m.kind == .area {
                let paint: NodePaint = multi ? .solid(els[0].color) : (m.fill ?? .solid(els[0].color.opacity(0.3)))
                node.fill = (paint, .nonZero)
            }
            if let s = m.stroke {
                var style = s.style
                // A butt cap draws nothing on a zero-length segment; one point shows as a round dot.
                if m.kind == .line && els.count == 1 && !m.startAtOrigin && style.cap == .butt { style.cap = .round }
                node.stroke = (multi ? .solid(els[0].color) : s.paint, style)
            }
            node.trimStart = staggered(m.trimStart, offsets, si)
            node.trimEnd = staggered(m.trimEnd, offsets, si)
            node.opacity = staggered(m.opacity, offsets, si)
            node.blendMode = blend(m)
            if let tgt = target?.filter({ $0.series == name }), tgt.count == els.count, let t = m.transition {
                let from = els, spec = self
                node.dynamicPath = { time in
                    let p = t.animation.progress(at: time)
                    var mixed = from
                    for k in mixed.indices {
                        mixed[k].low += (tgt[k].low - from[k].low) * p
                        mixed[k].high += (tgt[k].high - from[k].high) * p
                        mixed[k].key += (tgt[k].key - from[k].key) * p
                    }
                    return spec.lineAreaGeometry(m, l, mixed, horizontal: horizontal)
                }
                node.dynamicPathEnd = t.animation.displayEnd
            }
            out.append(.shape(node))
            if m.kind == .line, let ps = m.points {
                out.append(contentsOf: pointNodes(m, l, els, style: ps))
            }
        }
        return out
    }

    // MARK: Bars

    /// The pixel rectangle of a bar from value `a` to value `b`.
    func barRect(_ e: MarkElement, _ m: MarkSpec, _ l: Layout, horizontal: Bool, from a: Double, to b: Double) -> Rect {
        let keyScale = horizontal ? l.y : l.x
        let keyResolved = horizontal ? l.yResolved : l.xResolved
        var center: Double, band: Double
        if case .band(let bs) = keyScale {
            center = bs.position(at: Int(e.key)) + bs.bandwidth / 2; band = bs.bandwidth
        } else {
            center = keyScale(e.key)
            let n = Double(max(1, Set(keyResolved.values.compactMap { $0 }).count))
            band = (horizontal ? l.plot.height : l.plot.width) / n * 0.8
        }
        let w = band * min(1, max(0, m.barWidth))
        let p0 = horizontal ? l.x(a) : l.y(a), p1 = horizontal ? l.x(b) : l.y(b)
        if horizontal { return Rect(x: min(p0, p1), y: center - w / 2, width: abs(p1 - p0), height: w) }
        return Rect(x: center - w / 2, y: min(p0, p1), width: w, height: abs(p1 - p0))
    }

    func barPath(_ r: Rect, _ m: MarkSpec) -> Path {
        if r.width <= 0 || r.height <= 0 { return Path() }
        if m.capsule { return .capsule(in: r) }
        if m.cornerRadius > 0 { return .roundedRect(r, cornerRadius: m.cornerRadius) }
        return .rect(r)
    }

    func barNodes(_ m: MarkSpec, _ l: Layout) -> [Node] {
        let horizontal = isHorizontal(m, l)
        let els = elements(m, l)
        let offsets = staggerOffsets(m, count: els.count, values: els.map { $0.high - $0.low })
        var gradientPaint: NodePaint? = nil
        if case .valueGradient(let stops)? = m.color, let first = stops.first, let last = stops.last, last.value != first.value {
            // One gradient laid along the value axis; each bar shows the stretch it covers.
            let a = horizontal ? Point(l.x(first.value), 0) : Point(0, l.y(first.value))
            let b = horizontal ? Point(l.x(last.value), 0) : Point(0, l.y(last.value))
            gradientPaint = .linear(stops: stops.map { GradientStop(offset: ($0.value - first.value) / (last.value - first.value), color: $0.color) },
                                    from: .absolute(a), to: .absolute(b))
        }
        var out: [Node] = []
        for (i, e) in els.enumerated() {
            let full = barRect(e, m, l, horizontal: horizontal, from: e.low, to: e.high)
            var node = ShapeNode(id: "\(m.id ?? "bar")[\(i)]", path: barPath(full, m), frame: full)
            var paint: NodePaint = .solid(e.color)
            if m.color == nil, let f = m.fill { paint = f }
            if let g = gradientPaint {
                // Overrides (cancelled flights) keep their solid colour.
                if case .overrides(let field, let values, _)? = m.color, values[key(data[e.row][field])] != nil {} else { paint = g }
            }
            if case .overrides(let field, let values, let otherwise)? = m.color, values[key(data[e.row][field])] == nil,
               case .valueGradient = otherwise, let g = gradientPaintFor(otherwise, l, horizontal) { paint = g }
            node.fill = (paint, .nonZero)
            if let s = m.stroke { node.stroke = s }
            node.opacity = staggered(m.opacity, offsets, i)
            node.blendMode = blend(m)
            if let g = m.grow {
                let grow = staggered(g, offsets, i), spec = self
                node.dynamicPath = { t in
                    let p = grow.value(at: t)
                    let r = spec.barRect(e, m, l, horizontal: horizontal, from: e.low, to: e.low + (e.high - e.low) * p)
                    return spec.barPath(r, m)
                }
                node.dynamicPathEnd = grow.displayEnd
            }
            out.append(.shape(node))
        }
        return out
    }

    func gradientPaintFor(_ enc: ColorEncoding, _ l: Layout, _ horizontal: Bool) -> NodePaint? {
        guard case .valueGradient(let stops) = enc, let first = stops.first, let last = stops.last, last.value != first.value else { return nil }
        let a = horizontal ? Point(l.x(first.value), 0) : Point(0, l.y(first.value))
        let b = horizontal ? Point(l.x(last.value), 0) : Point(0, l.y(last.value))
        return .linear(stops: stops.map { GradientStop(offset: ($0.value - first.value) / (last.value - first.value), color: $0.color) },
                       from: .absolute(a), to: .absolute(b))
    }

    // MARK: Points

    /// The elements of a mark's transition target, resolved on the same scales.
    func transitionTarget(_ m: MarkSpec, _ l: Layout) -> [MarkElement]? {
        guard let t = m.transition else { return nil }
        var other = self
        other.data = t.rows
        var ol = l
        ol.xResolved = other.resolve(x); ol.yResolved = other.resolve(y)
        return other.elements(m, ol)
    }

    func pointNodes(_ m: MarkSpec, _ l: Layout, _ els: [MarkElement], style: PointStyle? = nil) -> [Node] {
        let horizontal = isHorizontal(m, l)
        let size = style?.size ?? m.size
        let offsets = staggerOffsets(m, count: els.count, values: els.map(\.high))
        let target = style == nil ? transitionTarget(m, l) : nil
        var out: [Node] = []
        for (i, e) in els.enumerated() {
            let c = horizontal ? Point(l.x(e.high), l.y(e.key)) : Point(l.x(e.key), l.y(e.high))
            var node = ShapeNode(id: "\(m.id ?? "point")[\(i)]", path: .circle(center: c, radius: size / 2))
            if let tgt = target, tgt.count == els.count, let t = m.transition {
                // The dot moves to its value in the other table.
                let d = horizontal ? Point(l.x(tgt[i].high), l.y(tgt[i].key)) : Point(l.x(tgt[i].key), l.y(tgt[i].high))
                let anim = t.animation.delay(i < offsets.count ? offsets[i] : 0)
                node.dynamicPath = { time in .circle(center: c.lerp(d, anim.progress(at: time)), radius: size / 2) }
                node.dynamicPathEnd = anim.displayEnd
            }
            let fill = style?.fill ?? (m.kind == .point && m.color == nil ? (m.fill.flatMap { if case .solid(let col) = $0 { return col }; return nil } ?? e.color) : e.color)
            node.fill = (.solid(fill), .nonZero)
            if let s = style?.stroke { node.stroke = (.solid(s.color), StrokeStyle(width: s.width)) }
            else if m.kind == .point, let s = m.stroke { node.stroke = s }
            node.opacity = staggered(m.opacity, offsets, i)
            if let sc = m.scale {
                node.motion.scaleX = staggered(sc, offsets, i); node.motion.scaleY = staggered(sc, offsets, i)
                node.motion.anchor = c
            }
            out.append(.shape(node))
        }
        return out
    }

    // MARK: Rules

    func ruleNodes(_ m: MarkSpec, _ l: Layout) -> [Node] {
        let p = l.plot
        var out: [Node] = []
        var rows = rowIndices(m)
        if m.atPeak {
            // One rule per series, at the row where the series peaks.
            var best: [String: MarkElement] = [:], order: [String] = []
            for e in elements(m, l) {
                if best[e.series] == nil { order.append(e.series); best[e.series] = e }
                else if e.high - e.low > best[e.series]!.high - best[e.series]!.low { best[e.series] = e }
            }
            rows = order.compactMap { best[$0]?.row }
        }
        let offsets = staggerOffsets(m, count: rows.count, values: [])
        for (i, r) in rows.enumerated() {
            let seg: (Point, Point)
            if m.vertical {
                guard let xv = l.xResolved.values[r] else { continue }
                let x0 = l.x(xv)
                var y0 = p.minY, y1 = p.maxY
                if let f = m.y2, let a = l.yResolved.values[r], let b = data[r][f]?.number { y0 = l.y(a); y1 = l.y(b) }
                seg = (Point(x0, min(y0, y1)), Point(x0, max(y0, y1)))
            } else {
                guard let yv = l.yResolved.values[r] else { continue }
                let y0 = l.y(yv)
                var x0 = p.minX, x1 = p.maxX
                if let f = m.x2, let a = l.xResolved.values[r], let b = data[r][f]?.number { x0 = l.x(a); x1 = l.x(b) }
                seg = (Point(min(x0, x1), y0), Point(max(x0, x1), y0))
            }
            var path = Path()
            path.move(to: seg.0); path.line(to: seg.1)
            let style = m.stroke?.style ?? StrokeStyle(width: 1)
            let frame = Rect(corner: seg.0, seg.1).insetBy(-style.width / 2)
            var node = ShapeNode(id: "\(m.id ?? "rule")[\(i)]", path: path, frame: frame)
            node.stroke = (m.stroke?.paint ?? .solid(m.legendColor), style)
            node.opacity = staggered(m.opacity, offsets, i)
            node.trimEnd = staggered(m.trimEnd, offsets, i)
            node.blendMode = blend(m)
            out.append(.shape(node))
        }
        return out
    }

    // MARK: Text

    func textNodes(_ m: MarkSpec, _ l: Layout) -> [Node] {
        var els = elements(m, l)
        let horizontal = isHorizontal(m, l)
        if m.atPeak {
            // One label per series, where the series is thickest, centred in its band.
            var best: [String: MarkElement] = [:]
            var order: [String] = []
            for e in els {
                if best[e.series] == nil { order.append(e.series); best[e.series] = e }
                else if e.high - e.low > best[e.series]!.high - best[e.series]!.low { best[e.series] = e }
            }
            els = order.compactMap { best[$0] }
        }
        let offsets = staggerOffsets(m, count: els.count, values: els.map(\.high))
        var out: [Node] = []
        for (i, e) in els.enumerated() {
            let value = m.atPeak ? (e.low + e.high) / 2 : e.high
            let point = horizontal ? Point(l.x(value), l.y(e.key)) : Point(l.x(e.key), l.y(value))
            let text: String
            var isNumber = false
            if let lit = m.textLiteral { text = lit }
            else if m.atPeak { text = e.series }
            else if let f = m.textField {
                switch data[e.row][f] { case .number(let v)?: text = m.textFormat.format(v); isNumber = true; case .string(let s)?: text = s; case nil: text = "" }
            } else { text = m.textFormat.format(e.high); isNumber = true }
            var shaping = m.textShaping
            // Value labels: tabular figures, so labels of one column line up digit by digit.
            if isNumber && !shaping.features.contains(where: { $0.contains("tnum") }) { shaping.features.append("tnum") }
            let anchor: TextAnchor, pos: Point
            let off = m.atPeak ? 0 : m.textOffset
            switch m.atPeak ? .center : m.textPosition {
            case .center: anchor = TextAnchor(.center, .center); pos = point
            case .top: anchor = TextAnchor(.center, .bottom); pos = Point(point.x, point.y - off)
            case .bottom: anchor = TextAnchor(.center, .top); pos = Point(point.x, point.y + off)
            case .leading: anchor = TextAnchor(.trailing, .center); pos = Point(point.x - off, point.y)
            case .trailing: anchor = TextAnchor(.leading, .center); pos = Point(point.x + off, point.y)
            }
            var node = TextNode(id: "\(m.id ?? "label")[\(i)]", text, font: style.font, size: m.fontSize,
                                color: m.textColor ?? style.textColor, position: pos, anchor: anchor,
                                rotation: m.textAngle * .pi / 180, background: m.textBackground,
                                options: shaping, style: m.textBlock)
            if let count = m.count, m.textLiteral == nil, !m.atPeak {
                // The number counts up to its value with the animation's easing.
                let target = m.textField.flatMap { data[e.row][$0]?.number } ?? e.high
                let fmt = m.textFormat
                node.counter = (staggered(count, offsets, i).scaled(by: target), { fmt.format($0) })
            }
            node.opacity = staggered(m.opacity, offsets, i)
            if let sc = m.scale {
                node.motion.scaleX = staggered(sc, offsets, i); node.motion.scaleY = staggered(sc, offsets, i); node.motion.anchor = pos
            }
            out.append(.text(node))
        }
        return out
    }

    // MARK: Sectors

    /// The categories and values of a sector mark: (name, value, colour) per row.
    func sectorSlices(_ m: MarkSpec) -> [(name: String, value: Double, color: Color, row: Int)] {
        let categoryField = m.series ?? x.field
        let valueField = y.field
        var out: [(name: String, value: Double, color: Color, row: Int)] = []
        let rows = rowIndices(m)
        let names = rows.map { key(data[$0][categoryField]) }
        var cache = ColorCache()
        for (k, r) in rows.enumerated() {
            guard let v = data[r][valueField]?.number, v.isFinite, v > 0 else { continue }
            let e = MarkElement(row: r, key: Double(k), low: 0, high: v, series: names[k], color: .black)
            let c: Color
            if m.color != nil { var mm = m; mm.series = categoryField; c = color(of: e, mm, seriesNames: names, cache: &cache) }
            else { c = Palette.color(k) }
            out.append((names[k], v, c, r))
        }
        return out
    }

    func sectorNodes(_ m: MarkSpec, _ l: Layout) -> [Node] {
        let slices = sectorSlices(m)
        let total = slices.reduce(0) { $0 + $1.value }
        guard total > 0 else { return [] }
        let p = l.plot
        let center = Point(p.midX, p.midY)
        let radius = min(p.width, p.height) / 2
        let inner = radius * min(0.99, max(0, m.innerRadius))
        let gap = m.angularGap * .pi / 180
        let offsets = staggerOffsets(m, count: slices.count, values: slices.map(\.value))
        var out: [Node] = []
        var start = -Double.pi / 2   // 12 o'clock; angles grow clockwise on screen
        for (i, s) in slices.enumerated() {
            let sweep = s.value / total * 2 * .pi
            let a0 = start + gap / 2, a1 = start + sweep - gap / 2
            start += sweep
            guard a1 > a0 else { continue }
            let path = Path.wedge(center: center, radius: radius, innerRadius: inner, startAngle: a0, endAngle: a1, clockwise: true)
            var node = ShapeNode(id: "\(m.id ?? "sector")[\(i)]", path: path, frame: p)
            node.fill = (m.color == nil && m.fill != nil && slices.count == 1 ? m.fill! : .solid(s.color), .nonZero)
            if let st = m.stroke { node.stroke = st }
            node.opacity = staggered(m.opacity, offsets, i)
            if let g = m.grow {
                let grow = staggered(g, offsets, i)
                let staggeredOwn = m.stagger != nil
                node.dynamicPath = { t in
                    let q = grow.value(at: t)
                    // Unstaggered: the whole pie sweeps open from 12 o'clock; staggered: each
                    // sector opens from its own start, one after another.
                    let b0 = staggeredOwn ? a0 : -Double.pi / 2 + (a0 + Double.pi / 2) * q
                    let b1 = staggeredOwn ? a0 + (a1 - a0) * q : -Double.pi / 2 + (a1 + Double.pi / 2) * q
                    guard b1 > b0 + 1e-9 else { return Path() }
                    return .wedge(center: center, radius: radius, innerRadius: inner, startAngle: b0, endAngle: b1, clockwise: true)
                }
                node.dynamicPathEnd = grow.displayEnd
            }
            out.append(.shape(node))
        }
        return out
    }

    // MARK: Shapes

    func shapeNodes(_ m: MarkSpec, _ l: Layout) -> [Node] {
        guard var path = m.shapePath else { return [] }
        if m.shapeInData {
            // Linear scales are affine: map the path's points through them.
            let x0 = l.x(0), x1 = l.x(1), y0 = l.y(0), y1 = l.y(1)
            path = path.applying(Transform(a: x1 - x0, b: 0, c: 0, d: y1 - y0, tx: x0, ty: y0))
        }
        var node = ShapeNode(id: m.id, path: path)
        if let f = m.fill { node.fill = (f, .nonZero) }
        if let s = m.stroke { node.stroke = s }
        if m.fill == nil && m.stroke == nil { node.fill = (.solid(Palette.color(0)), .nonZero) }
        node.trimStart = m.trimStart; node.trimEnd = m.trimEnd; node.opacity = m.opacity
        node.blendMode = blend(m)
        if let sc = m.scale {
            let b = path.controlBounds
            node.motion.scaleX = sc; node.motion.scaleY = sc; node.motion.anchor = Point(b.midX, b.midY)
        }
        return [.shape(node)]
    }
}
