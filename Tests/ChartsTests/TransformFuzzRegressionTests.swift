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
        assertFinite(ok.rows)
    }
}
