import XCTest
import Geometry
import Raster
import Text
@testable import Charts

/// Colour encodings resolved through `ColorCache`, which the load test (scripts/bench
/// --load) brought in: a streamgraph of 200 series spent 70 % of its render recomputing
/// the colour ramp for every element. The cache must give exactly the colours the
/// per-element computation gave.
final class ColorCacheTests: XCTestCase {
    func style() throws -> ChartStyle { ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)) }

    /// 200 series × 5 years, with the series appearing in a shuffled order.
    func streams(_ series: Int) -> [DataRow] {
        var rows: [DataRow] = []
        for year in 0..<5 {
            for s in 0..<series {
                let k = (s * 37) % series
                rows.append(["name": .string("s\(k)"), "year": .number(Double(year)), "count": .number(Double(k + year))])
            }
        }
        return rows
    }

    func testRampColoursEachSeriesByItsFirstAppearance() throws {
        let stops = [Color(r: 0.36, g: 0.16, b: 0.53), Color(r: 0.23, g: 0.53, b: 1, a: 0.4)]
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 400, height: 300), style: try style(), data: streams(200))
        c.x = Channel(field: "year"); c.y = Channel(field: "count")
        var area = AreaMarkSpec(options: MarkOptions(id: "stream"))
        area.options.series = "name"; area.options.stack = .center
        area.options.color = .ramp(field: nil, stops: stops)
        c.marks = [area]
        let ramp = Palette.ramp(stops, count: 200)
        let elements = c.elements(area, c.state(at: 0))
        XCTAssertEqual(elements.count, 1000)
        for e in elements {
            let order = (Int(e.series.dropFirst())! * 173) % 200   // 173 = 37⁻¹ mod 200: first-appearance index
            XCTAssertEqual(e.color, ramp[order], "series \(e.series)")
        }
        // The first series to appear takes the ramp's start, the last its end.
        XCTAssertEqual(elements.first { $0.series == "s0" }?.color, ramp[0])
        XCTAssertEqual(elements.first { $0.series == "s\((199 * 37) % 200)" }?.color, ramp[199])
    }

    func testCategoryFieldAndDefaultSeriesColoursFollowFirstAppearance() throws {
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 400, height: 300), style: try style(), data: streams(12))
        c.x = Channel(field: "year"); c.y = Channel(field: "count")
        var byField = PointMarkSpec(options: MarkOptions(id: "points"))
        byField.options.color = .category(field: "name", colors: nil, domain: nil)
        var bySeries = LineMarkSpec(options: MarkOptions(id: "lines"))
        bySeries.options.series = "name"
        var byDomain = PointMarkSpec(options: MarkOptions(id: "dots"))
        let listed = [Color(r: 1, g: 0, b: 0), Color(r: 0, g: 1, b: 0)]
        byDomain.options.color = .category(field: "name", colors: listed, domain: ["s5", "s0", "s5", "s7"])
        c.marks = [byField, bySeries, byDomain]
        let l = c.state(at: 0)
        for m in [byField, bySeries] as [any ChartMark] {
            for e in c.elements(m, l) {
                let name = m.options.series == nil ? c.key(c.data[e.row]["name"]) : e.series
                let order = (Int(name.dropFirst())! * 1) % 12   // 37 ≡ 1 (mod 12): first appearance is s0, s1, …
                XCTAssertEqual(e.color, Palette.color(order), "\(m.options.id ?? "") \(name)")
            }
        }
        // A listed domain: position of the first occurrence, colours cycling; unknown keys take the first.
        for e in c.elements(byDomain, l) {
            let name = c.key(c.data[e.row]["name"])
            let expected = name == "s0" ? listed[1] : listed[0]   // s5 → 0, s0 → 1, s7 → 3 % 2 = 1
            XCTAssertEqual(e.color, name == "s7" ? listed[1] : expected, name)
        }
    }

    func testSectorsWithRepeatedNamesTakeTheFirstPosition() throws {
        let data: [DataRow] = ["a", "b", "a", "c"].enumerated().map { ["x": .string($0.element), "y": .number(Double($0.offset + 1))] }
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 200, height: 200), style: try style(), data: data)
        var pie = SectorMarkSpec(options: MarkOptions(id: "pie"))
        let stops = [Color.black, Color.white]
        pie.options.color = .ramp(field: nil, stops: stops)
        c.marks = [pie]
        let ramp = Palette.ramp(stops, count: 4)
        XCTAssertEqual(pie.slices(c).map(\.color), [ramp[0], ramp[1], ramp[0], ramp[3]])
    }

    /// Fuzz/corpus/document/crash-ramp-without-stops: a ramp whose colours were all
    /// invalid reached the chart with no stops (the decoder builds the chart anyway, to
    /// report every error at once), and colouring indexed an empty ramp.
    func testRampWithoutStopsColoursLikeACategory() throws {
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 400, height: 300), style: try style(), data: streams(3))
        c.x = Channel(field: "year"); c.y = Channel(field: "count")
        var area = AreaMarkSpec(options: MarkOptions(id: "stream"))
        area.options.series = "name"; area.options.stack = .center
        area.options.color = .ramp(field: nil, stops: [])
        c.marks = [area]
        let elements = c.elements(area, c.state(at: 0))
        XCTAssertEqual(elements.count, 15)
        for e in elements { XCTAssertEqual(e.color, Palette.color(Int(e.series.dropFirst())!), e.series) }
        _ = c.build()
    }

    /// A legend takes each series' first element only; its colours are those of the
    /// first element of each series among all of them, for every colour encoding, with
    /// rows that make no element (a missing value) before a series' first.
    func testLegendColoursComeFromEachSeriesFirstElement() throws {
        var rows = streams(12)
        rows.insert(["name": .string("s5"), "year": .number(-1)], at: 0)        // no value: no element
        rows.insert(["name": .string("s7"), "count": .number(3)], at: 1)        // no year: no element
        let encodings: [ColorEncoding?] = [
            nil,
            .category(field: "name", colors: nil, domain: nil),
            .thresholds(field: nil, steps: [(upTo: 4, color: Color(r: 1, g: 0, b: 0)), (upTo: 9, color: Color(r: 0, g: 1, b: 0))],
                        otherwise: Color(r: 0, g: 0, b: 1)),
            .valueGradient(stops: [(value: 0, color: Color(r: 0, g: 0, b: 0)), (value: 15, color: Color(r: 1, g: 1, b: 1))]),
            .ramp(field: nil, stops: [Color(r: 0.2, g: 0.1, b: 0.5), Color(r: 0.9, g: 0.8, b: 0.1)]),
        ]
        for (n, enc) in encodings.enumerated() {
            var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 400, height: 300), style: try style(), data: rows)
            c.x = Channel(field: "year"); c.y = Channel(field: "count")
            var line = LineMarkSpec(options: MarkOptions(id: "l"))
            line.options.series = "name"
            line.options.color = enc
            c.marks = [line]
            let l = ChartState.unplaced(c.frame, x: c.resolve(c.x), y: c.resolve(c.y))
            let all = c.elements(line, l)
            let expected = c.seriesNames(line).compactMap { name in all.first { $0.series == name }.map { (name, $0.color) } }
            let got = line.legendEntries(in: c)
            XCTAssertEqual(got.map(\.name), expected.map(\.0), "encoding \(n)")
            XCTAssertEqual(got.map(\.color), expected.map(\.1), "encoding \(n)")
            XCTAssertEqual(got.count, 12)
        }
    }
}
