import Geometry
import Raster

// Where a node can put ink, for sizing the offscreen layers of group opacity
// (Canvas.beginLayer(bounds:)). The answer is conservative — it contains every pixel
// the node can touch at any time — or nil when the node moves or changes shape, and then
// the layer covers the clip box as before.

extension ShapeNode {
    /// A box, in the parent's coordinates, containing all the shape's ink at every time;
    /// nil when the shape moves or its geometry changes over time.
    public var inkBounds: Rect? { motion.isIdentity ? inkBoundsUnmoved : nil }

    /// The ink box before the shape's motion; nil when its geometry changes over time.
    var inkBoundsUnmoved: Rect? {
        guard dynamicPath == nil else { return nil }
        let b = path.controlBounds
        guard b.isFinite, b.width >= 0, b.height >= 0 else { return nil }
        let grow = 1 + (stroke?.style.reach ?? 0)
        guard grow.isFinite else { return nil }
        return b.insetBy(-grow)
    }
}

extension TextNode {
    /// A box, in the parent's coordinates, containing the text's ink and background;
    /// nil for a counting number (its width changes) or a moving text.
    public var inkBounds: Rect? {
        guard motion.isIdentity, let b = inkBoxInOwnFrame else { return nil }
        return b.applying(transform)
    }

    /// The ink and background box in the text's own frame (baseline-left origin), one
    /// pixel larger; nil for a counting number, whose width changes.
    var inkBoxInOwnFrame: Rect? {
        guard counter == nil else { return nil }
        // The pill (or the line box) and the glyphs' ink, which may overhang the line box.
        var b = paddedBox
        if metrics.bounds.isFinite && metrics.bounds.width >= 0 {
            for p in [Point(metrics.bounds.minX, metrics.bounds.minY), Point(metrics.bounds.maxX, metrics.bounds.maxY)] { b = b.union(p) }
        }
        return b.insetBy(-1)
    }
}

extension GroupNode {
    /// A box, in the parent's coordinates, containing every child's ink; nil when the
    /// group or any child moves or changes shape.
    public var inkBounds: Rect? {
        guard motion.isIdentity, let b = inkBoundsOfChildren else { return nil }
        return b.width < 0 ? b : b.applying(transform)
    }

    /// The union of the children's ink boxes in the group's own coordinates; nil when
    /// one is unknown.
    var inkBoundsOfChildren: Rect? {
        // Children rebuilt per frame can reach anywhere.
        guard dynamicChildren == nil else { return nil }
        var b = Rect.null
        for c in children {
            guard let r = c.inkBounds else { return nil }
            if r.width < 0 { continue }
            b = b.union(Point(r.minX, r.minY)).union(Point(r.maxX, r.maxY))
        }
        return b
    }
}

extension Node {
    /// See `ShapeNode.inkBounds`; `Rect.null` for a group with nothing in it.
    public var inkBounds: Rect? {
        switch self {
        case .shape(let s): return s.inkBounds
        case .group(let g): return g.inkBounds
        case .text(let t): return t.inkBounds
        }
    }
}

