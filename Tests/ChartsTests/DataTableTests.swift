import XCTest
import TestSupport
@testable import Charts

/// The columnar table: what goes in as rows comes out as the same rows, each column is
/// stored in the smallest kind that holds its cells, and copies do not see each other's
/// changes.
final class DataTableTests: XCTestCase {
    func kind(_ c: DataColumn?) -> String {
        switch c?.storage {
        case .numbers?: return "numbers"
        case .texts?: return "texts"
        case .mixed?: return "mixed"
        case nil: return "none"
        }
    }

    func testRowsRoundTripAndColumnsTakeTheSmallestKind() {
        let rows: [DataRow] = [
            ["x": .number(1), "name": .string("a"), "mix": .number(3)],
            ["x": .number(-0.5), "name": .string("b"), "mix": .string("t")],
            ["name": .string("a")],
            ["x": .number(2), "mix": .number(4)],
        ]
        let t = DataTable(rows: rows)
        XCTAssertEqual(t.count, 4)
        XCTAssertEqual(t.fields, ["mix", "name", "x"])
        XCTAssertEqual(t.rows, rows)
        XCTAssertEqual(kind(t.column("x")), "numbers")
        XCTAssertEqual(kind(t.column("name")), "texts")
        XCTAssertEqual(kind(t.column("mix")), "mixed")
        XCTAssertNil(t[2]["x"], "a missing number reads as missing")
        XCTAssertNil(t[3]["name"])
        XCTAssertEqual(t[1]["x"], .number(-0.5))
        XCTAssertEqual(t.column("x")?.number(at: 3), 2)
        XCTAssertNil(t.column("name")?.number(at: 0))
        // Text is stored once per distinct value.
        if case .texts(let codes, let values)? = t.column("name")?.storage {
            XCTAssertEqual(values, ["a", "b"])
            XCTAssertEqual(codes[0], codes[2])
            XCTAssertEqual(codes[3], DataColumn.missingCode)
        } else { XCTFail("name is not stored as text codes") }
    }

    func testNaNIsAValueNotAMissingCell() {
        let t = DataTable(rows: [["v": .number(.nan)], [:], ["v": .number(.infinity)]])
        XCTAssertTrue(t[0]["v"]?.number?.isNaN ?? false, "a NaN stays a number")
        XCTAssertNil(t[1]["v"])
        XCTAssertEqual(t[2]["v"], .number(.infinity))
        XCTAssertEqual(kind(t.column("v")), "numbers")
    }

    func testChangesAreCopyOnWriteAndKeepTheKind() {
        let original = DataTable(rows: [["v": .number(1)], ["v": .number(2)], ["v": .number(3)]])
        var t = original
        t.set(.number(20), field: "v", row: 1)
        XCTAssertEqual(original[1]["v"], .number(2), "the copy did not change")
        XCTAssertEqual(t[1]["v"], .number(20))
        XCTAssertEqual(kind(t.column("v")), "numbers")
        t.set(nil, field: "v", row: 0)
        XCTAssertNil(t[0]["v"])
        t.set(.string("x"), field: "v", row: 2)
        XCTAssertEqual(kind(t.column("v")), "mixed", "text in a number column makes it mixed")
        XCTAssertEqual(t.rows, [[:], ["v": .number(20)], ["v": .string("x")]])
        t.set(.string("new"), field: "w", row: 0)
        XCTAssertEqual(t[0]["w"], .string("new"))
        XCTAssertNil(t[1]["w"])
        t.set(nil, field: "never", row: 0)
        XCTAssertFalse(t.has("never"), "setting a missing cell of an absent field adds nothing")
        t.removeColumn("v")
        XCTAssertEqual(t.fields, ["w"])
        XCTAssertEqual(t[0]["w"], .string("new"), "the index of the fields after a removed one is kept right")
    }

    func testAppendGatherAndConcatenate() {
        var t = DataTable()
        t.append(["a": .number(1)])
        t.append(["b": .string("x")])
        t.append(["a": .number(3), "b": .string("y")])
        XCTAssertEqual(t.rows, [["a": .number(1)], ["b": .string("x")], ["a": .number(3), "b": .string("y")]])
        let g = t.gathering([2, 0, 2])
        XCTAssertEqual(g.rows, [["a": .number(3), "b": .string("y")], ["a": .number(1)], ["a": .number(3), "b": .string("y")]])
        let u = DataTable.concatenating([t, DataTable(rows: [["c": .number(9)]])])
        XCTAssertEqual(u.count, 4)
        XCTAssertEqual(u[3]["c"], .number(9))
        XCTAssertNil(u[3]["a"])
        XCTAssertNil(u[0]["c"])
        XCTAssertEqual(kind(u.column("a")), "numbers")
    }

    func testEqualityIgnoresFieldsMissingEverywhere() {
        var a = DataTable(rows: [["x": .number(1)]])
        a.setColumn("empty", DataColumn(missing: 1))
        XCTAssertEqual(a, DataTable(rows: [["x": .number(1)]]))
        XCTAssertNotEqual(a, DataTable(rows: [["x": .number(2)]]))
        XCTAssertNotEqual(a, DataTable(rows: [["x": .number(1)], ["x": .number(1)]]))
    }

    func testBuilderSwitchesKindAtTheFirstCellOfTheOther() {
        var b = DataColumn.Builder()
        b.append(nil); b.append(nil); b.append(.number(1)); b.append(number: 2)
        XCTAssertEqual(kind(b.column), "numbers")
        XCTAssertEqual((0..<4).map { b.column[$0] }, [nil, nil, .number(1), .number(2)])
        b.append(.string("t")); b.append(nil); b.append(number: 5)
        XCTAssertEqual(kind(b.column), "mixed")
        XCTAssertEqual((0..<7).map { b.column[$0] }, [nil, nil, .number(1), .number(2), .string("t"), nil, .number(5)])
        var s = DataColumn.Builder()
        s.append(nil); s.append(.string("a")); s.append(.string("a"))
        XCTAssertEqual(kind(s.column), "texts")
        XCTAssertTrue(s.column.holdsOnlyText)
        XCTAssertEqual((0..<3).map { s.column[$0] }, [nil, .string("a"), .string("a")])
    }

    /// Random tables: any mix of kinds and missing cells, changed at random, read back
    /// as the same dictionaries a plain array of rows gives.
    func testRandomTablesBehaveAsArraysOfRows() {
        var rng = SplitMix64(seed: 22)
        for _ in 0..<200 {
            let n = Int(rng.next() % 12)
            var reference: [DataRow] = []
            for _ in 0..<n {
                var r: DataRow = [:]
                for f in ["a", "b", "c"] {
                    switch rng.next() % 4 {
                    case 0: break
                    case 1: r[f] = .number(Double(rng.next() % 7) - 3)
                    case 2: r[f] = .string(["p", "q", "r"][Int(rng.next() % 3)])
                    default: if f != "c" { r[f] = .number(Double(rng.next() % 100) / 8) }
                    }
                }
                reference.append(r)
            }
            var t = DataTable(rows: reference)
            for _ in 0..<Int(rng.next() % 10) where n > 0 {
                let i = Int(rng.next() % UInt64(n)), f = ["a", "b", "c", "d"][Int(rng.next() % 4)]
                let v: DataValue? = rng.next() % 3 == 0 ? nil : rng.next() % 2 == 0 ? .number(Double(rng.next() % 5)) : .string("s")
                t.set(v, field: f, row: i)
                reference[i][f] = v
            }
            XCTAssertEqual(t.rows, reference)
            let order = (0..<n).map { _ in Int(rng.next() % UInt64(max(1, n))) }
            if n > 0 { XCTAssertEqual(t.gathering(order).rows, order.map { reference[$0] }) }
        }
    }
}

extension DataTableTests {
    /// Appending or setting a cell changes the column's array in place, not a copy of it
    /// (a copy per call made appending a million rows quadratic): the buffer stays where
    /// it was while it has room.
    func testAppendAndSetChangeTheColumnInPlace() {
        func address(_ c: DataColumn) -> UnsafeRawPointer? {
            switch c.storage {
            case .numbers(let a): return a.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            case .texts(let codes, _): return codes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            case .mixed(let a): return a.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            }
        }
        /// A column whose array has room for 100 cells and no other owner.
        func column(_ kind: Int) -> DataColumn {
            switch kind {
            case 0:
                var a: [Double] = [1]; a.reserveCapacity(100)
                return DataColumn(storage: .numbers(a))
            case 1:
                var c: [UInt32] = [0]; c.reserveCapacity(100)
                return DataColumn(storage: .texts(codes: c, values: ["a"]))
            default:
                var a: [DataValue?] = [.number(1), .string("a")]; a.reserveCapacity(100)
                return DataColumn(storage: .mixed(a))
            }
        }
        for kind in 0..<3 {
            var c = column(kind)
            let count = c.count
            let before = address(c)
            for k in 0..<20 {
                c.append(k % 3 == 0 ? nil : c[0])
                c.set(nil, at: k % 2)
            }
            XCTAssertEqual(address(c), before, "kind \(kind)")
            XCTAssertEqual(c.count, count + 20)
        }
    }
}

extension DataTableTests {
    /// The glyph estimate's longest cell and "holds text", read column by column, agree
    /// with reading every row, for number, text and mixed columns with missing cells.
    func testCellLengthsReadByColumnAgreeWithRows() {
        var rng = SplitMix64(seed: 17)
        for _ in 0..<100 {
            var rows: [DataRow] = []
            for _ in 0..<Int(1 + rng.next() % 30) {
                var row: DataRow = [:]
                if rng.next() % 4 != 0 { row["n"] = .number(Double(Int(rng.next() % 4_000_000)) - 2e6) }
                if rng.next() % 4 != 0 { row["t"] = .string(String(repeating: "é", count: Int(rng.next() % 12))) }
                if rng.next() % 3 != 0 {
                    row["m"] = rng.next() % 2 == 0 ? .number(1e18 * Double(rng.next() % 5)) : .string(String(repeating: "x", count: Int(rng.next() % 60)))
                }
                rows.append(row)
            }
            var lengths = CellLengths(DataTable(rows: rows))
            for field in ["n", "t", "m", "absent"] {
                var n = 0, biggest = -1.0, text = false
                for r in rows {
                    switch r[field] {
                    case .string(let s)?: n = max(n, s.unicodeScalars.count); text = true
                    case .number(let v)?: biggest = max(biggest, abs(v))
                    case nil: break
                    }
                }
                if biggest >= 0 { n = max(n, CellLengths.numberLength(biggest)) }
                XCTAssertEqual(lengths.longest(field), n, field)
                XCTAssertEqual(lengths.holdsText(field), text, field)
            }
        }
    }
}
