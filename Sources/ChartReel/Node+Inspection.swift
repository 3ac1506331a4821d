// Where a mark is on screen, for tests that look at one mark of a frame: its bounds say
// which region to search for ink (`Node.restingBounds`, in Scene), and a scene of that
// node alone says what the region looks like when nothing covers it.
import Geometry
import Scene

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
