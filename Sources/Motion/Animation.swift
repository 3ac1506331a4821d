/// When and how a property moves from its from-value to its to-value, with
/// SwiftUI's semantics: `delay` shifts the start, `speed` scales the duration,
/// before `start` the progress is 0 (the from-value holds) and from `end` on
/// it is 1 (the to-value holds), unless `before` / `after` say otherwise.
///
/// `speed` applies to the animation itself, not to its delay: one pass lasts
/// `duration / speed` seconds and starts at `delay` whatever the speed.
/// This is SwiftUI's `base.speed(s).delay(d)`. (SwiftUI's `base.delay(d).speed(s)`
/// would scale the delay too; a flat value type has one order, and a delay that
/// means seconds on the timeline is the one documents can reason about.)
///
/// Repeats: `repeatCount(n, autoreverses:)` plays n passes back to back, and
/// with `autoreverses` every second pass runs backwards (so, as in SwiftUI,
/// each reverse pass counts toward n: 3 is forward, back, forward).
/// `repeatForever` never ends: `end` is infinite, and a caller that needs a
/// finite time (a video's length when the document gives none) uses
/// `displayEnd`, then renders frames only up to the video's end, so the
/// repetition stops there.
///
/// Springs: with a `.spring` curve, the progress is the spring's value at
/// the seconds elapsed in the pass times `speed` (not a fraction of the
/// duration), and `duration` defaults to the spring's settling time. A
/// shorter explicit duration cuts the spring off (the after-end value takes
/// over); a spring that never settles (no damping) runs forever.
///
/// Times are rounded to flicks of 1/705,600,000 s before any arithmetic (see
/// Flicks.swift), so decimal times divide exactly: at 60 fps, frame 36 of an
/// animation with delay 0.2 and duration 0.8 is exactly halfway.
///
/// Out-of-range values have a defined meaning instead of a trap, so a bad
/// document cannot crash a render (Timelines rejects them with a message): a
/// non-finite `delay` counts as 0, and a pass length that is not finite
/// and positive (duration ≤ 0, speed ≤ 0, NaN, infinity) counts as 0, a jump at
/// `start`; a repeat count below 1 counts as 1. So `end` is finite unless the
/// animation repeats forever or is an undamped spring.
public struct Animation: Hashable, Sendable {
    /// SwiftUI's default duration, in seconds.
    public static let defaultDuration = 0.35

    /// How many passes an animation plays.
    public enum Repetition: Hashable, Sendable {
        /// This many passes in total (reverse passes included); below 1 counts as 1.
        case count(Int)
        /// Passes without end.
        case forever
    }

    /// What a property shows before the animation starts.
    public enum BeforeStart: Hashable, Sendable {
        /// The from-value (progress 0), as SwiftUI and CSS's backwards fill do.
        case from
        /// The to-value (progress 1): the property is already there and
        /// replays its arrival when the animation starts.
        case to
    }

    /// What a property shows after the animation ends.
    public enum AfterEnd: Hashable, Sendable {
        /// The to-value (progress 1), as SwiftUI does, even when the last
        /// pass ran backwards or a spring was cut short.
        case to
        /// The from-value (progress 0): the animation resets.
        case from
        /// Where the last pass ended: the from-value after a reverse pass,
        /// a cut-short spring's last value (CSS's forwards fill).
        case lastPass
    }

    /// Length of one pass at speed 1, in seconds. Defaults to
    /// `defaultDuration`, or to the settling time for a spring curve; setting
    /// it fixes it whatever the curve.
    public var duration: Double {
        get { explicitDuration ?? curve.naturalDuration }
        set { explicitDuration = newValue }
    }
    /// Seconds from time 0 to the start; not scaled by `speed`.
    public var delay: Double
    /// Playback rate: 2 runs in half the duration, 0.5 in twice.
    public var speed: Double
    /// The timing curve mapping elapsed fraction (or, for springs, seconds) to progress.
    public var curve: Easing
    /// How many passes play; `.count(1)` by default.
    public var repetition: Repetition
    /// Whether every second pass plays backwards.
    public var autoreverses: Bool
    /// What shows before `start`; `.from` by default.
    public var before: BeforeStart
    /// What shows from `end` on; `.to` by default.
    public var after: AfterEnd

    private var explicitDuration: Double?

    /// Creates an animation; the defaults are SwiftUI's `.easeInOut`. A nil
    /// duration means the curve's natural one (see `duration`).
    public init(curve: Easing = .easeInOut, duration: Double? = nil,
                delay: Double = 0, speed: Double = 1) {
        self.curve = curve
        self.explicitDuration = duration
        self.delay = delay
        self.speed = speed
        self.repetition = .count(1)
        self.autoreverses = false
        self.before = .from
        self.after = .to
    }

    /// Equal when every observable property is: a duration given explicitly
    /// equals the same duration by default.
    public static func == (lhs: Animation, rhs: Animation) -> Bool {
        lhs.curve == rhs.curve && lhs.duration == rhs.duration && lhs.delay == rhs.delay
            && lhs.speed == rhs.speed && lhs.repetition == rhs.repetition
            && lhs.autoreverses == rhs.autoreverses && lhs.before == rhs.before && lhs.after == rhs.after
    }

    /// Hashes the properties `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(curve)
        hasher.combine(duration)
        hasher.combine(delay)
        hasher.combine(speed)
        hasher.combine(repetition)
        hasher.combine(autoreverses)
        hasher.combine(before)
        hasher.combine(after)
    }

    // MARK: Times, in flicks (see Flicks.swift)

    /// The start in flicks: `delay`, or 0 when that is not finite.
    var startFlicks: Double {
        let t = Flicks.from(delay)
        return t.isFinite ? t : 0
    }

    /// One pass in flicks: 0 when not finite and positive, except that an
    /// undamped spring's pass is infinite.
    var passFlicks: Double {
        let seconds = duration / speed
        if seconds > 0 && seconds.isFinite { return Flicks.from(seconds) }
        if case .spring = curve, seconds == .infinity, speed > 0 { return .infinity }
        return 0
    }

    /// Number of passes (infinite for `.forever`).
    var passCount: Double {
        switch repetition {
        case let .count(n): return Double(max(n, 1))
        case .forever: return .infinity
        }
    }

    /// The end in flicks: start + passes × pass length (a zero-length pass
    /// ends at the start however often it repeats).
    var endFlicks: Double {
        let pass = passFlicks
        return pass == 0 ? startFlicks : startFlicks + passCount * pass
    }

    /// Time the animation starts, in seconds: `delay` (0 when not finite).
    public var start: Double { Flicks.seconds(startFlicks) }

    /// Seconds one pass lasts: `duration / speed`, or 0 when that is not
    /// finite and positive (infinite for an undamped spring).
    public var activeDuration: Double { Flicks.seconds(passFlicks) }

    /// Time the animation ends, in seconds: `start + passes × duration / speed`;
    /// infinite for `repeatForever` and for an undamped spring.
    public var end: Double { Flicks.seconds(endFlicks) }

    /// The end a video that gives no duration should show at least: `end`
    /// when finite; for `repeatForever`, one full cycle (a forward pass, and
    /// the reverse pass when autoreversing). Infinite only for an undamped spring.
    public var displayEnd: Double {
        if case .forever = repetition, passFlicks > 0 {
            return Flicks.seconds(startFlicks + passFlicks * (autoreverses ? 2 : 1))
        }
        return end
    }

    // MARK: Progress

    /// The progress at time `t` (seconds). Up to and including `start` it is
    /// the `before` value (0 by default), from `end` on the `after` value
    /// (1 by default), and between it follows the curve through the passes:
    /// `curve(fraction)` forward, `curve(1 − fraction)` on a reverse pass. A
    /// zero-length pass jumps from 0 to 1 at `start`. Curves that overshoot
    /// may leave 0...1 between `start` and `end`.
    public func progress(at t: Double) -> Double {
        let now = Flicks.from(t)
        let start = startFlicks, pass = passFlicks
        let end = pass == 0 ? start : start + passCount * pass
        if now >= end { return afterValue(pass: pass) }
        if !(now > start) { return before == .from ? 0 : 1 }
        let elapsed = now - start
        if pass == .infinity { return passValue(elapsed, pass: pass, reversed: false) }
        var index = (elapsed / pass).rounded(.down)
        var within = elapsed - index * pass
        // Whole flicks make both exact below 2^53; guard the bound all the same.
        if within >= pass { index += 1; within -= pass }
        let reversed = autoreverses && index.truncatingRemainder(dividingBy: 2) == 1
        return passValue(within, pass: pass, reversed: reversed)
    }

    /// The progress `within` flicks into a pass of `pass` flicks.
    private func passValue(_ within: Double, pass: Double, reversed: Bool) -> Double {
        if case let .spring(spring) = curve {
            let flicks = reversed ? pass - within : within
            return spring.value(at: Flicks.seconds(flicks) * speed)
        }
        let fraction = within / pass
        return curve(reversed ? 1 - fraction : fraction)
    }

    private func afterValue(pass: Double) -> Double {
        switch after {
        case .to: return 1
        case .from: return 0
        case .lastPass:
            guard pass > 0 else { return 1 }
            let reversed: Bool
            switch repetition {
            case let .count(n): reversed = autoreverses && max(n, 1) % 2 == 0
            case .forever: reversed = false
            }
            return passValue(pass, pass: pass, reversed: reversed)
        }
    }

    // MARK: Modifiers

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

    /// A copy that plays `count` passes in total, every second one backwards
    /// when `autoreverses` (SwiftUI's default), so reverse passes count toward
    /// `count`. Replaces any earlier repetition.
    public func repeatCount(_ count: Int, autoreverses: Bool = true) -> Animation {
        var copy = self
        copy.repetition = .count(count)
        copy.autoreverses = autoreverses
        return copy
    }

    /// A copy that repeats without end, every second pass backwards when
    /// `autoreverses` (SwiftUI's default). Its `end` is infinite; see the
    /// type's documentation for how callers stop it.
    public func repeatForever(autoreverses: Bool = true) -> Animation {
        var copy = self
        copy.repetition = .forever
        copy.autoreverses = autoreverses
        return copy
    }

    /// A copy with the given values before its start and after its end.
    public func fill(before: BeforeStart = .from, after: AfterEnd = .to) -> Animation {
        var copy = self
        copy.before = before
        copy.after = after
        return copy
    }

    // MARK: SwiftUI's constructors

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

    /// SwiftUI's `.spring(response:dampingFraction:)`; lasts until the spring settles.
    public static func spring(response: Double, dampingFraction: Double = 0.825) -> Animation {
        Animation(curve: .spring(Spring(response: response, dampingFraction: dampingFraction)))
    }

    /// SwiftUI's `.spring(duration:bounce:)`; lasts until the spring settles
    /// (`duration` is the spring's response, its perceived duration).
    public static func spring(duration: Double = 0.5, bounce: Double = 0) -> Animation {
        Animation(curve: .spring(Spring(duration: duration, bounce: bounce)))
    }

    /// SwiftUI's `.interpolatingSpring(mass:stiffness:damping:initialVelocity:)`;
    /// lasts until the spring settles.
    public static func interpolatingSpring(mass: Double = 1, stiffness: Double, damping: Double,
                                           initialVelocity: Double = 0) -> Animation {
        Animation(curve: .spring(Spring(mass: mass, stiffness: stiffness, damping: damping,
                                        initialVelocity: initialVelocity)))
    }

    /// SwiftUI's `.smooth`: a spring without bounce, response 0.5 s.
    public static let smooth = Animation(curve: .spring(.smooth))
    /// SwiftUI's `.snappy`: a spring with bounce 0.15, response 0.5 s.
    public static let snappy = Animation(curve: .spring(.snappy))
    /// SwiftUI's `.bouncy`: a spring with bounce 0.3, response 0.5 s.
    public static let bouncy = Animation(curve: .spring(.bouncy))
}

extension Easing {
    /// The duration an animation on this curve has when none is given:
    /// a spring's settling time, else SwiftUI's 0.35 s.
    var naturalDuration: Double {
        if case let .spring(spring) = self { return spring.settlingTime }
        return Animation.defaultDuration
    }
}
