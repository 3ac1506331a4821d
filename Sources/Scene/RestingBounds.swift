import Geometry

// Where a node draws when it is at rest, for tests and tools that look at one node of
// a frame (ChartReel's `ChartScene.bounds(of:)`): its box says which region of a frame
// to search for that node's ink. Unlike `inkBounds` (InkBounds.swift), which sizes
// layers and must hold at every time, this ignores animation: no trim, no motion, the
// shape's final path.

extension Node {
    /// The region the node draws in when at rest (no trim, no movement): a shape's path
    /// widened by its stroke's reach, a text's line box with its background, a group's
    /// children through the group's transform. Nil when it draws nothing.
    ///
    /// A stroke widens the box by `StrokeStyle.reach` (half the width, times √2 or the
    /// miter limit), so the box may be a little larger than the ink, never smaller.
    public var restingBounds: Rect? {
        switch self {
        case .shape(let s):
            let b = s.path.controlBounds
            guard b.width >= 0, b.height >= 0, b.isFinite else { return nil }
            guard let style = s.stroke?.style else { return s.fill == nil ? nil : b }
            return b.insetBy(-style.reach)
        case .text(let t):
            return t.corners.dropFirst().reduce(Rect(x: t.corners[0].x, y: t.corners[0].y, width: 0, height: 0)) { $0.union($1) }
        case .group(let g):
            var out: Rect? = nil
            for c in g.children {
                guard let b = c.restingBounds else { continue }
                for p in b.corners.map(g.transform.apply) {
                    out = out.map { $0.union(p) } ?? Rect(x: p.x, y: p.y, width: 0, height: 0)
                }
            }
            return out
        }
    }
}
