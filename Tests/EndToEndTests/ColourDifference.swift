import Foundation

/// CIEDE2000 colour differences between 8-bit sRGB pixels, for checking that a decoded
/// video shows the colours of the PNG frames (ColourFidelityTests). A measurement, not
/// part of rendering, so libm's functions are fine here.
enum ColourDifference {
    /// CIELAB (D65) of an 8-bit sRGB colour.
    static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (l: Double, a: Double, b: Double) {
        func linear(_ v: UInt8) -> Double {
            let c = Double(v) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let (rl, gl, bl) = (linear(r), linear(g), linear(b))
        let x = (0.4124564 * rl + 0.3575761 * gl + 0.1804375 * bl) / 0.95047
        let y = 0.2126729 * rl + 0.7151522 * gl + 0.0721750 * bl
        let z = (0.0193339 * rl + 0.1191920 * gl + 0.9503041 * bl) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// ΔE2000 between two CIELAB colours (Sharma, Wu and Dalal's formulation, kL = kC = kH = 1).
    static func deltaE2000(_ p: (l: Double, a: Double, b: Double), _ q: (l: Double, a: Double, b: Double)) -> Double {
        let deg = Double.pi / 180
        let c1 = (p.a * p.a + p.b * p.b).squareRoot(), c2 = (q.a * q.a + q.b * q.b).squareRoot()
        let cMean7 = pow((c1 + c2) / 2, 7)
        let g = 0.5 * (1 - (cMean7 / (cMean7 + pow(25, 7))).squareRoot())
        let a1 = (1 + g) * p.a, a2 = (1 + g) * q.a
        let c1p = (a1 * a1 + p.b * p.b).squareRoot(), c2p = (a2 * a2 + q.b * q.b).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = atan2(b, a) / deg
            return h < 0 ? h + 360 : h
        }
        let h1 = hue(p.b, a1), h2 = hue(q.b, a2)
        let dL = q.l - p.l, dC = c2p - c1p
        var dh = 0.0
        if c1p * c2p != 0 {
            dh = h2 - h1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (c1p * c2p).squareRoot() * sin(dh / 2 * deg)
        let lMean = (p.l + q.l) / 2, cpMean = (c1p + c2p) / 2
        var hMean = h1 + h2
        if c1p * c2p != 0 {
            if abs(h1 - h2) <= 180 { hMean /= 2 } else { hMean = h1 + h2 < 360 ? (hMean + 360) / 2 : (hMean - 360) / 2 }
        }
        let t = 1 - 0.17 * cos((hMean - 30) * deg) + 0.24 * cos(2 * hMean * deg) + 0.32 * cos((3 * hMean + 6) * deg)
            - 0.20 * cos((4 * hMean - 63) * deg)
        let dTheta = 30 * exp(-pow((hMean - 275) / 25, 2))
        let cp7 = pow(cpMean, 7)
        let rC = 2 * (cp7 / (cp7 + pow(25, 7))).squareRoot()
        let l50 = (lMean - 50) * (lMean - 50)
        let sL = 1 + 0.015 * l50 / (20 + l50).squareRoot(), sC = 1 + 0.045 * cpMean, sH = 1 + 0.015 * cpMean * t
        let rT = -sin(2 * dTheta * deg) * rC
        let (l, c, h) = (dL / sL, dC / sC, dH / sH)
        return (l * l + c * c + h * h + rT * c * h).squareRoot()
    }

    /// Mean and 99th percentile of ΔE2000 between `decoded` and `source` (straight RGBA of
    /// `width` × `height`) over the source's flat pixels: those whose 5×5 neighbourhood is
    /// one colour, away from edges, where 4:2:0 chroma and the codec's blocks may differ
    /// by design. Also the number of flat pixels.
    static func flatStats(source: [UInt8], decoded: [UInt8], width: Int, height: Int)
        -> (mean: Double, p99: Double, count: Int) {
        var cache: [UInt32: (l: Double, a: Double, b: Double)] = [:]
        func labOf(_ px: [UInt8], _ i: Int) -> (l: Double, a: Double, b: Double) {
            let key = UInt32(px[i]) | UInt32(px[i + 1]) << 8 | UInt32(px[i + 2]) << 16
            if let v = cache[key] { return v }
            let v = lab(px[i], px[i + 1], px[i + 2])
            cache[key] = v
            return v
        }
        var values: [Double] = []
        source.withUnsafeBufferPointer { s in
            func word(_ x: Int, _ y: Int) -> UInt32 {
                let i = 4 * (y * width + x)
                return UInt32(s[i]) | UInt32(s[i + 1]) << 8 | UInt32(s[i + 2]) << 16
            }
            for y in 2..<max(2, height - 2) {
                for x in 2..<max(2, width - 2) {
                    let c = word(x, y)
                    var flat = true
                    outer: for dy in -2...2 { for dx in -2...2 where word(x + dx, y + dy) != c { flat = false; break outer } }
                    guard flat else { continue }
                    let i = 4 * (y * width + x)
                    values.append(deltaE2000(labOf(source, i), labOf(decoded, i)))
                }
            }
        }
        guard !values.isEmpty else { return (0, 0, 0) }
        values.sort()
        let mean = values.reduce(0, +) / Double(values.count)
        return (mean, values[min(values.count - 1, Int(Double(values.count) * 0.99))], values.count)
    }
}
