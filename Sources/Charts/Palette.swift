import Raster
import Scene

/// Colours for categories and series.
public enum Palette {
    /// The default categorical palette, after Okabe and Ito's set chosen to stay
    /// distinguishable with the common colour-vision deficiencies, reordered so the first
    /// colours differ most.
    public static let categorical: [Color] = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#999999"]
        .map { Color(hex: $0)! }

    /// The colour of category number `i`: the eight of `categorical`, then the eight
    /// darkened (a third of the way to black in OKLab), then lightened (two fifths of the
    /// way to white), so a race of up to 24 keys shows no two bars of one colour; then it
    /// cycles. The first eight are the palette as it always was.
    public static func color(_ i: Int) -> Color { extended[((i % extended.count) + extended.count) % extended.count] }

    /// `categorical`, its shades and its tints (`color(_:)`).
    public static let extended: [Color] = categorical
        + categorical.map { OKLab.mix($0, .black, 1.0 / 3) }
        + categorical.map { OKLab.mix($0, .white, 0.4) }

    /// Relative luminance (WCAG 2): the linear-light mix of the colour's components.
    public static func luminance(_ c: Color) -> Double {
        0.2126 * OKLab.linear(c.r) + 0.7152 * OKLab.linear(c.g) + 0.0722 * OKLab.linear(c.b)
    }

    /// `c` as it is seen over `base` (opaque): a translucent colour mixed with what lies
    /// under it, an opaque one as it is.
    public static func seen(_ c: Color, over base: Color = .white) -> Color {
        c.a < 1 ? OKLab.mix(base, c.opacity(1), c.a) : c
    }

    /// Whichever of `light` and `dark` reads better on `background`: the higher WCAG
    /// contrast ratio, (L1 + 0.05) / (L2 + 0.05).
    public static func readable(on background: Color, light: Color, dark: Color) -> Color {
        func ratio(_ a: Color, _ b: Color) -> Double {
            let x = luminance(a), y = luminance(b)
            return (max(x, y) + 0.05) / (min(x, y) + 0.05)
        }
        return ratio(light, background) >= ratio(dark, background) ? light : dark
    }

    /// `n` colours spread evenly along a gradient from `stops` (Swift Charts'
    /// `chartForegroundStyleScale(range: Gradient(...))`), interpolated in OKLab.
    public static func ramp(_ stops: [Color], count n: Int) -> [Color] {
        guard let first = stops.first else { return [] }
        if stops.count == 1 || n <= 1 { return Array(repeating: first, count: max(0, n)) }
        return (0..<n).map { i in
            let t = Double(i) / Double(n - 1) * Double(stops.count - 1)
            let k = min(stops.count - 2, Int(t))
            return OKLab.mix(stops[k], stops[k + 1], t - Double(k))
        }
    }
}

/// How a mark picks the colour of each element.
public enum ColorEncoding: Sendable {
    /// By a category field (or the series), from a list of colours (the palette by default).
    case category(field: String?, colors: [Color]?, domain: [String]?)
    /// By thresholds on a value field: the first `(upTo, color)` whose bound the value does
    /// not exceed, else `otherwise` (≤ 0 green, ≤ 15 yellow, else red).
    case thresholds(field: String?, steps: [(upTo: Double, color: Color)], otherwise: Color)
    /// A gradient laid along the value axis: stops at data values (0 green, 15 yellow, 60
    /// red); each bar shows the part of it it covers.
    case valueGradient(stops: [(value: Double, color: Color)])
    /// Series coloured along a gradient (many series).
    case ramp(field: String?, stops: [Color])
    /// Special values of a field drawn in given colours (cancelled flights → dark red),
    /// before any other rule.
    indirect case overrides(field: String, values: [String: Color], otherwise: ColorEncoding)
}
