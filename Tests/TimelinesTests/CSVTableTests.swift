import XCTest
import Foundation
import Charts
@testable import Timelines

/// `CSVReader.typedTable` (byte ranges, typed in one pass) must give exactly what
/// `CSVReader.read` followed by `CSVReader.table` (the plain reference) gives: the same
/// rows, row locations, or the same error at the same place.
final class CSVTableTests: XCTestCase {
    enum Outcome: Equatable {
        case table(header: [String], rows: [DataRow], locations: [SourceLocation])
        case error(CSVError)
    }

    func reference(_ bytes: [UInt8], _ types: [String: CSVReader.ColumnType]) -> Outcome {
        do {
            let text = try CSVReader.read(bytes, file: "t.csv")
            let rows = try CSVReader.table(text, types: types, file: "t.csv", maxTextLength: 8)
            return .table(header: text.header, rows: rows, locations: text.locations.map { $0[0] })
        } catch {
            return .error(error)
        }
    }

    func flat(_ bytes: [UInt8], _ types: [String: CSVReader.ColumnType]) -> Outcome {
        do {
            let t = try CSVReader.typedTable(bytes, file: "t.csv", types: types, maxTextLength: 8)!
            return .table(header: t.header, rows: t.rows.rows, locations: t.rowLocations)
        } catch {
            return .error(error)
        }
    }

    func testTheFlatReaderAgreesWithTheReferenceOnEveryKindOfText() {
        // Short texts over an alphabet of every character the reader treats specially.
        let alphabet: [[UInt8]] = [",", "\"", "\n", "\r", "\r\n", "a", "1", "2.5", "-", " ", "é", "x,y\n", "\"\"",
                                   // Combining marks: they join the character before them (a quote too)
                                   // into one Character, which the readers must not see as anything else.
                                   "\u{301}", "\u{64C}"].map { Array($0.utf8) }
            + [[0xEF, 0xBB, 0xBF], [0xC3]]
        var state: UInt64 = 22
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33)
        }
        var compared = 0, tables = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = next() % 3 == 0 ? Array("a,b\n".utf8) : []
            for _ in 0..<(next() % 14) { bytes += alphabet[next() % alphabet.count] }
            for types in [[:], ["a": .number], ["b": .string, "a": .date(nil)]] as [[String: CSVReader.ColumnType]] {
                let r = reference(bytes, types)
                XCTAssertEqual(flat(bytes, types), r, "\(String(decoding: bytes, as: UTF8.self).debugDescription) \(types)")
                compared += 1
                if case .table = r { tables += 1 }
            }
        }
        XCTAssertGreaterThan(tables, 1_000, "too few texts were tables to compare")
        XCTAssertEqual(compared, 60_000)
    }

    /// The same agreement with semicolons, tabs and decimal commas: the delimiter splits
    /// fields in both readers, a comma is then text or a decimal comma.
    func testTheFlatReaderAgreesInEveryDialect() {
        let alphabet: [[UInt8]] = [",", ";", "\t", "|", "\"", "\n", "a", "1", "2,5", "1.234,5", "1.23", "-", " ", "e3", "x;y\n",
                                   "%", "$", " €"].map { Array($0.utf8) }
        var state: UInt64 = 7
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33)
        }
        let dialects = [CSVDialect(delimiter: .semicolon), CSVDialect(delimiter: .semicolon, decimalComma: true),
                        CSVDialect(delimiter: .tab, decimalComma: true), CSVDialect(delimiter: .bar)]
        var tables = 0
        for _ in 0..<8_000 {
            var bytes: [UInt8] = next() % 2 == 0 ? Array("a;b\n".utf8) : []
            for _ in 0..<(next() % 12) { bytes += alphabet[next() % alphabet.count] }
            let dialect = dialects[next() % dialects.count]
            for types in [[:], ["a": .number]] as [[String: CSVReader.ColumnType]] {
                let r: Outcome
                do {
                    let text = try CSVReader.read(bytes, file: "t.csv", dialect: dialect)
                    let rows = try CSVReader.table(text, types: types, file: "t.csv", maxTextLength: 8, dialect: dialect)
                    r = .table(header: text.header, rows: rows, locations: text.locations.map { $0[0] })
                } catch { r = .error(error) }
                let f: Outcome
                do {
                    let t = try CSVReader.typedTable(bytes, file: "t.csv", types: types, maxTextLength: 8, dialect: dialect)!
                    f = .table(header: t.header, rows: t.rows.rows, locations: t.rowLocations)
                } catch { f = .error(error) }
                XCTAssertEqual(f, r, "\(String(decoding: bytes, as: UTF8.self).debugDescription) \(dialect) \(types)")
                if case .table = r { tables += 1 }
            }
        }
        XCTAssertGreaterThan(tables, 1_000, "too few texts were tables to compare")
    }

    /// A doubled quote whose second quote carries a combining mark is still one quote
    /// and the mark (the csv fuzz target found the flat reader left both quotes).
    func testADoubledQuoteBeforeACombiningMarkIsOneQuote() throws {
        let bytes = Array("name\n\"a\"\"\u{64C}b\"\n\"\"\"\u{301}\"\n".utf8)
        let expected: [DataRow] = [["name": .string("a\"\u{64C}b")], ["name": .string("\"\u{301}")]]
        guard case .table(_, let rows, _) = flat(bytes, [:]) else { return XCTFail("not a table") }
        XCTAssertEqual(rows, expected)
        XCTAssertEqual(reference(bytes, [:]), flat(bytes, [:]))
    }

    func testTheFlatReaderAgreesOnTheProjectsData() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var files: [URL] = []
        for dir in ["timelines/data", "Tests/Fixtures/bad"] {
            let d = root.appendingPathComponent(dir)
            files += try FileManager.default.contentsOfDirectory(atPath: d.path).filter { $0.hasSuffix(".csv") }.map { d.appendingPathComponent($0) }
        }
        XCTAssertGreaterThan(files.count, 5)
        for f in files where (try? f.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let bytes = [UInt8](try Data(contentsOf: f))
            XCTAssertEqual(flat(bytes, [:]), reference(bytes, [:]), f.lastPathComponent)
        }
    }
}
