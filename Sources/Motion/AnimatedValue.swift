/// A property value that is fixed, tweened or keyframed, as the Scene stores it.
///
/// Values are Doubles, so Motion needs no notion of interpolating other types:
/// a colour animates in the Scene as an `AnimatedColor`, which takes its
/// progress from an `Animation` and mixes the two colours in OKLab (Raster).
public enum AnimatedValue: Hashable, Sendable {
    /// The same value at every time.
    case constant(Double)
    /// A value that moves as the tween says.
    case tween(Tween)
    /// A value that moves through keyframes.
    case keyframes(Keyframes)

    /// The value at time `t` (seconds).
    public func value(at t: Double) -> Double {
        switch self {
        case let .constant(v): return v
        case let .tween(tween): return tween.value(at: t)
        case let .keyframes(track): return track.value(at: t)
        }
    }

    /// The time from which the value no longer changes: 0 for a constant, the
    /// animation's `end` for a tween (infinite when it repeats forever), the
    /// last keyframe's time for keyframes.
    public var endTime: Double {
        switch self {
        case .constant: return 0
        case let .tween(tween): return tween.animation.end
        case let .keyframes(track): return track.endTime
        }
    }

    /// The time the value starts changing: 0 for a constant, the animation's start
    /// (after its delay) for a tween, the first keyframe's time for keyframes.
    public var startTime: Double {
        switch self {
        case .constant: return 0
        case let .tween(tween): return tween.animation.start
        case let .keyframes(track): return track.startTime
        }
    }

    /// The time a video without a given duration should show at least: like
    /// `endTime`, but one full cycle for an animation that repeats forever
    /// (see `Animation.displayEnd`). Callers take the largest over all
    /// values, add a hold, and render only up to there, which also stops
    /// every endless repetition at the video's end.
    public var displayEnd: Double {
        switch self {
        case let .tween(tween): return tween.animation.displayEnd
        default: return endTime
        }
    }

    /// Whether the value changes at all over time: false for a constant, for
    /// a tween whose `from` equals its `to`, and for keyframes that all have
    /// one value.
    public var isAnimated: Bool {
        switch self {
        case .constant: return false
        case let .tween(tween): return tween.from != tween.to
        case let .keyframes(track): return track.isAnimated
        }
    }

    /// Whether `value(at:)` is the same at every time in the closed interval
    /// [t0, t1], so a value computed at one time there can be reused at the
    /// others. True when t0 ≥ t1 (one time or none). Never true where the
    /// value changes; between a tween's start and end, and where a step
    /// easing pauses, it may be false although the value happens to hold.
    ///
    /// A tween holds its before-value up to and including `start` and its
    /// after-value from `end` on; a zero-length animation changes exactly at
    /// `start`, where it already shows its after-value.
    public func isConstant(between t0: Double, and t1: Double) -> Bool {
        guard isAnimated, !(t0 >= t1) else { return true }
        switch self {
        case .constant: return true
        case let .keyframes(track): return track.isConstant(between: t0, and: t1)
        case let .tween(tween):
            let start = tween.animation.startFlicks, end = tween.animation.endFlicks
            let from = Flicks.from(t0), to = Flicks.from(t1)
            return from >= end || (to <= start && to < end)
        }
    }
}
