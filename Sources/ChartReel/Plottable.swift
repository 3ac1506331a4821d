import Foundation
import Charts

/// A value a chart can plot: it becomes one cell of the chart's table.
///
/// Numbers become `.number`, text `.string`, dates seconds since 1970 (UTC) with a time
/// scale; an optional that is nil leaves the cell empty, so the row is skipped on that
/// channel, as a document's `null` is.
public protocol Plottable {
    /// The cell this value becomes; nil for none.
    var dataValue: DataValue? { get }
    /// The scale a channel of these values gets unless the chart sets one (time for
    /// dates); nil lets the chart decide from the cells, as a document does.
    static var preferredScale: ScaleType? { get }
}

extension Plottable {
    /// No preference: the chart decides from the cells.
    public static var preferredScale: ScaleType? { nil }
}

extension Double: Plottable {
    /// The number.
    public var dataValue: DataValue? { .number(self) }
}

extension Float: Plottable {
    /// The number, widened to Double.
    public var dataValue: DataValue? { .number(Double(self)) }
}

extension Int: Plottable {
    /// The number, as a Double (exact below 2^53).
    public var dataValue: DataValue? { .number(Double(self)) }
}

extension String: Plottable {
    /// The text: a category, a name, or an ISO 8601 date a time scale parses.
    public var dataValue: DataValue? { .string(self) }
}

extension Substring: Plottable {
    /// The text.
    public var dataValue: DataValue? { .string(String(self)) }
}

extension DataValue: Plottable {
    /// The cell itself (rows read from a CSV file or built by hand).
    public var dataValue: DataValue? { self }
}

extension Date: Plottable {
    /// Seconds since 1970-01-01 UTC, the unit of ChartReel's time scales.
    public var dataValue: DataValue? { .number(timeIntervalSince1970) }
    /// Dates are placed on a time scale with calendar ticks.
    public static var preferredScale: ScaleType? { .time }
}

extension CivilDate: Plottable {
    /// Seconds since 1970-01-01 UTC.
    public var dataValue: DataValue? { .number(seconds) }
    /// Dates are placed on a time scale with calendar ticks.
    public static var preferredScale: ScaleType? { .time }
}

extension Optional: Plottable where Wrapped: Plottable {
    /// The wrapped value's cell, or an empty cell for nil.
    public var dataValue: DataValue? { self.flatMap { $0.dataValue } }
    /// The wrapped type's preference.
    public static var preferredScale: ScaleType? { Wrapped.preferredScale }
}

/// One column a mark plots: a label and how to read it from a row, as in Swift Charts'
/// `.value("Day", \.day)`.
///
/// The label names the column in the chart's table, so two marks that plot the same
/// label read the same column, and the chart's x and y channels are named after the
/// labels its marks give them.
public struct PlottableValue<Row> {
    /// The column's name.
    public let label: String
    /// Reads the cell of one row.
    let cell: (Row) -> DataValue?
    /// The scale the value type asks for (time for dates).
    let preferredScale: ScaleType?
    /// The calendar unit of a date read with `.value(_:_:unit:)`: the value is the
    /// middle of its unit, and the chart's domain covers whole units.
    var unit: CalendarUnit? = nil

    /// A column read by `value`: a key path (`\.mg`) or a closure (`{ $0.mg / 1000 }`).
    public static func value<V: Plottable>(_ label: String, _ value: @escaping (Row) -> V) -> PlottableValue<Row> {
        PlottableValue(label: label, cell: { value($0).dataValue }, preferredScale: V.preferredScale)
    }

    /// A value given directly, the same for every row it is asked of: in
    /// `Chart(rows) { row in … }` each row's marks plot that row's values this way.
    public static func value<V: Plottable>(_ label: String, _ value: V) -> PlottableValue<Row> {
        let cell = value.dataValue
        return PlottableValue(label: label, cell: { _ in cell }, preferredScale: V.preferredScale)
    }
}

extension PlottableValue where Row == DataRow {
    /// The field `field` of rows read from a CSV file or a document's table.
    public static func value(_ label: String, field: String) -> PlottableValue<Row> {
        PlottableValue(label: label, cell: { $0[field] }, preferredScale: nil)
    }
}
