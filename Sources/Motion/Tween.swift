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

/// A property value that is either fixed or animated, as the Scene stores it.
public enum AnimatedValue: Hashable, Sendable {
    /// The same value at every time.
    case constant(Double)
    /// A value that moves as the tween says.
    case tween(Tween)

    /// The value at time `t` (seconds).
    public func value(at t: Double) -> Double {
        switch self {
        case let .constant(v): return v
        case let .tween(tween): return tween.value(at: t)
        }
    }

    /// The time from which the value no longer changes: 0 for a constant, the
    /// animation's `end` for a tween. Always finite.
    public var endTime: Double {
        switch self {
        case .constant: return 0
        case let .tween(tween): return tween.animation.end
        }
    }

    /// Whether the value changes at all over time: false for a constant and for
    /// a tween whose `from` equals its `to`.
    public var isAnimated: Bool {
        switch self {
        case .constant: return false
        case let .tween(tween): return tween.from != tween.to
        }
    }

    /// Whether `value(at:)` is the same at every time in the closed interval
    /// [t0, t1], so a value computed at one time there can be reused at the
    /// others. True when t0 ≥ t1 (one time or none).
    ///
    /// A tween holds `from` up to and including `start` and `to` from `end` on;
    /// a zero-length animation changes exactly at `start`, where it is already `to`.
    public func isConstant(between t0: Double, and t1: Double) -> Bool {
        guard isAnimated, case let .tween(tween) = self, !(t0 >= t1) else { return true }
        let start = tween.animation.start, end = tween.animation.end
        return t0 >= end || (t1 <= start && t1 < end)
    }
}
