/// One cell of a data table.
public enum DataValue: Hashable, Sendable {
    /// A number.
    case number(Double)
    /// Text: a category, a name, or a date still to be parsed.
    case string(String)

    /// The number, if the cell holds one.
    public var number: Double? { if case .number(let v) = self { return v }; return nil }
    /// The text, if the cell holds text.
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    /// The cell as a key: a series or category name, a timeline's key. Text as it is;
    /// numbers with up to six fraction digits, so 2 and 2.0 are one key.
    public var keyText: String {
        switch self {
        case .string(let s): return s
        case .number(let n): return NumberFormat(maxFractionDigits: 6).format(n)
        }
    }
}

/// A row: field name → value.
public typealias DataRow = [String: DataValue]

/// Cells looked up by field name: a row written as a dictionary, or a row of a table.
public protocol FieldLookup {
    /// The cell of `field`, nil when missing.
    subscript(field: String) -> DataValue? { get }
}

extension Dictionary: FieldLookup where Key == String, Value == DataValue {}

/// One (x, y) observation in data space; x is a number, a date in seconds, or a category index.
public struct DataPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double
    /// Creates a data point.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}
