import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

/// Collects the marks of a chart, in drawing order, with `if`, `if`/`else` and `for`.
@resultBuilder
public enum ChartContentBuilder<Row> {
    /// One mark.
    public static func buildExpression<C: ChartContent>(_ content: C) -> [AnyMark<Row>] where C.Row == Row { [content.mark] }
    /// Marks in order.
    public static func buildBlock(_ parts: [AnyMark<Row>]...) -> [AnyMark<Row>] { parts.flatMap { $0 } }
    /// Marks under an `if` without `else`.
    public static func buildOptional(_ part: [AnyMark<Row>]?) -> [AnyMark<Row>] { part ?? [] }
    /// The `if` branch.
    public static func buildEither(first part: [AnyMark<Row>]) -> [AnyMark<Row>] { part }
    /// The `else` branch.
    public static func buildEither(second part: [AnyMark<Row>]) -> [AnyMark<Row>] { part }
    /// Marks made in a `for` loop.
    public static func buildArray(_ parts: [[AnyMark<Row>]]) -> [AnyMark<Row>] { parts.flatMap { $0 } }
    /// Marks under `if #available`.
    public static func buildLimitedAvailability(_ part: [AnyMark<Row>]) -> [AnyMark<Row>] { part }
}

/// One chart: rows, marks, and guides, placed on the scene by its layout (Swift Charts'
/// `Chart`, a document's entry in `"charts"`).
///
/// ```swift
/// Chart(week) {
///     LineMark(x: .value("Day", \.day), y: .value("mg", \.mg))
/// }
/// .title("Caffeine")
/// ```
public struct Chart {
    /// Builds the chart's spec in `frame` with the scene's fonts.
    let make: (Rect, ChartStyle) throws -> ChartSpec
    /// Chart modifiers, applied in order after the marks are in place.
    var edits: [(inout ChartSpec) -> Void] = []
    /// Style modifiers, applied to the scene's style before the spec is made.
    var styleEdits: [(inout ChartStyle) -> Void] = []
    /// The height the layout gives the chart; nil shares what is left.
    var height: Double?

    /// A chart of `rows`: every mark reads its values from each row with `.value`.
    public init<Row>(_ rows: [Row], @ChartContentBuilder<Row> content: () -> [AnyMark<Row>]) {
        let marks = content()
        make = { frame, style in try ChartAssembly.spec(rows: rows, marks: marks, frame: frame, style: style) }
    }

    /// A chart of `rows` in Swift Charts' other spelling: the builder runs once per row and
    /// its marks plot that row's values, `.value("Day", day.index)`. Every row must make
    /// the same marks (leave rows out with `.filter`); the marks' modifiers are taken from
    /// the first row's.
    public init<Row>(_ rows: [Row], @ChartContentBuilder<Row> content: (Row) -> [AnyMark<Row>]) {
        let perRow = rows.map(content)
        make = { frame, style in
            try ChartAssembly.spec(rows: rows, marks: perRow.first ?? [], perRow: perRow, frame: frame, style: style)
        }
    }

    /// A chart without data: shapes and literal labels only.
    public init(@ChartContentBuilder<DataRow> content: () -> [AnyMark<DataRow>]) {
        self.init([DataRow](), content: content)
    }

    /// The chart's spec as the scene would build it in `frame` with `style`: what the
    /// document decoder makes of the same chart in JSON.
    public func spec(frame: Rect, style: ChartStyle) throws -> ChartSpec {
        var st = style
        for e in styleEdits { e(&st) }
        var spec = try make(frame, st)
        for e in edits { e(&spec) }
        return spec
    }

    func with(_ edit: @escaping (inout ChartSpec) -> Void) -> Chart {
        var copy = self
        copy.edits.append(edit)
        return copy
    }
}

/// Turns rows and marks into a `ChartSpec`: the table, the channels and the mark specs.
enum ChartAssembly {
    /// The chart's spec from `rows` and its marks: declared once (`perRow` nil), or made
    /// by the builder for each row (`perRow[i]` for `rows[i]`, `marks` being row 0's).
    static func spec<Row>(rows: [Row], marks: [AnyMark<Row>], perRow: [[AnyMark<Row>]]? = nil, extra: [PlottableValue<Row>] = [],
                          frame: Rect, style: ChartStyle) throws -> ChartSpec {
        // The chart's x and y are what its marks plot there; one chart has one of each.
        func channel(_ pick: (AnyMark<Row>) -> PlottableValue<Row>?, _ name: String) throws -> PlottableValue<Row>? {
            let given = marks.compactMap(pick)
            guard let first = given.first else { return nil }
            if let other = given.first(where: { $0.label != first.label }) {
                throw ChartReelError.conflictingChannel(channel: name, labels: [first.label, other.label])
            }
            return first
        }
        let x = try channel(\.x, "x"), y = try channel(\.y, "y")
        for m in marks where !m.problems.isEmpty {
            throw ChartReelError.invalidMark(id: m.spec.options.id, problems: m.problems)
        }
        // One column per label, the first reader of a label defining it.
        func columns(_ marks: [AnyMark<Row>]) -> [PlottableValue<Row>] {
            var out: [PlottableValue<Row>] = [], seen = Set<String>()
            for m in marks {
                for v in [m.x, m.y].compactMap({ $0 }) + m.columns where seen.insert(v.label).inserted { out.append(v) }
            }
            return out
        }
        var template = columns(marks)
        for v in extra where !template.contains(where: { $0.label == v.label }) { template.append(v) }
        if let perRow {
            // Every row must make the same marks reading the same labels, so that they
            // are one mark over all rows.
            for (i, ms) in perRow.enumerated() {
                guard ms.count == marks.count, zip(ms, marks).allSatisfy({ $0.spec.kind == $1.spec.kind }),
                      columns(ms).map(\.label) == template.map(\.label) else {
                    throw ChartReelError.inconsistentRows(row: i)
                }
            }
            if let m = marks.first(where: { $0.transition != nil }) {
                throw ChartReelError.invalidMark(id: m.spec.options.id, problems: [
                    "transition(to:) needs values read from the rows (.value(label, \\.keyPath)) in Chart(rows) { … }"])
            }
        }
        // Filters become hidden 0/1 columns a document would spell as `"filter"`.
        let filtered = marks.indices.filter { marks[$0].filter != nil }
        func field(_ i: Int) -> String { "\u{1}filter.\(i)" }
        func row(_ r: Row, _ ms: [AnyMark<Row>], _ cols: [PlottableValue<Row>]) -> DataRow {
            var out: DataRow = [:]
            for c in cols { out[c.label] = c.cell(r) }
            for i in filtered { out[field(i)] = .number(ms[i].filter!(r) ? 1 : 0) }
            return out
        }
        let table = perRow.map { pr in zip(rows, pr).map { row($0, $1, columns($1)) } } ?? rows.map { row($0, marks, template) }
        var spec = ChartSpec(frame: frame, style: style, data: table)
        if let x { spec.x = Channel(field: x.label); spec.x.scale = x.preferredScale }
        if let y { spec.y = Channel(field: y.label); spec.y.scale = y.preferredScale }
        spec.marks = marks.enumerated().map { i, m in
            var s = m.spec
            if var stroked = s as? any StrokedMark {
                stroked.stroke = m.resolvedStroke
                s = stroked
            }
            if var area = s as? AreaMarkSpec, area.fill == nil, area.options.color == nil, area.options.series == nil {
                area.fill = AreaMarkSpec.defaultFill
                s = area
            }
            if filtered.contains(i) { s.options.filter = (field(i), .number(1)) }
            if let t = m.transition { s.options.transition = (t.rows.map { row($0, marks, template) }, t.animation) }
            return s
        }
        return spec
    }
}

// MARK: Chart modifiers

/// Where grid lines go along one direction.
public enum GridLines: Hashable, Sendable {
    /// At the axis' ticks.
    case atTicks
    /// Every `step` data units.
    case every(Double)
}

extension Chart {
    /// The chart's title and subtitle, above everything else; with `fadeIn` they fade in.
    public func title(_ title: String, subtitle: String? = nil, fadeIn: Animation? = nil) -> Chart {
        with { s in
            var t = TitleSpec(title, subtitle: subtitle)
            if let a = fadeIn { t.opacity = .fadeIn(a) }
            s.title = t
        }
    }

    /// The height the scene's layout gives this chart in pixels (a document's `"height"`).
    public func frame(height: Double) -> Chart {
        var copy = self
        copy.height = height
        return copy
    }

    /// A fixed distance from the chart's frame to its plot on every side, instead of the
    /// layout the guides ask for.
    public func plotInset(_ inset: Double) -> Chart { with { $0.inset = inset } }

    /// The x scale: its data interval, kind, nice rounding, band padding and category order.
    public func chartXScale(domain: ClosedRange<Double>? = nil, type: ScaleType? = nil, nice: Bool? = nil,
                            padding: Double? = nil, categories: [String]? = nil) -> Chart {
        with { $0.x.configure(domain: domain.map { ($0.lowerBound, $0.upperBound) }, type: type, nice: nice, padding: padding, categories: categories) }
    }

    /// Draws the marks only inside the plot rectangle (on by default for a chart whose
    /// domain animates, as a document's `"clip"`).
    public func clipMarksToPlot(_ enabled: Bool = true) -> Chart { with { $0.clipsMarks = enabled } }

    /// An x scale whose domain moves from `domain` to `to` under `animation` (a zoom):
    /// the chart's ticks, grid and marks are recomputed at every frame while it moves.
    public func chartXScale(domain: ClosedRange<Double>, animatingTo to: ClosedRange<Double>, _ animation: Animation) -> Chart {
        with { $0.x.animatedDomain = AnimatedDomain(domain, to, animation); $0.clipsMarks = true }
    }

    /// A y scale whose domain moves from `domain` to `to` under `animation` (see `chartXScale(domain:animatingTo:_:)`).
    public func chartYScale(domain: ClosedRange<Double>, animatingTo to: ClosedRange<Double>, _ animation: Animation) -> Chart {
        with { $0.y.animatedDomain = AnimatedDomain(domain, to, animation); $0.clipsMarks = true }
    }

    /// An x time scale over the dates in `domain`.
    public func chartXScale(domain: ClosedRange<Date>, type: ScaleType = .time) -> Chart {
        with { $0.x.configure(domain: (domain.lowerBound.timeIntervalSince1970, domain.upperBound.timeIntervalSince1970), type: type) }
    }

    /// The y scale: its data interval, kind, nice rounding, band padding and category order.
    public func chartYScale(domain: ClosedRange<Double>? = nil, type: ScaleType? = nil, nice: Bool? = nil,
                            padding: Double? = nil, categories: [String]? = nil) -> Chart {
        with { $0.y.configure(domain: domain.map { ($0.lowerBound, $0.upperBound) }, type: type, nice: nice, padding: padding, categories: categories) }
    }

    /// A y time scale over the dates in `domain`.
    public func chartYScale(domain: ClosedRange<Date>, type: ScaleType = .time) -> Chart {
        with { $0.y.configure(domain: (domain.lowerBound.timeIntervalSince1970, domain.upperBound.timeIntervalSince1970), type: type) }
    }

    /// An axis for x, below the plot unless `position` says `.top`: ticks at `values` (or
    /// about `count` nice ones), labels in `format`, the domain line unless `line` is
    /// false, tick marks `tickLength` long, labels turned by `labelAngle` degrees, a
    /// title; with `fadeIn` it fades in.
    public func chartXAxis(position: Side = .bottom, values: [Double]? = nil, count: Int? = nil, format: LabelFormat? = nil,
                           line: Bool = true, tickLength: Double = 4, labelAngle: Double = 0, title: String? = nil,
                           fadeIn: Animation? = nil) -> Chart {
        axis(position, values, count, format, line, tickLength, labelAngle, title, fadeIn)
    }

    /// An axis for y, leading unless `position` says `.trailing` (see `chartXAxis`).
    public func chartYAxis(position: Side = .leading, values: [Double]? = nil, count: Int? = nil, format: LabelFormat? = nil,
                           line: Bool = true, tickLength: Double = 4, labelAngle: Double = 0, title: String? = nil,
                           fadeIn: Animation? = nil) -> Chart {
        axis(position, values, count, format, line, tickLength, labelAngle, title, fadeIn)
    }

    func axis(_ side: Side, _ values: [Double]?, _ count: Int?, _ format: LabelFormat?, _ line: Bool, _ tickLength: Double,
              _ labelAngle: Double, _ title: String?, _ fadeIn: Animation?) -> Chart {
        with { s in
            var a = AxisSpec(side: side, title: title)
            a.values = values
            if let count { a.tickCount = count }
            a.format = format
            a.showLine = line
            a.tickLength = tickLength
            a.labelAngle = labelAngle
            if let f = fadeIn { a.opacity = .fadeIn(f) }
            s.axes.append(a)
        }
    }

    /// Grid lines across the plot along x and y, in `color` and `width`, with a line at
    /// zero in `zeroColor`; with `fadeIn` the grid fades in.
    public func chartGrid(x: GridLines? = nil, y: GridLines? = nil, color: Color? = nil, width: Double = 1,
                          zeroColor: Color? = nil, fadeIn: Animation? = nil) -> Chart {
        with { s in
            var g = GridSpec(width: width, zeroColor: zeroColor)
            if let color { g.color = color }
            switch x { case .atTicks?: g.xAtTicks = true; case .every(let step)?: g.xStep = step; case nil: break }
            switch y { case .atTicks?: g.yAtTicks = true; case .every(let step)?: g.yStep = step; case nil: break }
            if let f = fadeIn { g.opacity = .fadeIn(f) }
            s.grid = g
        }
    }

    /// A legend beside the plot: one swatch per named mark, series or slice, or the
    /// given `entries`.
    public func chartLegend(position: Side = .bottom, swatch: LegendSpec.Swatch = .circle,
                            entries: [(name: String, color: Color)]? = nil, fadeIn: Animation? = nil) -> Chart {
        with { s in
            var l = LegendSpec(side: position)
            l.swatch = swatch
            l.entries = entries
            if let f = fadeIn { l.opacity = .fadeIn(f) }
            s.legend = l
        }
    }

    /// A rounded card behind the chart, padding its content.
    public func card(color: Color = CardSpec().color, cornerRadius: Double = 12, padding: Double = 16) -> Chart {
        with { $0.card = CardSpec(color: color, cornerRadius: cornerRadius, padding: padding) }
    }

    /// The largest value labelled above the plot and zero below it (the Coffee Book cards).
    public func extremeLabels(format: NumberFormat = NumberFormat(), fadeIn: Animation? = nil) -> Chart {
        with { s in
            var e = ExtremesSpec(format: format)
            if let f = fadeIn { e.opacity = .fadeIn(f) }
            s.extremes = e
        }
    }

    /// Colours and sizes of the chart's guides; nil keeps the scene's.
    public func guideStyle(textColor: Color? = nil, secondaryTextColor: Color? = nil, axisColor: Color? = nil,
                           labelSize: Double? = nil, titleSize: Double? = nil, subtitleSize: Double? = nil,
                           axisTitleSize: Double? = nil) -> Chart {
        var copy = self
        copy.styleEdits.append { st in
            if let textColor { st.textColor = textColor }
            if let secondaryTextColor { st.secondaryTextColor = secondaryTextColor }
            if let axisColor { st.axisColor = axisColor }
            if let labelSize { st.labelSize = labelSize }
            if let titleSize { st.titleSize = titleSize }
            if let subtitleSize { st.subtitleSize = subtitleSize }
            if let axisTitleSize { st.axisTitleSize = axisTitleSize }
        }
        return copy
    }

    /// Edits the chart's `ChartSpec` directly, for the fields no modifier covers.
    public func chartSpec(_ edit: @escaping (inout ChartSpec) -> Void) -> Chart { with(edit) }
}

extension Channel {
    mutating func configure(domain: (Double, Double)?, type: ScaleType?, nice: Bool? = nil, padding: Double? = nil,
                            categories: [String]? = nil) {
        if let domain { self.domain = domain }
        if let type { scale = type }
        if let nice { self.nice = nice }
        if let padding { paddingInner = padding; paddingOuter = padding }
        if let categories { self.categories = categories }
    }
}

extension AnimatedValue {
    /// 0 → 1 under `animation`: a guide fading in.
    static func fadeIn(_ animation: Animation) -> AnimatedValue { .tween(Tween(from: 0, to: 1, animation: animation)) }
}

extension AnimatedDomain {
    /// Both ends tweening from `from` to `to` under one timing.
    init(_ from: ClosedRange<Double>, _ to: ClosedRange<Double>, _ animation: Animation) {
        self.init(lower: .tween(Tween(from: from.lowerBound, to: to.lowerBound, animation: animation)),
                  upper: .tween(Tween(from: from.upperBound, to: to.upperBound, animation: animation)))
    }
}
