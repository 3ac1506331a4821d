import XCTest
import Foundation
import ChartReel

/// Data in motion through both front doors: a line race (reveal, following axes, heads,
/// separated labels) and bubbles (log axis, size by area, enter effects, a wake, a period
/// label) written as a document and in Swift render the same bytes at every frame.
final class MotionParityTests: XCTestCase {
    struct Reading { let year: Double, k: String, v: Double }
    struct Country { let year: Int, k: String, region: String, gdp: Double, life: Double, pop: Double }

    static let readings: [Reading] = {
        var out: [Reading] = []
        for y in 0..<6 {
            out.append(Reading(year: 2000 + Double(y), k: "Ash", v: 2 + Double(y * y)))
            out.append(Reading(year: 2000 + Double(y), k: "Birch", v: 3 + 4 * Double(y)))
            out.append(Reading(year: 2000 + Double(y), k: "Cedar", v: 2.5 + 4.2 * Double(y)))
        }
        return out
    }()
    static let countries: [Country] = {
        var out: [Country] = []
        for (i, (k, region)) in [("Avon", "North"), ("Brill", "South"), ("Corrie", "North"), ("Dale", "South")].enumerated() {
            for y in 0..<5 where !(k == "Dale" && y < 2) {
                out.append(Country(year: 1990 + y * 10, k: k, region: region, gdp: 300 * pow(3, Double(i) * 0.5 + Double(y) * 0.6),
                                   life: 40 + Double(i * 4 + y * 6), pop: Double(5 + i * 20 + y * 3)))
            }
        }
        return out
    }()
    static let colours = ["#0072B2", "#E69F00", "#009E73"]

    static func json(_ value: [[String: Any]]) -> String {
        String(data: try! JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), encoding: .utf8)!
    }

    static var lineRaceDocument: String {
        let values = json(readings.map { ["year": $0.year, "k": $0.k, "v": $0.v] })
        return """
        { "canvas": { "width": 480, "height": 300, "background": "#FFFFFF" }, "fps": 10,
          "data": { "d": { "values": \(values) } },
          "charts": [ { "data": "d",
            "time": { "field": "year", "key": "k", "perStep": 0.5, "delay": 0.2, "reveal": true },
            "x": { "field": "year", "follow": { "ends": "max", "padding": 0.3, "minSpan": 2 } },
            "y": { "field": "v", "nice": true, "follow": "max" },
            "axes": [ { "side": "bottom" }, { "side": "leading" } ],
            "marks": [
              { "id": "lines", "type": "line", "series": "k", "color": { "colors": \(colours) } },
              { "id": "heads", "type": "point", "series": "k", "heads": true, "size": 7, "color": { "colors": \(colours) } },
              { "id": "labels", "type": "text", "series": "k", "heads": true, "color": { "colors": \(colours) },
                "text": { "value": "{field:k} {field:v:.1f}", "position": "trailing", "separate": true } } ] } ] }
        """
    }

    static func lineRaceScene() throws -> ChartScene {
        let c = colours.map { Color.hex($0) }
        return try ChartScene(width: 480, height: 300, fps: 10, background: .white) {
            Chart(readings, time: .value("year", \.year), key: .value("k", \.k), motion: ChartTime(perStep: 0.5, delay: 0.2, reveal: true)) {
                LineMark(x: .value("year", \.year), y: .value("v", \.v)).id("lines").foregroundStyle(by: .value("k", \.k), colors: c)
                PointMark(x: .value("year", \.year), y: .value("v", \.v)).id("heads").heads().symbolSize(CGSize(width: 7, height: 7))
                    .foregroundStyle(by: .value("k", \.k), colors: c)
                TextMark("{field:k} {field:v:.1f}", x: .value("year", \.year), y: .value("v", \.v)).id("labels").heads()
                    .foregroundStyle(by: .value("k", \.k), colors: c).position(.trailing).separated()
            }
            .chartXScale(follow: .max, padding: 0.3, minSpan: 2)
            .chartYScale(nice: true)
            .chartYScale(follow: .max)
            .chartXAxis()
            .chartYAxis()
        }
    }

    static var bubbleDocument: String {
        let values = json(countries.map { ["year": $0.year, "k": $0.k, "region": $0.region, "gdp": $0.gdp, "life": $0.life, "pop": $0.pop] })
        return """
        { "canvas": { "width": 480, "height": 300, "background": "#FFFFFF" }, "fps": 10,
          "data": { "d": { "values": \(values) } },
          "charts": [ { "data": "d",
            "time": { "field": "year", "key": "k", "perStep": 0.4, "enter": ["fade", "grow"] },
            "x": { "field": "gdp", "scale": "log", "domain": [100, 100000] },
            "y": { "field": "life", "domain": [30, 90] },
            "periodLabel": { "text": "{time}", "size": 60 },
            "marks": [
              { "id": "bubbles", "type": "point", "series": "region", "size": { "field": "pop", "range": [4, 40] }, "largestFirst": true,
                "color": { "colors": \(colours) }, "trail": { "length": 0.4, "copies": 3 } } ] } ] }
        """
    }

    static func bubbleScene() throws -> ChartScene {
        let c = colours.map { Color.hex($0) }
        return try ChartScene(width: 480, height: 300, fps: 10, background: .white) {
            Chart(countries, time: .value("year", \.year), key: .value("k", \.k),
                  motion: ChartTime(perStep: 0.4, enter: .init(fade: true, grow: true))) {
                PointMark(x: .value("gdp", \.gdp), y: .value("life", \.life)).id("bubbles")
                    .symbolSize(by: .value("pop", \.pop), range: 4...40).largestFirst()
                    .foregroundStyle(by: .value("region", \.region), colors: c)
                    .trail(TrailSpec(length: 0.4, copies: 3))
            }
            .chartXScale(domain: 100...100_000, type: .log)
            .chartYScale(domain: 30...90)
            .periodLabel("{time}", size: 60)
        }
    }

    func assertSameFrames(_ document: String, _ swift: ChartScene, file: StaticString = #filePath, line: UInt = #line) throws {
        let json = try TimelineDecoder.decode(Array(document.utf8), file: "motion.json")
        XCTAssertEqual(swift.frameCount, json.frameCount, file: file, line: line)
        XCTAssertGreaterThan(json.frameCount, 15, file: file, line: line)
        var distinct = Set<[UInt8]>()
        for i in 0..<json.frameCount {
            let a = swift.frame(index: i), b = json.frame(at: Scene.time(ofFrame: i, fps: json.fps))
            if a.data != b.data { XCTFail("frame \(i): \(try PixmapDifference(b, a).summary)", file: file, line: line) }
            distinct.insert(b.data)
        }
        XCTAssertGreaterThan(distinct.count, json.frameCount / 2, "the data moves in most frames", file: file, line: line)
    }

    func testALineRaceRendersTheSameThroughBothFrontDoors() throws {
        try assertSameFrames(Self.lineRaceDocument, try Self.lineRaceScene())
    }

    func testBubblesRenderTheSameThroughBothFrontDoors() throws {
        try assertSameFrames(Self.bubbleDocument, try Self.bubbleScene())
    }

    func testBadTimeInSwiftNamesTheRow() throws {
        let rows = [Reading(year: 2000, k: "A", v: 1), Reading(year: 2000, k: "A", v: 2)]
        XCTAssertThrowsError(try ChartScene(width: 100, height: 100) {
            Chart(rows, time: .value("year", \.year), key: .value("k", \.k)) {
                BarMark(x: .value("v", \.v), y: .value("k", \.k))
            }
        }.frame(index: 0)) { error in
            XCTAssertEqual("\(error)", "chart 0: row 1: \"A\" appears twice at one \"year\" (first in row 0); each key has one row per time step")
        }
    }
}
