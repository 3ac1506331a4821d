import Geometry
import Raster
import Motion
import Scene
import Charts

/// Something a chart draws: a mark over the chart's rows. Every mark type conforms,
/// and every modifier is written once on this protocol.
public protocol ChartContent {
    /// The type of the chart's rows (the user's struct).
    associatedtype Row
    /// The mark as the chart builds it.
    var mark: AnyMark<Row> { get set }
}

/// A mark of any kind over rows of type `Row`: the `ChartMark` a document's mark decodes
/// to (`LineMarkSpec`, `BarMarkSpec`, …), plus the columns its `.value`s read.
///
/// Field names in `spec` are the labels of those values; the chart turns its rows into a
/// table with one column per label when it is built.
public struct AnyMark<Row>: ChartContent {
    /// The mark in the model's terms; `options(_:)` edits what every kind has.
    public var spec: any ChartMark
    /// What the mark plots along x (its horizontal channel).
    var x: PlottableValue<Row>?
    /// What the mark plots along y.
    var y: PlottableValue<Row>?
    /// Every other column the mark reads: ranges, series, colour fields, text.
    var columns: [PlottableValue<Row>] = []
    /// Rows the mark draws; nil for all (a column of 0 / 1 when built).
    var filter: ((Row) -> Bool)?
    /// Rows the mark's values move to, and how.
    var transition: (rows: [Row], animation: Animation)?
    /// Stroke paint and style, kept apart so `foregroundStyle` and `lineStyle` combine.
    var strokePaint: NodePaint?
    var strokeStyle: StrokeStyle?
    /// Problems found by modifiers, reported when the scene is built.
    var problems: [String] = []

    /// The mark `spec` reading `x` and `y`.
    init(_ spec: any ChartMark, x: PlottableValue<Row>?, y: PlottableValue<Row>?) {
        self.spec = spec
        self.x = x; self.y = y
    }

    /// Edits the spec when it is an `M` (a kind-specific modifier on a mark of that kind).
    mutating func edit<M: ChartMark>(_ type: M.Type, _ change: (inout M) -> Void) {
        guard var m = spec as? M else { return }
        change(&m)
        spec = m
    }

    /// Edits the options every kind has.
    mutating func editOptions(_ change: (inout MarkOptions) -> Void) { change(&spec.options) }

    /// The mark itself.
    public var mark: AnyMark<Row> {
        get { self }
        set { self = newValue }
    }

    /// Adds a column the mark reads and returns its field name.
    mutating func read(_ v: PlottableValue<Row>) -> String {
        columns.append(v)
        return v.label
    }

    /// The stroke the mark draws with, completed with the defaults a document gets: a
    /// line without a stroke is 2 px of the palette's first colour with round caps and
    /// joins, a rule 1 px of grey; any other stroke is black, 1 px, butt caps, miter joins.
    var resolvedStroke: (paint: NodePaint, style: StrokeStyle)? {
        let kind = spec.kind
        if strokePaint == nil && strokeStyle == nil {
            switch kind {
            case .line: return LineMarkSpec.defaultStroke
            case .rule: return RuleMarkSpec.defaultStroke
            default: return nil
            }
        }
        let paint = strokePaint ?? (kind == .line ? LineMarkSpec.defaultStroke.paint : kind == .rule ? RuleMarkSpec.defaultStroke.paint : .solid(.black))
        let style = strokeStyle ?? (kind == .line ? LineMarkSpec.defaultStroke.style : StrokeStyle(width: 1))
        return (paint, style)
    }
}

// MARK: The marks

/// A line through the rows' points, one per series (Swift Charts' `LineMark`).
public struct LineMark<Row>: ChartContent, InterpolatedMark {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// A line through (x, y) of every row.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(LineMarkSpec(), x: x, y: y)
    }
    /// One line per value of `series`.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>, series: PlottableValue<Row>) {
        mark = AnyMark(LineMarkSpec(), x: x, y: y)
        mark.spec.options.series = mark.read(series)
    }
}

/// The region under a line, or between two values, filled (Swift Charts' `AreaMark`).
public struct AreaMark<Row>: ChartContent, InterpolatedMark {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// The region between the baseline (zero) and y.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(AreaMarkSpec(), x: x, y: y)
    }
    /// Areas of several series, stacked as `stacking` says (a streamgraph is `.center`).
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>, series: PlottableValue<Row>, stacking: StackMode = .none) {
        mark = AnyMark(AreaMarkSpec(), x: x, y: y)
        mark.spec.options.series = mark.read(series)
        mark.spec.options.stack = stacking
    }
    /// The band between two values at each x (a range area).
    public init(x: PlottableValue<Row>, yStart: PlottableValue<Row>, yEnd: PlottableValue<Row>) {
        mark = AnyMark(AreaMarkSpec(), x: x, y: yEnd)
        mark.spec.options.y2 = mark.read(yStart)
    }
}

/// A rectangle per row from the baseline to its value (Swift Charts' `BarMark`):
/// vertical over a category x, horizontal over a category y.
public struct BarMark<Row>: ChartContent {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// Bars from zero to the value; the category axis decides the direction.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(BarMarkSpec(), x: x, y: y)
    }
    /// Vertical bars between two values (a floating or Gantt bar).
    public init(x: PlottableValue<Row>, yStart: PlottableValue<Row>, yEnd: PlottableValue<Row>) {
        mark = AnyMark(BarMarkSpec(), x: x, y: yEnd)
        mark.spec.options.y2 = mark.read(yStart)
    }
    /// Horizontal bars between two values.
    public init(xStart: PlottableValue<Row>, xEnd: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(BarMarkSpec(), x: xEnd, y: y)
        mark.spec.options.x2 = mark.read(xStart)
    }
}

/// A dot per row (Swift Charts' `PointMark`).
public struct PointMark<Row>: ChartContent {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// A dot at (x, y) of every row.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(PointMarkSpec(), x: x, y: y)
    }
}

/// A line across the plot at each row's x or y (Swift Charts' `RuleMark`).
public struct RuleMark<Row>: ChartContent, PeakMark {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// A vertical rule at each row's x, the plot's full height.
    public init(x: PlottableValue<Row>) {
        mark = AnyMark(RuleMarkSpec(), x: x, y: nil)
    }
    /// A horizontal rule at each row's y, the plot's full width.
    public init(y: PlottableValue<Row>) {
        mark = AnyMark(RuleMarkSpec(), x: nil, y: y)
        mark.edit(RuleMarkSpec.self) { $0.vertical = false }
    }
    /// A vertical rule at x between two values.
    public init(x: PlottableValue<Row>, yStart: PlottableValue<Row>, yEnd: PlottableValue<Row>) {
        mark = AnyMark(RuleMarkSpec(), x: x, y: yStart)
        mark.spec.options.y2 = mark.read(yEnd)
    }
    /// A horizontal rule at y between two values.
    public init(xStart: PlottableValue<Row>, xEnd: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(RuleMarkSpec(), x: xStart, y: y)
        mark.edit(RuleMarkSpec.self) { $0.vertical = false }
        mark.spec.options.x2 = mark.read(xEnd)
    }
}

/// A label per row at its data point: Swift Charts' annotations as a mark.
public struct TextMark<Row>: ChartContent, PeakMark {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// Each row's y value as text (formatted with `format(_:)`), above its point.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(TextMarkSpec(), x: x, y: y)
    }
    /// Each row's `text` value at its point.
    public init(x: PlottableValue<Row>, y: PlottableValue<Row>, text: PlottableValue<Row>) {
        mark = AnyMark(TextMarkSpec(), x: x, y: y)
        let field = mark.read(text)
        mark.edit(TextMarkSpec.self) { $0.field = field }
    }
    /// The same text at every row's point.
    public init(_ text: String, x: PlottableValue<Row>, y: PlottableValue<Row>) {
        mark = AnyMark(TextMarkSpec(), x: x, y: y)
        mark.edit(TextMarkSpec.self) { $0.literal = text }
    }
}

/// A pie or donut slice per row, clockwise from 12 o'clock (Swift Charts' `SectorMark`).
/// The slices are named and coloured by `foregroundStyle(by:)`.
public struct SectorMark<Row>: ChartContent {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// Slices whose angles are proportional to `angle`; `innerRadius` is the hole as a
    /// fraction of the radius (0 for a pie), `angularGap` the gap between slices in degrees.
    public init(angle: PlottableValue<Row>, innerRadius: Double = 0, angularGap: Double = 0) {
        var sector = SectorMarkSpec()
        sector.innerRadius = innerRadius
        sector.angularGap = angularGap
        mark = AnyMark(sector, x: nil, y: angle)
    }
}

/// A path drawn in the chart: in pixels, or in data units mapped by the chart's scales.
public struct ShapeMark<Row>: ChartContent {
    /// The mark as the chart builds it.
    public var mark: AnyMark<Row>
    /// Draws `path`; with `inDataCoordinates` its points are data values (linear scales).
    public init(_ path: Path, inDataCoordinates: Bool = false) {
        var shape = ShapeMarkSpec()
        shape.path = path
        shape.inData = inDataCoordinates
        mark = AnyMark(shape, x: nil, y: nil)
    }
}

/// Marks that connect their points: lines and areas.
public protocol InterpolatedMark: ChartContent {}

/// Marks that can stand at each series' peak: rules and labels.
public protocol PeakMark: ChartContent {}
