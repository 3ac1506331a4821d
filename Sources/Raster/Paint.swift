import Geometry

// Paints and how gradients are drawn.
//
// A gradient maps each pixel to a position t (linear: projection on the axis; radial:
// the largest t whose interpolated circle passes through the pixel; sweep: the angle
// around the centre), applies the spread mode to t, and looks the colour up in a table
// built once per draw call (`GradientTable`, in Shader.swift). Colours are interpolated
// with straight alpha and then premultiplied, like pixman (Cairo) and Skia by default.
//
// Why a table: a lookup is one multiply and one load per pixel, where interpolating
// between stops per pixel costs a search plus a premultiply; with several stops the
// table is 2–4× cheaper per pixel, and a vertical gradient needs one lookup per row.
//
// How big: entry i holds the colour at t = (i + ½)/n, so a pixel's t is off by at most
// 1/(2n) and its colour by at most slope/(2n) levels, where slope is the steepest change
// of any premultiplied channel in 8-bit levels per unit of t. n is the smallest power of
// two ≥ max(256, 2·slope), at most 4096 (16 KiB): every channel is then within ¼ level
// of the exact value before rounding and within ¾ after it, the precision of Cairo's
// per-pixel evaluation. Measured in the tests against the exact, unrounded premultiplied
// colour at every pixel centre (linear, vertical, concentric and focal radial, two-circle
// cones, sweeps over several ranges, each in every spread mode, five stops with varying
// alpha): at most 0.69 level, and 0.77 for stops a tenth apart with full swings, where
// the table reaches its cap. Beyond the cap (stops closer than 1/16 with a full swing)
// the bound grows to slope/8192 + ½ levels. A two-stop chart gradient gets 512 entries,
// built with about 50,000 instructions per draw call, fewer than the 256-entry table it
// replaced (~69,000), because each entry is premultiplied without libm's round.
//
// Beyond the table the two ends are stored again exactly, so `pad` paints colour 0 and
// colour 1 unchanged outside 0…1, and `repeat`/`reflect` index the table with integer
// masks (n is a power of two) instead of a floor per pixel.
//
// Linear and concentric radial gradients, nearly every chart's, compute their positions
// in Float from each row's start (`tableIndex(shifted:)` in Shader.swift), as Blend2D
// does: twice the lanes per vector instruction and a cheaper square root. The position
// error, below 10⁻³ of a table entry on canvases up to 16K pixels, moves a pixel to the
// neighbouring entry only where it lies on a boundary, and the bounds above still hold
// (the same tests). Sweeps and two-circle radials keep Double.

/// A colour at a position along a gradient.
public struct GradientStop: Hashable, Sendable {
    /// Position in 0…1 along the gradient.
    public var offset: Double
    /// The colour there.
    public var color: Color
    /// Creates a stop.
    public init(offset: Double, color: Color) { self.offset = offset; self.color = color }
}

/// How a gradient continues outside offsets 0…1 (Cairo's extend, Skia's tile mode).
public enum SpreadMode: String, Hashable, Sendable, CaseIterable {
    /// The end colours continue.
    case pad
    /// The gradient starts over: t and t + 1 have the same colour.
    case `repeat`
    /// The gradient runs back and forth: t and 2 − t have the same colour.
    case reflect
}

/// A gradient along the line from `start` to `end`, in the coordinates the shape is drawn in.
public struct LinearGradient: Hashable, Sendable {
    /// Where offset 0 lies.
    public var start: Point
    /// Where offset 1 lies.
    public var end: Point
    /// Colour stops in increasing offset order.
    public var stops: [GradientStop]
    /// What lies before `start` and beyond `end`.
    public var spread: SpreadMode

    /// Creates a gradient; stops are sorted by offset (stable, so equal offsets make a hard edge).
    /// A zero-length gradient paints its last colour, as SVG specifies.
    public init(start: Point, end: Point, stops: [GradientStop], spread: SpreadMode = .pad) {
        self.start = start; self.end = end; self.stops = sortedStops(stops); self.spread = spread
    }

    /// Creates a gradient whose colours are spaced evenly from 0 to 1.
    public init(start: Point, end: Point, colors: [Color], spread: SpreadMode = .pad) {
        self.init(start: start, end: end, stops: evenStops(colors), spread: spread)
    }

    /// The colour at offset `t` (before spreading): straight components interpolated
    /// linearly between the neighbouring stops.
    public func color(at t: Double) -> Color { interpolate(stops, at: t) }
}

/// A gradient between two circles (SVG's and Canvas 2D's two-point conical model):
/// the colour at offset t is drawn on the circle whose centre and radius are
/// interpolated between the start and end circles, and a pixel takes the largest t
/// whose circle (of radius ≥ 0) passes through it. Where no such t exists — outside
/// the cone of the two circles when one does not contain the other — nothing is
/// painted, as in Canvas 2D and Cairo. A focal gradient is a start circle of radius 0
/// at the focal point inside the end circle.
public struct RadialGradient: Hashable, Sendable {
    /// Centre of the circle at offset 0.
    public var startCenter: Point
    /// Radius of the circle at offset 0.
    public var startRadius: Double
    /// Centre of the circle at offset 1.
    public var endCenter: Point
    /// Radius of the circle at offset 1.
    public var endRadius: Double
    /// Colour stops in increasing offset order.
    public var stops: [GradientStop]
    /// What lies inside the start circle and outside the end circle.
    public var spread: SpreadMode

    /// Creates a two-circle gradient. Negative or non-finite radii, and two equal
    /// circles, paint nothing (Canvas 2D).
    public init(startCenter: Point, startRadius: Double, endCenter: Point, endRadius: Double,
                stops: [GradientStop], spread: SpreadMode = .pad) {
        self.startCenter = startCenter; self.startRadius = startRadius
        self.endCenter = endCenter; self.endRadius = endRadius
        self.stops = sortedStops(stops); self.spread = spread
    }

    /// Creates a gradient between concentric circles (SwiftUI's `RadialGradient`).
    public init(center: Point, startRadius: Double = 0, endRadius: Double,
                stops: [GradientStop], spread: SpreadMode = .pad) {
        self.init(startCenter: center, startRadius: startRadius, endCenter: center, endRadius: endRadius,
                  stops: stops, spread: spread)
    }

    /// Creates SVG's focal gradient: offset 0 at the focal point, offset 1 on the circle.
    public init(focal: Point, center: Point, radius: Double, stops: [GradientStop], spread: SpreadMode = .pad) {
        self.init(startCenter: focal, startRadius: 0, endCenter: center, endRadius: radius,
                  stops: stops, spread: spread)
    }

    /// The colour at offset `t` (before spreading).
    public func color(at t: Double) -> Color { interpolate(stops, at: t) }
}

/// A gradient around a centre (SwiftUI's `AngularGradient`, Skia's sweep gradient).
///
/// Angles are in radians from the +x axis, increasing clockwise on screen (y down).
/// Offset 0 lies at `startAngle`, offset 1 at `endAngle`. Each direction is measured
/// in the one turn centred on the middle of the range, so when the range is less than a
/// turn, `pad` splits the missing wedge halfway between the end colours, as SwiftUI
/// does; when it is more than a turn, the last full turn before `endAngle` is drawn.
public struct SweepGradient: Hashable, Sendable {
    /// The centre of rotation.
    public var center: Point
    /// Where offset 0 lies, in radians.
    public var startAngle: Double
    /// Where offset 1 lies, in radians.
    public var endAngle: Double
    /// Colour stops in increasing offset order.
    public var stops: [GradientStop]
    /// What lies outside the range, when it is less than a turn.
    public var spread: SpreadMode

    /// Creates a sweep gradient; by default one full clockwise turn from the +x axis.
    public init(center: Point, startAngle: Double = 0, endAngle: Double = 2 * Double.pi,
                stops: [GradientStop], spread: SpreadMode = .pad) {
        self.center = center; self.startAngle = startAngle; self.endAngle = endAngle
        self.stops = sortedStops(stops); self.spread = spread
    }

    /// The colour at offset `t` (before spreading).
    public func color(at t: Double) -> Color { interpolate(stops, at: t) }
}

/// What fills the pixels a shape covers.
public enum Paint: Hashable, Sendable {
    /// One colour everywhere.
    case solid(Color)
    /// A linear gradient.
    case linearGradient(LinearGradient)
    /// A two-circle radial gradient.
    case radialGradient(RadialGradient)
    /// An angular gradient around a point.
    case sweepGradient(SweepGradient)
    /// An image stretched over a rectangle (colour emoji glyphs).
    case image(ImagePaint)
}

/// An image mapped onto a rectangle in the coordinates the shape is drawn in, sampled
/// bilinearly between pixel centres, its edge pixels continuing outside the rectangle
/// (fill the rectangle: its coverage anti-aliases the image's edge). Reduce large
/// images to about their drawn size first (an area filter): bilinear sampling alone
/// aliases when it skips source pixels.
public struct ImagePaint: Hashable, Sendable {
    /// The image, premultiplied.
    public let pixmap: Pixmap
    /// Where the image's edges lie.
    public var rect: Rect
    /// The pixels as packed words, made once so a draw call does not copy them.
    let texels: [UInt32]
    /// Creates an image paint.
    public init(pixmap: Pixmap, rect: Rect) {
        self.pixmap = pixmap; self.rect = rect
        texels = pixmap.data.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
    }
    public static func == (a: ImagePaint, b: ImagePaint) -> Bool { a.rect == b.rect && a.pixmap == b.pixmap }
    public func hash(into h: inout Hasher) { h.combine(pixmap); h.combine(rect) }
}

/// Stops with offsets clamped to 0…1 (NaN to 0), stably sorted, as SVG orders them.
func sortedStops(_ stops: [GradientStop]) -> [GradientStop] {
    stops.enumerated().map { i, s in
        (i, GradientStop(offset: s.offset > 0 ? min(1, s.offset) : 0, color: s.color))
    }
    .sorted { ($0.1.offset, $0.0) < ($1.1.offset, $1.0) }.map(\.1)
}

/// Stops for colours spaced evenly from 0 to 1.
func evenStops(_ colors: [Color]) -> [GradientStop] {
    let n = colors.count
    return colors.enumerated().map { GradientStop(offset: n > 1 ? Double($0.offset) / Double(n - 1) : 0, color: $0.element) }
}

/// The colour at `t` between sorted stops; `.clear` without stops.
func interpolate(_ stops: [GradientStop], at t: Double) -> Color {
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
