import Charts

extension Array where Element == DataRow {
    /// The rows after `steps`, the transforms a document writes in `"transform"`
    /// (filter, aggregate, timeUnit, bin, sort, top, window, calculate), run in order:
    ///
    /// ```swift
    /// let days = try weather.transformed([
    ///     .aggregate([AggregateField(.count, as: "days")], groupBy: ["weather"]),
    ///     .sort([SortKey("days", descending: true)]),
    /// ])
    /// ```
    ///
    /// `dates` names fields holding dates (seconds) with the pattern their text was
    /// written in, for filters that compare them with dates written that way.
    /// - Throws: `TransformError` naming the step, the field and the row, for text where
    ///   numbers are needed or a cell that is not a date.
    public func transformed(_ steps: [DataTransform], dates: [String: DateFormat?] = [:]) throws -> [DataRow] {
        try DataTransform.apply(steps, to: self, dates: dates).rows.rows
    }
}
