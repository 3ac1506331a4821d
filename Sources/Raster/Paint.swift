import Geometry

/// A colour at a position along a gradient.
public struct GradientStop: Hashable, Sendable {
    /// Position in 0…1 along the gradient.
    public var offset: Double
    /// The colour there.
    public var color: Color
    /// Creates a stop.
    public init(offset: Double, color: Color) { self.offset = offset; self.color = color }
}

/// A gradient along the line from `start` to `end`, in the coordinates the shape is drawn in.
/// Beyond the ends the end colours continue (pad).
public struct LinearGradient: Hashable, Sendable {
    /// Where offset 0 lies.
    public var start: Point
    /// Where offset 1 lies.
    public var end: Point
    /// Colour stops in increasing offset order.
    public var stops: [GradientStop]

    /// Creates a gradient; stops are sorted by offset (stable, so equal offsets make a hard edge).
    public init(start: Point, end: Point, stops: [GradientStop]) {
        self.start = start; self.end = end
        self.stops = stops.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
    }

    /// Creates a gradient whose colours are spaced evenly from 0 to 1.
    public init(start: Point, end: Point, colors: [Color]) {
        let n = colors.count
        self.init(start: start, end: end, stops: colors.enumerated().map {
            GradientStop(offset: n > 1 ? Double($0.offset) / Double(n - 1) : 0, color: $0.element)
        })
    }

    /// The colour at offset `t`: straight (unpremultiplied) components interpolated
    /// linearly between the neighbouring stops, as Cairo/pixman and Skia do by default.
    public func color(at t: Double) -> Color {
        guard let first = stops.first, let last = stops.last else { return .clear }
        if !(t > first.offset) { return first.color }
        if t >= last.offset { return last.color }
        var i = 1
        while i < stops.count && stops[i].offset < t { i += 1 }
        let a = stops[i - 1], b = stops[i]
        let span = b.offset - a.offset
        let f = span > 0 ? (t - a.offset) / span : 1
        return Color(r: a.color.r + (b.color.r - a.color.r) * f, g: a.color.g + (b.color.g - a.color.g) * f,
                     b: a.color.b + (b.color.b - a.color.b) * f, a: a.color.a + (b.color.a - a.color.a) * f)
    }
}

/// What fills the pixels a shape covers.
public enum Paint: Hashable, Sendable {
    /// One colour everywhere.
    case solid(Color)
    /// A linear gradient.
    case linearGradient(LinearGradient)
}

/// A paint compiled for one draw call in device space: what the span blitter runs.
enum Shader {
    /// A premultiplied packed colour.
    case solid(UInt32)
    /// t = a·x + b·y + c at pixel centres indexes a 256-entry premultiplied table.
    case linear(lut: [UInt32], a: Double, b: Double, c: Double)

    /// Compiles `paint` for drawing under `transform`; nil when nothing can be drawn.
    init?(_ paint: Paint, transform: Transform) {
        switch paint {
        case .solid(let c):
            let p = c.premultiplied
            if p.a == 0 { return nil }
            self = .solid(p.packed)
        case .linearGradient(let g):
            guard let inv = transform.inverted, !g.stops.isEmpty else { return nil }
            let d = g.end - g.start
            let len2 = d.dot(d)
            var lut = [UInt32](repeating: 0, count: 256)
            for i in 0..<256 { lut[i] = g.color(at: Double(i) / 255).premultiplied.packed }
            if !(len2 > 0) || !len2.isFinite {
                // A degenerate gradient paints its last colour, as SVG specifies.
                self = .solid(lut[255]); return
            }
            func t(_ x: Double, _ y: Double) -> Double {
                (inv.apply(Point(x, y)) - g.start).dot(d) / len2
            }
            let c = t(0, 0)
            self = .linear(lut: lut, a: t(1, 0) - c, b: t(0, 1) - c, c: c)
        }
    }
}
