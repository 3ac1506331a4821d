/// When and how a property moves from its from-value to its to-value, with
/// SwiftUI's semantics: `delay` shifts the start, `speed` scales the duration,
/// before `start` the progress is 0 (the from-value holds) and from `end` on
/// it is 1 (the to-value holds).
///
/// `speed` applies to the animation itself, not to its delay: the active part
/// lasts `duration / speed` seconds and starts at `delay` whatever the speed.
/// This is SwiftUI's `base.speed(s).delay(d)`. (SwiftUI's `base.delay(d).speed(s)`
/// would scale the delay too; a flat value type has one order, and a delay that
/// means seconds on the timeline is the one documents can reason about.)
///
/// Out-of-range values have a defined meaning instead of a trap, so a bad
/// document cannot crash a render (Timelines rejects them with a message): a
/// non-finite `delay` counts as 0, and an active duration that is not finite
/// and positive (duration ≤ 0, speed ≤ 0, NaN, infinity) counts as 0, a jump at
/// `start`. So `end` is always finite.
public struct Animation: Hashable, Sendable {
    /// SwiftUI's default duration, in seconds.
    public static let defaultDuration = 0.35

    /// Length of the animation at speed 1, in seconds.
    public var duration: Double
    /// Seconds from time 0 to the start; not scaled by `speed`.
    public var delay: Double
    /// Playback rate: 2 runs in half the duration, 0.5 in twice.
    public var speed: Double
    /// The timing curve mapping elapsed fraction to progress.
    public var curve: Easing

    /// Creates an animation; the defaults are SwiftUI's `.easeInOut`.
    public init(curve: Easing = .easeInOut, duration: Double = Animation.defaultDuration,
                delay: Double = 0, speed: Double = 1) {
        self.curve = curve
        self.duration = duration
        self.delay = delay
        self.speed = speed
    }

    /// Time the animation starts, in seconds: `delay` (0 when not finite).
    public var start: Double { delay.isFinite ? delay : 0 }

    /// Seconds the animation runs once started: `duration / speed`, or 0 when
    /// that is not finite and positive.
    public var activeDuration: Double {
        let d = duration / speed
        return d > 0 && d.isFinite ? d : 0
    }

    /// Time the animation ends, in seconds: `start + duration / speed`; always finite.
    public var end: Double { start + activeDuration }

    /// The eased progress at time `t` (seconds): 0 for t ≤ `start`, 1 for
    /// t ≥ `end`, `curve((t - start) / activeDuration)` between. A zero active
    /// duration jumps from 0 to 1 at `start`. Curves that overshoot may leave
    /// 0...1 between `start` and `end`.
    public func progress(at t: Double) -> Double {
        let start = self.start, active = activeDuration
        if t >= start + active { return 1 }
        if !(t > start) { return 0 }
        return curve((t - start) / active)
    }

    /// A copy that starts `seconds` later; as in SwiftUI, delays add up.
    public func delay(_ seconds: Double) -> Animation {
        var copy = self
        copy.delay += seconds
        return copy
    }

    /// A copy that plays `factor` times as fast; as in SwiftUI, speeds multiply.
    /// The delay is not scaled (see the type's documentation).
    public func speed(_ factor: Double) -> Animation {
        var copy = self
        copy.speed *= factor
        return copy
    }

    /// A constant-speed animation, like SwiftUI's `.linear(duration:)`.
    public static func linear(duration: Double = defaultDuration) -> Animation {
        Animation(curve: .linear, duration: duration)
    }

    /// An animation that starts slowly, like SwiftUI's `.easeIn(duration:)`.
    public static func easeIn(duration: Double = defaultDuration) -> Animation {
        Animation(curve: .easeIn, duration: duration)
    }

    /// An animation that ends slowly, like SwiftUI's `.easeOut(duration:)`.
    public static func easeOut(duration: Double = defaultDuration) -> Animation {
        Animation(curve: .easeOut, duration: duration)
    }

    /// An animation that starts and ends slowly, like SwiftUI's `.easeInOut(duration:)`.
    public static func easeInOut(duration: Double = defaultDuration) -> Animation {
        Animation(curve: .easeInOut, duration: duration)
    }

    /// An animation on the cubic-Bézier curve with control points (c0x, c0y)
    /// and (c1x, c1y), like SwiftUI's `.timingCurve(_:_:_:_:duration:)`.
    public static func timingCurve(_ c0x: Double, _ c0y: Double, _ c1x: Double, _ c1y: Double,
                                   duration: Double = defaultDuration) -> Animation {
        Animation(curve: .cubicBezier(c0x, c0y, c1x, c1y), duration: duration)
    }
}
