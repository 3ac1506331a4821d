import Geometry
import Motion

/// A transform whose parts animate: translation, scale about an anchor, rotation.
///
/// Composed as SwiftUI applies modifiers: scale and rotate about `anchor`, then translate.
/// A bar that grows from its baseline is a `scaleY` from 0 to 1 with the anchor on the
/// baseline; a point that pops in is a `scale` from 0 with a spring about its centre.
public struct AnimatedTransform: Sendable {
    /// Horizontal offset in pixels.
    public var translateX: AnimatedValue = .constant(0)
    /// Vertical offset in pixels (y down).
    public var translateY: AnimatedValue = .constant(0)
    /// Horizontal scale factor.
    public var scaleX: AnimatedValue = .constant(1)
    /// Vertical scale factor.
    public var scaleY: AnimatedValue = .constant(1)
    /// Rotation in radians, clockwise on screen.
    public var rotation: AnimatedValue = .constant(0)
    /// The fixed point of scaling and rotation, in the node's parent coordinates.
    public var anchor: Point = .zero

    /// The identity.
    public init() {}

    /// True when no part is ever different from the identity.
    public var isIdentity: Bool {
        func fixed(_ v: AnimatedValue, _ c: Double) -> Bool { if case .constant(let x) = v { return x == c }; return false }
        return fixed(translateX, 0) && fixed(translateY, 0) && fixed(scaleX, 1) && fixed(scaleY, 1) && fixed(rotation, 0)
    }

    /// When the transform can change.
    public var changeSpan: ChangeSpan {
        [translateX, translateY, scaleX, scaleY, rotation].reduce(ChangeSpan.never) { $0.union($1.changeSpan) }
    }

    /// The latest time at which the transform changes.
    public var endTime: Double { [translateX, translateY, scaleX, scaleY, rotation].map(\.displayEnd).max() ?? 0 }

    /// The transform at time `t`.
    public func value(at t: Double) -> Transform {
        let sx = scaleX.value(at: t), sy = scaleY.value(at: t), r = rotation.value(at: t)
        var m = Transform.translation(-anchor.x, -anchor.y).concatenating(.scale(sx, sy))
        if r != 0 { m = m.concatenating(.rotation(r)) }
        return m.concatenating(.translation(anchor.x + translateX.value(at: t), anchor.y + translateY.value(at: t)))
    }
}
