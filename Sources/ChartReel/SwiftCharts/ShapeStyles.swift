import Geometry
import Raster
import Scene
import Charts

// SwiftUI's paint vocabulary as marks take it: colours, `.gradient`, `LinearGradient`,
// `Gradient`, `UnitPoint`, and `StrokeStyle(lineWidth:…)`. Every style is a `NodePaint`
// in the end (`ShapeStyle.paint`).

/// A point in a mark's frame in unit coordinates (SwiftUI's `UnitPoint`): `.top`,
/// `.bottomLeading`, `UnitPoint(x: 0.2, y: 1)`.
public typealias UnitPoint = PaintPoint

extension PaintPoint {
    /// The point at fractions `x` of the width and `y` of the height (SwiftUI's `UnitPoint(x:y:)`).
    public init(x: Double, y: Double) { self = .unit(x, y) }
}

/// Colour stops for a gradient (SwiftUI's `Gradient`).
public struct Gradient: Hashable, Sendable {
    /// One colour at a location in 0…1.
    public struct Stop: Hashable, Sendable {
        public var color: Color
        public var location: Double
        /// A stop.
        public init(color: Color, location: Double) { self.color = color; self.location = location }
    }
    /// The stops, in order.
    public var stops: [Stop]
    /// Colours spread evenly from 0 to 1.
    public init(colors: [Color]) {
        let n = colors.count
        stops = colors.enumerated().map { Stop(color: $0.element, location: n > 1 ? Double($0.offset) / Double(n - 1) : 0) }
    }
    /// Explicit stops.
    public init(stops: [Stop]) { self.stops = stops }

    /// Raster's stops.
    var gradientStops: [GradientStop] { stops.map { GradientStop(offset: $0.location, color: $0.color) } }
    /// The colours in order.
    var colors: [Color] { stops.map(\.color) }
}

/// Something a mark can be painted with (SwiftUI's `ShapeStyle`, reduced to what a
/// rasterizer paints): colours, gradients and `NodePaint`s.
public protocol ShapeStyle {
    /// The paint.
    var paint: NodePaint { get }
}

extension Color: ShapeStyle {
    /// The colour as a solid paint.
    public var paint: NodePaint { .solid(self) }

    /// A subtle top-to-bottom gradient of the colour (SwiftUI's `Color.gradient`): a
    /// little lighter at the top, the colour itself at the bottom.
    public var gradient: NodePaint {
        .linear(stops: [GradientStop(offset: 0, color: OKLab.mix(self, .white, 0.2)), GradientStop(offset: 1, color: self)],
                from: .top, to: .bottom)
    }

    /// SwiftUI's primary text colour (black in the light appearance).
    public static let primary = Color.black
    /// SwiftUI's secondary colour (grey at 60 %).
    public static let secondary = Color(r8: 60, g8: 60, b8: 67).opacity(0.6)
}

extension NodePaint: ShapeStyle {
    /// The paint itself.
    public var paint: NodePaint { self }

    /// A linear gradient through `colors` from `startPoint` to `endPoint` of the mark's
    /// frame (SwiftUI's `.linearGradient(colors:startPoint:endPoint:)`).
    public static func linearGradient(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) -> NodePaint {
        .linear(stops: Gradient(colors: colors).gradientStops, from: startPoint, to: endPoint)
    }

    /// A linear gradient of `gradient`'s stops.
    public static func linearGradient(_ gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) -> NodePaint {
        .linear(stops: gradient.gradientStops, from: startPoint, to: endPoint)
    }

    /// A linear gradient of explicit stops.
    public static func linearGradient(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) -> NodePaint {
        .linear(stops: Gradient(stops: stops).gradientStops, from: startPoint, to: endPoint)
    }
}

/// A linear gradient across a mark's frame (SwiftUI's `LinearGradient` view).
public struct LinearGradient: ShapeStyle, Hashable, Sendable {
    /// The paint.
    public var paint: NodePaint
    /// `gradient` from `startPoint` to `endPoint`.
    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        paint = .linear(stops: gradient.gradientStops, from: startPoint, to: endPoint)
    }
    /// Colours spread evenly from `startPoint` to `endPoint`.
    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }
    /// Explicit stops from `startPoint` to `endPoint`.
    public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
    }
}

extension StrokeStyle {
    /// SwiftUI's spelling of a stroke style: `StrokeStyle(lineWidth: 3, lineCap: .round, dash: [5, 3])`.
    public init(lineWidth: Double = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter, miterLimit: Double = 10,
                dash: [Double] = [], dashPhase: Double = 0) {
        self.init(width: lineWidth, cap: lineCap, join: lineJoin, miterLimit: miterLimit, dash: dash, dashPhase: dashPhase)
    }
}
