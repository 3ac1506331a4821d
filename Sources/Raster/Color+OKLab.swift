// OKLab: mixing colours in a perceptual space.
//
// Colour animations, value gradients and series ramps interpolate in OKLab
// (Björn Ottosson's space, the one CSS Color 4 mixes in), so a red → green
// fade passes through yellow-brown instead of muddy grey. The conversion needs
// three powers: the sRGB transfer function (x^2.4 and x^(1/2.4)), the cube
// root into OKLab and the cube out of it.
//
// Why not libm's pow and cbrt: a frame must be a pure function of the
// document (DESIGN.md, Determinism), and glibc does not promise the last bit
// of pow or cbrt, so a mixed colour — and a pixel, when it lands near a
// rounding boundary — could change with the C library. Every power here is
// therefore built from +, −, ×, ÷ and √, which IEEE 754 specifies exactly:
//
//   x³        x · x · x
//   ∛x        Newton's method (below)
//   x^2.4     x² · (x^(1/5))²,           with x^(1/5) by Newton's method
//   x^(1/2.4) ∛x · √√(∛x),               as 1/2.4 = 5/12 = 1/3 + 1/12
//
// Why roots and not exp(2.4 · ln x) with Motion's MotionMath: these exponents
// are all rational with small denominators, so no transcendental function is
// needed, Raster keeps importing nothing but Geometry (DESIGN.md's module
// table), and a root by Newton's method is more accurate than exp∘log, whose
// errors compound.
//
// The roots: write x = m·2^(n·q + r) with m in [1, 2) and 0 ≤ r < n, so that
// x^(1/n) = (m·2^r)^(1/n) · 2^q (scaling by a power of two is exact). A quadratic
// in m times 2^(r/n) guesses the root to 1e-3; two Newton steps bring that to
// 1e-12, and one more, with the residual yⁿ − m·2^r in double-double arithmetic
// (Dekker's exact products), below a hundredth of a unit in the last place
// before the final rounding.
//
// Measured when written (a scratch harness against Python's exact rationals):
// ∛x and x^(1/5) were correctly rounded on all of 40,000 seeded arguments each,
// spread over every exponent including subnormals, where glibc's cbrt missed
// on about half of them, by up to 2.3 units; x^2.4 and x^(1/2.4) were within 4
// units of the exact values. A mix differs from the libm version's by at most
// 6e-14 per channel, and changed no 8-bit channel in a million seeded mixes.
// RasterTests/OKLabTests checks the same on seeded arguments (no neighbour of a
// root is nearer, in double-double; mixes within 1e-12 of libm's). Cost: ∛x
// about as fast as glibc's cbrt, a whole mix 1.7 times the libm version's (about
// 1 µs), which is noise beside a frame (Charts caches the colours of ramps and
// value gradients).

/// Conversions between sRGB and OKLab (Björn Ottosson's matrices, as CSS Color 4 uses),
/// with deterministic powers (see the top of Color+OKLab.swift).
public enum OKLab {
    /// The sRGB transfer function, decoded: the linear-light value of an sRGB component.
    public static func linear(_ c: Double) -> Double {
        if c <= 0.04045 { return c / 12.92 }
        let x = (c + 0.055) / 1.055
        let f = fifthRoot(x)
        return (x * x) * (f * f)
    }

    /// The sRGB transfer function, encoded: the sRGB component of a linear-light value.
    static func gamma(_ c: Double) -> Double {
        if c <= 0.0031308 { return 12.92 * c }
        let r3 = cubeRoot(c)
        return 1.055 * (r3 * r3.squareRoot().squareRoot()) - 0.055
    }

    /// The OKLab coordinates (L, a, b) of an sRGB colour.
    public static func lab(_ c: Color) -> (Double, Double, Double) {
        let r = linear(c.r), g = linear(c.g), b = linear(c.b)
        let l = cubeRoot(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cubeRoot(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cubeRoot(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        return (0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
                1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
                0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
    }

    /// The sRGB colour of OKLab coordinates (clamped into the gamut).
    public static func rgb(_ L: Double, _ a: Double, _ b: Double, alpha: Double) -> Color {
        let l0 = L + 0.3963377774 * a + 0.2158037573 * b
        let m0 = L - 0.1055613458 * a - 0.0638541728 * b
        let s0 = L - 0.0894841775 * a - 1.2914855480 * b
        let l = l0 * l0 * l0, m = m0 * m0 * m0, s = s0 * s0 * s0
        return Color(r: gamma(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
                     g: gamma(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
                     b: gamma(-0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s), a: alpha)
    }

    /// The colour a fraction `t` of the way from `x` to `y`.
    public static func mix(_ x: Color, _ y: Color, _ t: Double) -> Color {
        let p = lab(x), q = lab(y)
        return rgb(p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t, p.2 + (q.2 - p.2) * t, alpha: x.a + (y.a - x.a) * t)
    }

    /// ∛x; odd, so ∛(−x) = −∛x. Zero, infinities and NaN come back unchanged.
    static func cubeRoot(_ x: Double) -> Double {
        guard x != 0 && x.isFinite else { return x }
        if x < 0 { return -cubeRoot(-x) }
        let (m, r, q) = reduced(x, 3)
        let a = m * Double(1 << r)
        // m^(1/3) within 8e-4 on [1, 2), times 2^(r/3): then two Newton steps (8e-4 → 7e-7 → 5e-13).
        var y = (0.624290 + (0.435508 - 0.0590041 * m) * m) * (r == 0 ? 1 : r == 1 ? 1.259921 : 1.587401)
        y = (2 * y + a / (y * y)) / 3
        y = (2 * y + a / (y * y)) / 3
        // The last step with y³ − a in double-double: y² = s + se, s·y = c + ce exactly.
        let (s, se) = exactProduct(y, y)
        let (c, ce) = exactProduct(s, y)
        y -= ((c - a) + (ce + se * y)) / (3 * s)
        return y * powerOfTwo(q)
    }

    /// x^(1/5); odd, so (−x)^(1/5) = −x^(1/5). Zero, infinities and NaN come back unchanged.
    static func fifthRoot(_ x: Double) -> Double {
        guard x != 0 && x.isFinite else { return x }
        if x < 0 { return -fifthRoot(-x) }
        let (m, r, q) = reduced(x, 5)
        let a = m * Double(1 << r)
        // m^(1/5) within 6e-4 on [1, 2), times 2^(r/5): then two Newton steps (6e-4 → 7e-7 → 1e-12).
        let scale: Double
        switch r {
        case 0: scale = 1
        case 1: scale = 1.148698
        case 2: scale = 1.319508
        case 3: scale = 1.515717
        default: scale = 1.741101
        }
        var y = (0.771989 + (0.269085 - 0.0404814 * m) * m) * scale
        for _ in 0..<2 {
            let y2 = y * y
            y = (4 * y + a / (y2 * y2)) / 5
        }
        // The last step with y⁵ − a in double-double: y² = s + se, y⁴ = f + fe, y⁵ = c + ce.
        let (s, se) = exactProduct(y, y)
        var (f, fe) = exactProduct(s, s)
        fe += 2 * s * se
        var (c, ce) = exactProduct(f, y)
        ce += fe * y
        y -= ((c - a) + ce) / (5 * f)
        return y * powerOfTwo(q)
    }

    /// x > 0 finite as m · 2^(n q + r) with m in [1, 2) and r in 0..<n (subnormals included).
    @inline(__always)
    private static func reduced(_ x: Double, _ n: Int) -> (m: Double, r: Int, q: Int) {
        var bits = x.bitPattern
        var e = Int(bits >> 52) - 1023
        if e == -1023 {  // subnormal: scale into the normal range, exactly
            bits = (x * 0x1p54).bitPattern
            e = Int(bits >> 52) - 1023 - 54
        }
        let m = Double(bitPattern: bits & 0x000F_FFFF_FFFF_FFFF | 0x3FF0_0000_0000_0000)
        var q = e / n, r = e % n
        if r < 0 { r += n; q -= 1 }
        return (m, r, q)
    }

    /// 2^q for q in the normal exponent range.
    @inline(__always)
    private static func powerOfTwo(_ q: Int) -> Double { Double(bitPattern: UInt64(1023 + q) << 52) }

    /// x · y as hi + lo exactly (Dekker's product with Veltkamp's split; no fused
    /// multiply-add, which Swift does not contract into). For |x|, |y| below 2^995.
    static func exactProduct(_ x: Double, _ y: Double) -> (Double, Double) {
        func split(_ v: Double) -> (Double, Double) {
            let c = 134_217_729.0 * v  // 2^27 + 1
            let hi = c - (c - v)
            return (hi, v - hi)
        }
        let p = x * y
        let (xh, xl) = split(x), (yh, yl) = split(y)
        return (p, ((xh * yh - p) + xh * yl + xl * yh) + xl * yl)
    }
}
