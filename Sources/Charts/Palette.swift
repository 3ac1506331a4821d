import Raster
import Scene

/// Colours for categories and series.
public enum Palette {
    /// The default categorical palette, after Okabe and Ito's set chosen to stay
    /// distinguishable with the common colour-vision deficiencies, reordered so the first
    /// colours differ most.
    public static let categorical: [Color] = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#999999"]
        .map { Color(hex: $0)! }

    /// The colour of category number `i` (cycling).
    public static func color(_ i: Int) -> Color { categorical[((i % categorical.count) + categorical.count) % categorical.count] }

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
