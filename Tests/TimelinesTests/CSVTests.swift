import XCTest
import Charts
@testable import Timelines

final class CSVTests: XCTestCase {
    func read(_ s: String) throws(CSVError) -> CSVText { try CSVReader.read(Array(s.utf8), file: "t.csv") }

    /// The error `body` throws, as printed.
    func message(_ body: () throws -> Void) -> String {
        do { try body(); return "" } catch { return "\(error)" }
    }

    func testQuotesCommasDoubledQuotesEmptyCellsCRLFAndBOM() throws {
        let text = "\u{FEFF}name,note,count\r\n\"Smith, J\",\"said \"\"hi\"\"\",3\r\nÉmile,,\r\n\"multi\nline\",x,4\r\n"
        let t = try read(text)
        XCTAssertEqual(t.header, ["name", "note", "count"])
        XCTAssertEqual(t.rows.count, 3)
        XCTAssertEqual(t.rows[0], ["Smith, J", "said \"hi\"", "3"])
        XCTAssertEqual(t.rows[1], ["Émile", nil, nil])
        XCTAssertEqual(t.rows[2][0], "multi\nline")
        // Cells are located by line and column (the BOM does not count; "Émile" is 5 columns).
        XCTAssertEqual(t.locations[0].map(\.description), ["2:1", "2:12", "2:26"])
        XCTAssertEqual(t.locations[1].map(\.description), ["3:1", "3:7", "3:8"])
        XCTAssertEqual(t.locations[2].map(\.description), ["4:1", "5:7", "5:9"])
        let table = try CSVReader.table(t, types: [:], file: "t.csv")
        XCTAssertEqual(table[0]["count"], DataValue.number(3))
        XCTAssertNil(table[1]["count"])
        XCTAssertEqual(table[1]["name"], DataValue.string("Émile"))
    }

    func testRaggedRowsPointAtTheExtraFieldOrTheRow() {
        XCTAssertEqual(message { _ = try read("a,b\n1,2\n3\n4,5\n") }, "t.csv:3:1: expected 2 fields as in the header, found 1")
        XCTAssertEqual(message { _ = try read("a,b\n1,2\n3,4,55\n") }, "t.csv:3:5: expected 2 fields as in the header, found 3")
    }

    func testBadNumberAndBadDateNameLineAndColumn() throws {
        let t = try read("x,y\n1,2\n2,zwei\n")
        XCTAssertEqual(message { _ = try CSVReader.table(t, types: ["y": .number], file: "t.csv") },
                       "t.csv:3:3: expected a number in column \"y\", found \"zwei\"")
        // nan, inf and hexadecimal are text to a spreadsheet, so they are not numbers here.
        let odd = try read("x,y\n1,nan\n2,inf\n3,0x10\n")
        XCTAssertEqual(message { _ = try CSVReader.table(odd, types: ["y": .number], file: "t.csv") },
                       "t.csv:2:3: expected a number in column \"y\", found \"nan\"")
        XCTAssertEqual(try CSVReader.table(odd, types: [:], file: "t.csv")[2]["y"], DataValue.string("0x10"))
        let d = try read("when,v\nMar 5 2024,1\nMarch 40 2024,2\n")
        XCTAssertEqual(message { _ = try CSVReader.table(d, types: ["when": .date("MMM d yyyy")], file: "t.csv") },
                       "t.csv:3:1: expected a date like \"MMM d yyyy\" in column \"when\", found \"March 40 2024\"")
        var first = d
        first.rows = [d.rows[0]]; first.locations = [d.locations[0]]
        let ok = try CSVReader.table(first, types: ["when": .date("MMM d yyyy")], file: "t.csv")
        XCTAssertEqual(ok[0]["when"], DataValue.number(CivilDate.parseISO("2024-03-05")!))
    }

    func testQuotesEmptyFilesDuplicateColumnsAndInvalidUTF8() {
        XCTAssertEqual(message { _ = try read("a,b\n\"oops,1\n") },
                       "t.csv:2:1: unterminated quoted field: no closing quote before the end of the file")
        XCTAssertEqual(message { _ = try read("a,b\n1,2\"3\n") },
                       "t.csv:2:4: a quote inside an unquoted field; quote the whole field and double the quote (\"\")")
        XCTAssertEqual(message { _ = try read("a,b\n\"1\"x,2\n") },
                       "t.csv:2:4: text after a closing quote; quote the whole field and double any quote inside it (\"\")")
        XCTAssertEqual(message { _ = try read("") }, "t.csv:1:1: the file is empty; expected a header row such as \"x,y\"")
        XCTAssertEqual(message { _ = try read("a,b\n") }, "t.csv:2:1: no data rows after the header")
        XCTAssertEqual(message { _ = try read("a,b,a\n1,2,3\n") }, "t.csv:1:5: duplicate column name \"a\" (also column 1)")
        XCTAssertEqual(message { _ = try CSVReader.read(Array("a,b\n1,é\n".utf8) + [0xC3, 0x28, 0x0A], file: "t.csv") },
                       "t.csv:3:1: invalid UTF-8 (byte 0xC3); save the file as UTF-8")
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
            XCTAssertTrue("\(e)".contains("wide.csv:2:8: data.fruit: expected a number"), "\(e)")
            XCTAssertTrue("\(e)".contains("expected a number in column \"pears\""), "\(e)")
        }
    }

    /// Numbers with a decimal comma, dots grouping thousands; anything else is not one.
    func testDecimalCommaNumbers() {
        let good: [(String, Double)] = [("1,5", 1.5), ("1.234,5", 1234.5), ("-12.000", -12000), ("1.234.567", 1234567),
                                        ("0,25", 0.25), ("+3", 3), ("1,5E3", 1500), ("12", 12), (",5", 0.5)]
        for (text, value) in good { XCTAssertEqual(CSVReader.number(text, decimalComma: true), value, text) }
        for text in ["1.23", "1,2,3", "1.2345", "1,", "1,x", "nan", "1..234", ".234", "1 234", "1,5.3", "12.34,5"] {
            XCTAssertNil(CSVReader.number(text, decimalComma: true), text)
        }
        XCTAssertNil(CSVReader.number("1,5", decimalComma: false))
        XCTAssertEqual(CSVReader.number("1.5", decimalComma: false), 1.5)
        // With a decimal point, commas may group thousands ("1,234,567.5" as a US spreadsheet quotes it).
        let grouped: [(String, Double)] = [("1,234", 1234), ("1,234,567.5", 1234567.5), ("-12,000", -12000), ("999", 999), ("1.5e3", 1500)]
        for (text, value) in grouped { XCTAssertEqual(CSVReader.number(text, decimalComma: false), value, text) }
        for text in ["1,23", "1,2345", ",123", "1,,234", "1,234.", "1,234.5.6", "12345,678", "1 234"] {
            XCTAssertNil(CSVReader.number(text, decimalComma: false), text)
        }
    }

    /// A column of quoted grouped numbers is numbers; a column mixing them with text stays text.
    func testGroupedThousandsInQuotedCellsAreNumbers() throws {
        let rows = try CSVReader.table(read("city,people,note\nOslo,\"1,234,567\",\"1,2\"\nLima,\"10,000.5\",x\n"), types: [:], file: "t.csv")
        XCTAssertEqual(rows.map { $0["people"] }, [.number(1_234_567), .number(10_000.5)])
        XCTAssertEqual(rows.map { $0["note"] }, [.string("1,2"), .string("x")])
    }

    /// Amounts with a currency sign read as the amount; per cents as the fraction they
    /// stand for, in a column where every cell has the sign.
    func testCurrencyAndPerCentCellsAreNumbers() throws {
        let point: [(String, Double)] = [("$1,234.50", 1234.5), ("-$5", -5), ("$-5", -5), ("+$5", 5), ("€ 12", 12), ("£0.5", 0.5),
                                         ("12 ¥", 12), ("12.5%", 0.125), ("-3%", -0.03), ("100 %", 1), ("1,000%", 10)]
        for (text, value) in point { XCTAssertEqual(CSVReader.number(text, .standard) ?? .nan, value, accuracy: 1e-12, text) }
        let comma = CSVDialect(delimiter: .semicolon, decimalComma: true)
        for (text, value) in [("1.234,50 €", 1234.5), ("12,5 %", 0.125), ("12,5\u{202F}%", 0.125), ("€1,5", 1.5)] {
            XCTAssertEqual(CSVReader.number(text, comma) ?? .nan, value, accuracy: 1e-12, text)
        }
        for text in ["%", "$", "$ ", "%5", "5%%", "$5%", "5$$", "$$5", "- $5", "$ -", "US$5", "5 %x", " %", "$nan"] {
            XCTAssertNil(CSVReader.number(text, .standard), text)
        }
        let rows = try CSVReader.table(read("team,share,revenue,mixed\nRed,12.5%,\"$1,200\",5%\nBlue,30%,$3.4,7\n"), types: [:], file: "t.csv")
        XCTAssertEqual(rows.map { $0["share"] }, [.number(0.125), .number(0.3)])
        XCTAssertEqual(rows.map { $0["revenue"] }, [.number(1200), .number(3.4)])
        XCTAssertEqual(rows.map { $0["mixed"] }, [.string("5%"), .string("7")], "per cents beside bare numbers stay text")
        let flat = try XCTUnwrap(CSVReader.typedTable(Array("team,share,mixed\nRed,12.5%,5%\nBlue,30%,7\n".utf8), file: "t.csv", types: [:]))
        XCTAssertEqual(flat.rows.rows.map { $0["share"] }, [.number(0.125), .number(0.3)])
        XCTAssertEqual(flat.rows.rows.map { $0["mixed"] }, [.string("5%"), .string("7")])
    }

    /// ISO 8601's month alone ("2024-03", monthly data) is the month's first day.
    func testAMonthAloneIsADate() {
        XCTAssertEqual(CivilDate.parseISO("2024-03"), CivilDate.parseISO("2024-03-01"))
        XCTAssertEqual(CivilDate.parseISO("1999-12"), CivilDate(year: 1999, month: 12, day: 1).seconds)
        for text in ["2024-13", "2024-00", "2024-3", "2024-03-", "2024-03T10:00", "202403", "2024-03Z"] {
            XCTAssertNil(CivilDate.parseISO(text), text)
        }
    }

    /// The delimiter a file uses: a tab for .tsv, else the first line's comma, else its
    /// semicolons, tabs or bars (quoted text does not count).
    func testTheDelimiterIsFoundFromTheFile() {
        func d(_ s: String, _ path: String = "t.csv") -> UInt8 { CSVDialect.delimiter(of: Array(s.utf8), path: path).rawValue }
        XCTAssertEqual(d("a,b\n1,2\n"), 0x2C)
        XCTAssertEqual(d("a;b\n1,5;2\n"), 0x3B)
        XCTAssertEqual(d("a\tb\n1\t2\n"), 0x09)
        XCTAssertEqual(d("a|b\n"), 0x7C)
        XCTAssertEqual(d("\"x,y\";b;c\n"), 0x3B, "a comma inside quotes is text")
        XCTAssertEqual(d("a;b,c\n"), 0x2C, "a comma in the header wins")
        XCTAssertEqual(d("a;b\tc;d\n"), 0x3B)
        XCTAssertEqual(d("single\n1\n"), 0x2C)
        XCTAssertEqual(d("a,b\n", "T.TSV"), 0x09)
        XCTAssertEqual(try CSVReader.read(Array("a;b\n1;2\n".utf8), file: "t.csv", dialect: CSVDialect(delimiter: .semicolon)).rows, [["1", "2"]])
        XCTAssertThrowsError(try CSVReader.read(Array("a\n1,2\n".utf8), file: "t.csv")) { error in
            XCTAssertTrue("\(error)".contains("has no comma, so this may not be a table with commas between its fields: give the table \"delimiter\""), "\(error)")
        }
    }
}
