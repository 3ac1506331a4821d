import Geometry
import Raster
import Motion
import Scene
import Charts

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
    /// Whether the mark says how it stacks; bars and areas split into series stack
    /// (`.standard`) unless they say otherwise, as in Swift Charts.
    var stackingSet = false
    /// Bars placed side by side by `position(by:)`, which do not stack.
    var grouped = false
    /// Drawing order among the chart's marks (`zIndex(_:)`).
    var zIndex = 0.0
    /// Labels by each element (`annotation(position:alignment:spacing:content:)`).
    var annotations: [MarkAnnotation] = []

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
