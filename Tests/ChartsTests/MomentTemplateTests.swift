import XCTest
import Geometry
import Raster
import Text
import Scene
@testable import Charts

/// Texts that name the moment a chart of moving data shows.
final class MomentTemplateTests: XCTestCase {
    func render(_ text: String, _ time: Double, date: Bool = false, rows: [DataRow] = []) throws -> String {
        try MomentTemplate(text).render(Moment(time: time, isDate: date), rows: rows)
    }

    func testAYearLabelShowsTheYearOnScreenNeverTheNextOne() throws {
        XCTAssertEqual(try render("{time}", 1999.7), "1999")
        XCTAssertEqual(try render("{time}", 1999.999999), "1999")
        XCTAssertEqual(try render("{time}", 2000), "2000")
        XCTAssertEqual(try render("Year {time:.1f}", 1999.77), "Year 1999.7")
        XCTAssertEqual(try render("{time:.1f}", 2.3), "2.3", "2.3 is 2.29999… as a double and must not print 2.2")
    }

    func testDatesTakePatternsAndNumberYearsReadAsYears() throws {
        let mar5 = CivilDate(year: 2024, month: 3, day: 5).seconds
        XCTAssertEqual(try render("Week of {time:MMM d}", mar5 + 3600, date: true), "Week of Mar 5")
        XCTAssertEqual(try render("{time}", mar5, date: true), "2024-03-05")
        XCTAssertEqual(try render("{time:MMM yyyy}", 1999.5), "Jul 1999")
        XCTAssertEqual(try render("{time:yyyy}", 1999.99), "1999")
    }

    /// Fuzz/corpus/document/crash-moment-huge-year.json: a year of 10^90 under a date
    /// pattern trapped converting it to Int.
    func testAYearBeyondTheCalendarIsWrittenAsANumber() throws {
        XCTAssertEqual(try render("{time:MMM yyyy}", 2e90).count, 91)
        XCTAssertEqual(try render("{time:yyyy}", -3e6), "−3000000")
        XCTAssertEqual(try render("{time:yyyy}", 1_000_000), "1000000")
    }

    func testSumsAndBraces() throws {
        let rows: [DataRow] = [["v": .number(1.25)], ["v": .number(2.5)], ["w": .number(9)]]
        XCTAssertEqual(try render("Total {sum:v:.1f} {{ok}}", 0, rows: rows), "Total 3.7 {ok}")
        XCTAssertEqual(try render("{sum:v}", 0, rows: rows), "3")
        XCTAssertFalse(try MomentTemplate("plain {{text}}").isDynamic)
        XCTAssertTrue(try MomentTemplate("in {time}").isDynamic)
    }

    /// Numbers take the d3-format forms people bring from D3, Flourish and bar_chart_race
    /// (`{x:,.0f}`): thousands separated, percentages, a dollar sign, whole numbers. Labels
    /// of a row round to the nearest; sums and times are cut, never rounded up.
    func testNumberFormsOfD3() throws {
        let row: DataRow = ["v": .number(1_234_567.891), "p": .number(0.12345), "n": .number(-1234.5), "z": .number(999.5)]
        func label(_ text: String) throws -> String { try MomentTemplate(text).render(nil, rows: [row], row: row) }
        XCTAssertEqual(try label("{field:v:,.0f}"), "1,234,568")
        XCTAssertEqual(try label("{field:v:,.2f}"), "1,234,567.89")
        XCTAssertEqual(try label("{field:v:.1f}"), "1234567.9")
        XCTAssertEqual(try label("{field:v:,d}"), "1,234,568")
        XCTAssertEqual(try label("{field:v:d}"), "1234568")
        XCTAssertEqual(try label("{field:p:.1%}"), "12.3%")
        XCTAssertEqual(try label("{field:p:.0%}"), "12%")
        XCTAssertEqual(try label("{field:n:$,.2f}"), "−$1,234.50")
        XCTAssertEqual(try label("{field:z:,.0f}"), "1,000", "999.5 rounds to the even 1000 and is grouped after rounding")
        XCTAssertEqual(try label("{field:v}"), "1,234,568", "no form: whole and grouped, as before")
        let rows: [DataRow] = [["v": .number(1_000.6)], ["v": .number(1_999.3)]]
        XCTAssertEqual(try render("{sum:v:,.0f}", 0, rows: rows), "2,999", "a total is cut: 2,999.9 reads 2,999")
        XCTAssertEqual(try render("{sum:v:$,.1f}", 0, rows: rows), "$2,999.9")
        XCTAssertEqual(try render("{sum:v:.0%}", 0, rows: [["v": .number(0.129)]]), "12%")
        XCTAssertEqual(try render("{time:.1f}", 1999.77), "1999.7")
        for bad in [",.x", ".f", ".18f", ".+1f", ".1g", ",,.0f", "$", "", " .1f", ".1f ", "d,"] {
            XCTAssertThrowsError(try MomentTemplate("{field:v:\(bad)}"), bad) { error in
                let p = error as! MomentTemplate.Problem
                XCTAssertEqual(p.offset, 0)
                XCTAssertTrue(p.message.contains(",.0f (thousands separated)"), p.message)
            }
        }
    }

    /// Templates are parsed once and kept (a chart of moving data fills the same ones at
    /// every frame): the kept template is the one parsing gives, text that does not parse
    /// stays nil, and a full table starts over without losing anything asked for.
    func testKeptTemplatesAreTheParsedOnes() throws {
        for text in ["{time:yyyy}", "Week of {time:MMM d}", "{field:k} {field:v:.1f}", "plain"] {
            XCTAssertEqual(MomentTemplate.cached(text), try MomentTemplate(text))
            XCTAssertEqual(MomentTemplate.cached(text), try MomentTemplate(text), "asked again: \(text)")
        }
        XCTAssertNil(MomentTemplate.cached("{time"))
        XCTAssertNil(MomentTemplate.cached("{time"), "a bad template stays bad when kept")
        for i in 0...(2 * MomentTemplate.parsedCapacity) {
            XCTAssertEqual(MomentTemplate.cached("{time:.\(i % 7)f} #\(i)"), try MomentTemplate("{time:.\(i % 7)f} #\(i)"))
        }
        XCTAssertEqual(MomentTemplate.cached("{time:yyyy}")?.render(Moment(time: 1999.7, isDate: false), rows: [DataRow]()), "1999")
    }

    func testMalformedPlaceholdersSayWhere() {
        func problem(_ s: String) -> MomentTemplate.Problem? {
            do { _ = try MomentTemplate(s); return nil } catch { return error }
        }
        XCTAssertEqual(problem("Year {tim}")?.offset, 5)
        XCTAssertEqual(problem("Year {tim}")?.message, "unknown placeholder {tim}; the placeholders are {time}, {time:FORMAT}, {sum:FIELD} and {field:FIELD}")
        XCTAssertEqual(problem("Year {time")?.message, "a \"{\" without its \"}\"; write \"{{\" for a brace")
        XCTAssertEqual(problem("a } b")?.offset, 2)
        XCTAssertEqual(problem("{time:.xf}")?.message, "expected a number format such as .0f, .2f, ,.0f (thousands separated), ,d, .1% or $,.2f, found \".xf\"")
        XCTAssertEqual(problem("{sum}")?.message, "{sum} needs a field: {sum:value} or {sum:value:.0f}")
    }

    func testTheTitleAndPeriodLabelFollowTheDataWhileTheCardStays() throws {
        let rows: [DataRow] = [1990.0, 2000, 2010].map { ["year": .number($0), "k": .string("A"), "v": .number($0 - 1980)] }
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 300, height: 200),
                          style: ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)), data: rows)
        c.x = Channel(field: "k"); c.y = Channel(field: "v")
        c.timeline = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 2))
        c.title = TitleSpec("GDP in {time}", subtitle: "fixed")
        c.periodLabel = PeriodLabelSpec()
        c.card = CardSpec()
        c.marks = [BarMarkSpec()]
        func texts(_ n: Node, _ t: Double) -> [String] {
            switch n {
            case .text(let x): return [x.string]
            case .shape: return []
            case .group(let g): return (g.dynamicChildren?(t) ?? g.children).flatMap { texts($0, t) }
            }
        }
        let node = c.build()
        // 0.97 s is data year 1999.7: the title and the label say 1999.
        XCTAssertTrue(texts(node, 0.97).contains("GDP in 1999"))
        XCTAssertTrue(texts(node, 0.97).contains("1999"))
        XCTAssertTrue(texts(node, 2).contains("GDP in 2010"))
        // The card stays outside the part redrawn per frame.
        guard case .group(let g) = node else { return XCTFail() }
        XCTAssertEqual(g.children.first?.id, "card")
        XCTAssertNil({ if case .group(let p) = g.children[0] { return p.dynamicChildren == nil ? nil : true }; return nil }())
    }
}
