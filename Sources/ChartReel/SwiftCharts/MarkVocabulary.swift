import Foundation
import Geometry
import Raster
import Motion
import Scene
import Charts

// Swift Charts' mark vocabulary: the types its initialisers and modifiers take
// (InterpolationMethod, MarkStackingMethod, MarkDimension, BasicChartSymbolShape) and
// the modifiers every mark has, mapped onto the mark specs of the Charts model.

/// How lines and areas connect their points (Swift Charts' `InterpolationMethod`):
/// `.linear`, `.catmullRom`, `.cardinal`, `.monotone`, `.stepStart`, `.stepCenter`,
/// `.stepEnd`, and ChartReel's `.bezier(r)`.
public typealias InterpolationMethod = Interpolation

extension Interpolation {
    /// A step per point, the point at its start: flat until the next point, then up or down.
    public static var stepStart: Interpolation { .step(.end) }
    /// A step per point, the point at its centre: the change halfway between points.
    public static var stepCenter: Interpolation { .step(.center) }
    /// A step per point, the point at its end: up or down first, then flat to the point.
    public static var stepEnd: Interpolation { .step(.start) }
    /// A cardinal spline of tension 0 (the uniform Catmull–Rom spline).
    public static var cardinal: Interpolation { .cardinal(0) }
    /// A cardinal spline with `tension` in 0…1.
    public static func cardinal(tension: Double) -> Interpolation { .cardinal(tension) }
    /// A Catmull–Rom spline. ChartReel draws the uniform spline whatever `alpha` says
    /// (Swift Charts' alpha 0.5 is the centripetal one; they differ where points are
    /// unevenly spaced).
    public static func catmullRom(alpha: Double) -> Interpolation { .catmullRom }
}

/// How marks of several series stack (Swift Charts' `MarkStackingMethod`): `.standard`,
/// `.normalized`, `.center`, `.unstacked`.
public typealias MarkStackingMethod = StackMode

extension StackMode {
    /// Each series from zero, overlapping (Swift Charts' name for `.none`).
    public static var unstacked: StackMode { .none }
}

/// A mark's width, height or radius (Swift Charts' `MarkDimension`): automatic, a fixed
/// number of pixels, a fraction of the room it has, or that room less an inset.
public enum MarkDimension: Hashable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    case automatic
    case fixed(Double)
    case ratio(Double)
    case inset(Double)
    /// A literal is a fixed size in pixels.
    public init(floatLiteral value: Double) { self = .fixed(value) }
    /// A literal is a fixed size in pixels.
    public init(integerLiteral value: Int) { self = .fixed(Double(value)) }
}

/// The shapes `symbol(_:)` draws (Swift Charts' `BasicChartSymbolShape`).
public typealias BasicChartSymbolShape = PointSymbol

/// Where an annotation sits relative to its mark (Swift Charts' `AnnotationPosition`).
public enum AnnotationPosition: Hashable, Sendable {
    case automatic, top, bottom, leading, trailing, overlay, topLeading, topTrailing, bottomLeading, bottomTrailing
}

/// How content lines up in the room it has (SwiftUI's `Alignment`). ChartReel accepts
/// it where Swift Charts takes one; see docs/swift-api.md for where it changes anything.
public enum Alignment: Hashable, Sendable {
    case center, leading, trailing, top, bottom, topLeading, topTrailing, bottomLeading, bottomTrailing
}

extension NodePaint {
    // SwiftUI's colours as members of a paint, so that `.foregroundStyle(.blue.gradient)`
    // reads as in SwiftUI (`.blue` is a `Color`, `.gradient` the paint).
    public static var red: Color { .red }
    public static var orange: Color { .orange }
    public static var yellow: Color { .yellow }
    public static var green: Color { .green }
    public static var mint: Color { .mint }
    public static var teal: Color { .teal }
    public static var cyan: Color { .cyan }
    public static var blue: Color { .blue }
    public static var indigo: Color { .indigo }
    public static var purple: Color { .purple }
    public static var pink: Color { .pink }
    public static var brown: Color { .brown }
    public static var gray: Color { .gray }
}

extension ChartContent {
    // MARK: Swift Charts' mark modifiers

    /// How the points are connected (lines and areas; other marks ignore it).
    public func interpolationMethod(_ method: InterpolationMethod) -> Self { with { $0.editConnected { $0.interpolation = method } } }

    /// The mark's paint from a gradient (`LinearGradient(colors:startPoint:endPoint:)`).
    public func foregroundStyle(_ style: LinearGradient) -> Self { foregroundStyle(style.paint) }

    /// The symbol drawn at each point: a point mark's shape, or dots along a line.
    public func symbol(_ symbol: BasicChartSymbolShape) -> Self {
        with { m in
            m.edit(PointMarkSpec.self) { $0.symbol = symbol }
            m.edit(LineMarkSpec.self) { l in
                var p = l.points ?? PointStyle(size: 7)
                p.symbol = symbol
                l.points = p
            }
        }
    }

    /// A symbol per value of `value` (points), or a series per value with dots (lines).
    public func symbol(by value: PlottableValue<Row>) -> Self {
        with { m in
            let field = m.read(value)
            m.edit(PointMarkSpec.self) { $0.symbolField = field }
            m.edit(LineMarkSpec.self) { l in
                var p = l.points ?? PointStyle(size: 7)
                p.symbolPerSeries = true
                l.points = p
            }
            if m.spec.kind == .line && m.spec.options.series == nil { m.spec.options.series = field }
        }
    }

    /// The symbols' size as an area in square pixels, as Swift Charts measures it
    /// (`symbolSize(100)` is a circle 11.3 px across).
    public func symbolSize(_ area: Double) -> Self { symbolDiameter(2 * (max(0, area) / .pi).squareRoot()) }

    /// The symbols' size as a width and height in pixels (the larger is used).
    public func symbolSize(_ size: CGSize) -> Self { symbolDiameter(Double(max(size.width, size.height))) }

    func symbolDiameter(_ d: Double) -> Self {
        with { m in
            m.edit(PointMarkSpec.self) { $0.size = d }
            m.edit(LineMarkSpec.self) { l in
                var p = l.points ?? PointStyle(size: d)
                p.size = d
                l.points = p
            }
        }
    }

    /// Bars of each value of `value` side by side within their band, instead of stacked
    /// (Swift Charts' grouped bars). Marks other than bars ignore it.
    public func position(by value: PlottableValue<Row>) -> Self {
        with { m in
            let field = m.read(value)
            m.edit(BarMarkSpec.self) { $0.groupField = field }
            m.grouped = true
            if m.spec.options.series == nil && m.spec.kind == .bar { m.spec.options.series = field }
        }
    }

    /// Draws the mark above marks of a lower z-index and below higher ones (0 by default;
    /// equal ones keep the order they are declared in).
    public func zIndex(_ value: Double) -> Self { with { $0.zIndex = value } }

    /// A label by each element of the mark (Swift Charts' annotation): `Text` placed at
    /// `position`, `spacing` pixels away.
    public func annotation(position: AnnotationPosition = .automatic, alignment: Alignment = .center, spacing: Double? = nil,
                           @AnnotationContentBuilder content: () -> Text) -> Self {
        let text = content()
        return with { m in
            let label = "\u{1}annotation.\(m.annotations.count)"
            let value = text.string
            m.columns.append(PlottableValue(label: label, cell: { _ in .string(value) }, preferredScale: nil))
            m.annotations.append(MarkAnnotation(field: label, position: position, alignment: alignment, spacing: spacing, text: text))
        }
    }

    /// The mark appears under `animation`, the way that suits its kind: lines draw
    /// themselves, bars and sectors grow, points pop in, areas, rules, rectangles and
    /// labels fade in (ChartReel's; a video has no state change to animate).
    public func animation(_ animation: Animation) -> Self {
        with { m in
            let change: MarkAnimation
            switch m.spec.kind {
            case .line: change = .trim(from: 0)
            case .bar, .sector: change = .grow(from: 0)
            case .point, .shape: change = .scale(from: 0)
            case .rule: change = .trim(from: 0)
            default: change = .opacity(from: 0)
            }
            for c in change.changes {
                m.spec.options.set(c.property, .tween(Tween(from: c.from, to: c.to, animation: animation)))
            }
        }
    }
}

/// An annotation of a mark, kept until the chart is assembled.
struct MarkAnnotation {
    /// The hidden column holding each element's text.
    var field: String
    var position: AnnotationPosition
    var alignment: Alignment
    var spacing: Double?
    var text: Text
}

/// Collects an annotation's content: one `Text`.
@resultBuilder
public enum AnnotationContentBuilder {
    /// The text.
    public static func buildBlock(_ text: Text) -> Text { text }
}

/// A label, as SwiftUI's `Text` is written in annotations: a string, or a value with a
/// format, styled with `font(_:)`, `foregroundStyle(_:)` and `bold()`.
public struct Text: Sendable {
    /// The text.
    public var string: String
    /// Size in pixels; the annotation's default (11) when nil.
    var size: Double?
    /// Colour; the chart's secondary text colour when nil.
    var color: Color?

    /// A string (interpolations included: `Text("\(sale.count)")`).
    public init(_ string: String) { self.string = string }
    /// A string as it is.
    public init(verbatim string: String) { self.string = string }
    /// A number written in `format` (`.number`, `.percent`, `.currency(code:)`).
    public init<V: BinaryFloatingPoint>(_ value: V, format: ValueFormat) { string = format.text(Double(value)) }
    /// An integer written in `format`.
    public init<V: BinaryInteger>(_ value: V, format: ValueFormat) { string = format.text(Double(value)) }
    /// A date written in `format` (`.dateTime.month()`).
    public init(_ date: Date, format: ValueFormat) { string = format.text(date.timeIntervalSince1970) }

    /// The text's font (its size; ChartReel draws every label in the scene's font).
    public func font(_ font: TextFont) -> Text { var t = self; t.size = font.size; return t }
    /// The text's colour.
    public func foregroundStyle(_ color: Color) -> Text { var t = self; t.color = color; return t }
    /// The text's colour (SwiftUI's older spelling).
    public func foregroundColor(_ color: Color) -> Text { foregroundStyle(color) }
    /// Accepted for Swift Charts code; ChartReel draws annotations in the regular weight.
    public func bold() -> Text { self }
    /// Accepted for Swift Charts code; ChartReel draws annotations in the regular weight.
    public func fontWeight(_ weight: TextFont.Weight) -> Text { self }
}

/// A text size in SwiftUI's type scale (`.caption`, `.headline`, `.system(size:)`).
public struct TextFont: Hashable, Sendable {
    /// Size in pixels.
    public var size: Double
    /// SwiftUI's font weights, accepted and not drawn.
    public enum Weight: Hashable, Sendable { case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black }
    public static let largeTitle = TextFont(size: 34)
    public static let title = TextFont(size: 28)
    public static let title2 = TextFont(size: 22)
    public static let title3 = TextFont(size: 20)
    public static let headline = TextFont(size: 17)
    public static let body = TextFont(size: 17)
    public static let callout = TextFont(size: 16)
    public static let subheadline = TextFont(size: 15)
    public static let footnote = TextFont(size: 13)
    public static let caption = TextFont(size: 12)
    public static let caption2 = TextFont(size: 11)
    /// A size in pixels.
    public static func system(size: Double, weight: Weight = .regular) -> TextFont { TextFont(size: size) }
    /// The font, bold (accepted, drawn regular).
    public func bold() -> TextFont { self }
}

extension PlottableValue {
    /// A date read from each row, placed at the middle of its calendar `unit` (a bar of
    /// `unit: .month` spans its month, as in Swift Charts). Calendar units are UTC.
    public static func value(_ label: String, _ value: @escaping (Row) -> Date, unit: Calendar.Component) -> PlottableValue<Row> {
        PlottableValue(label: label, cell: { .number(CalendarUnit(unit).middle(of: value($0).timeIntervalSince1970)) },
                       preferredScale: .time, unit: CalendarUnit(unit))
    }

    /// A date given directly, placed at the middle of its calendar `unit`.
    public static func value(_ label: String, _ value: Date, unit: Calendar.Component) -> PlottableValue<Row> {
        let u = CalendarUnit(unit)
        let cell = DataValue.number(u.middle(of: value.timeIntervalSince1970))
        return PlottableValue(label: label, cell: { _ in cell }, preferredScale: .time, unit: u)
    }
}

/// A calendar unit of `.value(_:_:unit:)`, in UTC.
struct CalendarUnit: Hashable, Sendable {
    var unit: TimeTicks.Unit
    var step: Int = 1

    init(unit: TimeTicks.Unit, step: Int = 1) { self.unit = unit; self.step = step }

    init(_ c: Calendar.Component, count: Int = 1) {
        step = max(1, count)
        switch c {
        case .second, .nanosecond: unit = .second
        case .minute: unit = .minute
        case .hour: unit = .hour
        case .weekOfYear, .weekOfMonth, .weekday, .weekdayOrdinal, .yearForWeekOfYear: unit = .week
        case .month, .quarter: unit = .month; if c == .quarter { step *= 3 }
        case .year, .era: unit = .year
        default: unit = .day
        }
    }

    var interval: TimeTicks.Interval { TimeTicks.Interval(unit: unit, step: step) }

    /// The start of the unit holding `t`, and the start of the next one.
    func bounds(of t: Double) -> (Double, Double) {
        // The boundary at or before t among the calendar ticks of the unit.
        let back: Double
        switch unit {
        case .second: back = 1
        case .minute: back = 60
        case .hour: back = 3600
        case .day: back = 86_400
        case .week: back = 7 * 86_400
        case .month: back = 31 * 86_400
        case .year: back = 366 * 86_400
        }
        let span = back * Double(step)
        let ticks = TimeTicks.ticks(t - span, t + 2 * span, interval: interval)
        let start = ticks.last(where: { $0 <= t }) ?? t
        let end = ticks.first(where: { $0 > start }) ?? start + span
        return (start, end)
    }

    /// The middle of the unit holding `t`.
    func middle(of t: Double) -> Double { let (a, b) = bounds(of: t); return (a + b) / 2 }
}
