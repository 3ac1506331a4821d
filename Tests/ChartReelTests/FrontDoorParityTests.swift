import XCTest
import Foundation
import ChartReel

/// Features the four reference charts do not use, written in both front doors: the JSON
/// document decoded by TimelineDecoder and the same charts in Swift must render the same
/// bytes. Series lines on a time axis with dots, keyframes, a filtered rule and a legend;
/// stacked bars with labels that count up and slide; a range area, a shape in data units
/// that turns, and dots with threshold colours, a spring, a colour animation and a stagger.
final class FrontDoorParityTests: XCTestCase {
    static let document = """
    {
      "canvas": { "width": 720, "height": 560, "background": "#FDFDFD" },
      "fps": 20,
      "layout": { "columns": 2, "spacing": 10, "padding": 12 },
      "data": {
        "sales": { "values": [
          { "date": "2024-01-01", "units": 3, "store": "North" }, { "date": "2024-01-01", "units": 5, "store": "South" },
          { "date": "2024-02-01", "units": 6, "store": "North" }, { "date": "2024-02-01", "units": 4, "store": "South" },
          { "date": "2024-03-01", "units": 4, "store": "North" }, { "date": "2024-03-01", "units": 8, "store": "South" },
          { "date": "2024-04-01", "units": 9, "store": "North" }, { "date": "2024-04-01", "units": 7, "store": "South" }
        ] },
        "mix": { "values": [
          { "q": "Q1", "v": 2.5, "kind": "a" }, { "q": "Q1", "v": 1.25, "kind": "b" },
          { "q": "Q2", "v": 3, "kind": "a" }, { "q": "Q2", "v": 2, "kind": "b" },
          { "q": "Q3", "v": 1.5, "kind": "a" }, { "q": "Q3", "v": 3.5, "kind": "b" }
        ] },
        "pts": { "values": [
          { "x": 1, "y": 2, "lo": 1 }, { "x": 3, "y": 5, "lo": 2 }, { "x": 5, "y": 4, "lo": 3 },
          { "x": 7, "y": 8, "lo": 4 }, { "x": 9, "y": 6, "lo": 2 }
        ] }
      },
      "charts": [
        {
          "data": "sales", "height": 260,
          "x": { "field": "date" }, "y": { "field": "units", "nice": true },
          "axes": [ { "side": "bottom", "ticks": 4 }, { "side": "leading", "title": "Units" } ],
          "grid": true,
          "legend": { "side": "top", "swatch": "line" },
          "marks": [
            { "id": "lines", "type": "line", "series": "store", "interpolation": "catmullRom",
              "points": { "size": 6, "stroke": { "color": "#FFFFFF", "width": 1 } },
              "animate": { "trim": { "to": { "from": 0, "to": 1, "curve": "easeOut", "duration": 1, "delay": 0.1 } },
                           "opacity": { "keyframes": [ { "time": 0, "value": 0, "curve": "easeIn" }, { "time": 0.3, "value": 1 } ] },
                           "stagger": { "step": 0.2, "order": "end" } } },
            { "id": "north", "type": "rule", "orientation": "horizontal", "filter": { "field": "store", "equals": "North" },
              "stroke": { "width": 1, "paint": "#999999" }, "opacity": 0.5 }
          ]
        },
        {
          "data": "mix", "height": 260,
          "x": { "field": "q" }, "y": { "field": "v" },
          "style": { "labelSize": 10 },
          "card": true,
          "title": { "text": "Mix", "subtitle": "by quarter", "animate": { "opacity": { "from": 0, "to": 1, "duration": 0.4 } } },
          "caption": { "text": "Source: the stores' ledgers", "animate": { "opacity": { "from": 0, "to": 1, "duration": 0.6 } } },
          "extremes": {},
          "axes": [ { "side": "bottom", "tickLength": 0, "labelAngle": -30 } ],
          "marks": [
            { "id": "bars", "type": "bar", "series": "kind", "stack": "standard", "cornerRadius": 2, "barWidth": 0.6,
              "color": { "colors": ["#E69F00", "#56B4E9"] },
              "animate": { "grow": { "from": 0, "to": 1, "duration": 0.5, "curve": "easeOut" }, "stagger": { "step": 0.1 } } },
            { "id": "vals", "type": "text", "filter": { "field": "kind", "equals": "b" },
              "text": { "field": "v", "format": { "fractionDigits": 1 }, "position": "top", "offset": 4, "size": 9 },
              "animate": { "count": { "from": 0, "to": 1, "duration": 0.8 },
                           "translate": { "y": { "from": 10, "to": 0, "duration": 0.8 } } } }
          ]
        },
        {
          "data": "pts",
          "x": { "field": "x", "domain": [0, 10] }, "y": { "field": "y", "domain": [0, 10] },
          "inset": 20,
          "marks": [
            { "id": "band", "type": "area", "y2": "lo", "interpolation": "monotone", "fill": "#0072B233" },
            { "id": "box", "type": "shape", "fill": "#CC79A7",
              "shape": { "kind": "roundedRect", "rect": [1, 1, 3, 3], "cornerRadius": 4, "units": "data" },
              "animate": { "rotation": { "from": 0, "to": 90, "duration": 1 } } },
            { "id": "dots", "type": "point", "size": 7,
              "color": { "thresholds": [ { "upTo": 3, "color": "#009E73" }, { "upTo": 6, "color": "#F0E442" } ], "otherwise": "#D55E00" },
              "animate": { "scale": { "from": 0, "to": 1, "curve": "bouncy" },
                           "color": { "from": "#000000", "to": "#FF0000", "duration": 0.5, "delay": 0.5 },
                           "stagger": { "amount": 0.6, "order": "descending" } } }
          ]
        }
      ]
    }
    """

    struct Sale { var date: Date; var units: Int; var store: String }
    struct Share { var q: String; var v: Double; var kind: String }
    struct Dot { var x: Double; var y: Double; var lo: Double }

    static func day(_ y: Int, _ m: Int) -> Date { Date(timeIntervalSince1970: CivilDate(year: y, month: m, day: 1).seconds) }

    static func swiftScene() throws -> ChartScene {
        let sales = [(1, 3, 5), (2, 6, 4), (3, 4, 8), (4, 9, 7)].flatMap { m, n, s in
            [Sale(date: day(2024, m), units: n, store: "North"), Sale(date: day(2024, m), units: s, store: "South")]
        }
        let mix = [Share(q: "Q1", v: 2.5, kind: "a"), Share(q: "Q1", v: 1.25, kind: "b"), Share(q: "Q2", v: 3, kind: "a"),
                   Share(q: "Q2", v: 2, kind: "b"), Share(q: "Q3", v: 1.5, kind: "a"), Share(q: "Q3", v: 3.5, kind: "b")]
        let pts = [Dot(x: 1, y: 2, lo: 1), Dot(x: 3, y: 5, lo: 2), Dot(x: 5, y: 4, lo: 3), Dot(x: 7, y: 8, lo: 4), Dot(x: 9, y: 6, lo: 2)]
        return try ChartScene(width: 720, height: 560, fps: 20, background: .hex("#FDFDFD"),
                              layout: DashboardLayout(columns: 2, spacing: 10, padding: 12)) {
            Chart(sales) {
                LineMark(x: .value("date", \.date), y: .value("units", \.units), series: .value("store", \.store))
                    .id("lines")
                    .interpolationMethod(.catmullRom)
                    .symbol(size: 6, stroke: (.white, 1))
                    .animation(.trim(from: 0), .easeOut(duration: 1).delay(0.1))
                    .keyframes(.opacity, [Keyframe(time: 0, value: 0, easing: .easeIn), Keyframe(time: 0.3, value: 1)])
                    .stagger(each: 0.2, from: .end)
                RuleMark(y: .value("units", \.units))
                    .id("north")
                    .filter { $0.store == "North" }
                    .stroke(.hex("#999999"))
                    .opacity(0.5)
            }
            .frame(height: 260)
            .chartYScale(nice: true)
            .chartXAxis(count: 4)
            .chartYAxis(title: "Units")
            .chartGrid(x: .atTicks, y: .atTicks)
            .chartLegend(position: .top, swatch: .line)

            Chart(mix) {
                BarMark(x: .value("q", \.q), y: .value("v", \.v))
                    .id("bars")
                    .foregroundStyle(by: .value("kind", \.kind), colors: [.hex("#E69F00"), .hex("#56B4E9")])
                    .stacking(.standard)
                    .cornerRadius(2)
                    .barWidth(0.6)
                    .animation(.grow(from: 0), .easeOut(duration: 0.5))
                    .stagger(each: 0.1)
                TextMark(x: .value("q", \.q), y: .value("v", \.v), text: .value("v", \.v))
                    .id("vals")
                    .filter { $0.kind == "b" }
                    .format(NumberFormat(minFractionDigits: 1, maxFractionDigits: 1))
                    .position(.top, offset: 4)
                    .font(size: 9)
                    .animation(.count(from: 0).and(.offset(y: 10)), .easeInOut(duration: 0.8))
            }
            .frame(height: 260)
            .guideStyle(labelSize: 10)
            .card()
            .title("Mix", subtitle: "by quarter", fadeIn: .easeInOut(duration: 0.4))
            .caption("Source: the stores' ledgers", fadeIn: .easeInOut(duration: 0.6))
            .extremeLabels()
            .chartXAxis(tickLength: 0, labelAngle: -30)

            Chart(pts) {
                AreaMark(x: .value("x", \.x), yStart: .value("lo", \.lo), yEnd: .value("y", \.y))
                    .id("band")
                    .interpolationMethod(.monotone)
                    .fill(.hex("#0072B233"))
                ShapeMark(.roundedRect(Rect(x: 1, y: 1, width: 2, height: 2), cornerRadius: 4), inDataCoordinates: true)
                    .id("box")
                    .fill(.hex("#CC79A7"))
                    .animation(.rotation(from: 0, to: 90), .easeInOut(duration: 1))
                PointMark(x: .value("x", \.x), y: .value("y", \.y))
                    .id("dots")
                    .symbolSize(CGSize(width: 7, height: 7))
                    .foregroundStyle(thresholds: [(3, .hex("#009E73")), (6, .hex("#F0E442"))], otherwise: .hex("#D55E00"))
                    .animation(.scale(from: 0), .bouncy)
                    .animation(.color(from: .black, to: .hex("#FF0000")), .easeInOut(duration: 0.5).delay(0.5))
                    .stagger(amount: 0.6, from: .descending)
            }
            .chartXScale(domain: 0...10)
            .chartYScale(domain: 0...10)
            .plotInset(20)
        }
    }

    func testEveryFeatureRendersTheSameThroughBothFrontDoors() throws {
        let json = try TimelineDecoder.decode(Array(Self.document.utf8), file: "parity.json")
        let swift = try Self.swiftScene()
        XCTAssertEqual(swift.height, json.height)
        XCTAssertEqual(swift.frameCount, json.frameCount)
        XCTAssertGreaterThan(json.frameCount, 20)
        var changed = 0
        var previous: [UInt8] = []
        for i in stride(from: 0, to: json.frameCount, by: 3) {
            let a = swift.frame(index: i), b = json.frame(at: Scene.time(ofFrame: i, fps: json.fps))
            if a.data != b.data { XCTFail("frame \(i): \(try PixmapDifference(b, a).summary)") }
            if a.data != previous { changed += 1 }
            previous = a.data
        }
        XCTAssertGreaterThan(changed, 5, "the scene animates, so the comparison covers moving frames")
    }

    func testTheSwiftSceneHasTheDocumentsNodes() throws {
        let swift = try Self.swiftScene()
        for id in ["chart0", "chart1", "chart2", "lines", "north", "bars", "vals", "band", "box", "dots", "legend", "title", "caption"] {
            XCTAssertNotNil(swift.node(id), id)
        }
    }
}
