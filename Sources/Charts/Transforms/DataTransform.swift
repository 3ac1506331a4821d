/// One step of a table's (or a chart's) transform pipeline, applied to its rows in order
/// before scales are resolved, as Vega-Lite's `transform` array is: `filter`, `aggregate`,
/// `timeUnit`, `bin`, `sort`, `top`, `window` and `calculate`.
///
/// Transforms are plain data; `DataTransform.apply(_:to:dates:)` runs a pipeline. Fields
/// a step reads must exist (the document decoder checks that where each is named); what
/// only the rows can tell (a text cell summed, a date that is not one) throws a
/// `TransformError` naming the step, the field and the row.
public enum DataTransform: Sendable, Hashable {
    /// Keeps the rows the predicate holds for.
    case filter(FilterPredicate)
    /// One row per group of `groupBy` values with the summaries (all rows as one group
    /// when `groupBy` is empty).
    case aggregate([AggregateField], groupBy: [String])
    /// A date field truncated to the start of its year, quarter, month, week or day.
    case timeUnit(TimeUnit, field: String, as: String)
    /// A number field put into bins of a nice step: the bin's start in `as`, its end in `end`.
    case bin(BinOptions, field: String, as: String, end: String?)
    /// The rows in the order of the keys (stable: ties keep their order).
    case sort([SortKey])
    /// The first `count` rows of each group of `groupBy` values in the order of `sort`.
    case top(Int, sort: [SortKey], groupBy: [String])
    /// Fields computed over the rows of each group in the order of `sort`; the rows keep
    /// their order.
    case window([WindowField], sort: [SortKey], groupBy: [String])
    /// A new field from an arithmetic expression over a row's fields.
    case calculate(FieldExpression, as: String)

    /// The step's name as documents write it (`"filter"`, `"aggregate"`…).
    public var name: String {
        switch self {
        case .filter: return "filter"
        case .aggregate: return "aggregate"
        case .timeUnit: return "timeUnit"
        case .bin: return "bin"
        case .sort: return "sort"
        case .top: return "top"
        case .window: return "window"
        case .calculate: return "calculate"
        }
    }
}

/// A test on a row, for `filter`.
public indirect enum FilterPredicate: Sendable, Hashable {
    /// The field equals the value. A date field compares with a date written in the
    /// column's own pattern or in ISO 8601.
    case equals(field: String, value: DataValue)
    /// The field equals one of the values.
    case oneOf(field: String, values: [DataValue])
    /// The field lies within the bounds (either may be absent); numbers and dates compare
    /// as numbers, text compares by Unicode scalars.
    case range(field: String, lower: RangeBound?, upper: RangeBound?)
    /// The field has a value: a number (finite, as every number read is), a date or text
    /// (Vega-Lite's `valid`): `filter` with it drops rows with empty cells.
    case valid(field: String)
    /// The predicate does not hold.
    case not(FilterPredicate)
    /// Every predicate holds.
    case all([FilterPredicate])

    /// The fields the predicate reads.
    public var fields: [String] {
        switch self {
        case .equals(let f, _), .oneOf(let f, _), .range(let f, _, _), .valid(let f): return [f]
        case .not(let p): return p.fields
        case .all(let ps): return ps.flatMap(\.fields)
        }
    }
}

/// One end of a `range` filter.
public struct RangeBound: Sendable, Hashable {
    /// The bound: a number, a date (text in the column's pattern or ISO 8601) or text.
    public var value: DataValue
    /// Whether the bound itself passes (`>=`, `<=`, `between`) or not (`>`, `<`).
    public var inclusive: Bool
    /// Creates a bound.
    public init(_ value: DataValue, inclusive: Bool) { self.value = value; self.inclusive = inclusive }
}

/// A summary of a group, for `aggregate`.
public struct AggregateField: Sendable, Hashable {
    /// The summaries.
    public enum Op: String, Sendable, Hashable, CaseIterable {
        /// The number of rows.
        case count
        /// The total of the numbers.
        case sum
        /// The mean of the numbers.
        case mean
        /// The middle number (the mean of the two middle ones for an even count).
        case median
        /// The smallest number (or date).
        case min
        /// The largest number (or date).
        case max
        /// The number of distinct values, text or numbers.
        case distinct
    }
    /// The summary.
    public var op: Op
    /// The field summarised; nil for `count`.
    public var field: String?
    /// The output field.
    public var name: String
    /// Creates a summary.
    public init(_ op: Op, field: String? = nil, as name: String) { self.op = op; self.field = field; self.name = name }
}

/// Calendar units for `timeUnit` (UTC; weeks start on Sunday, as the axis ticks do).
public enum TimeUnit: String, Sendable, Hashable, CaseIterable {
    case year, quarter, month, week, day
}

/// How `bin` chooses its bins.
public struct BinOptions: Sendable, Hashable {
    /// A fixed bin width; when nil a nice step (1, 2 or 5 × 10ⁿ) giving at most `maxBins` bins.
    public var step: Double?
    /// The most bins a nice step may give.
    public var maxBins: Int
    /// Creates bin options.
    public init(step: Double? = nil, maxBins: Int = 10) { self.step = step; self.maxBins = maxBins }
}

/// A sort key: a field and a direction.
public struct SortKey: Sendable, Hashable {
    /// The field.
    public var field: String
    /// Largest first when true.
    public var descending: Bool
    /// Creates a key.
    public init(_ field: String, descending: Bool = false) { self.field = field; self.descending = descending }
}

/// A field computed over a window of rows, for `window`.
public struct WindowField: Sendable, Hashable {
    /// The computations.
    public enum Op: String, Sendable, Hashable, CaseIterable {
        /// 1 for the first row of the group in sort order; ties (equal sort keys) share a
        /// rank and the next rank skips (1, 2, 2, 4).
        case rank
        /// 1, 2, 3… in sort order.
        case rowNumber
        /// The running total of the field up to and including the row.
        case cumulativeSum
        /// The mean of the field's numbers over the frame of rows around the row.
        case movingAverage
    }
    /// The computation.
    public var op: Op
    /// The field read (`cumulativeSum`, `movingAverage`).
    public var field: String?
    /// The output field.
    public var name: String
    /// The rows a moving average covers, relative to the row: `[-6, 0]` is the row and the
    /// six before it (within the group).
    public var frame: (before: Int, after: Int)

    /// Creates a window field.
    public init(_ op: Op, field: String? = nil, as name: String, frame: (before: Int, after: Int) = (-2, 0)) {
        self.op = op; self.field = field; self.name = name; self.frame = frame
    }

    public static func == (a: WindowField, b: WindowField) -> Bool {
        a.op == b.op && a.field == b.field && a.name == b.name && a.frame == b.frame
    }
    public func hash(into h: inout Hasher) { h.combine(op); h.combine(field); h.combine(name); h.combine(frame.before); h.combine(frame.after) }
}

/// A problem only the rows reveal: a text cell where a number is summed, a cell that is
/// not a date under `timeUnit`.
public struct TransformError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step's position in the pipeline.
    public var step: Int
    /// The field at fault, when one is.
    public var field: String?
    /// The input row of the whole pipeline the problem was found in, when one is.
    public var row: Int?
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(step: Int, field: String?, row: Int?, message: String) {
        self.step = step; self.field = field; self.row = row; self.message = message
    }

    public var description: String { "transform[\(step)]: \(message)" }
}
