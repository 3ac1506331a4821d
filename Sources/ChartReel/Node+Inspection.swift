// Where a mark is on screen, for tests that look at one mark of a frame: its bounds say
// which region to search for ink, and a scene of that node alone says what the region
// looks like when nothing covers it.
import Geometry
import Scene

extension Node {
    /// The region the node draws in when at rest (no trim, no movement): a shape's path
    /// widened by its stroke, a text's line box with its background, a group's children
    /// through the group's transform. Nil when it draws nothing.
    ///
    /// Strokes are widened by half their width, or by the miter limit times that for
    /// mitered joins, so the box may be a little larger than the ink, never smaller.
    public var restingBounds: Rect? {
        switch self {
        case .shape(let s):
            let b = s.path.controlBounds
            guard b.width >= 0, b.height >= 0, b.isFinite else { return nil }
            guard let st = s.stroke?.style else { return s.fill == nil ? nil : b }
            let reach = st.width / 2 * (st.join == .miter ? max(1, st.miterLimit) : 1) * (st.cap == .square ? 1.5 : 1)
            return b.insetBy(-reach)
        case .text(let t):
            return t.corners.dropFirst().reduce(Rect(x: t.corners[0].x, y: t.corners[0].y, width: 0, height: 0)) { $0.union($1) }
        case .group(let g):
            var out: Rect? = nil
            for c in g.children {
                guard let b = c.restingBounds else { continue }
                let corners = [Point(b.minX, b.minY), Point(b.maxX, b.minY), Point(b.maxX, b.maxY), Point(b.minX, b.maxY)].map(g.transform.apply)
                for p in corners { out = out.map { $0.union(p) } ?? Rect(x: p.x, y: p.y, width: 0, height: 0) }
            }
            return out
        }
    }
}

extension ChartScene {
    /// Where the node `id` (a mark's id, "chart0", "title", "line[0]"…) draws at rest; nil
    /// when there is no such node or it draws nothing.
    public func bounds(of id: String) -> Rect? { scene.node(id)?.restingBounds }

    /// The same canvas, background and timing with only the node `id` on it: what that
    /// node looks like when nothing covers it. Transforms and opacities of the groups
    /// above it are not applied (a chart's groups have none). Nil without such a node.
    public func isolating(_ id: String) -> ChartScene? {
        guard let n = scene.node(id) else { return nil }
        var s = scene
        s.nodes = [n]
        // Keep the video's length: the lone node may end its animations sooner.
        s.duration = scene.effectiveDuration
        return ChartScene(s)
    }
}
