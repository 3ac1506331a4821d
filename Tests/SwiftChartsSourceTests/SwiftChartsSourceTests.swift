import XCTest
import Foundation
import ChartReel

// Charts written the way Swift Charts' documentation and WWDC sample code write them
// (our own code in that style): each `Chart { … }` body below is what a SwiftUI view's
// body would hold, compiled against `import ChartReel` and rendered, and each test checks
// at known pixels that the frame shows what Swift Charts draws.

struct ToyShape: Identifiable {
    var color: String = "Green"
    var type: String
    var count: Double
    var id = UUID()
}

struct SalesSummary: Identifiable {
    let weekday: Date
    let sales: Int
    var id: Date { weekday }
}

struct Series: Identifiable {
    let city: String
    let sales: [SalesSummary]
    var id: String { city }
}

struct MonthlyHoursOfSunshine: Identifiable {
    var date: Date
    var hoursOfSunshine: Double
    var id: Date { date }
    init(month: Int, hoursOfSunshine: Double) {
        self.date = ChartReelSwiftChartsTests.utc(2024, month, 1)
        self.hoursOfSunshine = hoursOfSunshine
    }
}

struct TemperatureRange: Identifiable {
    var month: String
    var low: Double
    var high: Double
    var id: String { month }
}

struct Pancake: Identifiable {
    var name: String
    var sales: Int
    var id: String { name }
}

enum ChartReelSwiftChartsTests {
    static func utc(_ y: Int, _ m: Int, _ d: Int) -> Date { date(y, m, d) }
}

let stackedToys: [ToyShape] = [
    .init(color: "Green", type: "Cube", count: 2),
    .init(color: "Green", type: "Sphere", count: 0),
    .init(color: "Green", type: "Pyramid", count: 1),
    .init(color: "Purple", type: "Cube", count: 1),
    .init(color: "Purple", type: "Sphere", count: 1),
    .init(color: "Purple", type: "Pyramid", count: 1),
    .init(color: "Pink", type: "Cube", count: 1),
    .init(color: "Pink", type: "Sphere", count: 2),
    .init(color: "Pink", type: "Pyramid", count: 0),
]

let cupertino: [SalesSummary] = [
    .init(weekday: date(2024, 5, 6), sales: 54), .init(weekday: date(2024, 5, 7), sales: 42),
    .init(weekday: date(2024, 5, 8), sales: 88), .init(weekday: date(2024, 5, 9), sales: 49),
    .init(weekday: date(2024, 5, 10), sales: 42), .init(weekday: date(2024, 5, 11), sales: 125),
    .init(weekday: date(2024, 5, 12), sales: 67),
]

let sanFrancisco: [SalesSummary] = [
    .init(weekday: date(2024, 5, 6), sales: 81), .init(weekday: date(2024, 5, 7), sales: 90),
    .init(weekday: date(2024, 5, 8), sales: 52), .init(weekday: date(2024, 5, 9), sales: 72),
    .init(weekday: date(2024, 5, 10), sales: 84), .init(weekday: date(2024, 5, 11), sales: 84),
    .init(weekday: date(2024, 5, 12), sales: 137),
]

let cities: [Series] = [
    .init(city: "Cupertino", sales: cupertino),
    .init(city: "San Francisco", sales: sanFrancisco),
]

let sunshine: [MonthlyHoursOfSunshine] = [
    MonthlyHoursOfSunshine(month: 1, hoursOfSunshine: 74), MonthlyHoursOfSunshine(month: 2, hoursOfSunshine: 99),
    MonthlyHoursOfSunshine(month: 3, hoursOfSunshine: 140), MonthlyHoursOfSunshine(month: 4, hoursOfSunshine: 178),
    MonthlyHoursOfSunshine(month: 5, hoursOfSunshine: 220), MonthlyHoursOfSunshine(month: 6, hoursOfSunshine: 245),
    MonthlyHoursOfSunshine(month: 7, hoursOfSunshine: 262), MonthlyHoursOfSunshine(month: 8, hoursOfSunshine: 240),
    MonthlyHoursOfSunshine(month: 9, hoursOfSunshine: 190), MonthlyHoursOfSunshine(month: 10, hoursOfSunshine: 130),
    MonthlyHoursOfSunshine(month: 11, hoursOfSunshine: 82), MonthlyHoursOfSunshine(month: 12, hoursOfSunshine: 62),
]

let temperatures: [TemperatureRange] = [
    .init(month: "Jan", low: 2, high: 9), .init(month: "Feb", low: 3, high: 11),
    .init(month: "Mar", low: 5, high: 15), .init(month: "Apr", low: 8, high: 19),
]

let pancakes: [Pancake] = [
    .init(name: "Cachapa", sales: 916), .init(name: "Injera", sales: 850),
    .init(name: "Crêpe", sales: 802), .init(name: "Jian Bing", sales: 753),
]

final class SwiftChartsSourceTests: XCTestCase {
    let toys: [ToyShape] = [
        .init(type: "Cube", count: 5),
        .init(type: "Sphere", count: 4),
        .init(type: "Pyramid", count: 4),
    ]

    // 1. The first chart of "Creating a chart using Swift Charts".
    func testBarChartOfToyShapes() throws {
        let chart = Chart(toys) { shape in
            BarMark(
                x: .value("Shape Type", shape.type),
                y: .value("Total Count", shape.count)
            )
        }
        let r = try Rendered(chart)
        let blue = Palette.color(0)
        for (i, toy) in toys.enumerated() {
            let top = r.state.y(toy.count)
            XCTAssertTrue(r.isColor(r.bandX(i), top + 3, blue), "\(toy.type)'s bar reaches its count")
            XCTAssertFalse(r.isColor(r.bandX(i), top - 3, blue), "\(toy.type)'s bar stops at its count")
        }
        // Swift Charts' automatic axes: category labels under the plot, value labels on
        // the trailing side, a grid line at each value tick.
        XCTAssertGreaterThan(r.ink(in: Rect(x: r.plot.minX, y: r.plot.maxY + 1, width: r.plot.width, height: 20)), 30)
        XCTAssertGreaterThan(r.ink(in: Rect(x: r.plot.maxX + 2, y: r.plot.minY, width: 30, height: r.plot.height)), 30)
        let tick = try XCTUnwrap(r.state.yTicks.first { $0.value > 0 })
        XCTAssertFalse(r.isColor(r.plot.minX + 2, r.state.y(tick.value).rounded(.down) + 0.5, .white, tolerance: 0.01),
                       "a grid line at \(tick.label)")
    }

    // 2. Stacked bars: foregroundStyle(by:) splits the bars, which stack by default.
    func testStackedBarsByColor() throws {
        let chart = Chart {
            ForEach(stackedToys) { shape in
                BarMark(
                    x: .value("Shape Type", shape.type),
                    y: .value("Total Count", shape.count)
                )
                .foregroundStyle(by: .value("Shape Color", shape.color))
            }
        }
        let r = try Rendered(chart)
        // The cube: green 0…2, purple 2…3, pink 3…4, one above the other.
        let x = r.bandX(0)
        XCTAssertTrue(r.isColor(x, r.state.y(1), Palette.color(0)))
        XCTAssertTrue(r.isColor(x, r.state.y(2.5), Palette.color(1)))
        XCTAssertTrue(r.isColor(x, r.state.y(3.5), Palette.color(2)))
        XCTAssertFalse(r.isColor(x, r.state.y(4) - 3, Palette.color(2)), "the stack ends at 4")
        // A legend of the three colours, below the plot.
        let legend = Rect(x: 0, y: r.plot.maxY + 20, width: 480, height: 320 - r.plot.maxY - 20)
        for i in 0..<3 { XCTAssertNotNil(r.box(of: Palette.color(i), in: legend), "legend swatch \(i)") }
    }

    // 3. Grouped bars: position(by:) puts the colours side by side in each band.
    func testGroupedBarsStandSideBySide() throws {
        let chart = Chart {
            ForEach(stackedToys) { shape in
                BarMark(
                    x: .value("Shape Type", shape.type),
                    y: .value("Total Count", shape.count)
                )
                .foregroundStyle(by: .value("Shape Color", shape.color))
                .position(by: .value("Shape Color", shape.color))
                .annotation(position: .top) {
                    Text("\(Int(shape.count))")
                }
            }
        }
        .chartYScale(domain: 0...3)
        let r = try Rendered(chart)
        let cubeBand = Rect(x: r.bandX(0) - 60, y: r.plot.minY, width: 120, height: r.plot.height)
        let green = try XCTUnwrap(r.box(of: Palette.color(0), in: cubeBand))
        let purple = try XCTUnwrap(r.box(of: Palette.color(1), in: cubeBand))
        let pink = try XCTUnwrap(r.box(of: Palette.color(2), in: cubeBand))
        XCTAssertLessThanOrEqual(green.maxX, purple.minX + 1, "green left of purple")
        XCTAssertLessThanOrEqual(purple.maxX, pink.minX + 1, "purple left of pink")
        // Not stacked: every bar starts at zero, the green one reaches 2, the others 1.
        XCTAssertEqual(green.maxY, purple.maxY, accuracy: 1)
        XCTAssertEqual(green.minY, r.state.y(2), accuracy: 1.5)
        XCTAssertEqual(purple.minY, r.state.y(1), accuracy: 1.5)
        // Each count stands over its own bar, not over the middle of the band.
        for bar in [green, purple] {
            let above = Rect(x: bar.midX - 12, y: bar.minY - 18, width: 24, height: 16)
            var xs: [Double] = []
            for y in Int(above.minY)..<Int(above.maxY) { for x in Int(above.minX)..<Int(above.maxX) {
                if let c = r.frame.color(x: x, y: y), c.r < 0.5, c.g < 0.5, c.b < 0.5 { xs.append(Double(x) + 0.5) }
            } }
            XCTAssertGreaterThan(xs.count, 3, "a label over the bar at \(bar.midX)")
            XCTAssertEqual(((xs.min() ?? 0) + (xs.max() ?? 0)) / 2, bar.midX, accuracy: 3, "centred on its bar")
        }
        XCTAssertEqual(r.spec.legendEntries.count, 3, "one legend entry per colour, though bars and labels both name them")
    }

    // 4. Lines per city over dates, from "Visualizing your app's data" (WWDC22).
    func testLinesPerSeriesWithSymbolsAndCatmullRom() throws {
        let chart = Chart {
            ForEach(cities) { series in
                ForEach(series.sales) { element in
                    LineMark(
                        x: .value("Day", element.weekday, unit: .day),
                        y: .value("Sales", element.sales)
                    )
                }
                .foregroundStyle(by: .value("City", series.city))
                .symbol(by: .value("City", series.city))
                .interpolationMethod(.catmullRom)
            }
        }
        let r = try Rendered(chart)
        // Each city's line passes through its Saturday value (noon of May 11, the middle of its day).
        let saturday = date(2024, 5, 11).timeIntervalSince1970 + 43_200
        let x = r.state.x(saturday)
        let cupertinoY = r.state.y(125), sanFranciscoY = r.state.y(84)
        XCTAssertNotNil(r.box(of: Palette.color(0), in: Rect(x: x - 3, y: cupertinoY - 4, width: 6, height: 8)))
        XCTAssertNotNil(r.box(of: Palette.color(1), in: Rect(x: x - 3, y: sanFranciscoY - 4, width: 6, height: 8)))
        // San Francisco's symbol is a square: its corner is inked where a circle's is not.
        let monday = r.state.x(date(2024, 5, 6).timeIntervalSince1970 + 43_200)
        XCTAssertTrue(r.isColor(monday + 2.5, r.state.y(81) - 2.5, Palette.color(1), tolerance: 0.1), "square corner")
        XCTAssertFalse(r.isColor(r.state.x(date(2024, 5, 8).timeIntervalSince1970 + 43_200) + 3.5, r.state.y(88) - 3.5,
                                 Palette.color(0), tolerance: 0.1), "circle has no corner")
    }

    // 5. An area under a line, filled with a gradient (the WWDC "Swift Charts: Raise the bar" style).
    func testAreaWithLinearGradient() throws {
        let chart = Chart(sunshine) {
            AreaMark(
                x: .value("Month", $0.date, unit: .month),
                y: .value("Hours of Sunshine", $0.hoursOfSunshine)
            )
            .foregroundStyle(
                .linearGradient(
                    colors: [.orange, .orange.opacity(0.1)],
                    startPoint: .top,
                    endPoint: .bottom
                )
            )
            LineMark(
                x: .value("Month", $0.date, unit: .month),
                y: .value("Hours of Sunshine", $0.hoursOfSunshine)
            )
            .foregroundStyle(.orange)
            .lineStyle(StrokeStyle(lineWidth: 3))
        }
        let r = try Rendered(chart)
        let july = r.state.x(date(2024, 7, 16).timeIntervalSince1970)
        let high = try XCTUnwrap(r.color(july, r.state.y(250)))
        let low = try XCTUnwrap(r.color(july, r.state.y(20)))
        XCTAssertLessThan(high.b, low.b, "more orange near the top of the area than near its foot")
        XCTAssertTrue(r.isColor(july, r.state.y(262), .orange, tolerance: 0.08), "the 3 px line on top")
        // The month's middle: the domain covers whole months, January 1 to January 1.
        XCTAssertEqual(r.state.xResolved.domain.0, date(2024, 1, 1).timeIntervalSince1970)
        XCTAssertEqual(r.state.xResolved.domain.1, date(2025, 1, 1).timeIntervalSince1970)
    }

    // 6. AxisMarks(values: .stride(by: .month)): grid lines and ticks at month starts.
    func testDateAxisStridesByMonth() throws {
        let chart = Chart(sunshine) { item in
            LineMark(
                x: .value("Month", item.date),
                y: .value("Hours of Sunshine", item.hoursOfSunshine)
            )
        }
        .chartXAxis {
            AxisMarks(values: .stride(by: .month)) { value in
                AxisGridLine()
                AxisTick()
                AxisValueLabel(format: .dateTime.month(.narrow))
            }
        }
        let r = try Rendered(chart, width: 600)
        let grid = Color.hex("#DBDBDE")
        for month in 2...11 {
            let x = r.state.x(date(2024, month).timeIntervalSince1970)
            let px = x.rounded(.down) + 0.5
            XCTAssertTrue(r.isColor(px, r.plot.maxY - 6, grid, tolerance: 0.03), "grid line at the start of month \(month)")
            XCTAssertTrue(r.isColor(px + 6, r.plot.maxY - 6, .white, tolerance: 0.01), "nothing a few pixels later")
        }
        XCTAssertEqual(r.state.xTicks.map(\.label).prefix(4), ["J", "F", "M", "A"])
    }

    // 7. Floating bars between two values (a range chart).
    func testRangeBars() throws {
        let chart = Chart(temperatures) { t in
            BarMark(
                x: .value("Month", t.month),
                yStart: .value("Low", t.low),
                yEnd: .value("High", t.high),
                width: .ratio(0.6)
            )
            .foregroundStyle(.teal)
            .cornerRadius(4)
        }
        let r = try Rendered(chart)
        for (i, t) in temperatures.enumerated() {
            let bar = try XCTUnwrap(r.box(of: .teal, in: Rect(x: r.bandX(i) - 50, y: r.plot.minY, width: 100, height: r.plot.height)))
            XCTAssertEqual(bar.minY, r.state.y(t.high), accuracy: 1.5, "\(t.month) high")
            XCTAssertEqual(bar.maxY, r.state.y(t.low), accuracy: 1.5, "\(t.month) low")
        }
    }

    // 8. A rule at the average, dashed, over bars, with its annotation.
    func testRuleMarkAtAverageWithDash() throws {
        let average = 4.0
        let chart = Chart {
            ForEach(toys) { shape in
                BarMark(
                    x: .value("Shape Type", shape.type),
                    y: .value("Total Count", shape.count)
                )
                .foregroundStyle(.gray.opacity(0.4))
            }
            RuleMark(y: .value("Average", average))
                .foregroundStyle(.red)
                .lineStyle(StrokeStyle(lineWidth: 2, dash: [6, 4]))
                .annotation(position: .top, alignment: .leading) {
                    Text("Average: \(average, format: .number)")
                        .font(.caption)
                        .foregroundStyle(.red)
                }
        }
        .chartYScale(domain: 0...6)
        let r = try Rendered(chart)
        let y = r.state.y(average)
        var red = 0, gaps = 0
        for x in stride(from: r.plot.minX + 2, to: r.plot.maxX - 2, by: 1) {
            if r.isColor(x, y - 0.5, .red, tolerance: 0.1) || r.isColor(x, y + 0.5, .red, tolerance: 0.1) { red += 1 } else { gaps += 1 }
        }
        XCTAssertGreaterThan(red, Int(r.plot.width * 0.4), "the rule crosses the plot at the average")
        XCTAssertGreaterThan(gaps, Int(r.plot.width * 0.25), "dashed")
        // Its label sits above the rule at the plot's leading edge.
        let label = Rect(x: r.plot.minX, y: y - 20, width: 90, height: 17)
        XCTAssertGreaterThan(r.count(in: label) { $0.r - $0.g > 0.4 }, 20, "the annotation's red text")
        XCTAssertEqual(r.count(in: Rect(x: r.plot.midX, y: y - 20, width: 90, height: 17)) { $0.r - $0.g > 0.4 }, 0,
                       "nothing at the middle: the label is aligned leading")
    }

    // 9. Points with a symbol per species and a symbol size in square points.
    func testPointsWithSymbols() throws {
        struct Flower: Identifiable { var species: String; var length: Double; var width: Double; var id = UUID() }
        let flowers = [Flower(species: "setosa", length: 1, width: 1), Flower(species: "virginica", length: 3, width: 3)]
        let chart = Chart(flowers) {
            PointMark(
                x: .value("Petal Length", $0.length),
                y: .value("Petal Width", $0.width)
            )
            .foregroundStyle(.purple)
            .symbol(by: .value("Species", $0.species))
            .symbolSize(200)
        }
        let r = try Rendered(chart)
        // symbolSize(200) is an area: a circle 16 px across, a square of the same area.
        let circle = try XCTUnwrap(r.box(of: .purple, in: Rect(x: r.state.x(1) - 15, y: r.state.y(1) - 15, width: 30, height: 30)))
        XCTAssertEqual(circle.width, 16, accuracy: 1.5)
        let sx = r.state.x(3), sy = r.state.y(3)
        XCTAssertTrue(r.isColor(sx + 6, sy - 6, .purple, tolerance: 0.1), "the second species is a square (corner inked)")
        XCTAssertFalse(r.isColor(r.state.x(1) + 6, r.state.y(1) - 6, .purple, tolerance: 0.1), "the first a circle")
    }

    // 10. A pie chart (iOS 17's SectorMark): slices by product, no axes, a legend.
    func testPieChart() throws {
        let chart = Chart(pancakes) { pancake in
            SectorMark(angle: .value("Sales", pancake.sales))
                .foregroundStyle(by: .value("Name", pancake.name))
        }
        let r = try Rendered(chart, width: 400, height: 400)
        let c = Point(r.plot.midX, r.plot.midY), radius = min(r.plot.width, r.plot.height) / 2
        // Cachapa's slice starts at 12 o'clock and runs clockwise: just right of the top.
        XCTAssertTrue(r.isColor(c.x + 10, c.y - radius * 0.7, Palette.color(0)))
        // The last slice ends at 12 o'clock: just left of the top.
        XCTAssertTrue(r.isColor(c.x - 10, c.y - radius * 0.7, Palette.color(3)))
        XCTAssertTrue(r.state.xTicks.isEmpty || r.spec.axes.isEmpty, "a pie has no axes")
        XCTAssertNotNil(r.spec.legend, "slices are listed in a legend")
    }

    // 11. A donut with an inner radius ratio and angular insets.
    func testDonutChart() throws {
        let chart = Chart(pancakes) { pancake in
            SectorMark(
                angle: .value("Sales", pancake.sales),
                innerRadius: .ratio(0.618),
                angularInset: 1.5
            )
            .foregroundStyle(by: .value("Name", pancake.name))
        }
        .chartLegend(.hidden)
        let r = try Rendered(chart, width: 400, height: 400)
        let c = Point(r.plot.midX, r.plot.midY), radius = min(r.plot.width, r.plot.height) / 2
        XCTAssertTrue(r.isColor(c.x, c.y, .white, tolerance: 0.01), "the hole")
        XCTAssertTrue(r.isColor(c.x, c.y - radius * 0.5, .white, tolerance: 0.01), "still the hole at half the radius")
        XCTAssertTrue(r.isColor(c.x + 8, c.y - radius * 0.8, Palette.color(0)), "the ring")
        XCTAssertFalse(r.isColor(c.x, c.y - radius * 0.8, Palette.color(0), tolerance: 0.1), "the inset at 12 o'clock")
        XCTAssertFalse(r.isColor(c.x, c.y - radius * 0.8, Palette.color(3), tolerance: 0.1), "the inset at 12 o'clock")
        XCTAssertNil(r.spec.legend)
    }

    // 12. Annotations above bars.
    func testAnnotationsAboveBars() throws {
        let chart = Chart(toys) { shape in
            BarMark(
                x: .value("Shape Type", shape.type),
                y: .value("Total Count", shape.count)
            )
            .annotation(position: .top, alignment: .center) {
                Text("\(Int(shape.count))")
                    .font(.caption)
                    .foregroundStyle(.red)
            }
        }
        .chartYScale(domain: 0...7)
        let r = try Rendered(chart)
        for (i, toy) in toys.enumerated() {
            let above = Rect(x: r.bandX(i) - 12, y: r.state.y(toy.count) - 20, width: 24, height: 18)
            XCTAssertGreaterThan(r.count(in: above) { $0.r - $0.g > 0.3 }, 4, "\(toy.type)'s count above its bar")
        }
        XCTAssertEqual(r.spec.marks.compactMap { ($0 as? TextMarkSpec)?.fontSize }, [12])
    }

    // 13. A logarithmic y scale: each power of ten an equal step up.
    func testLogScale() throws {
        struct Reading { var day: Int; var value: Double }
        let readings = [Reading(day: 1, value: 1), Reading(day: 2, value: 10), Reading(day: 3, value: 100), Reading(day: 4, value: 1000)]
        let chart = Chart(readings, id: \.day) { reading in
            PointMark(x: .value("Day", reading.day), y: .value("Value", reading.value))
                .foregroundStyle(.blue)
        }
        .chartYScale(domain: 1...1000, type: .log)
        let r = try Rendered(chart)
        var ys: [Double] = []
        for reading in readings {
            let x = r.state.x(Double(reading.day))
            let b = try XCTUnwrap(r.box(of: .blue, in: Rect(x: x - 8, y: r.plot.minY - 8, width: 16, height: r.plot.height + 16)))
            ys.append(b.midY)
        }
        XCTAssertEqual(ys[0] - ys[1], ys[1] - ys[2], accuracy: 1.5)
        XCTAssertEqual(ys[1] - ys[2], ys[2] - ys[3], accuracy: 1.5)
        XCTAssertEqual(ys[0] - ys[3], r.plot.height, accuracy: 2)
    }

    // 14. A legend on top, and colours chosen with chartForegroundStyleScale.
    func testLegendPositionAndForegroundStyleScale() throws {
        struct Drink: Identifiable { var day: String; var kind: String; var cups: Double; var id = UUID() }
        let drinks = [Drink(day: "Mon", kind: "Coffee", cups: 2), Drink(day: "Mon", kind: "Tea", cups: 1),
                      Drink(day: "Tue", kind: "Coffee", cups: 3), Drink(day: "Tue", kind: "Tea", cups: 2)]
        let chart = Chart(drinks) { drink in
            BarMark(x: .value("Day", drink.day), y: .value("Cups", drink.cups))
                .foregroundStyle(by: .value("Drink", drink.kind))
        }
        .chartForegroundStyleScale([
            "Coffee": .brown, "Tea": .green,
        ])
        .chartLegend(position: .top, alignment: .leading)
        let r = try Rendered(chart)
        XCTAssertTrue(r.isColor(r.bandX(1), r.state.y(1.5), .brown))
        XCTAssertTrue(r.isColor(r.bandX(1), r.state.y(4), .green))
        let above = Rect(x: 0, y: 0, width: 480, height: r.plot.minY)
        XCTAssertNotNil(r.box(of: .brown, in: above), "the legend's coffee swatch, above the plot")
        XCTAssertNotNil(r.box(of: .green, in: above))
    }

    // 15. Step lines: stepStart holds each value until the next point.
    func testStepStartInterpolation() throws {
        struct Level { var hour: Int; var level: Double }
        let levels = [Level(hour: 0, level: 2), Level(hour: 1, level: 8), Level(hour: 2, level: 4)]
        let chart = Chart(levels, id: \.hour) {
            LineMark(x: .value("Hour", $0.hour), y: .value("Level", $0.level))
                .interpolationMethod(.stepStart)
                .foregroundStyle(.indigo)
                .lineStyle(StrokeStyle(lineWidth: 4))
        }
        let r = try Rendered(chart)
        // Flat at 2 until hour 1, then up to 8.
        XCTAssertTrue(r.isColor(r.state.x(0.5), r.state.y(2), .indigo, tolerance: 0.1))
        XCTAssertFalse(r.isColor(r.state.x(0.5), r.state.y(5), .indigo, tolerance: 0.2))
        XCTAssertTrue(r.isColor(r.state.x(1), r.state.y(5), .indigo, tolerance: 0.1))
        XCTAssertTrue(r.isColor(r.state.x(1.5), r.state.y(8), .indigo, tolerance: 0.1))
    }

    // 16. A heat map of RectangleMarks over two band axes.
    func testRectangleMarkHeatMap() throws {
        struct Cell: Identifiable { var day: String; var slot: String; var busy: Bool; var id: String { day + slot } }
        let cells = [Cell(day: "Mon", slot: "AM", busy: true), Cell(day: "Mon", slot: "PM", busy: false),
                     Cell(day: "Tue", slot: "AM", busy: false), Cell(day: "Tue", slot: "PM", busy: true)]
        let chart = Chart(cells) { cell in
            RectangleMark(
                x: .value("Day", cell.day),
                y: .value("Slot", cell.slot)
            )
            .foregroundStyle(by: .value("Busy", cell.busy ? "busy" : "free"))
        }
        .chartForegroundStyleScale(["busy": .red, "free": .mint])
        .chartXAxis(.hidden)
        .chartYAxis(.hidden)
        .chartLegend(.hidden)
        let r = try Rendered(chart, width: 300, height: 300)
        // Cells tile their bands: Mon/AM red, Mon/PM mint, Tue/AM mint, Tue/PM red.
        XCTAssertTrue(r.isColor(r.state.x(0), r.state.y(0), .red))
        XCTAssertTrue(r.isColor(r.state.x(0), r.state.y(1), .mint))
        XCTAssertTrue(r.isColor(r.state.x(1), r.state.y(0), .mint))
        XCTAssertTrue(r.isColor(r.state.x(1), r.state.y(1), .red))
        XCTAssertTrue(r.spec.axes.isEmpty)
        XCTAssertEqual(r.ink(in: Rect(x: 0, y: r.plot.maxY + 2, width: 300, height: 300 - r.plot.maxY - 2)), 0, "no axis, no legend")
    }

    // 17. Bars per month of dates: each spans its month.
    func testBarsWithMonthUnitSpanTheirMonth() throws {
        let chart = Chart(sunshine) {
            BarMark(
                x: .value("Month", $0.date, unit: .month),
                y: .value("Hours of Sunshine", $0.hoursOfSunshine)
            )
        }
        let r = try Rendered(chart, width: 600)
        let march = try XCTUnwrap(r.box(of: Palette.color(0), in: Rect(x: r.state.x(date(2024, 3, 1).timeIntervalSince1970),
                                                                           y: r.plot.minY, width: r.state.x(date(2024, 4, 1).timeIntervalSince1970) - r.state.x(date(2024, 3, 1).timeIntervalSince1970),
                                                                           height: r.plot.height)))
        let monthWidth = r.state.x(date(2024, 4, 1).timeIntervalSince1970) - r.state.x(date(2024, 3, 1).timeIntervalSince1970)
        XCTAssertGreaterThan(march.width, monthWidth * 0.8, "the bar fills most of its month")
        XCTAssertEqual(march.midX, (r.state.x(date(2024, 3, 1).timeIntervalSince1970) + r.state.x(date(2024, 4, 1).timeIntervalSince1970)) / 2, accuracy: 1.5)
    }

    // 18. Per-row marks that differ from row to row (an `if` in the builder), the y axis
    //     on the leading side, axis labels.
    func testPerRowMarksWithConditionsAndLeadingAxis() throws {
        let chart = Chart(toys) { shape in
            BarMark(x: .value("Shape Type", shape.type), y: .value("Total Count", shape.count))
            if shape.count > 4 {
                PointMark(x: .value("Shape Type", shape.type), y: .value("Total Count", shape.count + 1))
                    .foregroundStyle(.orange)
            }
        }
        .chartYAxis {
            AxisMarks(position: .leading)
        }
        .chartXAxisLabel("Shape")
        .chartYAxisLabel("Count")
        let r = try Rendered(chart)
        XCTAssertNotNil(r.box(of: .orange, in: Rect(x: r.bandX(0) - 10, y: r.state.y(6) - 10, width: 20, height: 20)), "the cube's dot")
        XCTAssertNil(r.box(of: .orange, in: Rect(x: r.bandX(1) - 10, y: r.plot.minY, width: 20, height: r.plot.height)), "no dot for the sphere")
        XCTAssertEqual(r.spec.axes.map(\.side), [.bottom, .leading])
        XCTAssertEqual(r.spec.axes.map(\.title), ["Shape", "Count"])
        XCTAssertGreaterThan(r.ink(in: Rect(x: 0, y: r.plot.minY, width: r.plot.minX - 1, height: r.plot.height)), 50, "labels to the left")
    }
}

extension SwiftChartsSourceTests {
    // 19. A chart over a slice and over a range, as Swift Charts takes any collection.
    func testChartsOverASliceAndARange() throws {
        let firstTwo = Chart(toys.prefix(2)) { shape in
            BarMark(x: .value("Shape Type", shape.type), y: .value("Total Count", shape.count))
        }
        let r = try Rendered(firstTwo)
        XCTAssertEqual(r.state.xResolved.categories, ["Cube", "Sphere"])
        let squares = Chart(0..<5) { n in
            PointMark(x: .value("n", n), y: .value("n²", n * n))
                .foregroundStyle(.pink)
        }
        let s = try Rendered(squares)
        XCTAssertTrue(s.isColor(s.state.x(3), s.state.y(9), .pink))
        XCTAssertEqual(s.state.yResolved.domain.1, 16)
    }
}

extension SwiftChartsSourceTests {
    // 20. zIndex: a mark declared first but with a higher z-index is drawn on top.
    func testZIndexDrawsAMarkOnTop() throws {
        let chart = Chart {
            ForEach(toys) { shape in
                PointMark(x: .value("Shape Type", shape.type), y: .value("Total Count", shape.count))
                    .foregroundStyle(.yellow)
                    .symbolSize(400)
                    .zIndex(1)
                BarMark(x: .value("Shape Type", shape.type), y: .value("Total Count", shape.count))
                    .foregroundStyle(.indigo)
                    .opacity(0.5)
            }
        }
        let r = try Rendered(chart)
        // At the top of each bar the yellow dot covers the half-transparent indigo bar.
        for i in toys.indices {
            XCTAssertTrue(r.isColor(r.bandX(i), r.state.y(toys[i].count) + 3, .yellow), "the dot over bar \(i)")
        }
        // Below the dot the bar is indigo at half strength over white.
        let bar = try XCTUnwrap(r.color(r.bandX(0), r.state.y(1.5)))
        XCTAssertEqual(bar.r, (Color.indigo.r + 1) / 2, accuracy: 0.03)
        XCTAssertEqual(r.spec.marks.map(\.kind), [.bar, .point], "drawn in z order")
    }
}

extension SwiftChartsSourceTests {
    // 21. One bar of one value, its series stacked along it (a part-to-whole bar).
    func testOneDimensionalStackedBar() throws {
        let chart = Chart(pancakes) { pancake in
            BarMark(x: .value("Sales", pancake.sales))
                .foregroundStyle(by: .value("Name", pancake.name))
        }
        .chartXAxis(.hidden)
        .chartLegend(.hidden)
        let r = try Rendered(chart, height: 120)
        let y = r.plot.midY
        var start = 0.0
        for (i, p) in pancakes.enumerated() {
            let mid = start + Double(p.sales) / 2
            XCTAssertTrue(r.isColor(r.state.x(mid), y, Palette.color(i)), "\(p.name) from \(start) to \(start + Double(p.sales))")
            start += Double(p.sales)
        }
        XCTAssertEqual(r.state.xResolved.domain.1, start, "the bar runs to the total")
    }
}

/// The grid Swift Charts draws unasked is its light grey (#DBDBDE) on a light scene and
/// follows a dark background as every guide colour left unset does (timeline-format.md,
/// `canvas`): #424242 on #111827.
final class SwiftChartsGridBackdropTests: XCTestCase {
    let toys: [ToyShape] = [.init(type: "Cube", count: 5), .init(type: "Sphere", count: 4), .init(type: "Pyramid", count: 4)]

    /// The colour of the grid line at the first value tick above zero, near the plot's
    /// leading edge, on a scene of `background`.
    func gridPixel(background: Color) throws -> Color? {
        let chart = Chart(toys) { shape in BarMark(x: .value("Shape Type", shape.type), y: .value("Total Count", shape.count)) }
        let r = try Rendered(chart)
        let scene = try ChartScene(width: 480, height: 320, fps: 10, background: background) { chart }
        let frame = scene.frame(at: scene.duration)
        let tick = try XCTUnwrap(r.state.yTicks.first { $0.value > 0 })
        return frame.color(x: Int(r.plot.minX) + 2, y: Int(r.state.y(tick.value).rounded(.down)))
    }

    func testTheUnaskedGridFollowsTheBackground() throws {
        func near(_ a: Color?, _ b: Color) -> Bool {
            guard let a else { return false }
            return abs(a.r - b.r) < 0.02 && abs(a.g - b.g) < 0.02 && abs(a.b - b.b) < 0.02
        }
        let light = try gridPixel(background: .white), dark = try gridPixel(background: .hex("#111827"))
        XCTAssertTrue(near(light, .hex("#DBDBDE")), "\(String(describing: light))")
        XCTAssertTrue(near(dark, ChartStyle.onDark.grid), "\(String(describing: dark))")
    }
}
