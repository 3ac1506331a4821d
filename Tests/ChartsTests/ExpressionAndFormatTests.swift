import XCTest
@testable import Charts

/// `calculate`'s expressions, the engine through its Swift API, and the format and tick
/// defects of issue 16 (scale, rounding, year-bearing date ticks).
final class ExpressionTests: XCTestCase {
    let row: DataRow = ["high": .number(30), "low": .number(12), "value": .number(2500), "Wind speed": .number(5), "name": .string("x")]

    func value(_ text: String, _ r: DataRow? = nil) throws -> Double? { try FieldExpression(text).evaluate(r ?? row) }

    func testArithmeticPrecedenceAndFunctions() throws {
        XCTAssertEqual(try value("high - low"), 18)
        XCTAssertEqual(try value("value / 1000"), 2.5)
        XCTAssertEqual(try value("1 + 2 * 3 - 4 / 2"), 5)
        XCTAssertEqual(try value("(1 + 2) * 3"), 9)
        XCTAssertEqual(try value("-high + 2"), -28)
        XCTAssertEqual(try value("7 % 4"), 3)
        XCTAssertEqual(try value("round(2.5) + floor(-1.5) + ceil(0.2) + abs(-3)"), 3 - 2 + 1 + 3)
        XCTAssertEqual(try value("max(high, low) - min(high, low) + pow(2, 10) + sqrt(16)"), 18 + 1024 + 4)
        XCTAssertEqual(try value("log10(1000) + ln(exp(2))")!, 5, accuracy: 1e-12)
        XCTAssertEqual(try value("`Wind speed` * 3.6")!, 18, accuracy: 1e-12)
        XCTAssertEqual(try value("1e3 + 2.5E-1"), 1000.25)
        XCTAssertEqual(try FieldExpression("high - low + high").fields, ["high", "low"])
    }

    func testMissingAndUndefinedValuesAreMissing() throws {
        XCTAssertNil(try value("missing + 1"))
        XCTAssertNil(try value("high / 0"))
        XCTAssertNil(try value("sqrt(-1)"))
        XCTAssertNil(try value("ln(0)"))
        XCTAssertThrowsError(try value("name * 2")) { error in
            guard case .text(let f, let v) = error as! FieldExpression.Failure else { return XCTFail() }
            XCTAssertEqual(f, "name"); XCTAssertEqual(v, "x")
        }
    }

    func syntax(_ text: String) -> FieldExpression.SyntaxError? {
        do { _ = try FieldExpression(text); return nil } catch { return error }
    }

    func testSyntaxErrorsAtLineAndColumn() {
        let cases: [(String, Int, Int, String)] = [
            ("high -", 1, 7, "after \"-\", found the end of the expression"),
            ("high * / 2", 1, 8, "after \"*\", found \"/\""),
            ("(high - low", 1, 12, "expected \")\" to close the \"(\" at 1:1"),
            ("high low", 1, 6, "expected an operator"),
            ("high)", 1, 5, "a \")\" without its \"(\""),
            ("sine(high)", 1, 1, "unknown function \"sine\""),
            ("max(high)", 1, 1, "max takes 2 arguments, found 1"),
            ("2high", 1, 2, "a field name cannot start with a digit"),
            ("`wind", 1, 1, "is not closed"),
            ("high +\n  * 2", 2, 3, "after \"+\", found \"*\""),
            ("", 1, 1, "found the end of the expression"),
            ("high $ 2", 1, 6, "found \"$\""),
        ]
        for (text, line, column, message) in cases {
            guard let e = syntax(text) else { XCTFail("\(text) parsed"); continue }
            XCTAssertEqual([e.line, e.column], [line, column], "\(text): \(e)")
            XCTAssertTrue(e.message.contains(message), "\(text): \(e)")
        }
        XCTAssertNotNil(syntax(String(repeating: "(", count: 500) + "1" + String(repeating: ")", count: 500)), "nesting is bounded")
    }

    /// The Swift API: the same pipeline a document writes, on rows made in Swift.
    func testGroupsAreNumberedByFirstAppearanceOfTheCombination() {
        let rows: [DataRow] = [["k": .string("a"), "v": .number(1)], ["k": .string("b"), "v": .number(1)],
                               ["k": .string("a"), "v": .number(2)], ["k": .string("a"), "v": .number(1)],
                               ["k": .string("b"), "v": .number(2)], ["v": .number(1)], ["k": .string("b")]]
        let two = GroupIndex(DataTable(rows: rows), ["k", "v"])
        XCTAssertEqual(two.ids, [0, 1, 2, 0, 3, 4, 5])
        XCTAssertEqual(two.count, 6)
        let reversed = GroupIndex(DataTable(rows: rows), ["v", "k"])
        XCTAssertEqual(reversed.ids, [0, 1, 2, 0, 3, 4, 5])
        XCTAssertEqual(GroupIndex(DataTable(rows: rows), ["v"]).ids, [0, 0, 1, 0, 1, 0, 2])
        XCTAssertEqual(GroupIndex(DataTable(rows: rows), []).ids, [0, 0, 0, 0, 0, 0, 0])
        XCTAssertEqual(GroupIndex(DataTable(), ["k"]).count, 0)
    }

    func testTheLargestValueClosesTheLastBin() throws {
        let rows: [DataRow] = (0...10).map { ["v": .number(Double($0) / 10)] }
        let r = try DataTransform.apply([.bin(BinOptions(maxBins: 10), field: "v", as: "b", end: nil)], to: rows)
        XCTAssertEqual(r.rows.map { $0["b"]?.number }, [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.9])
    }

    func testThePipelineInSwift() throws {
        let rows: [DataRow] = [
            ["k": .string("a"), "v": .number(1)], ["k": .string("b"), "v": .number(5)],
            ["k": .string("a"), "v": .number(3)], ["k": .string("b"), "v": .string("n/a")],
        ]
        let r = try DataTransform.apply([
            .filter(.not(.equals(field: "v", value: .string("n/a")))),
            .calculate(try FieldExpression("v * 10"), as: "w"),
            .aggregate([AggregateField(.sum, field: "w", as: "total"), AggregateField(.count, as: "n")], groupBy: ["k"]),
            .sort([SortKey("total", descending: true)]),
        ], to: rows)
        XCTAssertEqual(r.rows, [["k": .string("b"), "total": .number(50), "n": .number(1)],
                                ["k": .string("a"), "total": .number(40), "n": .number(2)]])
        XCTAssertEqual(r.sources, [1, 0], "each row names the input row it came from")
        XCTAssertThrowsError(try DataTransform.apply([.aggregate([AggregateField(.mean, field: "v", as: "m")], groupBy: [])], to: rows)) { error in
            let e = error as! TransformError
            XCTAssertEqual([e.step, e.row], [0, 3]); XCTAssertEqual(e.field, "v")
        }
        let text = try DataTransform.apply([.filter(.range(field: "v", lower: RangeBound(.string("3"), inclusive: true), upper: nil))], to: rows)
        XCTAssertEqual(text.sources, [1, 2], "a number written as text compares as the number")
        let empty = try DataTransform.apply([.filter(.equals(field: "k", value: .string("z")))], to: rows)
        XCTAssertEqual(empty.rows.count, 0)
        XCTAssertEqual(empty.warnings.map(\.step), [0])
    }

    func testBinStepsAreNiceAndBounded() {
        XCTAssertEqual(DataTransform.binStep(2.2, 21.1, maxBins: 5), 5)
        XCTAssertEqual(DataTransform.binStep(0, 1, maxBins: 10), 0.1)
        for (lo, hi, n) in [(0.0, 97.0, 10), (3.0, 1234.0, 7), (-5.5, 5.5, 4), (0.001, 0.0093, 3)] {
            let s = DataTransform.binStep(lo, hi, maxBins: n)
            let first = (lo / s).rounded(.down) * s
            XCTAssertLessThanOrEqual(((hi - first) / s - 1e-9).rounded(.up), Double(n), "\(lo)…\(hi) in \(n): step \(s)")
        }
    }
}

final class FormatDefectTests: XCTestCase {
    /// Issue 16, defect 14: thousands shown as millions by the format alone.
    func testAFormatScales() {
        var f = NumberFormat(maxFractionDigits: 1, suffix: "M")
        f.scale = 0.001
        XCTAssertEqual(f.format(2_345), "2.3M")
        XCTAssertEqual(f.format(-1_500), "−1.5M")
        var g = NumberFormat(grouping: true)
        g.scale = 1000
        XCTAssertEqual(g.format(1.5), "1,500")
    }

    /// Issue 16, defect 9: a counter floors while it counts and shows the label's own text at the end.
    func testRoundingModes() {
        var f = NumberFormat(maxFractionDigits: 0)
        XCTAssertEqual(f.format(1999.7), "2000", "labels round to the nearest")
        XCTAssertEqual(f.counting.format(1999.7), "1999")
        XCTAssertEqual(f.counting.format(2000), "2000")
        f.rounding = .ceiling
        XCTAssertEqual(f.format(1999.2), "2000")
        XCTAssertEqual(f.counting.format(1999.2), "2000", "a chosen rounding is kept when counting")
        var two = NumberFormat(maxFractionDigits: 1, grouping: false)
        two.rounding = .floor
        XCTAssertEqual(two.format(2.3), "2.3", "2.2999… is not cut to 2.2")
        XCTAssertEqual(two.format(-0.05), "−0.1")
    }

    /// Issue 16, defect 12: ticks of a multi-year daily series carry their year.
    func testDateTicksAcrossYearsCarryTheYear() {
        let start = CivilDate(year: 2012, month: 12, day: 10).seconds, stop = CivilDate(year: 2013, month: 1, day: 20).seconds
        let iv = TimeTicks.interval(start, stop, count: 5)
        XCTAssertEqual(iv.unit, .week)
        XCTAssertEqual(iv.labelPattern(from: start, to: stop), "MMM d, yyyy")
        let ticks = TimeTicks.ticks(start, stop, interval: iv).map { DateFormat(iv.labelPattern(from: start, to: stop)).format($0) }
        XCTAssertTrue(ticks.allSatisfy { $0.hasSuffix(", 2012") || $0.hasSuffix(", 2013") }, "\(ticks)")
        let monthly = TimeTicks.Interval(unit: .month, step: 3)
        XCTAssertEqual(monthly.labelPattern(from: start, to: CivilDate(year: 2015, month: 1, day: 1).seconds), "MMM yyyy")
        // Within one year the short forms stay.
        XCTAssertEqual(iv.labelPattern(from: CivilDate(year: 2012, month: 3, day: 1).seconds, to: CivilDate(year: 2012, month: 5, day: 1).seconds), "MMM d")
        XCTAssertEqual(TimeTicks.Interval(unit: .year, step: 1).labelPattern(from: start, to: stop), "yyyy")
    }
}
