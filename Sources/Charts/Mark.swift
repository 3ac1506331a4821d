import Geometry
import Raster
import Motion
import Scene

/// The kinds of mark a chart draws.
public enum MarkKind: String, Hashable, Sendable, CaseIterable {
    /// A stroked line through the points.
    case line
    /// The region between the points and the baseline, filled.
    case area
}

/// One mark of a chart: its geometry kind, style and animated properties.
public struct MarkSpec: Sendable {
    /// The mark's id, used to find its node and to chain animations.
    public var id: String?
    /// The name shown in the legend.
    public var name: String?
    /// What is drawn.
    public var kind: MarkKind
    /// How points are connected.
    public var interpolation: Interpolation = .linear
    /// Start the curve at the plot's bottom-left corner (the SwiftUI tutorial's custom line chart).
    public var startAtOrigin = false
    /// The stroke (lines; also allowed on areas).
    public var stroke: (paint: NodePaint, style: StrokeStyle)?
    /// The fill (areas).
    public var fill: NodePaint?
    /// Trim start, fraction of the path's length.
    public var trimStart: AnimatedValue = .constant(0)
    /// Trim end, fraction of the path's length.
    public var trimEnd: AnimatedValue = .constant(1)
    /// Opacity.
    public var opacity: AnimatedValue = .constant(1)

    /// Creates a mark.
    public init(id: String? = nil, kind: MarkKind) { self.id = id; self.kind = kind }

    /// The colour that stands for the mark in a legend: its stroke's or fill's first colour.
    public var legendColor: Color {
        func first(_ p: NodePaint?) -> Color? {
            switch p {
            case .solid(let c)?: return c
            case .linear(let stops, _, _)?: return stops.last?.color
            case nil: return nil
            }
        }
        return first(stroke?.paint) ?? first(fill) ?? .black
    }
}
