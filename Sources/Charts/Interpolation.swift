import Geometry

/// How a line or area connects its data points.
public enum Interpolation: Hashable, Sendable {
    /// Straight segments.
    case linear
    /// The SwiftUI tutorial's smoothing: a cubic per segment with control points
    /// (prev.x + dx·r, prev.y) and (x − dx·r, y), dx = x − prev.x; r (the tutorial's
    /// `lineRadius`) in 0…1, where 0 gives straight lines. Horizontal tangents at every
    /// point, so the curve never overshoots a point vertically.
    case bezier(Double)

    /// Appends segments through `points` (already in pixels) to `path`, whose current point
    /// must be `points[0]`.
    public func appendSegments(through points: [Point], to path: inout Path) {
        guard points.count > 1 else { return }
        switch self {
        case .linear:
            for p in points.dropFirst() { path.line(to: p) }
        case .bezier(let r):
            let radius = min(1, max(0, r.isFinite ? r : 0))
            for i in 1..<points.count {
                let a = points[i - 1], b = points[i]
                let dx = b.x - a.x
                path.cubic(to: b, control1: Point(a.x + dx * radius, a.y), control2: Point(b.x - dx * radius, b.y))
            }
        }
    }
}
