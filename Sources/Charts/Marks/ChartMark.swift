import Geometry
import Raster
import Scene

/// The kinds of mark a chart draws, as documents name them (`"type"`).
public enum MarkKind: String, Hashable, Sendable, CaseIterable {
    /// A stroked line through the points (one per series): `LineMarkSpec`.
    case line
    /// The region between the points and the baseline (or a second value), filled: `AreaMarkSpec`.
    case area
    /// A rectangle per row from the baseline to the value: `BarMarkSpec`.
    case bar
    /// A dot per row: `PointMarkSpec`.
    case point
    /// A line across the plot at each row's x (or y): `RuleMarkSpec`.
    case rule
    /// A label per row anchored to its data point: `TextMarkSpec`.
    case text
    /// Pie and donut sectors, clockwise from 12 o'clock: `SectorMarkSpec`.
    case sector
    /// A SwiftUI shape or an SVG path, in data or pixel coordinates: `ShapeMarkSpec`.
    case shape
    /// A rectangle per row, across bands or between two values: `RectMarkSpec`.
    case rect
}

/// One kind of mark: its own options, and how it turns a chart's state into scene nodes.
///
/// Each kind is one type in its own file (`LineMarkSpec`, `BarMarkSpec`, …), holding only
/// the options that kind uses; what every mark has (id, legend name, data encodings,
/// opacity, blend mode, animations, stagger) is in `options`. A chart holds its marks as
/// `[any ChartMark]` and builds each through `nodes(in:state:)`, then gives every element
/// the shared movement, rotation and colour animations (`ChartSpec.markNode`). Adding a
/// kind is a new type here, a decoder for it in Timelines and a Swift API wrapper in
/// ChartReel (docs/adding-a-mark.md).
public protocol ChartMark: Sendable {
    /// The kind, as documents name it.
    static var kind: MarkKind { get }
    /// Whether the mark's values run along x when the chart's y axis is the band one
    /// (horizontal bars, lines and areas); false keeps values on y.
    static var followsBandAxis: Bool { get }
    /// What every mark has.
    var options: MarkOptions { get set }
    /// The colour that stands for the mark in a legend and colours its elements when no
    /// encoding or series does.
    var legendColor: Color { get }
    /// The mark's elements as nodes (one per series or per row), with their own
    /// animations; the shared movement and colour animations are added by the chart.
    func nodes(in chart: ChartSpec, state: ChartState) -> [Node]
    /// Legend entries the mark contributes when the legend lists none of its own.
    func legendEntries(in chart: ChartSpec) -> [(name: String, color: Color)]
    /// Whether an entering key's elements grow from the baseline (bars, lines, areas,
    /// labels on bar ends); false for marks that grow in size instead (dots).
    var growsFromBaseline: Bool { get }
}

/// A mark that can be stroked.
public protocol StrokedMark: ChartMark {
    /// The stroke paint and style; nil draws no outline.
    var stroke: (paint: NodePaint, style: StrokeStyle)? { get set }
}

/// A mark that can be filled.
public protocol FilledMark: ChartMark {
    /// The fill paint; nil takes the element's colour.
    var fill: NodePaint? { get set }
}

/// A mark that joins its points: lines and areas.
public protocol ConnectedMark: ChartMark {
    /// How points are connected.
    var interpolation: Interpolation { get set }
    /// Start the curve at the plot's bottom-left corner.
    var startAtOrigin: Bool { get set }
}

extension ChartMark {
    /// The kind of this mark.
    public var kind: MarkKind { Self.kind }

    /// Most marks keep their values on y.
    public static var followsBandAxis: Bool { false }

    /// Most marks grow from their baseline.
    public var growsFromBaseline: Bool { true }

    /// The stroke's colour, else the fill's (a gradient's last stop), else black.
    public var legendColor: Color {
        func first(_ p: NodePaint?) -> Color? {
            switch p {
            case .solid(let c)?: return c
            case .linear(let stops, _, _)?: return stops.last?.color
            default: return nil
            }
        }
        return first((self as? any StrokedMark)?.stroke?.paint) ?? first((self as? any FilledMark)?.fill) ?? .black
    }

    /// One entry per series in the colour of its first element, or one for a named mark.
    public func legendEntries(in chart: ChartSpec) -> [(name: String, color: Color)] {
        let names = chart.seriesNames(self)
        if options.series != nil && names.count > 1 {
            let l = ChartState.unplaced(chart.frame, x: chart.resolve(chart.x), y: chart.resolve(chart.y))
            // Each series' first element only (not one per row: a million-row chart), where
            // an element's value is its own row's (no stack, range or growth to share).
            let own = options.stack == .none && options.y2 == nil && options.x2 == nil && !chart.data.has(DataTimeline.growField)
            let els = chart.elements(self, l, rows: own ? chart.firstRowOfEachSeries(self, l) : nil)
            return names.compactMap { n in els.first(where: { $0.series == n }).map { (n, $0.color) } }
        }
        if let n = options.name { return [(n, legendColor)] }
        return []
    }
}
