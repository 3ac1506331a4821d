import Geometry
import Raster
import Motion
import Scene

extension ChartSpec {
    /// The scene node of one mark: a group with one child per series or element, each
    /// given the mark's shared movement, rotation and colour animations under its stagger.
    func markNode(_ m: any ChartMark, _ l: ChartState) -> Node {
        let children = m.nodes(in: self, state: l)
        let offsets = staggerOffsets(m.options, count: children.count, values: [])
        let decorated = children.enumerated().map { decorate($0.element, m.options, offsets, $0.offset) }
        return .group(GroupNode(id: m.options.id, children: decorated))
    }

    /// Applies the mark's movement, rotation and colour animations to one of its elements.
    func decorate(_ node: Node, _ m: MarkOptions, _ offsets: [Double], _ i: Int) -> Node {
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

    /// The opacity of the element of row `row`: the mark's, times the row's fade when its
    /// key is entering or leaving a data timeline.
    func elementOpacity(_ base: AnimatedValue, row: Int) -> AnimatedValue {
        guard row < data.count, case .number(let f)? = data[row][DataTimeline.fadeField] else { return base }
        return base.scaled(by: min(1, max(0, f)))
    }

    /// The size factor of the element of row `row`: below 1 while its key grows in or
    /// shrinks out with a timeline's "grow".
    func elementGrowth(row: Int) -> Double {
        guard row < data.count, case .number(let g)? = data[row][DataTimeline.growField] else { return 1 }
        return min(1, max(0, g))
    }

    /// An element's node moved towards the plot edge its key flies in from or out to (a
    /// timeline's "fly"); the node itself when its key is not flying.
    func flown(_ node: Node, row: Int, _ l: ChartState) -> Node {
        guard row < data.count, case .number(let a)? = data[row][DataTimeline.flyField], a > 0,
              case .string(let name)? = data[row][DataTimeline.flySideField], let side = Side(rawValue: name) else { return node }
        let dx: Double, dy: Double
        switch side {
        case .leading: dx = -l.plot.width * a; dy = 0
        case .trailing: dx = l.plot.width * a; dy = 0
        case .top: dx = 0; dy = -l.plot.height * a
        case .bottom: dx = 0; dy = l.plot.height * a
        }
        return .group(GroupNode(id: "flying", children: [node], transform: .translation(dx, dy)))
    }

    /// Each of `count` elements' delay under the mark's stagger (empty without one).
    func staggerOffsets(_ m: MarkOptions, count: Int, values: [Double]) -> [Double] {
        m.stagger?.offsets(count: count, values: values) ?? []
    }
}
