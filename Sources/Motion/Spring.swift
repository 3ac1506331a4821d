// Springs in closed form.
//
// A spring moves progress x from 0 to 1 under m x'' = −k (x − 1) − c x' with
// x(0) = 0 and x'(0) = v0. With y = x − 1, a = c / 2m (the decay rate) and
// ω0 = √(k/m) (the natural angular frequency):
//
//   y(t)  = e^(−at) [ −C(t) + (v0 − a) S(t) ]
//   y'(t) = e^(−at) [ v0 C(t) + (ω0² − a v0) S(t) ]
//
// where, by the damping ratio ζ = a / ω0,
//   under-damped (ζ < 1), ω = √(ω0² − a²):  C = cos ωt,  S = sin(ωt) / ω
//   critically damped (ζ = 1):              C = 1,       S = t
//   over-damped (ζ > 1), γ = √(a² − ω0²):   C = cosh γt, S = sinh(γt) / γ
//
// One formula for the three cases keeps them continuous across ζ = 1: S is
// computed as sin(ωt)/ω and as t·sinh(γt)/(γt) with a series near 0, so a
// spring with ζ = 1 ± 1e-12 gives the critically damped values, not a
// cancellation of two huge terms. For γt ≥ 1/2 the over-damped terms are
// summed as two exponentials, e^(r1 t) and e^(r2 t) with r1 = −ω0²/(a + γ)
// (the slow root, without the cancellation of a − γ) and r2 = −(a + γ), so
// that e^(γt) never overflows.
//
// Nothing is integrated numerically: the value at t is a function of t
// alone, so every frame is reproducible on its own.
//
// The settling time is the first time after which |x − 1| stays below
// 0.001. It is found once, when the spring is made:
//
// 1. An envelope time after which |y| < 0.001 is certain. Under-damped:
//    |y| ≤ R e^(−at) with R = √(1 + ((v0 − a)/ω)²), solved with log.
//    Otherwise |y| ≤ e^(−at) (C + |v0 − a| S), a function with at most one
//    maximum, so doubling t until it is below 0.001 and falling is a
//    bounded search.
// 2. Under-damped, the extrema of y are at t_k = (θ0 + kπ)/ω, where θ0 is
//    the first zero of y' (bisection on 0...π), and |y(t_k)| =
//    R √(1 − ζ²) e^(−a t_k) decreases with k. The last k with
//    |y(t_k)| ≥ 0.001 comes from that formula (checked against y itself a
//    few k either side); between t_k and the next zero of y, |y| falls
//    monotonically, so bisection finds where it crosses 0.001.
//    Critically and over-damped, y has at most one extremum; |y| is
//    monotonic on either side of it, so one bisection finds the crossing.
//
// Bisection runs until the bracket cannot shrink in Double, so the result
// is the first Double after the crossing: |x − 1| < 0.001 from there on,
// and ≥ 0.001 at the Double before it.

/// A damped spring moving progress from 0 to 1, with SwiftUI's parameters.
///
/// SwiftUI's two descriptions map onto mass, stiffness and damping as
/// k = (2π / response)² m and c = 4π ζ m / response, with the damping ratio ζ
/// equal to `dampingFraction`, or 1 − bounce for bounce ≥ 0 and
/// 1 / (1 + bounce) for bounce < 0. So `Spring(duration: 0.5, bounce: 0.3)`
/// has stiffness (4π)² ≈ 157.9 and damping 5.6π ≈ 17.6.
///
/// Out-of-range parameters have a defined meaning: a mass that is not finite
/// and positive counts as 1; a negative or NaN damping as 0; a non-finite
/// initial velocity as 0. A stiffness that is not finite and positive, or an
/// infinite damping, gives a spring that jumps to 1 at once (settling time 0).
/// Without damping the spring oscillates forever and never settles
/// (`settlingTime` is infinite).
public struct Spring: Hashable, Sendable {
    /// |x − 1| below which the spring counts as settled.
    public static let settlingTolerance = 0.001

    /// Mass m.
    public let mass: Double
    /// Stiffness k, the force per unit of distance from the target.
    public let stiffness: Double
    /// Damping c, the force per unit of velocity.
    public let damping: Double
    /// Velocity at t = 0, in progress per second (1 covers the whole distance in a second).
    public let initialVelocity: Double
    /// Seconds until |x − 1| stays below `settlingTolerance`; infinite without damping.
    public private(set) var settlingTime: Double

    private enum Regime: Hashable, Sendable { case jump, under, critical, over }
    private let regime: Regime
    // a = c / 2m; ω0 = √(k/m); ω (under-damped) or γ (over-damped), else 0.
    private let decay: Double
    private let naturalFrequency: Double
    private let frequency: Double

    /// A spring with physical parameters, like SwiftUI's
    /// `interpolatingSpring(mass:stiffness:damping:initialVelocity:)`.
    public init(mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0) {
        let m = mass > 0 && mass.isFinite ? mass : 1
        let c = damping >= 0 ? damping : 0
        let v0 = initialVelocity.isFinite ? initialVelocity : 0
        self.mass = m
        self.initialVelocity = v0
        guard stiffness > 0, stiffness.isFinite, c.isFinite else {
            self.stiffness = .infinity
            self.damping = c
            regime = .jump
            decay = 0
            naturalFrequency = .infinity
            frequency = 0
            settlingTime = 0
            return
        }
        self.stiffness = stiffness
        self.damping = c
        let a = c / (2 * m)
        let w0 = (stiffness / m).squareRoot()
        decay = a
        naturalFrequency = w0
        if a < w0 {
            regime = .under
            frequency = ((w0 - a) * (w0 + a)).squareRoot()
        } else if a == w0 {
            regime = .critical
            frequency = 0
        } else {
            regime = .over
            frequency = ((a - w0) * (a + w0)).squareRoot()
        }
        // A placeholder completes self, so the search can evaluate the spring.
        settlingTime = 0
        settlingTime = computeSettlingTime()
    }

    /// SwiftUI's `spring(response:dampingFraction:)`: `response` is the period
    /// of the undamped oscillation in seconds, `dampingFraction` the damping
    /// ratio ζ (1 is critical damping). Mass 1.
    public init(response: Double, dampingFraction: Double, initialVelocity: Double = 0) {
        let k = (2 * MotionMath.pi / response) * (2 * MotionMath.pi / response)
        let c = 4 * MotionMath.pi * dampingFraction / response
        self.init(mass: 1, stiffness: response > 0 ? k : .nan, damping: c, initialVelocity: initialVelocity)
    }

    /// SwiftUI's `spring(duration:bounce:)`: `duration` is the response (the
    /// perceived duration; the spring settles later), `bounce` in −1...1 is
    /// 0 for no overshoot and larger for more (clamped to −0.999...1; below
    /// 0 the spring is over-damped).
    public init(duration: Double = 0.5, bounce: Double = 0, initialVelocity: Double = 0) {
        self.init(response: duration, dampingFraction: Spring.dampingRatio(bounce: bounce),
                  initialVelocity: initialVelocity)
    }

    /// The damping ratio SwiftUI gives a bounce: 1 − bounce for bounce ≥ 0,
    /// 1 / (1 + bounce) below.
    public static func dampingRatio(bounce: Double) -> Double {
        let b = bounce.isNaN ? 0 : min(max(bounce, -0.999), 1)
        return b >= 0 ? 1 - b : 1 / (1 + b)
    }

    /// SwiftUI's `.smooth`: no bounce, response 0.5 s.
    public static let smooth = Spring(duration: 0.5, bounce: 0)
    /// SwiftUI's `.snappy`: a little bounce (0.15), response 0.5 s.
    public static let snappy = Spring(duration: 0.5, bounce: 0.15)
    /// SwiftUI's `.bouncy`: noticeable bounce (0.3), response 0.5 s.
    public static let bouncy = Spring(duration: 0.5, bounce: 0.3)

    /// The damping ratio ζ = c / (2 √(k m)): below 1 the spring overshoots.
    public var dampingRatio: Double {
        regime == .jump ? 1 : decay / naturalFrequency
    }

    /// The period of the undamped oscillation, 2π √(m/k), in seconds (SwiftUI's response).
    public var response: Double {
        regime == .jump ? 0 : 2 * MotionMath.pi / naturalFrequency
    }

    /// SwiftUI's bounce for this damping ratio: 1 − ζ up to critical damping, 1/ζ − 1 beyond.
    public var bounce: Double {
        let zeta = dampingRatio
        return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
    }

    /// Progress at `seconds` after the start: 0 at and before 0, approaching 1.
    /// Not clamped: an under-damped spring passes 1 and comes back.
    public func value(at seconds: Double) -> Double {
        guard seconds > 0 else { return 0 }
        if regime == .jump { return 1 }
        return 1 + displacement(seconds)
    }

    /// The spring as an easing of a fraction: `value(at: x × settlingTime)`,
    /// exactly 0 at 0 and 1 at 1. A spring that never settles is stretched
    /// over one undamped period instead; one that jumps is 1 for any x > 0.
    func normalizedValue(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1, regime != .jump else { return 1 }
        let span = settlingTime.isFinite ? settlingTime : response
        return value(at: x * span)
    }

    /// e^(−at) C(t) and e^(−at) S(t) (see the top of this file).
    private func dampedParts(_ t: Double) -> (c: Double, s: Double) {
        let a = decay
        switch regime {
        case .jump:
            return (0, 0)
        case .under:
            let e = MotionMath.exp(-a * t)
            let theta = frequency * t
            return (e * MotionMath.cos(theta), e * MotionMath.sin(theta) / frequency)
        case .critical:
            let e = MotionMath.exp(-a * t)
            return (e, e * t)
        case .over:
            let g = frequency, gt = g * t
            if gt < 0.5 {
                let e = MotionMath.exp(-a * t)
                return (e * MotionMath.cosh(gt), e * t * MotionMath.sinhOverX(gt))
            }
            let w0 = naturalFrequency
            let slow = MotionMath.exp(-(w0 * w0) / (a + g) * t)
            let fast = MotionMath.exp(-(a + g) * t)
            return (0.5 * (slow + fast), (slow - fast) / (2 * g))
        }
    }

    /// y(t) = x(t) − 1.
    private func displacement(_ t: Double) -> Double {
        let (c, s) = dampedParts(t)
        return -c + (initialVelocity - decay) * s
    }

    /// y'(t) = x'(t).
    private func slope(_ t: Double) -> Double {
        let (c, s) = dampedParts(t)
        let w0 = naturalFrequency
        return initialVelocity * c + (w0 * w0 - decay * initialVelocity) * s
    }

    // MARK: Settling time

    private func computeSettlingTime() -> Double {
        guard regime != .jump else { return 0 }
        guard decay > 0 else { return .infinity }
        let epsilon = Spring.settlingTolerance
        // Judged on x − 1 as `value(at:)` rounds it (1 + y loses y's last
        // bits), so the definition holds for the values callers see.
        let unsettled: (Double) -> Bool = { abs((1 + self.displacement($0)) - 1) >= epsilon }
        switch regime {
        case .under: return underDampedSettlingTime(unsettled)
        default: return nonOscillatingSettlingTime(unsettled)
        }
    }

    private func underDampedSettlingTime(_ unsettled: (Double) -> Bool) -> Double {
        let a = decay, w = frequency, w0 = naturalFrequency, v0 = initialVelocity
        let epsilon = Spring.settlingTolerance
        // |y| ≤ R e^(−at); beyond tEnvelope that bound is below epsilon. The
        // small margin keeps rounding in log from landing just short.
        let b = (v0 - a) / w
        let r = (1 + b * b).squareRoot()
        let tEnvelope = max(0, MotionMath.log(r / epsilon) / a) * (1 + 1e-9) + 1e-12
        // θ0: the first zero of y' in θ = ωt, from v0 cos θ + ((ω0² − a v0)/ω) sin θ.
        var theta0 = 0.0
        if v0 != 0 {
            let q = (w0 * w0 - a * v0) / w
            let positive = v0 > 0
            theta0 = Spring.bisect(0, MotionMath.pi) { theta in
                let g = v0 * MotionMath.cos(theta) + q * MotionMath.sin(theta)
                return positive ? g > 0 : g < 0
            }
        }
        let extremum: (Double) -> Double = { (theta0 + $0 * MotionMath.pi) / w }
        // The peaks are R √(1 − ζ²) e^(−a t_k): the last k at or above epsilon.
        let peakLimit = MotionMath.log(r * (w / w0) / epsilon) / a
        let kEnvelope = ((w * tEnvelope - theta0) / MotionMath.pi).rounded(.down) + 1
        var k = min(kEnvelope, max(0, ((w * peakLimit - theta0) / MotionMath.pi).rounded(.down) + 2))
        if !(k >= 0) { k = 0 }
        // The formula puts the answer within a step or two of the first k;
        // 64 steps bound the search where it cannot be trusted (ζ so small
        // that ωt leaves the range where sin and cos are accurate), and the
        // envelope time, after which the spring is settled for certain, is
        // the answer there.
        for _ in 0..<64 where k >= 0 {
            let tk = extremum(k)
            if tk < tEnvelope && unsettled(tk) {
                // |y| falls from t_k to the next zero of y, where the crossing is.
                let next = extremum(k + 1)
                let positive = displacement(tk) > 0
                let zero = Spring.bisect(tk, next) { t in
                    let y = self.displacement(t)
                    return positive ? y > 0 : y < 0
                }
                return Spring.bisect(tk, zero, unsettled)
            }
            k -= 1
        }
        if k >= 0 { return tEnvelope }
        // No extremum is unsettled: y moves monotonically from −1 at t = 0 to
        // its first extremum, and crosses −epsilon on the way.
        return Spring.bisect(0, min(extremum(0), tEnvelope), unsettled)
    }

    private func nonOscillatingSettlingTime(_ unsettled: (Double) -> Bool) -> Double {
        let v0 = initialVelocity, a = decay
        let epsilon = Spring.settlingTolerance
        // The bound e^(−at)(C + |v0 − a| S) rises to at most one maximum and
        // then falls; double t until it is below epsilon and falling.
        let bound: (Double) -> Double = { t in
            let (c, s) = self.dampedParts(t)
            return c + abs(v0 - a) * s
        }
        var tEnvelope = 1 / naturalFrequency
        for _ in 0..<2100 {
            let b = bound(tEnvelope)
            if b < epsilon && (b == 0 || b < bound(tEnvelope / 2)) { break }
            tEnvelope *= 2
        }
        // At most one extremum of y: where y' changes sign from that of v0.
        var extremum: Double? = nil
        if v0 != 0 {
            let positive = v0 > 0
            let sameSign: (Double) -> Bool = { t in
                let d = self.slope(t)
                return positive ? d > 0 : d < 0
            }
            if !sameSign(tEnvelope) {
                extremum = Spring.bisect(0, tEnvelope, sameSign)
            }
        }
        if let t = extremum, unsettled(t) {
            // After its extremum y runs monotonically towards 0.
            return Spring.bisect(t, tEnvelope, unsettled)
        }
        // Before it (or with none) y rises monotonically from −1.
        return Spring.bisect(0, extremum ?? tEnvelope, unsettled)
    }

    /// The boundary of a predicate that is true at `lo` and false at `hi`
    /// with one change between: the first Double (to bisection's precision)
    /// where it is false.
    private static func bisect(_ lo: Double, _ hi: Double, _ holds: (Double) -> Bool) -> Double {
        var lo = lo, hi = hi
        for _ in 0..<1100 {
            let mid = lo + (hi - lo) / 2
            if mid <= lo || mid >= hi { break }
            if holds(mid) { lo = mid } else { hi = mid }
        }
        return hi
    }
}
