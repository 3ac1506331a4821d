/// A colour with straight (unpremultiplied) components in 0…1, in sRGB.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var r: Double, g: Double, b: Double, a: Double

    /// Creates a colour from straight sRGB components in 0…1 (clamped).
    public init(r: Double, g: Double, b: Double, a: Double = 1) {
        func c(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
        self.r = c(r); self.g = c(g); self.b = c(b); self.a = c(a)
    }

    /// Creates a colour from 8-bit straight components.
    public init(r8: UInt8, g8: UInt8, b8: UInt8, a8: UInt8 = 255) {
        self.init(r: Double(r8) / 255, g: Double(g8) / 255, b: Double(b8) / 255, a: Double(a8) / 255)
    }

    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 1, g: 1, b: 1)
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)

    /// The same colour with its alpha multiplied by `o`.
    public func opacity(_ o: Double) -> Color { Color(r: r, g: g, b: b, a: a * o) }

    /// Parses `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (the `#` is required). Nil when malformed.
    public init?(hex: String) {
        guard hex.first == "#" else { return nil }
        let digits = Array(hex.dropFirst())
        var v: [UInt8] = []
        for ch in digits {
            guard let d = ch.hexDigitValue else { return nil }
            v.append(UInt8(d))
        }
        switch v.count {
        case 3, 4:
            let e = v.map { $0 * 17 }
            self.init(r8: e[0], g8: e[1], b8: e[2], a8: v.count == 4 ? e[3] : 255)
        case 6, 8:
            let e = stride(from: 0, to: v.count, by: 2).map { v[$0] << 4 | v[$0 + 1] }
            self.init(r8: e[0], g8: e[1], b8: e[2], a8: v.count == 8 ? e[3] : 255)
        default:
            return nil
        }
    }

    /// The colour as premultiplied 8-bit RGBA, each channel rounded to nearest.
    public var premultiplied: PremultipliedRGBA8 {
        let a8 = (a * 255).rounded()
        return PremultipliedRGBA8(r: UInt8((r * a8).rounded()), g: UInt8((g * a8).rounded()),
                                  b: UInt8((b * a8).rounded()), a: UInt8(a8))
    }

    public var description: String {
        func h(_ v: Double) -> String {
            let s = String(Int((v * 255).rounded()), radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + h(r) + h(g) + h(b) + (a < 1 ? h(a) : "")
    }
}

/// A premultiplied RGBA8 pixel: every colour channel is ≤ alpha.
public struct PremultipliedRGBA8: Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    /// Creates a pixel; the caller guarantees each colour channel is ≤ `a`.
    @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) { self.r = r; self.g = g; self.b = b; self.a = a }
    /// The fully transparent pixel.
    public static let transparent = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 0)

    /// The pixel packed little-endian into a UInt32 (R in the low byte), the layout of `Pixmap` memory.
    @inlinable public var packed: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }
    /// Unpacks a pixel from its `packed` form.
    @inlinable public init(packed v: UInt32) {
        r = UInt8(truncatingIfNeeded: v); g = UInt8(truncatingIfNeeded: v >> 8)
        b = UInt8(truncatingIfNeeded: v >> 16); a = UInt8(truncatingIfNeeded: v >> 24)
    }

    /// The straight (unpremultiplied) colour, rounded to nearest.
    public var unpremultiplied: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        if a == 0 { return (0, 0, 0, 0) }
        if a == 255 { return (r, g, b, 255) }
        func u(_ c: UInt8) -> UInt8 { UInt8(min(255, (UInt32(c) * 255 + UInt32(a) / 2) / UInt32(a))) }
        return (u(r), u(g), u(b), a)
    }
}
