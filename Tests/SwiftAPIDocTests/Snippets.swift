// The code of docs/swift-api.md, verbatim. Each region from a `// doc:begin NAME` line to
// the next `// doc:end` line is one ```swift block of the page, in the page's order;
// DocSnippetTests checks both ways that they are the same text (after removing the
// region's common indentation), then runs them. Edit the page and this file together.
import Foundation
import XCTest
import ChartReel

// doc:begin intake
struct Intake {
    var day: Int
    var mg: Double
}

let week: [Intake] = [
    Intake(day: 1, mg: 5), Intake(day: 2, mg: 4), Intake(day: 3, mg: 15), Intake(day: 4, mg: 6),
    Intake(day: 5, mg: 9), Intake(day: 6, mg: 12), Intake(day: 7, mg: 14), Intake(day: 8, mg: 11),
]
// doc:end

enum Snippets {
    static func curvedLineReveal() throws -> ChartScene {
        // doc:begin curved-line-reveal
        let scene = try ChartScene(width: 800, height: 600, fps: 60) {
            Chart(week) {
                AreaMark(x: .value("Day", \.day), y: .value("Caffeine", \.mg))
                    .id("fill")
                    .interpolationMethod(.bezier(0.5))
                    .startAtOrigin()
                    .fill(.linearGradient([.white, .hex("#6A5ACD99")], from: .bottom, to: .top))
                    .animation(.opacity(from: 0), .easeInOut(duration: 1).delay(0.6))
                LineMark(x: .value("Day", \.day), y: .value("Caffeine", \.mg))
                    .id("line")
                    .interpolationMethod(.bezier(0.5))
                    .startAtOrigin()
                    .stroke(.linearGradient([.hex("#6A5ACD"), .hex("#00BFFF")]), lineWidth: 3)
                    .animation(.trim(from: 0), .easeInOut(duration: 0.8).delay(0.2))
            }
            .plotInset(40)
            .chartGrid(x: .every(1), y: .every(3), color: .hex("#D3D3D3"))
            .chartXAxis(values: [0, 1, 2, 3, 4, 5, 6, 7, 8], line: false, fadeIn: .easeInOut(duration: 0.3))
            .chartYAxis(values: [0, 3, 6, 9, 12, 15], line: false, fadeIn: .easeInOut(duration: 0.3))
        }
        // doc:end
        return scene
    }

    static func renderAndInspect(_ scene: ChartScene) throws -> (Pixmap, Rect?) {
        // doc:begin render
        try scene.render(to: URL(filePath: "caffeine.mp4"))
        try scene.render(to: URL(filePath: "frames/"))

        let frame = scene.frame(at: 0.6)
        try frame.write(to: URL(filePath: "caffeine-0.6s.png"))
        let ink = frame.bounds(ofInk: .white, in: Rect(x: 40, y: 40, width: 720, height: 520), tolerance: 60)
        // doc:end
        return (frame, ink)
    }
}

extension Snippets {
    static func perRow() throws -> ChartScene {
        // doc:begin per-row
        let scene = try ChartScene(width: 800, height: 600, fps: 60) {
            Chart(week) { day in
                AreaMark(x: .value("Day", day.day), y: .value("Caffeine", day.mg))
                    .interpolationMethod(.bezier(0.5))
                    .fill(.linearGradient([.white, .indigo.opacity(0.6)], from: .bottom, to: .top))
                    .animation(.opacity(from: 0), .easeInOut(duration: 1).delay(0.6))
                LineMark(x: .value("Day", day.day), y: .value("Caffeine", day.mg))
                    .stroke(.linearGradient([.indigo, .cyan]), lineWidth: 3)
                    .animation(.trim(from: 0), .easeInOut(duration: 0.8).delay(0.2))
            }
            .title("Caffeine (mg)")
        }
        // doc:end
        return scene
    }
}

extension Snippets {
    static func swiftCharts() throws -> ChartScene {
        // doc:begin swift-charts
        struct Sale: Identifiable {
            var product: String
            var quarter: String
            var units: Int
            var id: String { product + quarter }
        }

        let sales = [
            Sale(product: "Cups", quarter: "Q1", units: 120), Sale(product: "Cups", quarter: "Q2", units: 150),
            Sale(product: "Tea", quarter: "Q1", units: 80), Sale(product: "Tea", quarter: "Q2", units: 110),
        ]

        let scene = try ChartScene(width: 640, height: 400, fps: 30) {
            Chart {
                ForEach(sales) { sale in
                    BarMark(
                        x: .value("Quarter", sale.quarter),
                        y: .value("Units", sale.units)
                    )
                    .foregroundStyle(by: .value("Product", sale.product))
                    .position(by: .value("Product", sale.product))
                    .annotation(position: .top) {
                        Text("\(sale.units)")
                            .font(.caption)
                    }
                    .animation(.easeOut(duration: 0.6))
                }
                RuleMark(y: .value("Target", 100))
                    .foregroundStyle(.red)
                    .lineStyle(StrokeStyle(lineWidth: 2, dash: [6, 4]))
            }
            .chartForegroundStyleScale(["Cups": .brown, "Tea": .green])
            .chartYAxis {
                AxisMarks(position: .leading, values: .stride(by: 50))
            }
            .chartLegend(position: .top)
        }
        // doc:end
        return scene
    }
}

// doc:begin coffee-data
struct Caffeine {
    var day: String
    var mg: Double
}

let days: [Caffeine] = [
    Caffeine(day: "Mon", mg: 95), Caffeine(day: "Tue", mg: 140), Caffeine(day: "Wed", mg: 80),
    Caffeine(day: "Thu", mg: 120), Caffeine(day: "Fri", mg: 65), Caffeine(day: "Sat", mg: 30),
    Caffeine(day: "Sun", mg: 45),
]

let coffee = Color.hex("#8B5A2B")
// doc:end

// doc:begin coffee-card
/// One Coffee Book card: the same frame, scales and labels around different marks.
func caffeineCard(_ title: String, barPadding: Double = 0,
                  @ChartContentBuilder<Caffeine> marks: () -> [AnyMark<Caffeine>]) -> Chart {
    Chart(days, content: marks)
        .frame(height: 230)
        .title(title)
        .card(color: .hex("#F7F2EC"), cornerRadius: 16, padding: 16)
        .chartXScale(type: .band, padding: barPadding)
        .chartYScale(domain: 0...140)
        .extremeLabels(format: NumberFormat(maxFractionDigits: 0, suffix: " mg"))
        .chartXAxis(line: false, tickLength: 0)
}
// doc:end

extension Snippets {
    static func coffeeBook() throws -> ChartScene {
        // doc:begin coffee-book
        let day = PlottableValue<Caffeine>.value("Day", \.day)
        let mg = PlottableValue<Caffeine>.value("Caffeine", \.mg)

        let scene = try ChartScene(width: 640, height: nil, fps: 30,
                                   layout: DashboardLayout(columns: 1, spacing: 14, padding: 16)) {
            caffeineCard("Caffeine") {
                LineMark(x: day, y: mg)
                    .id("line")
                    .stroke(coffee, lineWidth: 3)
                    .animation(.trim(from: 0), .easeInOut(duration: 1).delay(0.2))
            }
            caffeineCard("Caffeine, with points") {
                LineMark(x: day, y: mg)
                    .id("dotted-line")
                    .interpolationMethod(.monotone)
                    .stroke(coffee, lineWidth: 3)
                    .animation(.trim(from: 0), .easeInOut(duration: 1).delay(0.4))
                PointMark(x: day, y: mg)
                    .id("dots")
                    .symbolSize(CGSize(width: 10, height: 10))
                    .fill(coffee)
                    .animation(.scale(from: 0), .easeOut(duration: 0.35).delay(0.4))
                    .stagger(each: 0.14)
            }
            caffeineCard("Caffeine, filled") {
                AreaMark(x: day, y: mg)
                    .id("fill")
                    .interpolationMethod(.bezier(0.5))
                    .fill(.linearGradient([coffee.opacity(0), coffee.opacity(0.8)]))
                    .animation(.opacity(from: 0), .easeInOut(duration: 0.8).delay(1.2))
                LineMark(x: day, y: mg)
                    .id("filled-line")
                    .interpolationMethod(.bezier(0.5))
                    .stroke(coffee, lineWidth: 3)
                    .animation(.trim(from: 0), .easeInOut(duration: 1).delay(0.6))
            }
            caffeineCard("Caffeine, by day", barPadding: 0.35) {
                BarMark(x: day, y: mg)
                    .id("bars")
                    .capsule()
                    .barWidth(0.45)
                    .fill(coffee)
                    .animation(.grow(from: 0), .easeOut(duration: 0.5).delay(0.8))
                    .stagger(each: 0.12)
            }
        }
        // doc:end
        return scene
    }

    static func babyNames() throws -> ChartScene {
        // doc:begin baby-names
        let names = try CSVReader.rows(contentsOf: URL(filePath: "timelines/data/baby-names.csv"),
                                       columns: ["name": .string, "year": .number, "count": .number])
        let year = PlottableValue<DataRow>.value("Year", field: "year")
        let births = PlottableValue<DataRow>.value("Births", field: "count")
        let name = PlottableValue<DataRow>.value("Name", field: "name")
        let plum = Color.hex("#5B2A86")

        let scene = try ChartScene(width: 960, height: 540, fps: 30) {
            Chart(names) {
                AreaMark(x: year, y: births)
                    .id("stream")
                    .foregroundStyle(by: name, ramp: [plum, .hex("#3A86FF66")])
                    .stacking(.center)
                    .interpolationMethod(.monotone)
                    .animation(.opacity(from: 0), .easeInOut(duration: 0.6).delay(0.3))
                    .stagger(each: 0.12)
                RuleMark(x: year)
                    .id("rulers")
                    .series(name)
                    .atPeak()
                    .blendMode(.darken)
                    .stroke(.linearGradient([plum, plum.opacity(0)], from: .top, to: .bottom), lineWidth: 1.5)
                    .animation(.trim(from: 0), .easeInOut(duration: 0.6).delay(1.6))
                    .stagger(each: 0.1)
                TextMark(x: year, y: births)
                    .id("labels")
                    .series(name)
                    .stacking(.center)
                    .atPeak()
                    .font(size: 11)
                    .foregroundStyle(.hex("#3A1C5C"))
                    .rotation(degrees: -90)
                    .background(.hex("#FFFFFFE6"), cornerRadius: 9, padding: (7, 2))
                    .animation(.opacity(from: 0), .easeInOut(duration: 0.4).delay(2))
                    .stagger(each: 0.1)
            }
            .title("A century of baby names", subtitle: "Births per year, 1920–2019 (illustrative data)",
                   fadeIn: .easeInOut(duration: 0.5))
            .card(color: .hex("#FBFAFF"), cornerRadius: 16, padding: 18)
            .chartXScale(domain: 1920...2019)
            .chartXAxis(values: [1920, 1940, 1960, 1980, 2000, 2019], format: .number(NumberFormat(maxFractionDigits: 0)),
                        fadeIn: .easeInOut(duration: 0.5))
        }
        // doc:end
        return scene
    }

    static func weatherDays() throws -> ChartScene {
        // doc:begin weather-days
        let weather = try CSVReader.rows(contentsOf: URL(filePath: "timelines/data/weather.csv"), columns: ["date": .date(nil)])
        let days = try weather.transformed([
            .aggregate([AggregateField(.count, as: "days")], groupBy: ["weather"]),
            .sort([SortKey("days", descending: true)]),
        ])

        let scene = try ChartScene(width: 480, height: 300, fps: 30) {
            Chart(days) {
                BarMark(x: .value("Weather", field: "weather"), y: .value("Weeks", field: "days"))
                    .foregroundStyle(.hex("#4E79A7"))
                    .cornerRadius(3)
                    .animation(.grow(from: 0), .easeOut(duration: 0.6))
                    .stagger(each: 0.1)
            }
            .title("Weeks by weather, January to April 2012")
            .chartXAxis()
            .chartYAxis()
        }
        // doc:end
        return scene
    }
}

// doc:begin flight-data
struct Flight {
    var day: String
    var delay: Double
    var status: String
}

let flights: [Flight] = [
    Flight(day: "10 days ago", delay: -4, status: "flown"),
    Flight(day: "9 days ago", delay: 12, status: "flown"),
    Flight(day: "8 days ago", delay: 38, status: "flown"),
    Flight(day: "7 days ago", delay: 0, status: "flown"),
    Flight(day: "6 days ago", delay: -9, status: "flown"),
    Flight(day: "5 days ago", delay: 60, status: "cancelled"),
    Flight(day: "4 days ago", delay: 21, status: "flown"),
    Flight(day: "3 days ago", delay: 5, status: "flown"),
    Flight(day: "2 days ago", delay: 55, status: "flown"),
    Flight(day: "1 day ago", delay: -2, status: "flown"),
]

struct Outcome {
    var status: String
    var flights: Int
}

let outcomes: [Outcome] = [
    Outcome(status: "On time", flights: 5), Outcome(status: "Short delay", flights: 2),
    Outcome(status: "Long delay", flights: 2), Outcome(status: "Cancelled", flights: 1),
]
// doc:end

extension Snippets {
    static func flightDelays() throws -> ChartScene {
        // doc:begin flight-delays
        let green = Color.hex("#30D158"), yellow = Color.hex("#FFD60A"), red = Color.hex("#FF453A")
        let darkRed = Color.hex("#8B0000")

        let scene = try ChartScene(width: 960, height: 420, fps: 30, background: .hex("#1C1C1E"),
                                   layout: DashboardLayout(columns: 2, spacing: 16, padding: 16)) {
            Chart(flights) {
                BarMark(x: .value("Delay", \.delay), y: .value("Day", \.day))
                    .id("bars")
                    .cornerRadius(3)
                    .foregroundStyle(valueGradient: [(0, green), (15, yellow), (60, red)])
                    .foregroundStyle(overriding: ["cancelled": darkRed], by: .value("Status", \.status))
                    .animation(.grow(from: 0), .easeOut(duration: 0.6))
                    .stagger(each: 0.08, from: .end)
            }
            .title("SFO 1432 — on-time history", subtitle: "Departure delay, minutes")
            .card(color: .hex("#2C2C2E"), cornerRadius: 14, padding: 14)
            .guideStyle(textColor: .hex("#F2F2F7"), secondaryTextColor: .hex("#AEAEB2"), axisColor: .hex("#636366"))
            .chartXScale(domain: -15...60)
            .chartYScale(type: .band, padding: 0.25)
            .chartGrid(x: .every(10), color: .hex("#48484A"), zeroColor: .white)
            .chartXAxis(values: [-10, 0, 10, 20, 30, 40, 50, 60],
                        format: .number(NumberFormat(maxFractionDigits: 0, suffix: "m")), line: false)
            .chartYAxis(line: false, tickLength: 0)

            Chart(outcomes) {
                SectorMark(angle: .value("Flights", \.flights), angularGap: 1.5)
                    .id("pie")
                    .foregroundStyle(by: .value("Status", \.status), colors: [green, yellow, red, darkRed])
                    .animation(.grow(from: 0), .easeInOut(duration: 1).delay(0.4))
            }
            .title("Last 10 flights", subtitle: "By outcome")
            .card(color: .hex("#2C2C2E"), cornerRadius: 14, padding: 14)
            .guideStyle(textColor: .hex("#F2F2F7"), secondaryTextColor: .hex("#AEAEB2"))
            .chartLegend(position: .bottom)
        }
        // doc:end
        return scene
    }
}

// doc:begin line-race
struct Share {
    let year: Double
    let country: String
    let share: Double
}

func lineRace(_ shares: [Share]) throws -> ChartScene {
    try ChartScene(width: 1280, height: 720, fps: 30) {
        Chart(shares, time: .value("year", \.year), key: .value("country", \.country),
              motion: ChartTime(perStep: 0.3, delay: 0.5, reveal: true)) {
            LineMark(x: .value("year", \.year), y: .value("share", \.share))
                .foregroundStyle(by: .value("country", \.country))
            PointMark(x: .value("year", \.year), y: .value("share", \.share))
                .heads()                                   // a dot at each line's head
                .foregroundStyle(by: .value("country", \.country))
            TextMark("{field:country} {field:share:.1f}", x: .value("year", \.year), y: .value("share", \.share))
                .heads().position(.trailing).separated()   // labels ride the heads, pushed apart
                .foregroundStyle(by: .value("country", \.country))
        }
        .chartXScale(follow: .max, padding: 0.2, minSpan: 10)  // the time axis grows to the right
        .chartYScale(nice: true)
        .chartYScale(follow: .max)                              // and the value axis follows the leader
        .periodLabel("{time}")
    }
}
// doc:end

// doc:begin testing
final class CaffeineChartTests: XCTestCase {
    func makeScene() throws -> ChartScene {
        try ChartScene(width: 400, height: 300, fps: 30) {
            Chart(week) {
                LineMark(x: .value("Day", \.day), y: .value("Caffeine", \.mg))
                    .stroke(.indigo, lineWidth: 3)
                    .animation(.trim(from: 0), .easeInOut(duration: 1).delay(0.5))
            }
            .plotInset(20)
        }
    }

    func testTheLineDrawsItselfFromTheLeft() throws {
        let scene = try makeScene()
        let plot = Rect(x: 20, y: 20, width: 360, height: 260)
        XCTAssertNil(scene.frame(at: 0.5).bounds(ofInk: .white, in: plot))
        let halfway = try XCTUnwrap(scene.frame(at: 1.0).bounds(ofInk: .white, in: plot))
        XCTAssertLessThan(halfway.maxX, 300)
        let drawn = try XCTUnwrap(scene.frame(at: 1.5).bounds(ofInk: .white, in: plot))
        XCTAssertGreaterThan(drawn.maxX, 370)
        XCTAssertEqual(scene.frame(at: 1.5).color(x: 379, y: 89), .indigo)
    }

    func testTheLastFrameMatchesItsReference() throws {
        let scene = try makeScene()
        let reference = URL(filePath: #filePath).deletingLastPathComponent()
            .appending(path: "References/caffeine-last-frame.png")
        try scene.frame(index: scene.frameCount - 1).verifyMatches(png: reference, tolerance: 1)
    }
}
// doc:end

// doc:begin raster-alone
func drawWave(to path: String) throws {
    let canvas = Canvas(width: 240, height: 120, background: .white)
    var wave = Path()
    wave.move(to: Point(20, 60))
    wave.cubic(to: Point(220, 60), control1: Point(90, -20), control2: Point(150, 140))
    canvas.stroke(wave, style: StrokeStyle(width: 6, cap: .round), paint: .solid(Color(hex: "#6A5ACD")!))
    canvas.fill(.circle(center: Point(120, 60), radius: 14), paint: .solid(Color(r: 1, g: 0.6, b: 0, a: 0.8)))
    try canvas.pixmap.writePNG(toFile: path)
}
// doc:end

// doc:begin motion-alone
let reveal = Animation.easeInOut(duration: 0.8).delay(0.2)
let trimEnd = Tween(from: 0, to: 1, animation: reveal)
let halfway = trimEnd.value(at: 0.6)                                   // 0.5
let pulse = Animation.spring(duration: 0.5, bounce: 0.3).repeatCount(3)
let starts = Stagger(.each(0.1), from: .center).offsets(count: 5)     // [0.2, 0.1, 0, 0.1, 0.2]
// doc:end
