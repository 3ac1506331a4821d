// The solver is described, with the reasons for it, at the top of Easing.swift.

/// A CSS / SwiftUI timing curve: the cubic Bézier from P0 = (0, 0) through the
/// control points P1 = (x1, y1) and P2 = (x2, y2) to P3 = (1, 1), read as a
/// function y = f(x) of the time fraction x.
///
/// Evaluation solves x(t) = x for the curve parameter t (Newton-Raphson from
/// t = x, bisection when Newton cannot be trusted) to an absolute tolerance of
/// `1e-7` in t, then returns y(t). The tolerance is fixed, so a curve gives the
/// same value at the same fraction whatever the animation's duration (WebKit's
/// solver derives its epsilon from the duration; frames here must not depend
/// on it). `f(x)` is exactly 0 for x ≤ 0 and exactly 1 for x ≥ 1.
public struct CubicBezier: Hashable, Sendable {
    /// x of the first control point, clamped to 0...1 so that x(t) is monotonic
    /// and every x has exactly one t (CSS rejects values outside; we clamp).
    public let x1: Double
    /// y of the first control point; may leave 0...1 for curves that overshoot.
    public let y1: Double
    /// x of the second control point, clamped to 0...1 like `x1`.
    public let x2: Double
    /// y of the second control point; may leave 0...1 for curves that overshoot.
    public let y2: Double

    // Power-basis coefficients, so x(t) = ((ax t + bx) t + cx) t and likewise y.
    // Derived from the control points, so the synthesized == and hash agree
    // with comparing the control points alone.
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double

    /// Tolerance on the solved parameter t: Newton stops when its step is
    /// smaller, bisection when its bracket is narrower. |y'(t)| ≤ 3 for control
    /// points in 0...1, so the value is within a few 1e-7 of the exact one.
    static let tolerance = 1e-7
    /// Newton steps tried before falling back to bisection.
    static let newtonIterations = 8
    /// Below this |x'(t)| a Newton step is unreliable and bisection takes over.
    static let minimumSlope = 1e-6

    /// Creates the curve with control points (x1, y1) and (x2, y2).
    ///
    /// `x1` and `x2` are clamped to 0...1 (NaN becomes 0); `y1` and `y2` are
    /// kept as given and should be finite.
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        let x1 = CubicBezier.unitClamped(x1), x2 = CubicBezier.unitClamped(x2)
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    /// The eased value y at time fraction `x`: 0 for x ≤ 0 (and NaN), 1 for x ≥ 1.
    public func callAsFunction(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        return sampleY(solve(x))
    }

    /// The curve parameter t in 0...1 with x(t) = x, for x strictly inside 0...1.
    func solve(_ x: Double) -> Double {
        // Newton-Raphson from t = x: for typical curves x(t) is close to t, so
        // this converges in two to four steps.
        var t = x
        for _ in 0..<CubicBezier.newtonIterations {
            let error = sampleX(t) - x
            if error == 0 { return t }
            let slope = sampleDerivativeX(t)
            if abs(slope) < CubicBezier.minimumSlope { break }
            let step = error / slope
            t -= step
            if !(t >= 0 && t <= 1) { break }
            // Stop on the step, not the residual: near a flat stretch of x(t) a
            // residual below 1e-7 still leaves t far from the root.
            if abs(step) < CubicBezier.tolerance { return t }
        }
        // Bisection: x(t) is monotonic on 0...1, so this always converges
        // (about 24 halvings to reach the tolerance).
        var lo = 0.0, hi = 1.0
        while hi - lo > CubicBezier.tolerance {
            let mid = 0.5 * (lo + hi)
            let xm = sampleX(mid)
            if xm == x { return mid }
            if xm < x { lo = mid } else { hi = mid }
        }
        return 0.5 * (lo + hi)
    }

    /// x(t) in Horner form.
    func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    /// y(t) in Horner form.
    func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    /// x'(t).
    func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    private static func unitClamped(_ v: Double) -> Double {
        v > 0 ? min(v, 1) : 0
    }
}
