/// A number moving from `from` to `to` under an `Animation`.
public struct Tween: Hashable, Sendable {
    /// The value up to the animation's start.
    public var from: Double
    /// The value from the animation's end on.
    public var to: Double
    /// When and how the value moves.
    public var animation: Animation

    /// Creates a tween from `from` to `to`.
    public init(from: Double, to: Double, animation: Animation) {
        self.from = from
        self.to = to
        self.animation = animation
    }

    /// The value at time `t` (seconds): `from + (to - from) * progress`, and
    /// exactly `from` when the progress is 0 and exactly `to` when it is 1
    /// (the interpolation alone could round away from them).
    public func value(at t: Double) -> Double {
        let p = animation.progress(at: t)
        if p == 0 { return from }
        if p == 1 { return to }
        return from + (to - from) * p
    }
}
