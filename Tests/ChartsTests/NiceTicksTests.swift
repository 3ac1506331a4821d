import XCTest
import Geometry
import Text
@testable import Charts

/// Ticks and nice domains against d3-array / d3-scale's published results.
final class NiceTicksTests: XCTestCase {
    func testTicksMatchD3() {
        let tenths = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
        XCTAssertEqual(NiceTicks.ticks(0, 1, count: 10), tenths)
        XCTAssertEqual(NiceTicks.ticks(0, 1, count: 9), tenths)
        XCTAssertEqual(NiceTicks.ticks(0, 1, count: 8), tenths)
        XCTAssertEqual(NiceTicks.ticks(0, 1, count: 7), [0, 0.2, 0.4, 0.6, 0.8, 1.0])
        XCTAssertEqual(NiceTicks.ticks(0, 1, count: 5), [0, 0.2, 0.4, 0.6, 0.8, 1.0])
        XCTAssertEqual(NiceTicks.ticks(0, 1, count: 3), [0, 0.5, 1.0])
        XCTAssertEqual(NiceTicks.ticks(0, 1, count: 2), [0, 0.5, 1.0])
        XCTAssertEqual(NiceTicks.ticks(0, 1, count: 1), [0, 1.0])
        XCTAssertEqual(NiceTicks.ticks(0, 10, count: 10), (0...10).map(Double.init))
        XCTAssertEqual(NiceTicks.ticks(0, 10, count: 5), [0, 2, 4, 6, 8, 10])
        XCTAssertEqual(NiceTicks.ticks(0, 10, count: 2), [0, 5, 10])
        XCTAssertEqual(NiceTicks.ticks(-10, 10, count: 10), stride(from: -10.0, through: 10, by: 2).map { $0 })
        XCTAssertEqual(NiceTicks.ticks(-10, 10, count: 5), [-10, -5, 0, 5, 10])
        XCTAssertEqual(NiceTicks.ticks(-15, 60, count: 10), [-10, 0, 10, 20, 30, 40, 50, 60])
        XCTAssertEqual(NiceTicks.ticks(1, 0, count: 5), [1.0, 0.8, 0.6, 0.4, 0.2, 0])
        XCTAssertEqual(NiceTicks.ticks(1, 1, count: 5), [1])
    }

    func testTickValuesAreExactDecimals() {
        let t = NiceTicks.ticks(0, 1, count: 10)
        XCTAssertEqual(t[3], 0.3)                       // not 0.30000000000000004
        XCTAssertEqual("\(t[3])", "0.3")
        XCTAssertEqual("\(NiceTicks.ticks(0, 0.001, count: 10)[7])", "0.0007")
    }

    func testNiceMatchesD3() {
        XCTAssertTrue(NiceTicks.nice(1.1, 10.9, count: 10) == (1, 11))
        XCTAssertTrue(NiceTicks.nice(10.9, 1.1, count: 10) == (11, 1))
        XCTAssertTrue(NiceTicks.nice(0, 0.96, count: 10) == (0, 1))
        XCTAssertTrue(NiceTicks.nice(0, 96, count: 10) == (0, 100))
        XCTAssertTrue(NiceTicks.nice(-0.1, 51.1, count: 8) == (-10, 60))
    }

    func testFractionDigitsForStep() {
        XCTAssertEqual(NiceTicks.fractionDigits(forStep: 0.1), 1)
        XCTAssertEqual(NiceTicks.fractionDigits(forStep: 0.25), 1)
        XCTAssertEqual(NiceTicks.fractionDigits(forStep: 0.05), 2)
        XCTAssertEqual(NiceTicks.fractionDigits(forStep: 5), 0)
    }

    func testLogTicks() {
        XCTAssertEqual(NiceTicks.logTicks(1, 100), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
        XCTAssertEqual(NiceTicks.logTicks(1, 1e12, count: 5), [1, 1e2, 1e4, 1e6, 1e8, 1e10, 1e12])  // d3: ticks(0, 12, 5) of the exponents
        XCTAssertEqual(NiceTicks.logTicks(0.01, 0.1)[0...2], [0.01, 0.02, 0.03])
    }

    func testTimeTicksPickCalendarIntervals() {
        let jan = CivilDate.parseISO("2025-01-01")!, dec = CivilDate.parseISO("2025-12-01")!
        let iv = TimeTicks.interval(jan, dec, count: 5)
        XCTAssertEqual(iv, TimeTicks.Interval(unit: .month, step: 3))
        let labels = TimeTicks.ticks(jan, dec, interval: iv).map { DateFormat("MMM").format($0) }
        XCTAssertEqual(labels, ["Jan", "Apr", "Jul", "Oct"])
        // Day steps restart each month, as d3-time's utcDay.every(2) does.
        let days = TimeTicks.ticks(CivilDate.parseISO("2024-01-27")!, CivilDate.parseISO("2024-02-04")!, interval: .init(unit: .day, step: 2))
        XCTAssertEqual(days.map { DateFormat("MMM d").format($0) }, ["Jan 27", "Jan 29", "Jan 31", "Feb 1", "Feb 3"])
        // Weeks start on Sunday.
        let weeks = TimeTicks.ticks(CivilDate.parseISO("2024-03-01")!, CivilDate.parseISO("2024-03-31")!, interval: .init(unit: .week, step: 1))
        XCTAssertEqual(weeks.map { DateFormat("EEE d").format($0) }, ["Sun 3", "Sun 10", "Sun 17", "Sun 24", "Sun 31"])
        let hours = TimeTicks.ticks(CivilDate.parseISO("2024-03-01T01:10")!, CivilDate.parseISO("2024-03-01T13:00")!, interval: .init(unit: .hour, step: 3))
        XCTAssertEqual(hours.map { DateFormat("HH:mm").format($0) }, ["03:00", "06:00", "09:00", "12:00"])
        let years = TimeTicks.interval(CivilDate.parseISO("1900-01-01")!, CivilDate.parseISO("2000-01-01")!, count: 10)
        XCTAssertEqual(years, TimeTicks.Interval(unit: .year, step: 10))
    }

    /// A date axis with a given pattern takes no ticks finer than the pattern writes, so no
    /// two labels read the same: quarters under "yyyy" become years, days under "MMM yyyy"
    /// months; a pattern as fine as the ticks, or finer, keeps them.
    func testAGivenPatternKeepsTicksFromRepeatingALabel() throws {
        XCTAssertEqual(DateFormat("yyyy").finestUnit, .year)
        XCTAssertEqual(DateFormat("MMM yy").finestUnit, .month)
        XCTAssertEqual(DateFormat("'Week of' MMM d").finestUnit, .day)
        XCTAssertEqual(DateFormat("HH:mm").finestUnit, .minute)
        XCTAssertNil(DateFormat("'FY'").finestUnit)
        let spec = ChartSpec(frame: Rect(x: 0, y: 0, width: 400, height: 300), style: ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)), data: DataTable())
        func labels(_ from: String, _ to: String, _ pattern: String?) -> [String] {
            var axis = AxisSpec(side: .bottom)
            if let pattern { axis.format = .date(DateFormat(pattern)) }
            let r = ChartSpec.Resolved(type: .time, values: [], domain: (CivilDate.parseISO(from)!, CivilDate.parseISO(to)!), categories: [])
            return spec.ticks(r, axis: axis).map { (t: AxisTick) in t.label }
        }
        XCTAssertEqual(labels("2016-01-01", "2017-12-31", nil), ["Jan 2016", "Apr 2016", "Jul 2016", "Oct 2016", "Jan 2017", "Apr 2017", "Jul 2017", "Oct 2017"])
        XCTAssertEqual(labels("2016-01-01", "2017-12-31", "yyyy"), ["2016", "2017"])
        XCTAssertEqual(labels("2016-01-01", "2017-12-31", "MMM yy"), ["Jan 16", "Apr 16", "Jul 16", "Oct 16", "Jan 17", "Apr 17", "Jul 17", "Oct 17"])
        XCTAssertEqual(labels("2024-03-01", "2024-03-09", "MMM yyyy"), ["Mar 2024"])
        XCTAssertEqual(labels("2024-03-01", "2024-03-09", "d"), ["1", "3", "5", "7", "9"])
        for (from, to) in [("2015-06-01", "2024-02-01"), ("2015-06-01", "2016-02-01"), ("2015-06-01", "2015-08-11")] {
            let l = labels(from, to, "MMM yyyy")
            XCTAssertEqual(Set(l).count, l.count, "\(from)…\(to): \(l)")
        }
    }
}

final class ScaleTests: XCTestCase {
    func testBandScaleMatchesD3() {
        let b = BandScale(domain: ["a", "b", "c"], range: (0, 120), paddingInner: 0.1, paddingOuter: 0.1)
        let step = 120 / (3 - 0.1 + 0.2)
        XCTAssertEqual(b.step, step, accuracy: 1e-12)
        XCTAssertEqual(b.bandwidth, step * 0.9, accuracy: 1e-12)
        XCTAssertEqual(b("a")!, (120 - step * 2.9) / 2, accuracy: 1e-12)
        XCTAssertEqual(b("c")! + b.bandwidth + b("a")!, 120, accuracy: 1e-9)  // symmetric
        XCTAssertNil(b("z"))
    }

    func testLinearAndLogScales() {
        let s = LinearScale(domain: (0, 15), range: (560, 40))
        XCTAssertEqual(s(0), 560); XCTAssertEqual(s(15), 40); XCTAssertEqual(s.invert(300), 7.5)
        let l = LogScale(domain: (1, 1000), range: (0, 300))
        XCTAssertEqual(l(10), 100, accuracy: 1e-9); XCTAssertEqual(l(100), 200, accuracy: 1e-9)
    }
}

final class FormatTests: XCTestCase {
    func testNumbers() {
        XCTAssertEqual(NumberFormat().format(3.14159), "3.14")
        XCTAssertEqual(NumberFormat().format(2), "2")
        XCTAssertEqual(NumberFormat(minFractionDigits: 1, maxFractionDigits: 1).format(2), "2.0")
        XCTAssertEqual(NumberFormat(maxFractionDigits: 2, grouping: true).format(1_234_567.891), "1,234,567.89")
        XCTAssertEqual(NumberFormat(maxFractionDigits: 0, suffix: " mg").format(140), "140 mg")
        XCTAssertEqual(NumberFormat(notation: .percent, maxFractionDigits: 1).format(0.256), "25.6%")
        XCTAssertEqual(NumberFormat(notation: .compact, maxFractionDigits: 1).format(1234), "1.2k")
        XCTAssertEqual(NumberFormat(notation: .compact, maxFractionDigits: 1).format(3_400_000), "3.4M")
        XCTAssertEqual(NumberFormat(notation: .compact, maxFractionDigits: 1).format(999_960), "1M")
        XCTAssertEqual(NumberFormat(notation: .compact, maxFractionDigits: 1).format(950), "950")
        XCTAssertEqual(NumberFormat().format(-2), "−2")
        XCTAssertEqual(NumberFormat().format(-0.001), "0")
        XCTAssertEqual(NumberFormat().format(0.125), "0.12")   // ties to even on the binary value, as printf
        XCTAssertEqual(NumberFormat(prefix: "$").format(-5.5), "−$5.5")
        XCTAssertEqual(NumberFormat().format(0.1 + 0.2), "0.3")
    }

    func testDates() {
        let t = CivilDate.parseISO("2024-03-05T14:07:09Z")!
        XCTAssertEqual(DateFormat("yyyy").format(t), "2024")
        XCTAssertEqual(DateFormat("MMM d").format(t), "Mar 5")
        XCTAssertEqual(DateFormat("MMMM d, yyyy").format(t), "March 5, 2024")
        XCTAssertEqual(DateFormat("EEE dd/MM/yy HH:mm:ss").format(t), "Tue 05/03/24 14:07:09")
        XCTAssertEqual(DateFormat("'Q1' yyyy").format(t), "Q1 2024")
        XCTAssertEqual(CivilDate.parseISO("2024-03-05T14:07:09+02:00")!, t - 7200)
        XCTAssertNil(CivilDate.parseISO("2024-02-30"))
        XCTAssertNil(CivilDate.parseISO("5 March"))
        XCTAssertEqual(CivilDate.parseISO("1970-01-01"), 0)
        XCTAssertEqual(CivilDate.parseISO("2000-03-01")! - CivilDate.parseISO("2000-02-28")!, 2 * 86_400)  // leap year
    }
}
