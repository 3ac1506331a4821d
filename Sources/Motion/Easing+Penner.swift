// Robert Penner's easing equations in the normalized form easings.net gives
// them: one function of x in 0...1 per family and direction. docs/motion.md
// lists the formulas. The in and inOut forms are written as easings.net
// writes them rather than derived from the out form, so each matches its
// published formula to rounding; Easing handles x = 0 and x = 1 exactly
// before these run, which also covers the special cases easings.net writes
// for expo and elastic.

/// A family of Penner easing curves, in easings.net's order.
public enum EasingFamily: String, CaseIterable, Hashable, Sendable {
    /// Quarter of a sine wave.
    case sine
    /// x².
    case quad
    /// x³.
    case cubic
    /// x⁴.
    case quart
    /// x⁵.
    case quint
    /// 2^(10x − 10).
    case expo
    /// A quarter circle.
    case circ
    /// Pulls back below 0 before moving (overshoots past 1 in the out form).
    case back
    /// A decaying sine oscillation.
    case elastic
    /// Bounces like a ball dropped on the target.
    case bounce
}

/// Which end of a Penner curve is slow.
public enum EasingDirection: String, CaseIterable, Hashable, Sendable {
    /// Slow start: easeInX.
    case `in` = "In"
    /// Slow end: easeOutX, the in form turned half a turn: 1 − in(1 − x).
    case out = "Out"
    /// Slow at both ends: easeInOutX.
    case inOut = "InOut"
}

extension EasingFamily {
    /// The curve at x strictly inside 0...1.
    func value(_ x: Double, _ direction: EasingDirection) -> Double {
        switch self {
        case .sine:
            switch direction {
            case .in: return 1 - MotionMath.cos(x * MotionMath.pi / 2)
            case .out: return MotionMath.sin(x * MotionMath.pi / 2)
            case .inOut: return -(MotionMath.cos(MotionMath.pi * x) - 1) / 2
            }
        case .quad: return EasingFamily.power(x, 2, direction)
        case .cubic: return EasingFamily.power(x, 3, direction)
        case .quart: return EasingFamily.power(x, 4, direction)
        case .quint: return EasingFamily.power(x, 5, direction)
        case .expo:
            switch direction {
            case .in: return MotionMath.exp2(10 * x - 10)
            case .out: return 1 - MotionMath.exp2(-10 * x)
            case .inOut:
                return x < 0.5 ? MotionMath.exp2(20 * x - 10) / 2 : (2 - MotionMath.exp2(-20 * x + 10)) / 2
            }
        case .circ:
            switch direction {
            case .in: return 1 - (1 - x * x).squareRoot()
            case .out: return (1 - (x - 1) * (x - 1)).squareRoot()
            case .inOut:
                if x < 0.5 { return (1 - (1 - (2 * x) * (2 * x)).squareRoot()) / 2 }
                let u = -2 * x + 2
                return ((1 - u * u).squareRoot() + 1) / 2
            }
        case .back:
            let c1 = 1.70158
            let c3 = c1 + 1
            switch direction {
            case .in: return c3 * x * x * x - c1 * x * x
            case .out:
                let u = x - 1
                return 1 + c3 * u * u * u + c1 * u * u
            case .inOut:
                let c2 = c1 * 1.525
                if x < 0.5 { return (2 * x) * (2 * x) * ((c2 + 1) * 2 * x - c2) / 2 }
                let u = 2 * x - 2
                return (u * u * ((c2 + 1) * u + c2) + 2) / 2
            }
        case .elastic:
            switch direction {
            case .in:
                let c4 = 2 * MotionMath.pi / 3
                return -MotionMath.exp2(10 * x - 10) * MotionMath.sin((x * 10 - 10.75) * c4)
            case .out:
                let c4 = 2 * MotionMath.pi / 3
                return MotionMath.exp2(-10 * x) * MotionMath.sin((x * 10 - 0.75) * c4) + 1
            case .inOut:
                let c5 = 2 * MotionMath.pi / 4.5
                if x < 0.5 { return -(MotionMath.exp2(20 * x - 10) * MotionMath.sin((20 * x - 11.125) * c5)) / 2 }
                return MotionMath.exp2(-20 * x + 10) * MotionMath.sin((20 * x - 11.125) * c5) / 2 + 1
            }
        case .bounce:
            switch direction {
            case .in: return 1 - EasingFamily.bounceOut(1 - x)
            case .out: return EasingFamily.bounceOut(x)
            case .inOut:
                return x < 0.5 ? (1 - EasingFamily.bounceOut(1 - 2 * x)) / 2 : (1 + EasingFamily.bounceOut(2 * x - 1)) / 2
            }
        }
    }

    /// The polynomial families: x^n, 1 − (1 − x)^n, and the two halves joined at 0.5.
    private static func power(_ x: Double, _ n: Int, _ direction: EasingDirection) -> Double {
        switch direction {
        case .in: return integerPower(x, n)
        case .out: return 1 - integerPower(1 - x, n)
        case .inOut:
            // 2^(n−1) x^n below 0.5; 1 − (−2x + 2)^n / 2 above.
            if x < 0.5 { return Double(1 << (n - 1)) * integerPower(x, n) }
            return 1 - integerPower(-2 * x + 2, n) / 2
        }
    }

    /// x^n by repeated multiplication (n ≤ 5), which is what `pow` gives to
    /// rounding, without libm.
    private static func integerPower(_ x: Double, _ n: Int) -> Double {
        var result = x
        for _ in 1..<n { result *= x }
        return result
    }

    /// easeOutBounce: four parabolic arcs of heights 1, 1/4, 1/16 and 1/64
    /// below 1, joined where they touch 1.
    private static func bounceOut(_ x: Double) -> Double {
        let n1 = 7.5625, d1 = 2.75
        if x < 1 / d1 { return n1 * x * x }
        if x < 2 / d1 {
            let u = x - 1.5 / d1
            return n1 * u * u + 0.75
        }
        if x < 2.5 / d1 {
            let u = x - 2.25 / d1
            return n1 * u * u + 0.9375
        }
        let u = x - 2.625 / d1
        return n1 * u * u + 0.984375
    }
}
