import Foundation
import Geometry
import Raster
import Scene
import Charts

// Swift Charts' axis vocabulary: `.chartXAxis { AxisMarks(values: .stride(by: .month)) {
// value in AxisGridLine(); AxisTick(); AxisValueLabel(format: .dateTime.month()) } }`,
// mapped onto the model's AxisSpec (side, tick values or stride, tick length, labels and
// their format) and GridSpec (grid lines at the axis' ticks).

/// Whether something is shown (SwiftUI's `Visibility`).
public enum Visibility: Hashable, Sendable {
    /// As Swift Charts decides: axes for charts with x and y, a legend for series.
    case automatic
    case visible
    case hidden
}

/// Where an axis' marks go (Swift Charts' `AxisMarkPosition`).
public enum AxisMarkPosition: Hashable, Sendable {
    /// Bottom for x, trailing for y, as Swift Charts places them.
    case automatic
    case leading, trailing, top, bottom
}

/// How axis marks are laid out (Swift Charts' `AxisMarkPreset`); accepted, ChartReel lays
/// every axis out one way.
public enum AxisMarkPreset: Hashable, Sendable { case automatic, extended, aligned, inset }

/// Which values an axis marks (Swift Charts' `AxisMarkValues`).
public struct AxisMarkValues: Hashable, Sendable, ExpressibleByArrayLiteral {
    enum Kind: Hashable, Sendable {
        case automatic(Int?)
        case values([Double])
        case stride(TickStride)
    }
    var kind: Kind

    /// Nice values, about five.
    public static var automatic: AxisMarkValues { AxisMarkValues(kind: .automatic(nil)) }
    /// Nice values, about `desiredCount`.
    public static func automatic(desiredCount: Int) -> AxisMarkValues { AxisMarkValues(kind: .automatic(desiredCount)) }
    /// Every `count` calendar units of a date axis: `.stride(by: .month)` marks the 1st of each month (UTC).
    public static func stride(by unit: Calendar.Component, count: Int = 1) -> AxisMarkValues {
        AxisMarkValues(kind: .stride(.calendar(CalendarUnit(unit, count: count).interval)))
    }
    /// Every multiple of `step` on a number axis.
    public static func stride(by step: Double) -> AxisMarkValues { AxisMarkValues(kind: .stride(.step(step))) }
    /// These numbers.
    public init(arrayLiteral elements: Double...) { kind = .values(elements) }
    init(kind: Kind) { self.kind = kind }
}

/// One tick's value as an `AxisMarks` content closure sees it (Swift Charts' `AxisValue`).
///
/// ChartReel asks the closure once, to learn which parts the axis draws, with the first
/// tick; `as(_:)` gives a value of the type asked for, so `if let date = value.as(Date.self)`
/// takes its branch.
public struct AxisValue: Sendable {
    /// The tick's position among the axis' ticks.
    public var index: Int = 0
    /// How many ticks the axis has.
    public var count: Int = 1
    /// The tick's value as `type` (Date, Double, Int, String).
    public func `as`<T>(_ type: T.Type) -> T? {
        if T.self == Date.self { return Date(timeIntervalSince1970: 0) as? T }
        if T.self == Double.self { return 0.0 as? T }
        if T.self == Int.self { return 0 as? T }
        if T.self == Float.self { return Float(0) as? T }
        if T.self == String.self { return "" as? T }
        return nil
    }
}

/// A part of an axis mark: a grid line, a tick or a label.
public enum AxisMarkPart: Sendable {
    case gridLine(StrokeStyle?)
    case tick(length: Double?, StrokeStyle?)
    case valueLabel(ValueFormat?)
}

/// Grid lines across the plot at the axis' values (Swift Charts' `AxisGridLine`).
public struct AxisGridLine: Sendable {
    let stroke: StrokeStyle?
    /// A grid line; `stroke`'s width is used, its dash is not drawn.
    public init(centered: Bool? = nil, stroke: StrokeStyle? = nil) { self.stroke = stroke }
}

/// Tick marks at the axis' values (Swift Charts' `AxisTick`).
public struct AxisTick: Sendable {
    let length: Double?
    let stroke: StrokeStyle?
    /// A tick `length` pixels long (4 by default).
    public init(centered: Bool? = nil, length: Double? = nil, stroke: StrokeStyle? = nil) { self.length = length; self.stroke = stroke }
}

/// The values written at the axis' ticks (Swift Charts' `AxisValueLabel`).
public struct AxisValueLabel: Sendable {
    let format: ValueFormat?
    /// Labels in `format` (`.dateTime.month()`, `.number.precision(.fractionLength(1))`),
    /// or as the axis' scale suits.
    public init(format: ValueFormat? = nil, centered: Bool? = nil) { self.format = format }
}

/// Collects the parts of an axis mark.
@resultBuilder
public enum AxisMarkBuilder {
    public static func buildExpression(_ g: AxisGridLine) -> [AxisMarkPart] { [.gridLine(g.stroke)] }
    public static func buildExpression(_ t: AxisTick) -> [AxisMarkPart] { [.tick(length: t.length, t.stroke)] }
    public static func buildExpression(_ l: AxisValueLabel) -> [AxisMarkPart] { [.valueLabel(l.format)] }
    public static func buildBlock(_ parts: [AxisMarkPart]...) -> [AxisMarkPart] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [AxisMarkPart]?) -> [AxisMarkPart] { part ?? [] }
    public static func buildEither(first part: [AxisMarkPart]) -> [AxisMarkPart] { part }
    public static func buildEither(second part: [AxisMarkPart]) -> [AxisMarkPart] { part }
    public static func buildLimitedAvailability(_ part: [AxisMarkPart]) -> [AxisMarkPart] { part }
}

/// The marks of one axis (Swift Charts' `AxisMarks`): which values, on which side, and
/// which parts (grid lines, ticks, labels; all three by default).
public struct AxisMarks: Sendable {
    var position: AxisMarkPosition
    var values: AxisMarkValues
    var parts: [AxisMarkPart]

    /// Grid lines, ticks and labels at `values`.
    public init(preset: AxisMarkPreset = .automatic, position: AxisMarkPosition = .automatic,
                values: AxisMarkValues = .automatic, stroke: StrokeStyle? = nil) {
        self.position = position; self.values = values
        parts = [.gridLine(stroke), .tick(length: nil, stroke), .valueLabel(nil)]
    }

    /// Grid lines, ticks and labels in `format` at `values`.
    public init(format: ValueFormat, preset: AxisMarkPreset = .automatic, position: AxisMarkPosition = .automatic,
                values: AxisMarkValues = .automatic, stroke: StrokeStyle? = nil) {
        self.position = position; self.values = values
        parts = [.gridLine(stroke), .tick(length: nil, stroke), .valueLabel(format)]
    }

    /// The parts `content` draws at `values`.
    public init(preset: AxisMarkPreset = .automatic, position: AxisMarkPosition = .automatic,
                values: AxisMarkValues = .automatic, @AxisMarkBuilder content: (AxisValue) -> [AxisMarkPart]) {
        self.position = position; self.values = values
        parts = content(AxisValue())
    }

    /// Marks at these dates.
    public init(preset: AxisMarkPreset = .automatic, position: AxisMarkPosition = .automatic, values: [Date],
                @AxisMarkBuilder content: (AxisValue) -> [AxisMarkPart]) {
        self.init(preset: preset, position: position, values: AxisMarkValues(kind: .values(values.map(\.timeIntervalSince1970))),
                  content: content)
    }

    /// Marks at these dates, with grid lines, ticks and labels.
    public init(preset: AxisMarkPreset = .automatic, position: AxisMarkPosition = .automatic, values: [Date]) {
        self.init(preset: preset, position: position, values: AxisMarkValues(kind: .values(values.map(\.timeIntervalSince1970))))
    }
}

/// Collects the `AxisMarks` of one axis.
@resultBuilder
public enum AxisContentBuilder {
    public static func buildExpression(_ m: AxisMarks) -> [AxisMarks] { [m] }
    public static func buildBlock(_ parts: [AxisMarks]...) -> [AxisMarks] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [AxisMarks]?) -> [AxisMarks] { part ?? [] }
    public static func buildEither(first part: [AxisMarks]) -> [AxisMarks] { part }
    public static func buildEither(second part: [AxisMarks]) -> [AxisMarks] { part }
}

extension Array where Element == AxisMarks {
    /// The axis these marks make on the x (`isX`) or y axis, and whether they draw grid
    /// lines and how wide. Several `AxisMarks` merge: the first one's values and side, and
    /// every part any of them draws.
    func axis(isX: Bool) -> (axis: AxisSpec, grid: Double?)? {
        guard let first = self.first else { return nil }
        let side: Side
        switch first.position {
        case .automatic: side = isX ? .bottom : .trailing
        case .leading: side = .leading
        case .trailing: side = .trailing
        case .top: side = .top
        case .bottom: side = .bottom
        }
        var a = AxisSpec(side: side)
        a.showLine = false
        switch first.values.kind {
        case .automatic(let n): if let n { a.tickCount = n }
        case .values(let v): a.values = v
        case .stride(let s): a.stride = s
        }
        var grid: Double?, tick: Double?, labels = false
        for part in flatMap(\.parts) {
            switch part {
            case .gridLine(let s): grid = s?.width ?? 1
            case .tick(let length, _): tick = length ?? 4
            case .valueLabel(let f):
                labels = true
                if let f, a.format == nil { a.format = f.labelFormat }
            }
        }
        a.tickLength = tick ?? 0
        a.showLabels = labels
        return (a, grid)
    }
}
