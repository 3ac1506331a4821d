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
    public static func buildExpression<C: ChartContent>(_ content: C) -> [AnyMark<Row>] where C.Row == Row { content.marks }
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

/// One set of marks per element of a collection, inside a `Chart` (SwiftUI's and Swift
/// Charts' `ForEach`): `ForEach(sales) { sale in BarMark(…) }`. A modifier on it applies
/// to every mark it makes.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Row>: ChartContent {
    /// The marks, element by element.
    public private(set) var marks: [AnyMark<Row>]

    /// The first mark (modifiers reach every mark through `editMarks`).
    public var mark: AnyMark<Row> {
        get { marks.first ?? AnyMark(ShapeMarkSpec(), x: nil, y: nil) }
        set { if !marks.isEmpty { marks[0] = newValue } }
    }

    /// Edits every mark.
    public mutating func editMarks(_ edit: (inout AnyMark<Row>) -> Void) {
        for i in marks.indices { edit(&marks[i]) }
    }

    /// The marks `content` makes for each element of `data`; `id` is accepted as SwiftUI takes it.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ChartContentBuilder<Row> content: (Data.Element) -> [AnyMark<Row>]) {
        marks = data.flatMap(content)
    }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    /// The marks `content` makes for each element of `data`.
    public init(_ data: Data, @ChartContentBuilder<Row> content: (Data.Element) -> [AnyMark<Row>]) {
        marks = data.flatMap(content)
    }
}

extension ForEach where Data == Range<Int>, ID == Int {
    /// The marks `content` makes for each number of `data`.
    public init(_ data: Range<Int>, @ChartContentBuilder<Row> content: (Int) -> [AnyMark<Row>]) {
        marks = data.flatMap(content)
    }
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
    /// Whether the chart gets Swift Charts' automatic axes and legend (charts written in
    /// Swift Charts' spellings: `Chart { … }` and `Chart(rows) { row in … }`).
    var automaticGuides = false
    /// Swift Charts' guide modifiers, resolved when the spec is made.
    var guides = SwiftChartsGuides()

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
        if ChartAssembly.isUniform(perRow) {
            make = { frame, style in
                try ChartAssembly.spec(rows: rows, marks: perRow.first ?? [], perRow: perRow, frame: frame, style: style)
            }
        } else {
            // Rows that make different marks (an `if` in the builder): each mark is an
            // element of its own, as `Chart { ForEach(rows) { … } }` makes them.
            let items = zip(perRow, rows).flatMap { ms, r in ms.map { ($0, r) } }
            make = { frame, style in try ChartAssembly.instanceSpec(items, frame: frame, style: style) }
        }
        automaticGuides = true
    }

    /// A chart of any collection's elements, one builder run per element (a slice,
    /// `data.prefix(5)`, a range of numbers).
    public init<Data: RandomAccessCollection>(_ data: Data, @ChartContentBuilder<Data.Element> content: (Data.Element) -> [AnyMark<Data.Element>]) {
        self.init(Array(data), content: content)
    }

    /// A chart of `rows` identified by `id` (Swift Charts' `Chart(_:id:content:)`).
    public init<Row, ID: Hashable>(_ rows: [Row], id: KeyPath<Row, ID>, @ChartContentBuilder<Row> content: (Row) -> [AnyMark<Row>]) {
        self.init(rows, content: content)
    }

    /// A chart of marks written one by one or with `ForEach`, each plotting the values it
    /// is given (Swift Charts' `Chart { … }`): every mark is one element, and marks of one
    /// kind with the same modifiers are drawn as one mark (one line through its points).
    public init(@ChartContentBuilder<DataRow> content: () -> [AnyMark<DataRow>]) {
        let items = content().map { ($0, DataRow()) }
        make = { frame, style in try ChartAssembly.instanceSpec(items, frame: frame, style: style) }
        automaticGuides = true
    }

    /// The chart's spec as the scene would build it in `frame` with `style`: what the
    /// document decoder makes of the same chart in JSON.
    public func spec(frame: Rect, style: ChartStyle) throws -> ChartSpec {
        var st = style
        for e in styleEdits { e(&st) }
        var spec = try make(frame, st)
        for e in edits { e(&spec) }
        guides.apply(to: &spec, automatic: automaticGuides)
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
        spec.marks = ordered(marks.enumerated().map { i, m in
            var filter: (String, DataValue)?
            if filtered.contains(i) { filter = (field(i), .number(1)) }
            let transition = m.transition.map { t in (t.rows.map { row($0, marks, template) }, t.animation) }
            return (m.zIndex, finish(m, filter: filter, transition: transition, swiftChartsDefaults: perRow != nil))
        })
        coverUnits(&spec, x: x, y: y)
        return spec
    }

    /// Whether every row of a `Chart(rows) { row in … }` made the same marks with the
    /// same modifiers reading the same labels, so that they are one mark over all rows.
    static func isUniform<Row>(_ perRow: [[AnyMark<Row>]]) -> Bool {
        guard let first = perRow.first else { return true }
        let template = first.map(fingerprint)
        return perRow.allSatisfy { ms in ms.count == first.count && ms.map(fingerprint) == template }
    }

    /// The spec of a chart whose marks are elements one by one (`Chart { … }` with marks
    /// written out or made by `ForEach`): each mark becomes one row of the table, with
    /// its x and y values in the chart's x and y columns whatever their labels, and marks
    /// of one kind with the same modifiers become one mark spec over their rows (a line
    /// through them, bars side by side), in order of first appearance.
    static func instanceSpec<Row>(_ items: [(AnyMark<Row>, Row)], frame: Rect, style: ChartStyle) throws -> ChartSpec {
        let items = items.filter { m, r in m.filter?(r) ?? true }
        for (m, _) in items where !m.problems.isEmpty {
            throw ChartReelError.invalidMark(id: m.spec.options.id, problems: m.problems)
        }
        if let (m, _) = items.first(where: { $0.0.transition != nil }) {
            throw ChartReelError.invalidMark(id: m.spec.options.id, problems: [
                "transition(to:) needs values read from the rows (.value(label, \\.keyPath)) in Chart(rows) { … }"])
        }
        let x = items.lazy.compactMap { $0.0.x }.first, y = items.lazy.compactMap { $0.0.y }.first
        // Marks of one kind with the same modifiers are one mark.
        var groupIndex: [String: Int] = [:], groups: [AnyMark<Row>] = [], groupOf: [Int] = []
        for (m, _) in items {
            let key = fingerprint(m)
            if let g = groupIndex[key] { groupOf.append(g); continue }
            groupIndex[key] = groups.count
            groupOf.append(groups.count)
            groups.append(m)
        }
        let groupField = "\u{1}mark"
        var table: [DataRow] = []
        table.reserveCapacity(items.count)
        for (i, (m, r)) in items.enumerated() {
            var row: DataRow = [:]
            for c in m.columns { row[c.label] = c.cell(r) }
            if let x, let mx = m.x { row[x.label] = mx.cell(r) }
            if let y, let my = m.y { row[y.label] = my.cell(r) }
            if groups.count > 1 { row[groupField] = .number(Double(groupOf[i])) }
            table.append(row)
        }
        var spec = ChartSpec(frame: frame, style: style, data: table)
        if let x { spec.x = Channel(field: x.label); spec.x.scale = x.preferredScale }
        if let y { spec.y = Channel(field: y.label); spec.y.scale = y.preferredScale }
        spec.marks = ordered(groups.enumerated().map { g, m in
            (m.zIndex, finish(m, filter: groups.count > 1 ? (groupField, .number(Double(g))) : nil, transition: nil,
                              swiftChartsDefaults: true))
        })
        // Series keep one colour (and one slot) across the marks that share their field.
        var orders: [String: [String]] = [:]
        for m in spec.marks {
            let o = m.options
            for f in [o.series, (m as? BarMarkSpec)?.groupField, (m as? PointMarkSpec)?.symbolField].compactMap({ $0 }) where orders[f] == nil {
                var seen = Set<String>(), order: [String] = []
                for r in table { if let v = r[f] { let k = spec.key(v); if seen.insert(k).inserted { order.append(k) } } }
                orders[f] = order
            }
        }
        for (f, o) in orders where f != spec.x.field && f != spec.y.field { spec.fieldOrders[f] = o }
        coverUnits(&spec, x: x, y: y)
        return spec
    }

    /// What tells two marks of a `Chart { … }` apart: their kind and every modifier,
    /// but not the values they plot.
    static func fingerprint<Row>(_ m: AnyMark<Row>) -> String {
        let annotations = m.annotations.map { "\($0.position) \($0.alignment) \(String(describing: $0.spacing)) \(String(describing: $0.text.size)) \(String(describing: $0.text.color))" }
        return [String(describing: m.spec), String(describing: m.strokePaint), String(describing: m.strokeStyle),
                m.columns.map(\.label).joined(separator: "\u{1}"), m.x?.label == nil ? "-" : "x", m.y?.label == nil ? "-" : "y",
                "\(m.stackingSet) \(m.grouped) \(m.zIndex)"].joined(separator: "\u{2}") + annotations.joined(separator: "\u{2}")
    }

    /// Mark specs in drawing order: by z-index, equal ones in the order declared.
    static func ordered(_ marks: [(Double, [any ChartMark])]) -> [any ChartMark] {
        marks.enumerated().sorted { a, b in a.element.0 != b.element.0 ? a.element.0 < b.element.0 : a.offset < b.offset }
            .flatMap { $0.element.1 }
    }

    /// A mark's spec as the chart draws it, completed with what a document's mark gets by
    /// default, followed by its annotations' label marks. With `swiftChartsDefaults` (the
    /// Swift Charts spellings), areas, bars, points and rectangles without a paint take
    /// the palette's first colour, as Swift Charts' marks take the accent colour, instead
    /// of a document's black bars and translucent areas.
    static func finish<Row>(_ m: AnyMark<Row>, filter: (String, DataValue)?, transition: ([DataRow], Animation)?,
                            swiftChartsDefaults: Bool = false) -> [any ChartMark] {
        var s = m.spec
        if swiftChartsDefaults, [.area, .bar, .point, .rect].contains(s.kind), s.options.series == nil, s.options.color == nil,
           var filled = s as? any FilledMark, filled.fill == nil {
            filled.fill = .solid(Palette.color(0))
            s = filled
        }
        if var stroked = s as? any StrokedMark {
            stroked.stroke = m.resolvedStroke
            s = stroked
        }
        if var area = s as? AreaMarkSpec, area.fill == nil, area.options.color == nil, area.options.series == nil {
            area.fill = AreaMarkSpec.defaultFill
            s = area
        }
        // Bars and areas split into series stack unless they say otherwise (Swift Charts'
        // default stacking), except grouped bars and ranges.
        if (s.kind == .bar || s.kind == .area) && !m.stackingSet && !m.grouped && s.options.series != nil
            && s.options.y2 == nil && s.options.x2 == nil {
            s.options.stack = .standard
        }
        // Bars over a calendar unit span it (less a small gap).
        if var bar = s as? BarMarkSpec, bar.slot == nil, let u = m.x?.unit ?? m.y?.unit {
            bar.slot = u.interval.seconds
            if bar.barWidth == 1 && bar.fixedWidth == nil { bar.barWidth = 0.9 }
            s = bar
        }
        if let filter { s.options.filter = filter }
        if let transition { s.options.transition = (DataTable(rows: transition.0), transition.1) }
        // A rule's annotations are its labels (a rule across the plot has no point a
        // label mark could stand at).
        if var rule = s as? RuleMarkSpec, let a = m.annotations.first {
            var lb = RuleLabel(field: a.field)
            switch a.position {
            case .automatic, .top, .topLeading, .topTrailing: lb.position = .top
            case .bottom, .bottomLeading, .bottomTrailing: lb.position = .bottom
            case .leading: lb.position = .leading
            case .trailing: lb.position = .trailing
            case .overlay: lb.position = .center
            }
            switch a.alignment {
            case .leading, .topLeading, .bottomLeading: lb.alignment = .leading
            case .trailing, .topTrailing, .bottomTrailing: lb.alignment = .trailing
            default: lb.alignment = .center
            }
            lb.offset = a.spacing ?? 4
            lb.fontSize = a.text.size ?? 11
            lb.color = a.text.color
            rule.label = lb
            return [rule]
        }
        var out: [any ChartMark] = [s]
        for a in m.annotations {
            var t = TextMarkSpec()
            t.field = a.field
            t.options.id = s.options.id.map { "\($0).annotation" }
            t.options.series = s.options.series
            t.options.stack = s.options.stack
            t.options.y2 = s.options.y2
            t.options.x2 = s.options.x2
            t.options.filter = s.options.filter
            t.options.opacity = s.options.opacity
            t.options.stagger = s.options.stagger
            t.groupField = (s as? BarMarkSpec)?.groupField
            // The mark's colours, so its series' legend entries are the mark's (listed once).
            t.options.color = s.options.color
            t.fontSize = a.text.size ?? 11
            t.color = a.text.color
            t.offset = a.spacing ?? 4
            switch a.position {
            case .automatic, .top, .topLeading, .topTrailing: t.position = .top
            case .bottom, .bottomLeading, .bottomTrailing: t.position = .bottom
            case .leading: t.position = .leading
            case .trailing: t.position = .trailing
            // Inside the mark's end (a bar's top), as an overlay sits on the mark.
            case .overlay: t.position = .bottom
            }
            out.append(t)
        }
        return out
    }

    /// Widens the domain of a channel whose dates were read with a calendar unit so that
    /// it covers whole units (the first bar of `unit: .month` starts at its month's start).
    static func coverUnits<Row>(_ spec: inout ChartSpec, x: PlottableValue<Row>?, y: PlottableValue<Row>?) {
        for (v, isX) in [(x, true), (y, false)] {
            guard let v, let unit = v.unit else { continue }
            let field = isX ? spec.x.field : spec.y.field
            let values = spec.data.compactMap { $0[field]?.number }.filter(\.isFinite)
            guard let lo = values.min(), let hi = values.max() else { continue }
            let domain = (unit.bounds(of: lo).0, unit.bounds(of: hi).1)
            if isX { spec.x.domain = domain } else { spec.y.domain = domain }
        }
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

    /// A note under the plot, its axis labels and the legend (a source line, as ggplot2's
    /// `labs(caption:)`); with `fadeIn` it fades in.
    public func caption(_ caption: String, fadeIn: Animation? = nil) -> Chart {
        with { s in
            var c = CaptionSpec(caption)
            if let a = fadeIn { c.opacity = .fadeIn(a) }
            s.caption = c
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
    /// given `entries`. `alignment` and `spacing` are accepted as Swift Charts takes them;
    /// the legend starts at the leading edge.
    public func chartLegend(position: Side = .bottom, alignment: Alignment? = nil, spacing: Double? = nil,
                            swatch: LegendSpec.Swatch = .circle,
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
                           axisTitleSize: Double? = nil, captionSize: Double? = nil) -> Chart {
        var copy = self
        copy.styleEdits.append { st in
            if let textColor { st.textColor = textColor }
            if let secondaryTextColor { st.secondaryTextColor = secondaryTextColor }
            if let axisColor { st.axisColor = axisColor }
            if let labelSize { st.labelSize = labelSize }
            if let titleSize { st.titleSize = titleSize }
            if let subtitleSize { st.subtitleSize = subtitleSize }
            if let axisTitleSize { st.axisTitleSize = axisTitleSize }
            if let captionSize { st.captionSize = captionSize }
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
