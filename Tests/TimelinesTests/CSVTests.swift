import XCTest
import Charts
@testable import Timelines

final class CSVTests: XCTestCase {
    func parse(_ s: String) throws -> (header: [String], rows: [[String?]]) { try CSVReader.parse(Array(s.utf8), file: "t.csv") }

    func testQuotesCommasDoubledQuotesEmptyCellsCRLFAndBOM() throws {
        let text = "\u{FEFF}name,note,count\r\n\"Smith, J\",\"said \"\"hi\"\"\",3\r\nÉmile,,\r\n\"multi\nline\",x,4\r\n"
        let t = try parse(text)
        XCTAssertEqual(t.header, ["name", "note", "count"])
        XCTAssertEqual(t.rows.count, 3)
        XCTAssertEqual(t.rows[0], ["Smith, J", "said \"hi\"", "3"])
        XCTAssertEqual(t.rows[1], ["Émile", nil, nil])
        XCTAssertEqual(t.rows[2][0], "multi\nline")
        let table = try CSVReader.table(header: t.header, rows: t.rows, types: [:], file: "t.csv")
        XCTAssertEqual(table[0]["count"], .number(3))
        XCTAssertNil(table[1]["count"])
        XCTAssertEqual(table[1]["name"], .string("Émile"))
    }

    func testRaggedRowNamesTheRow() {
        XCTAssertThrowsError(try parse("a,b\n1,2\n3\n4,5\n")) { e in
            XCTAssertEqual("\(e)", "t.csv:3: expected 2 fields as in the header, found 1")
        }
    }

    func testBadNumberAndBadDateNameRowAndColumn() throws {
        let t = try parse("x,y\n1,2\n2,zwei\n")
        XCTAssertThrowsError(try CSVReader.table(header: t.header, rows: t.rows, types: ["y": .number], file: "t.csv")) { e in
            XCTAssertEqual("\(e)", "t.csv:3:2: expected a number in column \"y\", found \"zwei\"")
        }
        let d = try parse("when,v\nMar 5 2024,1\nMarch 40 2024,2\n")
        XCTAssertThrowsError(try CSVReader.table(header: d.header, rows: d.rows, types: ["when": .date("MMM d yyyy")], file: "t.csv")) { e in
            XCTAssertTrue("\(e)".hasPrefix("t.csv:3:1: expected a date like \"MMM d yyyy\""), "\(e)")
        }
        let ok = try CSVReader.table(header: d.header, rows: [d.rows[0]], types: ["when": .date("MMM d yyyy")], file: "t.csv")
        XCTAssertEqual(ok[0]["when"], .number(CivilDate.parseISO("2024-03-05")!))
    }

    func testUnterminatedQuoteAndEmptyFile() {
        XCTAssertThrowsError(try parse("a,b\n\"oops,1\n"))
        XCTAssertThrowsError(try parse(""))
        XCTAssertThrowsError(try parse("a,b\n"))
    }

    func testWideDataFoldsIntoLongRowsAndDocumentsReadCSV() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "year,apples,pears\r\n2020,3,4\r\n2021,5,6\r\n".write(to: dir.appendingPathComponent("wide.csv"), atomically: true, encoding: .utf8)
        let doc = """
        { "data": { "fruit": { "file": "wide.csv", "fold": { "columns": ["apples", "pears"], "as": ["kind", "n"] } } },
          "charts": [ { "data": "fruit", "x": { "field": "year" }, "y": { "field": "n" },
                        "marks": [ { "type": "line", "series": "kind" } ] } ] }
        """
        let path = dir.appendingPathComponent("doc.json").path
        try doc.write(toFile: path, atomically: true, encoding: .utf8)
        let scene = try TimelineDecoder.load(path: path)
        XCTAssertNotNil(scene.node("line[apples]")); XCTAssertNotNil(scene.node("line[pears]"))
        // A bad cell in the CSV is reported against the CSV file with row and column.
        try "year,apples,pears\n2020,3,x\n".write(to: dir.appendingPathComponent("wide.csv"), atomically: true, encoding: .utf8)
        let cfg = """
        { "data": { "fruit": { "file": "wide.csv", "columns": { "pears": "number" } } },
          "charts": [ { "data": "fruit", "y": { "field": "pears" }, "x": { "field": "year" } } ] }
        """
        try cfg.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try TimelineDecoder.load(path: path)) { e in
            XCTAssertTrue("\(e)".contains("wide.csv:2:3"), "\(e)")
            XCTAssertTrue("\(e)".contains("expected a number in column \"pears\""), "\(e)")
        }
    }
}
