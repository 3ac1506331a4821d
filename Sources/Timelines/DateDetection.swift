import Charts

/// Finds columns of dates written in a common form that no `"columns"` type names, so a
/// CSV of "Jan 1 2000" plots on a time axis instead of becoming hundreds of categories.
///
/// A column is dates when every non-empty cell reads in one of the forms below. Forms
/// with the month and day both as numbers (`01/31/2012`) are left as text with a warning
/// naming the pattern to give: 03/04/2012 is March 4 in one country and April 3 in
/// another, and guessing from the cells would silently swap them for some files.
/// ISO 8601 columns stay text; charts and transforms read ISO text as dates already.
enum DateDetection {
    /// The forms read without being told, in the order they are tried.
    static let patterns = ["MMM d yyyy", "MMM d, yyyy", "MMMM d yyyy", "MMMM d, yyyy", "d MMM yyyy", "d MMMM yyyy",
                           "yyyy/MM/dd", "yyyy/M/d", "MMM yyyy", "MMMM yyyy"]
    /// Forms with the month and day both as numbers.
    static let ambiguousPatterns = ["MM/dd/yyyy", "dd/MM/yyyy", "M/d/yyyy", "d/M/yyyy"]

    enum Result: Equatable {
        case none
        case dates(String)
        /// One cell, and the patterns that read every cell (those that fit first).
        case ambiguous(example: String, patterns: [String])
    }

    /// What the cells of one column are (nil cells are missing values).
    static func detect<C: Collection>(_ cells: C) -> Result where C.Element == String? {
        guard let first = cells.lazy.compactMap({ $0 }).first(where: { !$0.isEmpty }) else { return .none }
        let text = CSVReader.trim(first)
        // Cheap refusals first: a date in these forms has a letter or a slash and a digit.
        guard text.count <= 40, text.contains(where: { $0.isNumber }),
              text.contains(where: { $0.isLetter || $0 == "/" }), CSVReader.number(text) == nil else { return .none }
        func all(_ p: DateFormat) -> Bool {
            cells.allSatisfy { cell in
                guard let cell else { return true }
                let t = CSVReader.trim(cell)
                return t.isEmpty || p.parse(t) != nil
            }
        }
        for p in patterns where DateFormat(p).parse(text) != nil {
            if all(DateFormat(p)) { return .dates(p) }
        }
        let fitting = ambiguousPatterns.filter { DateFormat($0).parse(text) != nil && all(DateFormat($0)) }
        if !fitting.isEmpty { return .ambiguous(example: text, patterns: fitting) }
        if ambiguousPatterns.contains(where: { DateFormat($0).parse(text) != nil }) {
            return .ambiguous(example: text, patterns: [ambiguousPatterns[0]])
        }
        return .none
    }
}
