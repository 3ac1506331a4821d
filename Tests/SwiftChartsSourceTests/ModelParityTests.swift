import XCTest
import Foundation
import ChartReel

/// The model features Swift Charts' vocabulary needed (grouped bars, rectangles, point
/// symbols, sector radii and insets, cardinal splines) reach documents too: the same
/// charts in JSON and in Swift, with Swift Charts' modifiers in ChartReel's key-path
/// spelling (which, like documents, draws no guides unasked), render the same bytes.
final class ModelParityTests: XCTestCase {
    static let document = """
    {
      "canvas": { "width": 600, "height": 400 },
      "fps": 10,
      "duration": 0.5,
      "layout": { "columns": 2, "spacing": 8, "padding": 8 },
      "data": {
        "mix": { "values": [
          { "q": "Q1", "v": 2.5, "kind": "a" }, { "q": "Q1", "v": 1.25, "kind": "b" },
          { "q": "Q2", "v": 3, "kind": "a" }, { "q": "Q2", "v": 2, "kind": "b" }
        ] },
        "pts": { "values": [ { "x": 1, "y": 2 }, { "x": 3, "y": 5 }, { "x": 5, "y": 4 }, { "x": 7, "y": 8 } ] },
        "cells": { "values": [
          { "d": "Mon", "h": "AM", "n": 1 }, { "d": "Mon", "h": "PM", "n": 3 },
          { "d": "Tue", "h": "AM", "n": 2 }, { "d": "Tue", "h": "PM", "n": 1 }
        ] },
        "pie": { "values": [ { "k": "one", "n": 3 }, { "k": "two", "n": 2 }, { "k": "three", "n": 1 } ] }
      },
      "charts": [
        { "data": "mix", "x": { "field": "q" }, "y": { "field": "v" },
          "marks": [ { "type": "bar", "series": "kind", "group": "kind", "barWidth": 0.9, "cornerRadius": 2,
                       "color": { "colors": ["#E69F00", "#56B4E9"] } } ] },
        { "data": "pts", "x": { "field": "x" }, "y": { "field": "y" },
          "marks": [ { "type": "line", "interpolation": { "cardinal": 0.5 } },
                     { "type": "point", "symbol": "diamond", "size": 12, "fill": "#D55E00" } ] },
        { "data": "cells", "x": { "field": "d" }, "y": { "field": "h" },
          "marks": [ { "type": "rect", "cornerRadius": 3, "color": { "field": "n", "ramp": ["#FFFFFF", "#0072B2"] } } ] },
        { "data": "pie", "x": { "field": "k" }, "y": { "field": "n" },
          "marks": [ { "type": "sector", "innerRadius": 0.5, "outerRadius": 0.9, "angularInset": 2 } ] }
      ]
    }
    """

    struct Mix { var q: String; var v: Double; var kind: String }
    struct Pt { var x: Double; var y: Double }
    struct Cell { var d: String; var h: String; var n: Double }
    struct Slice { var k: String; var n: Double }

    static func swiftScene() throws -> ChartScene {
        let mix = [Mix(q: "Q1", v: 2.5, kind: "a"), Mix(q: "Q1", v: 1.25, kind: "b"), Mix(q: "Q2", v: 3, kind: "a"), Mix(q: "Q2", v: 2, kind: "b")]
        let pts = [Pt(x: 1, y: 2), Pt(x: 3, y: 5), Pt(x: 5, y: 4), Pt(x: 7, y: 8)]
        let cells = [Cell(d: "Mon", h: "AM", n: 1), Cell(d: "Mon", h: "PM", n: 3), Cell(d: "Tue", h: "AM", n: 2), Cell(d: "Tue", h: "PM", n: 1)]
        let pie = [Slice(k: "one", n: 3), Slice(k: "two", n: 2), Slice(k: "three", n: 1)]
        return try ChartScene(width: 600, height: 400, fps: 10, duration: 0.5, layout: DashboardLayout(columns: 2, spacing: 8, padding: 8)) {
            Chart(mix) {
                BarMark(x: .value("q", \.q), y: .value("v", \.v), width: .ratio(0.9))
                    .foregroundStyle(by: .value("kind", \.kind), colors: [.hex("#E69F00"), .hex("#56B4E9")])
                    .position(by: .value("kind", \.kind))
                    .cornerRadius(2)
            }
            Chart(pts) {
                LineMark(x: .value("x", \.x), y: .value("y", \.y))
                    .interpolationMethod(.cardinal(tension: 0.5))
                PointMark(x: .value("x", \.x), y: .value("y", \.y))
                    .symbol(.diamond)
                    .symbolSize(CGSize(width: 12, height: 12))
                    .foregroundStyle(.hex("#D55E00"))
            }
            Chart(cells) {
                RectangleMark(x: .value("d", \.d), y: .value("h", \.h))
                    .cornerRadius(3)
                    .foregroundStyle(by: .value("n", \.n), ramp: [.white, .hex("#0072B2")])
            }
            .chartYScale(type: .band)
            Chart(pie) {
                SectorMark(angle: .value("n", \.n), innerRadius: .ratio(0.5), outerRadius: .ratio(0.9), angularInset: 2)
                    .foregroundStyle(by: .value("k", \.k))
            }
        }
    }

    func testTheModelFeaturesRenderTheSameFromJSONAndSwift() throws {
        let json = try TimelineDecoder.decode(Array(Self.document.utf8), file: "model-parity.json")
        let swift = try Self.swiftScene()
        XCTAssertEqual(swift.frameCount, json.frameCount)
        let a = swift.frame(index: 0), b = json.frame(index: 0)
        if a.data != b.data { XCTFail(try PixmapDifference(b, a).summary) }
        if let dir = ProcessInfo.processInfo.environment["SWIFTCHARTS_TEST_FRAMES"] { try a.writePNG(toFile: dir + "/model-parity.png") }
        XCTAssertNotNil(a.bounds(ofInk: .white, in: Rect(x: 0, y: 0, width: 600, height: 400)))
    }

    func testDocumentsDecodeTheNewKeys() throws {
        let scene = try TimelineDecoder.decode(Array(Self.document.utf8), file: "model-parity.json")
        XCTAssertNotNil(scene.node("chart2"))
        // A bad symbol name is reported with its path.
        let bad = Self.document.replacingOccurrences(of: "\"diamond\"", with: "\"hexagon\"")
        XCTAssertThrowsError(try TimelineDecoder.decode(Array(bad.utf8), file: "bad.json")) { error in
            XCTAssertTrue("\(error)".contains("symbol"), "\(error)")
        }
        let labelled = """
        { "canvas": { "width": 200, "height": 100 }, "fps": 10, "duration": 0.1,
          "data": { "t": { "values": [ { "x": 0, "y": 5, "name": "Average" } ] } },
          "charts": [ { "data": "t", "y": { "field": "y", "domain": [0, 10] },
            "marks": [ { "id": "avg", "type": "rule", "orientation": "horizontal",
                         "label": { "field": "name", "alignment": "leading", "color": "#FF0000" } } ] } ] }
        """
        let rule = try TimelineDecoder.decode(Array(labelled.utf8), file: "rule.json")
        guard case .text(let text)? = rule.node("avg-label[0]") else { return XCTFail("no rule label") }
        XCTAssertEqual(text.string, "Average")
        XCTAssertLessThan(text.position.x, 20, "at the rule's leading end")
        let badGroup = Self.document.replacingOccurrences(of: "\"group\": \"kind\"", with: "\"group\": \"sort\"")
        XCTAssertThrowsError(try TimelineDecoder.decode(Array(badGroup.utf8), file: "bad.json")) { error in
            XCTAssertTrue("\(error)".contains("sort"), "\(error)")
        }
    }
}

/// The guide features Swift Charts' modifiers needed (axis strides, label-less axes, a
/// plot background, domains without zero) in a document and in Swift.
final class GuideParityTests: XCTestCase {
    static let document = """
    {
      "canvas": { "width": 480, "height": 320 },
      "fps": 10, "duration": 0.2,
      "data": { "t": { "values": [
        { "d": "2024-01-10", "v": 40 }, { "d": "2024-02-20", "v": 55 }, { "d": "2024-04-05", "v": 48 }, { "d": "2024-06-01", "v": 60 }
      ] } },
      "charts": [ {
        "data": "t", "x": { "field": "d" }, "y": { "field": "v", "includesZero": false },
        "plotArea": { "background": "#F2F2F7", "border": "#8E8E93" },
        "axes": [ { "side": "bottom", "ticks": { "every": "month" }, "line": false },
                  { "side": "trailing", "ticks": { "every": 5 }, "labels": false, "line": false } ],
        "grid": { "x": true, "color": "#DBDBDE" },
        "marks": [ { "type": "line" } ]
      } ]
    }
    """

    struct T { var d: Date; var v: Double }

    func testStridesPlotAreaAndIncludesZeroMatchTheDocument() throws {
        let rows = [T(d: date(2024, 1, 10), v: 40), T(d: date(2024, 2, 20), v: 55), T(d: date(2024, 4, 5), v: 48), T(d: date(2024, 6, 1), v: 60)]
        let swift = try ChartScene(width: 480, height: 320, fps: 10, duration: 0.2) {
            Chart(rows) {
                LineMark(x: .value("d", \.d), y: .value("v", \.v))
            }
            .chartYScale(domain: .automatic(includesZero: false))
            .chartPlotStyle { $0.background(.hex("#F2F2F7")).border(.hex("#8E8E93")) }
            .chartXAxis {
                AxisMarks(values: .stride(by: .month)) { _ in
                    AxisGridLine()
                    AxisTick()
                    AxisValueLabel()
                }
            }
            .chartYAxis {
                AxisMarks(values: .stride(by: 5)) { _ in
                    AxisTick()
                }
            }
        }
        let json = try TimelineDecoder.decode(Array(Self.document.utf8), file: "guides.json")
        let a = swift.frame(index: 0), b = json.frame(index: 0)
        if a.data != b.data { XCTFail(try PixmapDifference(b, a).summary) }
        if let dir = ProcessInfo.processInfo.environment["SWIFTCHARTS_TEST_FRAMES"] { try a.writePNG(toFile: dir + "/guide-parity.png") }
        // The y domain fits the data (40…60), so the line's lowest point is at the plot's foot.
        let style = ChartStyle(font: try FontCache.font(family: nil), boldFont: try FontCache.font(family: nil, bold: true))
        let state = try Chart(rows) { LineMark(x: .value("d", \.d), y: .value("v", \.v)) }
            .chartYScale(domain: .automatic(includesZero: false))
            .spec(frame: Rect(x: 0, y: 0, width: 480, height: 320), style: style).state(at: 0)
        XCTAssertEqual(state.yResolved.domain.0, 40)
        XCTAssertEqual(a.color(x: Int(state.plot.midX), y: Int(state.plot.minY) + 3), Color.hex("#F2F2F7"), "the plot's background")
    }
}
