import Foundation
import Charts
import Timelines

extension CSVReader {
    /// The rows of the CSV file at `url`, typed as a document's `"columns"` types them
    /// (other columns: numbers when every cell is one, else text), for charts that plot
    /// them with `.value("Year", field: "year")`. Errors name the file, row and column.
    public static func rows(contentsOf url: URL, columns: [String: ColumnType] = [:]) throws -> [DataRow] {
        let data = try Data(contentsOf: url)
        let parsed = try read([UInt8](data), file: url.path)
        for name in columns.keys where !parsed.header.contains(name) {
            throw ChartReelError.invalidData(path: url.path, reason: "no column \"\(name)\"; the columns are "
                                             + parsed.header.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        return try table(parsed, types: columns, file: url.path)
    }
}
