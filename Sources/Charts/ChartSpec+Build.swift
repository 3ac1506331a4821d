#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Motion
import Scene
import Text

extension ChartSpec {
    /// The chart's scene nodes, in drawing order, inside one group.
    ///
    /// A static chart (`isStatic`: every chart whose scales do not animate) is laid out
    /// once and its nodes are built once. A chart whose state changes keeps its card and
    /// title as they are and puts everything else in a group whose children are rebuilt
    /// from `state(at: t)` at every frame while the state changes (`GroupNode.dynamicChildren`);
    /// before and after that they are the first and last state's, so the frame cache
    /// keeps holding them there.
    public func build(id: String? = nil) -> Node {
        let span = stateChangeSpan
        guard span != .never else {
            let shown = snapshot(at: 0), l = shown.state(at: 0)
            return .group(GroupNode(id: id, children: frameNodes(l) + shown.stateNodes(l)))
        }
        let spec = preparedForFrames()
        // A title that names the moment is redrawn with the plot.
        let movingTitle = titleNamesTheMoment
        let shown = spec.snapshot(at: span.end), last = shown.state(at: span.end)
        var plot = GroupNode(id: "plot", children: (movingTitle ? shown.titleNodes(last) : []) + shown.stateNodes(last))
        plot.dynamicChildren = { t in
            let s = spec.snapshot(at: t), l = s.state(at: t)
            return (movingTitle ? s.titleNodes(l) : []) + s.stateNodes(l)
        }
        plot.dynamicSpan = span
        return .group(GroupNode(id: id, children: spec.frameNodes(last, title: !movingTitle) + [.group(plot)]))
    }

    /// What does not depend on the state: the card and the title block.
    func frameNodes(_ l: ChartState, title withTitle: Bool = true) -> [Node] {
        var children: [Node] = []
        if let c = card {
            children.append(.shape(ShapeNode(id: "card", path: Path.roundedRect(frame, cornerRadius: c.cornerRadius), fill: (.solid(c.color), .nonZero))))
        }
        if withTitle { children.append(contentsOf: titleNodes(l)) }
        return children
    }

    /// What is drawn from the state: grid, marks, axes, value labels and legend.
    func stateNodes(_ l: ChartState) -> [Node] {
        var children: [Node] = []
        if let pa = plotArea {
            var node = ShapeNode(id: "plot-area", path: .rect(l.plot), frame: l.plot)
            if let c = pa.background { node.fill = (.solid(c), .nonZero) }
            if let c = pa.border { node.stroke = (.solid(c), StrokeStyle(width: pa.borderWidth)) }
            children.append(.shape(node))
        }
        if let g = grid { children.append(contentsOf: gridNodes(g, l)) }
        if let p = periodLabel { children.append(periodLabelNode(p, l)) }
        var markNodes: [Node] = []
        for (i, m) in marks.enumerated() {
            if let g = ghostRows[i] { markNodes.append(contentsOf: ghostNodes(m, g, l)) }
            markNodes.append(markNode(m, l))
        }
        if marksAreClipped(l) {
            var g = GroupNode(id: "marks", children: markNodes)
            g.clip = l.plot
            children.append(.group(g))
        } else {
            children.append(contentsOf: markNodes)
        }
        for a in axes { children.append(axisNode(a, l)) }
        if let e = extremes { children.append(contentsOf: extremeNodes(e, l)) }
        if let lg = legend, !legendEntries.isEmpty { children.append(legendNode(lg, l)) }
        return children
    }
}
