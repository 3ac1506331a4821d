/// How the ends of open subpaths are drawn.
public enum LineCap: String, Hashable, Sendable, CaseIterable {
    /// The stroke stops flat at the end point.
    case butt
    /// A half disc of the stroke's width closes the end.
    case round
    /// The stroke goes on for half its width past the end, flat.
    case square
}

/// How corners between segments are drawn.
public enum LineJoin: String, Hashable, Sendable, CaseIterable {
    /// Outer edges extended to meet, unless that is longer than the miter limit (then bevel).
    case miter
    /// A circular arc around the corner.
    case round
    /// The outer corners joined by a straight line.
    case bevel
}

/// The parameters of a stroke, as in SwiftUI's `StrokeStyle`.
public struct StrokeStyle: Hashable, Sendable {
    /// Stroke width in user units; 0 or less draws nothing.
    public var width: Double
    /// End caps of open subpaths, and of every dash.
    public var cap: LineCap
    /// Corners.
    public var join: LineJoin
    /// Largest miter length as a multiple of the width before a miter becomes a bevel
    /// (10, as in Core Graphics and SwiftUI).
    public var miterLimit: Double
    /// Dash lengths in user units, on and off alternately (SVG and SwiftUI rules, see
    /// `DashPattern`); empty for a solid stroke.
    public var dash: [Double]
    /// How far into the dash pattern each subpath starts, in user units.
    public var dashPhase: Double

    /// Creates a stroke style.
    public init(width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 10,
                dash: [Double] = [], dashPhase: Double = 0) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.dash = dash; self.dashPhase = dashPhase
    }
}

extension StrokeStyle {
    /// How far the outline can reach from the path: half the width, times √2 for the
    /// corners of square caps and bevels, or the miter limit for miter joins.
    public var reach: Double { width / 2 * max(2.squareRoot(), join == .miter ? miterLimit : 1) }
}
