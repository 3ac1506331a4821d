// Motion: how animated properties move over time, as pure functions of t.
//
// Nothing here keeps state or reads a clock: an Animation maps a time in
// seconds to a progress fraction, a Tween maps it to a value, so frame i is
// the same whichever thread renders it and in whatever order (DESIGN.md,
// Determinism). Times are quantized to flicks of 1/705,600,000 s before any
// arithmetic (Flicks.swift), so decimal delays and durations divide exactly.
// The curves that need sin, cos or exp (sine, expo, elastic, springs) use
// MotionMath's own implementations, so the module imports nothing, not even
// Glibc, and no libm version can change a frame.
//
// Cubic-Bézier timing curves are CSS / SwiftUI ones, P0 = (0, 0) and P3 = (1, 1).
// The curve is parametric, (x(t), y(t)), and we are given x, so each
// evaluation solves the cubic x(t) = x for t and returns y(t):
//
// - Newton-Raphson first, from the guess t = x, for up to 8 steps, stopping
//   when a step moves t by less than 1e-7. x(t) is close to the identity for
//   usual curves, so Newton converges quadratically in a few steps. Measured
//   over 9,999 fractions strictly inside 0...1: 3.0 evaluations of x(t) per
//   call for easeInOut, 4.1 for easeIn and easeOut, 4.4 for ease (each with
//   one of x'(t)); easeIn and easeOut fell back to bisection on 11 calls.
// - Bisection on 0...1 to a width of 1e-7 when Newton cannot be trusted: the
//   slope x'(t) is near zero (x1 = 0 makes x'(0) = 0; (1, 0, 0, 1) has
//   x'(0.5) = 0) or a step leaves 0...1. Clamping x1 and x2 to 0...1 makes
//   x(t) monotonic, so bisection always converges, in 24 halvings;
//   bisection alone would cost those 24 evaluations on every call.
//
// This is the scheme of WebKit's UnitBezier and Firefox's nsSMILKeySpline,
// with two changes. The tolerance is fixed instead of derived from the
// animation's duration, so a value depends only on the fraction. And Newton
// stops on the size of its step, not on the residual |x(t) - x|: where x(t)
// is nearly flat a small residual still leaves t far from the root, and y(t)
// may be steep there. Over 3,000 random curves (x1, x2 in 0...1, y1, y2 in
// -1...2) at 399 fractions each, the worst error against a full-precision
// bisection was 3.9e-6 with the residual test and 1.2e-7 with the step test.
// The closed-form cubic root (Cardano) was not used: it needs cbrt and acos
// from libm, whose last bits may differ between libm versions, and it loses
// precision near repeated roots.

/// An easing curve: maps a time fraction in 0...1 to a progress fraction.
///
/// The families are SwiftUI's and CSS's cubic Béziers (`easeIn` is
/// cubic-bezier(0.42, 0, 1, 1), `easeOut` (0, 0, 0.58, 1), `easeInOut`
/// (0.42, 0, 0.58, 1)), CSS's `steps()` and piecewise-linear `linear()`, the
/// Penner curves as easings.net defines them, and springs. docs/motion.md
/// gives every formula.
///
/// Cases compare by how they are written: `.easeIn` is not equal to
/// `.cubicBezier(0.42, 0, 1, 1)` although both give the same values.
///
/// Inside an `Animation`, a `.spring` is evaluated in seconds, not as a
/// fraction (see `Animation`); everywhere else (keyframe segments, direct
/// calls) it is normalized so that its settling time maps to 1.
public enum Easing: Hashable, Sendable {
    /// Constant speed: f(x) = x.
    case linear
    /// Starts slowly, ends at full speed: cubic-bezier(0.42, 0, 1, 1).
    case easeIn
    /// Starts at full speed, ends slowly: cubic-bezier(0, 0, 0.58, 1).
    case easeOut
    /// Starts and ends slowly: cubic-bezier(0.42, 0, 0.58, 1), symmetric about (0.5, 0.5).
    case easeInOut
    /// A CSS / SwiftUI timing curve with control points (x1, y1) and (x2, y2);
    /// see `CubicBezier` for how the x values are clamped.
    case cubicBezier(Double, Double, Double, Double)
    /// CSS `steps(n, position)`: n equal steps, where `position` says whether
    /// the first rise is at 0 and the last at 1. A count below the minimum
    /// (1, or 2 for `jumpNone`) is raised to it.
    case steps(Int, StepPosition)
    /// CSS `linear(…)`: straight lines between points.
    case piecewiseLinear(PiecewiseLinear)
    /// A Penner curve as easings.net defines it, e.g. `.penner(.bounce, .out)`
    /// is easeOutBounce.
    case penner(EasingFamily, EasingDirection)
    /// A damped spring from 0 to 1 (see `Spring`).
    case spring(Spring)

    /// CSS's default `ease`, cubic-bezier(0.25, 0.1, 0.25, 1).
    public static let ease = Easing.cubicBezier(0.25, 0.1, 0.25, 1)

    /// The names `init(name:)` accepts, in a stable order, for error messages
    /// and documentation: the cubic Béziers, then the Penner curves family by
    /// family (in, out, inOut), then SwiftUI's spring presets.
    public static let names: [String] = namedCurves.map(\.0)

    /// The curve with the given name (one of `names`, case-sensitive), or nil.
    public init?(name: String) {
        guard let easing = Easing.curvesByName[name] else { return nil }
        self = easing
    }

    private static let namedCurves: [(String, Easing)] = {
        var list: [(String, Easing)] = [
            ("linear", .linear), ("ease", .ease), ("easeIn", .easeIn),
            ("easeOut", .easeOut), ("easeInOut", .easeInOut),
        ]
        for family in EasingFamily.allCases {
            for direction in EasingDirection.allCases {
                list.append((Easing.penner(family, direction).pennerName, .penner(family, direction)))
            }
        }
        list += [("smooth", .spring(.smooth)), ("snappy", .spring(.snappy)), ("bouncy", .spring(.bouncy))]
        return list
    }()

    private static let curvesByName: [String: Easing] = Dictionary(uniqueKeysWithValues: namedCurves)

    /// "easeInOutSine" for `.penner(.sine, .inOut)`; empty for other cases.
    private var pennerName: String {
        guard case let .penner(family, direction) = self else { return "" }
        let familyName = family.rawValue.prefix(1).uppercased() + family.rawValue.dropFirst()
        return "ease" + direction.rawValue + familyName
    }

    /// The progress at time fraction `x`, which is clamped to 0...1 (NaN counts
    /// as 0).
    ///
    /// f(0) is exactly 0 and f(1) exactly 1, with the exceptions CSS defines:
    /// `steps` with a jump at the start is already on its first step at 0,
    /// and `linear(…)` starts and ends at its first and last outputs.
    public func callAsFunction(_ x: Double) -> Double {
        let x = x > 0 ? min(x, 1) : 0
        switch self {
        case .linear: return x
        case .easeIn: return Easing.easeInCurve(x)
        case .easeOut: return Easing.easeOutCurve(x)
        case .easeInOut: return Easing.easeInOutCurve(x)
        case let .cubicBezier(x1, y1, x2, y2): return CubicBezier(x1, y1, x2, y2)(x)
        case let .steps(count, position): return Easing.steps(x, count: count, position: position)
        case let .piecewiseLinear(curve): return curve(x)
        case let .penner(family, direction):
            if x == 0 { return 0 }
            if x == 1 { return 1 }
            return family.value(x, direction)
        case let .spring(spring): return spring.normalizedValue(x)
        }
    }

    private static let easeInCurve = CubicBezier(0.42, 0, 1, 1)
    private static let easeOutCurve = CubicBezier(0, 0, 0.58, 1)
    private static let easeInOutCurve = CubicBezier(0.42, 0, 0.58, 1)
}
