import Geometry
import Raster
import Scene

/// Dots drawn at a line's points (the "adding points" chart).
public struct PointStyle: Sendable {
    /// Diameter in pixels.
    public var size: Double = 8
    /// Fill; the line's colour when nil.
    public var fill: Color?
    /// An outline, e.g. white to separate dots from the line.
    public var stroke: (color: Color, width: Double)?
    /// The dots' shape.
    public var symbol: PointSymbol = .circle
    /// Each series' dots get a shape of their own (`PointSymbol.cycle`, in series order).
    public var symbolPerSeries = false
    /// Creates a point style.
    public init(size: Double = 8) { self.size = size }
}

/// A stroked line through the points, one per series; trimmed, it draws itself.
public struct LineMarkSpec: StrokedMark, ConnectedMark {
    public static let kind = MarkKind.line
    public static var followsBandAxis: Bool { true }
    /// What every mark has.
    public var options: MarkOptions
    /// How points are connected.
    public var interpolation: Interpolation = .linear
    /// Start the curve at the plot's bottom-left corner (the SwiftUI tutorial's custom line chart).
    public var startAtOrigin = false
    /// The stroke: 2 px of the palette's first colour with round caps and joins by default.
    public var stroke: (paint: NodePaint, style: StrokeStyle)? = LineMarkSpec.defaultStroke
    /// Dots at the line's points.
    public var points: PointStyle?

    /// The stroke a line has unless it says otherwise.
    public static let defaultStroke: (paint: NodePaint, style: StrokeStyle) =
        (.solid(Palette.color(0)), StrokeStyle(width: 2, cap: .round, join: .round))

    /// Creates a line.
    public init(options: MarkOptions = MarkOptions()) { self.options = options }

    public func nodes(in chart: ChartSpec, state: ChartState) -> [Node] {
        let nodes = chart.connectedNodes(self, ConnectedShape(isArea: false, interpolation: interpolation, startAtOrigin: startAtOrigin),
                                         state, fill: nil, stroke: stroke, points: points)
        guard let p = points, p.symbol != .circle || p.symbolPerSeries else { return nodes }
        // The dots (the only filled nodes of a line) become symbols; each follows the
        // series path node before it, named "<id>[<series>]".
        let names = chart.seriesNames(self)
        var symbols: [PointSymbol] = [], current = p.symbol
        for n in nodes {
            guard case .shape(let s) = n else { symbols.append(current); continue }
            if s.fill == nil, p.symbolPerSeries, let id = s.id, id.hasSuffix("]"), let open = id.lastIndex(of: "[") {
                let name = String(id[id.index(after: open)..<id.index(before: id.endIndex)])
                current = PointSymbol.cycle[(names.firstIndex(of: name) ?? 0) % PointSymbol.cycle.count]
            }
            symbols.append(current)
        }
        let reshaped = chart.symbolNodes(nodes, size: { _ in p.size }) { symbols[$0] }
        return zip(nodes, reshaped).map { n, r in
            if case .shape(let s) = n, s.fill != nil { return r }
            return n
        }
    }
}
