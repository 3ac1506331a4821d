#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Motion
import Scene
import Text

/// A chart: data, scales, guides and marks in a frame on the canvas.
///
/// A spec is data; what is drawn is a function of it and the time. `state(at:)` resolves
/// the domains, ticks and plot rectangle at a moment (measuring the guides with the real
/// font), and `build(id:)` turns a state into scene nodes in drawing order: card, title,
/// grid, marks, axes, value labels, legend (see the module overview, Charts.swift).
public struct ChartSpec: Sendable {
    /// The rectangle the chart occupies on the canvas.
    public var frame: Rect
    /// Fonts and colours of the guides.
    public var style: ChartStyle
    /// The rows, stored by column.
    public var data: DataTable
    /// The horizontal channel.
    public var x = Channel(field: "x")
    /// The vertical channel.
    public var y = Channel(field: "y")
    /// Fixed distance from the frame to the plot on every side; laid out from the guides when nil.
    public var inset: Double?
    /// The grid, if any.
    public var grid: GridSpec?
    /// Axes.
    public var axes: [AxisSpec] = []
    /// A legend, if any.
    public var legend: LegendSpec?
    /// Title and subtitle.
    public var title: TitleSpec?
    /// A note under the plot, its axis labels and the legend (a source line).
    public var caption: CaptionSpec?
    /// The card behind the chart.
    public var card: CardSpec?
    /// A background and border of the plot rectangle.
    public var plotArea: PlotAreaSpec?
    /// Highest-value and zero labels.
    public var extremes: ExtremesSpec?
    /// Data that changes over time: the rows shown at each moment come from it (keyed,
    /// interpolated between time steps) instead of `data`; nil for a chart of fixed rows.
    public var timeline: DataTimeline?
    /// The moment a snapshot of moving data shows (`snapshot(at:)`); nil otherwise.
    public var moment: Moment?
    /// A large label naming the moment shown (the year of a bar chart race), behind the marks.
    public var periodLabel: PeriodLabelSpec?
    /// The order of a field's values over the whole of a timeline (its keys), so that a
    /// key keeps its colour, series slot and band while others enter and leave.
    public var fieldOrders: [String: [String]] = [:]
    /// For a field order that a snapshot takes from its timeline's keys, each key's
    /// position in it (the timeline's `keyIndex`), so colouring by the key field does not
    /// hash every key at every frame. Set only with that order; the orders are checked
    /// to be the same array before it is used.
    var fieldOrderIndex: [String: (order: [String], index: [String: Int])] = [:]
    /// The time field of a snapshot whose timeline names its steps ("2020-Q1"): its
    /// categories are the steps (`fieldOrders`), and its rows' positions, fractional
    /// while they move, are in `DataTimeline.stepField`.
    var namedStepField: String?
    /// Marks are drawn only inside the plot rectangle; nil decides (`marksAreClipped`):
    /// clipped when a domain animates or a domain the document fixes leaves data outside.
    public var clipsMarks: Bool?
    /// Each number field's extent over the whole data, moving data's every step included
    /// (`fieldExtent(_:)`): worked out once for a timeline, so bubble sizes and colours
    /// mean the same at every frame.
    var fieldExtents: [String: (Double, Double)] = [:]
    /// In a snapshot of moving data: the ghosts (trails and traces) of the marks that ask
    /// for them, by mark index, drawn behind each mark.
    var ghostRows: [Int: [GhostRows]] = [:]
    /// Marks, drawn in order.
    public var marks: [any ChartMark] = []

    /// Creates a chart.
    public init(frame: Rect, style: ChartStyle, data: DataTable) {
        self.frame = frame; self.style = style; self.data = data
    }

    /// Creates a chart of rows given as dictionaries.
    public init(frame: Rect, style: ChartStyle, data: [DataRow]) {
        self.init(frame: frame, style: style, data: DataTable(rows: data))
    }
}
