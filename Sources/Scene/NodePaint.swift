import Geometry
import Raster

/// A point given either in absolute user coordinates or relative to a node's frame
/// (SwiftUI's `UnitPoint`: (0, 0) is the top-left of the frame, (1, 1) its bottom-right).
public enum PaintPoint: Hashable, Sendable {
    /// Absolute user-space coordinates.
    case absolute(Point)
    /// Fractions of the frame's width and height.
    case unit(Double, Double)

    public static let top = PaintPoint.unit(0.5, 0), bottom = PaintPoint.unit(0.5, 1)
    public static let leading = PaintPoint.unit(0, 0.5), trailing = PaintPoint.unit(1, 0.5)
    public static let topLeading = PaintPoint.unit(0, 0), topTrailing = PaintPoint.unit(1, 0)
    public static let bottomLeading = PaintPoint.unit(0, 1), bottomTrailing = PaintPoint.unit(1, 1)
    public static let center = PaintPoint.unit(0.5, 0.5)

    /// The point in user space for a node whose frame is `frame`.
    public func resolve(in frame: Rect) -> Point {
        switch self {
        case .absolute(let p): return p
        case .unit(let u, let v): return Point(frame.minX + u * frame.width, frame.minY + v * frame.height)
        }
    }
}

/// The paint of a scene node: like `Raster.Paint`, but gradient ends may be relative to
/// the node's frame. A trimmed stroke keeps the gradient of its whole frame, as SwiftUI does.
public enum NodePaint: Hashable, Sendable {
    /// One colour.
    case solid(Color)
    /// A linear gradient between two points.
    case linear(stops: [GradientStop], from: PaintPoint, to: PaintPoint)
    /// A gradient between two circles (radii in user units, as SwiftUI's `RadialGradient`).
    case radial(stops: [GradientStop], startCenter: PaintPoint, startRadius: Double,
                endCenter: PaintPoint, endRadius: Double, spread: SpreadMode)
    /// An angular gradient around a point (SwiftUI's `AngularGradient`; angles in radians,
    /// clockwise from the +x axis).
    case angular(stops: [GradientStop], center: PaintPoint, startAngle: Double, endAngle: Double, spread: SpreadMode)

    /// The raster paint for a node whose frame is `frame`.
    public func resolve(in frame: Rect) -> Paint {
        switch self {
        case .solid(let c): return .solid(c)
        case .linear(let stops, let a, let b):
            return .linearGradient(LinearGradient(start: a.resolve(in: frame), end: b.resolve(in: frame), stops: stops))
        case .radial(let stops, let c0, let r0, let c1, let r1, let spread):
            return .radialGradient(RadialGradient(startCenter: c0.resolve(in: frame), startRadius: r0,
                                                  endCenter: c1.resolve(in: frame), endRadius: r1,
                                                  stops: stops, spread: spread))
        case .angular(let stops, let c, let a0, let a1, let spread):
            return .sweepGradient(SweepGradient(center: c.resolve(in: frame), startAngle: a0, endAngle: a1,
                                                stops: stops, spread: spread))
        }
    }
}
