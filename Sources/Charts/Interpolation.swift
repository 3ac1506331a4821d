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
    /// A Catmull–Rom spline through the points (uniform, tension 0.5), as cubic Béziers.
    case catmullRom
    /// A cardinal spline through the points (d3's curveCardinal): tension 0 is the
    /// uniform Catmull–Rom spline, 1 gives straight segments.
    case cardinal(Double)
    /// Monotone cubic interpolation in x (Fritsch–Carlson slopes, as d3's curveMonotoneX):
    /// never overshoots, so the curve stays within each pair of neighbouring values.
    case monotone
    /// Horizontal then vertical steps: the change happens at the start, the middle or the end.
    case step(StepPosition)

    /// Where a step changes value.
    public enum StepPosition: String, Hashable, Sendable { case start, center, end }

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
        case .catmullRom:
            for i in 1..<points.count {
                let p0 = points[max(0, i - 2)], p1 = points[i - 1], p2 = points[i], p3 = points[min(points.count - 1, i + 1)]
                path.cubic(to: p2, control1: p1 + (p2 - p0) * (1.0 / 6), control2: p2 - (p3 - p1) * (1.0 / 6))
            }
        case .cardinal(let tension):
            let k = (1 - min(1, max(0, tension.isFinite ? tension : 0))) / 6
            for i in 1..<points.count {
                let p0 = points[max(0, i - 2)], p1 = points[i - 1], p2 = points[i], p3 = points[min(points.count - 1, i + 1)]
                path.cubic(to: p2, control1: p1 + (p2 - p0) * k, control2: p2 - (p3 - p1) * k)
            }
        case .monotone:
            let m = Self.monotoneSlopes(points)
            for i in 1..<points.count {
                let a = points[i - 1], b = points[i]
                let h = (b.x - a.x) / 3
                path.cubic(to: b, control1: Point(a.x + h, a.y + h * m[i - 1]), control2: Point(b.x - h, b.y - h * m[i]))
            }
        case .step(let pos):
            for i in 1..<points.count {
                let a = points[i - 1], b = points[i]
                switch pos {
                case .start: path.line(to: Point(a.x, b.y)); path.line(to: b)
                case .end: path.line(to: Point(b.x, a.y)); path.line(to: b)
                case .center:
                    let mx = (a.x + b.x) / 2
                    path.line(to: Point(mx, a.y)); path.line(to: Point(mx, b.y)); path.line(to: b)
                }
            }
        }
    }

    /// Fritsch–Carlson tangents: secant slopes averaged harmonically where neighbours
    /// agree in sign, zero at local extrema, so each cubic stays monotone.
    static func monotoneSlopes(_ p: [Point]) -> [Double] {
        let n = p.count
        var d = [Double](repeating: 0, count: n - 1)
        for i in 0..<(n - 1) {
            let h = p[i + 1].x - p[i].x
            d[i] = h != 0 ? (p[i + 1].y - p[i].y) / h : 0
        }
        var m = [Double](repeating: 0, count: n)
        m[0] = d[0]; m[n - 1] = d[n - 2]
        for i in 1..<(n - 1) {
            if d[i - 1] * d[i] <= 0 { m[i] = 0; continue }
            let h0 = p[i].x - p[i - 1].x, h1 = p[i + 1].x - p[i].x
            let w1 = 2 * h1 + h0, w2 = h1 + 2 * h0
            m[i] = (w1 + w2) / (w1 / d[i - 1] + w2 / d[i])
        }
        // Endpoints: one-sided, limited so the first and last pieces stay monotone.
        for i in [0, n - 1] where n > 2 {
            let di = i == 0 ? d[0] : d[n - 2]
            let mi = i == 0 ? (3 * d[0] - m[1]) / 2 : (3 * d[n - 2] - m[n - 2]) / 2
            m[i] = mi * di <= 0 ? 0 : (abs(mi) > 3 * abs(di) ? 3 * di : mi)
        }
        return m
    }
}
