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

/// A colour that animates from one value to another, interpolated in OKLab (a perceptual
/// space: a red → green fade passes through yellow-brown rather than muddy grey) with
/// alpha interpolated linearly.
public struct AnimatedColor: Sendable {
    /// Colour before and at the start.
    public var from: Color
    /// Colour at and after the end.
    public var to: Color
    /// Timing.
    public var animation: Animation

    /// Creates an animated colour.
    public init(from: Color, to: Color, animation: Animation) { self.from = from; self.to = to; self.animation = animation }

    /// The colour at time `t`.
    public func value(at t: Double) -> Color {
        let p = animation.progress(at: t)
        if p <= 0 { return from }
        if p >= 1 { return to }
        return OKLab.mix(from, to, p)
    }
}

import Raster

/// Conversions between sRGB and OKLab (Björn Ottosson's matrices, as CSS Color 4 uses).
public enum OKLab {
    static func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
    static func gamma(_ c: Double) -> Double { c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055 }

    /// The OKLab coordinates (L, a, b) of an sRGB colour.
    public static func lab(_ c: Color) -> (Double, Double, Double) {
        let r = linear(c.r), g = linear(c.g), b = linear(c.b)
        let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        return (0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
                1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
                0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
    }

    /// The sRGB colour of OKLab coordinates (clamped into the gamut).
    public static func rgb(_ L: Double, _ a: Double, _ b: Double, alpha: Double) -> Color {
        let l = pow(L + 0.3963377774 * a + 0.2158037573 * b, 3)
        let m = pow(L - 0.1055613458 * a - 0.0638541728 * b, 3)
        let s = pow(L - 0.0894841775 * a - 1.2914855480 * b, 3)
        return Color(r: gamma(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
                     g: gamma(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
                     b: gamma(-0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s), a: alpha)
    }

    /// The colour a fraction `t` of the way from `x` to `y`.
    public static func mix(_ x: Color, _ y: Color, _ t: Double) -> Color {
        let p = lab(x), q = lab(y)
        return rgb(p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t, p.2 + (q.2 - p.2) * t, alpha: x.a + (y.a - x.a) * t)
    }
}

#if canImport(Glibc)
import Glibc
#endif
