import Foundation
import Charts

/// How a value becomes text, in the vocabulary of Foundation's format styles as Swift
/// Charts takes them: `.dateTime.month(.abbreviated)`, `.number.precision(.fractionLength(1))`,
/// `.currency(code: "USD")`, `.percent`.
///
/// These are ChartReel's own values, not Foundation's `FormatStyle`s: they map onto the
/// label formats documents use (`NumberFormat`, `DateFormat`), which write English and
/// UTC on every machine so that frames do not depend on the locale or time zone.
public struct ValueFormat: Hashable, Sendable {
    /// Numbers.
    var number: NumberFormat?
    /// Dates: the fields asked for, written in a fixed order.
    var date: DateFields?

    /// The date fields of `.dateTime.…` in the order `Date.FormatStyle` writes them.
    struct DateFields: Hashable, Sendable {
        var weekday: String?
        var month: String?
        var day: String?
        var year: String?
        var hour: Bool = false
        var minute: Bool = false

        /// The pattern: weekday, month and day, year, time ("EEE, MMM d, yyyy", "MMM yyyy").
        var pattern: String {
            var date = [month, day].compactMap { $0 }.joined(separator: " ")
            if let y = year { date += date.isEmpty ? y : (day != nil ? ", " : " ") + y }
            if let w = weekday { date = date.isEmpty ? w : w + ", " + date }
            var time = ""
            if hour { time = minute ? "h:mm a" : "h a" } else if minute { time = "mm" }
            if date.isEmpty && time.isEmpty { return "M/d/yyyy, h:mm a" }
            return [date, time].filter { !$0.isEmpty }.joined(separator: ", ")
        }
    }

    // MARK: Numbers

    /// Numbers with grouping and up to three fraction digits (Foundation's `.number`).
    public static var number: ValueFormat { ValueFormat(number: NumberFormat(maxFractionDigits: 3, grouping: true)) }

    /// Fractions as percentages: 0.25 is "25%" (Foundation's `.percent` on a floating-point value).
    public static var percent: ValueFormat { ValueFormat(number: NumberFormat(notation: .percent, maxFractionDigits: 1, grouping: true)) }

    /// Money in a currency: "$1,234.50" for USD. Symbols for USD, EUR, GBP, JPY, CNY,
    /// INR, KRW, CHF and CAD; other codes are written before the number.
    public static func currency(code: String) -> ValueFormat {
        let symbols = ["USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CNY": "CN¥", "INR": "₹", "KRW": "₩", "CHF": "CHF ", "CAD": "CA$"]
        let digits = ["JPY", "KRW"].contains(code.uppercased()) ? 0 : 2
        return ValueFormat(number: NumberFormat(minFractionDigits: digits, maxFractionDigits: digits, grouping: true,
                                                prefix: symbols[code.uppercased()] ?? code.uppercased() + " "))
    }

    /// How many digits a number keeps (Foundation's `NumberFormatStyleConfiguration.Precision`).
    public struct Precision: Hashable, Sendable {
        var min: Int, max: Int
        /// Exactly `n` digits after the point.
        public static func fractionLength(_ n: Int) -> Precision { Precision(min: n, max: n) }
        /// Between `range`'s bounds of digits after the point.
        public static func fractionLength(_ range: ClosedRange<Int>) -> Precision { Precision(min: range.lowerBound, max: range.upperBound) }
    }

    /// Numbers with the given number of fraction digits.
    public func precision(_ p: Precision) -> ValueFormat {
        var f = self
        let n = number ?? NumberFormat()
        f.number = NumberFormat(notation: n.notation, minFractionDigits: p.min, maxFractionDigits: p.max, grouping: n.grouping,
                                groupSeparator: n.groupSeparator, prefix: n.prefix, suffix: n.suffix)
        return f
    }

    /// Number notations (Foundation's `.notation(.compactName)`).
    public enum Notation: Hashable, Sendable { case automatic, compactName }

    /// Numbers written as they are, or compactly ("1.2K").
    public func notation(_ n: Notation) -> ValueFormat {
        var f = self
        var num = number ?? NumberFormat()
        num.notation = n == .compactName ? .compact : .standard
        if n == .compactName { num.maxFractionDigits = min(num.maxFractionDigits, 1) }
        f.number = num
        return f
    }

    /// Whether thousands are separated (Foundation's `.grouping(.never)`).
    public enum Grouping: Hashable, Sendable { case automatic, never }

    /// Numbers with or without a thousands separator.
    public func grouping(_ g: Grouping) -> ValueFormat {
        var f = self
        var num = number ?? NumberFormat()
        num.grouping = g == .automatic
        f.number = num
        return f
    }

    // MARK: Dates

    /// Dates, field by field: `.dateTime.month().day()` (Foundation's `.dateTime`). With
    /// no field it writes date and time.
    public static var dateTime: ValueFormat { ValueFormat(date: DateFields()) }

    /// How a month is written.
    public enum MonthStyle: Hashable, Sendable { case abbreviated, wide, narrow, twoDigits, defaultDigits }
    /// How a weekday is written.
    public enum WeekdayStyle: Hashable, Sendable { case abbreviated, wide, narrow }
    /// How a day or a year is written.
    public enum DigitsStyle: Hashable, Sendable { case defaultDigits, twoDigits }

    private func editingDate(_ change: (inout DateFields) -> Void) -> ValueFormat {
        var f = self
        var d = date ?? DateFields()
        change(&d)
        f.date = d
        return f
    }

    /// The month: "Jan" (abbreviated), "January" (wide), "J" (narrow), "01", "1".
    public func month(_ style: MonthStyle = .abbreviated) -> ValueFormat {
        editingDate {
            switch style {
            case .abbreviated: $0.month = "MMM"
            case .wide: $0.month = "MMMM"
            case .narrow: $0.month = "MMMMM"
            case .twoDigits: $0.month = "MM"
            case .defaultDigits: $0.month = "M"
            }
        }
    }

    /// The day of the month.
    public func day(_ style: DigitsStyle = .defaultDigits) -> ValueFormat { editingDate { $0.day = style == .twoDigits ? "dd" : "d" } }

    /// The year.
    public func year(_ style: DigitsStyle = .defaultDigits) -> ValueFormat { editingDate { $0.year = style == .twoDigits ? "yy" : "yyyy" } }

    /// The weekday: "Mon" or "Monday".
    public func weekday(_ style: WeekdayStyle = .abbreviated) -> ValueFormat { editingDate { $0.weekday = style == .wide ? "EEEE" : "EEE" } }

    /// The hour ("5 PM").
    public func hour() -> ValueFormat { editingDate { $0.hour = true } }

    /// The minute.
    public func minute() -> ValueFormat { editingDate { $0.minute = true } }

    // MARK: Mapping

    /// The label format of an axis.
    var labelFormat: LabelFormat {
        if let d = date { return .date(DateFormat(d.pattern)) }
        return .number(number ?? NumberFormat())
    }

    /// A number as text.
    func text(_ v: Double) -> String {
        if let d = date { return DateFormat(d.pattern).format(v) }
        return (number ?? NumberFormat()).format(v)
    }
}

extension String.StringInterpolation {
    /// A number written in a format inside a string, as SwiftUI's `Text` takes it:
    /// `Text("Average: \(average, format: .number)")`.
    public mutating func appendInterpolation<V: BinaryFloatingPoint>(_ value: V, format: ValueFormat) {
        appendLiteral(format.text(Double(value)))
    }

    /// An integer written in a format inside a string.
    public mutating func appendInterpolation<V: BinaryInteger>(_ value: V, format: ValueFormat) {
        appendLiteral(format.text(Double(value)))
    }

    /// A date written in a format inside a string: `"\(day, format: .dateTime.weekday())"`.
    public mutating func appendInterpolation(_ value: Date, format: ValueFormat) {
        appendLiteral(format.text(value.timeIntervalSince1970))
    }
}
