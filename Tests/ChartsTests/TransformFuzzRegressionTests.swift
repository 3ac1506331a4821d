import XCTest
@testable import Charts

/// What the transform fuzz target (Fuzz/transform.swift) found, each replayed on the
/// engine with the input committed under Fuzz/corpus/transform/.
final class TransformFuzzRegressionTests: XCTestCase {
    func apply(_ steps: [DataTransform], _ rows: [DataRow]) -> Result<TransformedRows, TransformError> {
        do throws(TransformError) { return .success(try DataTransform.apply(steps, to: rows)) } catch { return .failure(error) }
    }

    func error(_ steps: [DataTransform], _ rows: [DataRow], file: StaticString = #filePath, line: UInt = #line) -> TransformError? {
        if case .failure(let e) = apply(steps, rows) { return e }
        XCTFail("the transform succeeded", file: file, line: line)
        return nil
    }

    /// Every number of every row is finite.
    func assertFinite(_ rows: [DataRow], file: StaticString = #filePath, line: UInt = #line) {
        for row in rows { for (k, v) in row { if let x = v.number { XCTAssertTrue(x.isFinite, "\(k) = \(x)", file: file, line: line) } } }
    }

    /// crash-bin-edge-beyond-double.json: 1e15 in bins of 1e-300 is bin number 1e315; its
    /// edges were infinite numbers in the rows.
    func testABinBeyondTheLargestNumberIsAnErrorAtItsRow() {
        let rows: [DataRow] = [["t": .number(0)], ["t": .number(1e15)], ["t": .number(-1e15)]]
        let e = error([.bin(BinOptions(step: 1e-300), field: "t", as: "b", end: nil)], rows)
        XCTAssertEqual(e?.row, 1)
        XCTAssertEqual(e?.field, "t")
        XCTAssertEqual(e?.message, "bin cannot place 1000000000000000 of \"t\" in bins 1e-300 wide: its bin's edges would be beyond "
                       + "the largest number; give a larger \"step\"")
        // A step the values fit is as before.
        guard case .success(let ok) = apply([.bin(BinOptions(step: 1e14), field: "t", as: "b", end: "e")], rows) else { return XCTFail() }
        // (The largest value closes the last bin.)
        XCTAssertEqual(ok.rows.map { $0["b"]?.number }, [0, 9e14, -1e15])
        XCTAssertEqual(ok.rows.map { $0["e"]?.number }, [1e14, 1e15, -9e14])
    }

    /// timeout-bin-span-beyond-double.json: values from -1e308 to 1e308 span an infinite
    /// width; the nice step was infinite and its power of ten was looked for forever.
    func testValuesSpanningMoreThanTheLargestNumberAreAnErrorNotAHang() {
        let rows: [DataRow] = [["v": .number(-1e308)], ["v": .number(1e308)], ["v": .number(0)]]
        let e = error([.bin(BinOptions(), field: "v", as: "b", end: "e")], rows)
        XCTAssertNil(e?.row)
        XCTAssertEqual(e?.message, "bin cannot divide the values of \"v\", from -1e+308 to 1e+308, into bins: they span more than "
                       + "the largest number; give a \"step\"")
        XCTAssertEqual(DataTransform.binStep(-1e308, 1e308, maxBins: 10), .infinity)
        XCTAssertEqual(DataTransform.pow10(.infinity), 1)
        // Half the range bins as usual.
        guard case .success(let ok) = apply([.bin(BinOptions(), field: "v", as: "b", end: "e")], [["v": .number(0)], ["v": .number(1e308)]]) else {
            return XCTFail()
        }
        assertFinite(ok.rows.rows)
    }

    /// overflow-aggregate.json: sums of two 1e308s were infinite numbers in the rows; the
    /// mean of them (1e308) and the median of two 1.7e308s were infinite too.
    func testSummariesBeyondTheLargestNumber() {
        let rows: [DataRow] = [["v": .number(1e308), "k": .string("a")], ["v": .number(1.7e308), "k": .string("a")], ["v": .number(1), "k": .string("b")]]
        let fields = [AggregateField(.sum, field: "v", as: "sum"), AggregateField(.mean, field: "v", as: "mean"),
                      AggregateField(.median, field: "v", as: "median"), AggregateField(.max, field: "v", as: "max")]
        guard case .success(let out) = apply([.aggregate(fields, groupBy: ["k"])], rows) else { return XCTFail() }
        assertFinite(out.rows.rows)
        // The sum beyond the largest number is missing, as calculate leaves such a result.
        XCTAssertNil(out.rows[0]["sum"])
        XCTAssertEqual(out.rows[0]["mean"]?.number ?? 0, 1.35e308, accuracy: 1e293)
        XCTAssertEqual(out.rows[0]["median"]?.number ?? 0, 1.35e308, accuracy: 1e293)
        XCTAssertEqual(out.rows[0]["max"]?.number, 1.7e308)
        // Ordinary groups are as before.
        XCTAssertEqual(out.rows[1]["sum"]?.number, 1)
        XCTAssertEqual(out.rows[1]["mean"]?.number, 1)
        let small: [DataRow] = [["v": .number(0.1)], ["v": .number(0.2)], ["v": .number(0.4)]]
        guard case .success(let s) = apply([.aggregate(fields, groupBy: [])], small) else { return XCTFail() }
        XCTAssertEqual(s.rows[0]["sum"]?.number, 0.1 + 0.2 + 0.4)
        XCTAssertEqual(s.rows[0]["mean"]?.number, (0.1 + 0.2 + 0.4) / 3)
        XCTAssertEqual(s.rows[0]["median"]?.number, 0.2)
    }

    /// overflow-window.json: a running total past the largest number was infinite, and a
    /// moving average after it NaN (its prefix sums were ∞ − ∞); with the overflow mended,
    /// the average of 1 and 3 after it came out as 0 (digits lost to the prefix sums).
    func testWindowsBeyondTheLargestNumber() {
        let rows: [DataRow] = [["v": .number(1e308)], ["v": .number(1e308)], ["v": .number(1)], ["v": .number(3)]]
        let fields = [WindowField(.cumulativeSum, field: "v", as: "total"), WindowField(.movingAverage, field: "v", as: "avg", frame: (-1, 0))]
        guard case .success(let out) = apply([.window(fields, sort: [], groupBy: [])], rows) else { return XCTFail() }
        assertFinite(out.rows.rows)
        XCTAssertEqual(out.rows.map { $0["total"]?.number }, [1e308, nil, nil, nil])
        XCTAssertEqual(out.rows[0]["avg"]?.number, 1e308)
        XCTAssertEqual(out.rows[1]["avg"]?.number, 1e308)
        XCTAssertEqual(out.rows[2]["avg"]?.number ?? 0, 5e307, accuracy: 1e292)
        XCTAssertEqual(out.rows[3]["avg"]?.number, 2)
        // Within range, a spike no longer cancels the digits of the frames after it (the
        // prefix sums gave 0 here).
        let spike: [DataRow] = [["v": .number(1e17)], ["v": .number(1)], ["v": .number(3)]]
        guard case .success(let s) = apply([.window([fields[1]], sort: [], groupBy: [])], spike) else { return XCTFail() }
        XCTAssertEqual(s.rows.map { $0["avg"]?.number }, [1e17, 5e16, 2])
    }

    /// crash-timeunit-huge-seconds.json: a number of 1e300 in a date field under timeUnit
    /// trapped converting its day to Int.
    func testATimeUnitOfADateBeyondTheCalendarIsAnError() {
        let rows: [DataRow] = [["t": .string("2020-05-17")], ["t": .number(1e300)]]
        let e = error([.timeUnit(.year, field: "t", as: "y")], rows)
        XCTAssertEqual(e?.row, 1)
        XCTAssertEqual(e?.message, "timeUnit needs dates within 1,000,000 years of 1970, found 1e+300 (seconds) in \"t\"")
        // 999,999 years on is still a date.
        let far = DataTransform.maxDateSeconds * 0.999
        guard case .success(let ok) = apply([.timeUnit(.year, field: "t", as: "y")], [["t": .number(far)], ["t": .number(-far)]]) else { return XCTFail() }
        assertFinite(ok.rows.rows)
        XCTAssertLessThanOrEqual(ok.rows[0]["y"]?.number ?? .infinity, far)
    }
}
