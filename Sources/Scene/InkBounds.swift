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
        var grow = 1.0
        if let s = stroke {
            // Half the width, times √2 for square caps or the miter limit for miter joins.
            let h = s.style.width / 2
            grow += h * max(2.squareRoot(), s.style.join == .miter ? max(1, s.style.miterLimit) : 1)
        }
        guard grow.isFinite else { return nil }
        return b.insetBy(-grow)
    }
}

extension TextNode {
    /// A box, in the parent's coordinates, containing the text's ink and background;
    /// nil for a counting number (its width changes) or a moving text.
    public var inkBounds: Rect? {
        guard motion.isIdentity, let b = inkBoxInOwnFrame else { return nil }
        return mapped(b, by: transform)
    }

    /// The ink and background box in the text's own frame (baseline-left origin), one
    /// pixel larger; nil for a counting number, whose width changes.
    var inkBoxInOwnFrame: Rect? {
        guard counter == nil else { return nil }
        var b = box
        if metrics.bounds.isFinite && metrics.bounds.width >= 0 {
            for p in [Point(metrics.bounds.minX, metrics.bounds.minY), Point(metrics.bounds.maxX, metrics.bounds.maxY)] { b = b.union(p) }
        }
        if let bg = background {
            b = Rect(x: b.minX - bg.padding.x, y: b.minY - bg.padding.y, width: b.width + 2 * bg.padding.x, height: b.height + 2 * bg.padding.y)
        }
        return b.insetBy(-1)
    }
}

extension GroupNode {
    /// A box, in the parent's coordinates, containing every child's ink; nil when the
    /// group or any child moves or changes shape.
    public var inkBounds: Rect? {
        guard motion.isIdentity, let b = inkBoundsOfChildren else { return nil }
        return b.width < 0 ? b : mapped(b, by: transform)
    }
}

extension GroupNode {
    /// The union of the children's ink boxes in the group's own coordinates; nil when
    /// one is unknown.
    var inkBoundsOfChildren: Rect? {
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

/// The bounding box of `r`'s corners under `t`; nil if any is not finite.
func mapped(_ r: Rect, by t: Transform) -> Rect? {
    let c = [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)].map(t.apply)
    guard c.allSatisfy(\.isFinite) else { return nil }
    return Rect(corner: Point(c.map(\.x).min()!, c.map(\.y).min()!), Point(c.map(\.x).max()!, c.map(\.y).max()!))
}
