import XCTest
import Foundation
import ChartReel

/// The scene builder: canvas, timing, layout, fonts, node lookup.
final class ChartSceneTests: XCTestCase {
    struct Point2 { var x: Double; var y: Double }
    let points = [Point2(x: 0, y: 0), Point2(x: 10, y: 10)]

    func line(_ delay: Double = 0) -> Chart {
        Chart(points) {
            LineMark(x: .value("x", \.x), y: .value("y", \.y))
                .id("line")
                .stroke(.black, lineWidth: 4)
                .animation(.trim(from: 0), .linear(duration: 1).delay(delay))
        }
        .plotInset(10)
    }

    func testTimingFollowsTheAnimations() throws {
        let s = try ChartScene(width: 100, height: 80, fps: 10, hold: 0.25) { line(0.5) }
        XCTAssertEqual(s.width, 100)
        XCTAssertEqual(s.height, 80)
        XCTAssertEqual(s.duration, 1.75, accuracy: 1e-12)
        XCTAssertEqual(s.frameCount, 18)
        let fixed = try ChartScene(width: 100, height: 80, fps: 10, duration: 3) { line() }
        XCTAssertEqual(fixed.frameCount, 30)
        XCTAssertEqual(fixed.frame(index: 5), fixed.frame(at: 0.5))
    }

    func testInvalidScenesAreRefused() {
        for make in [{ try ChartScene(width: 0) { self.line() } }, { try ChartScene(height: -1) { self.line() } },
                     { try ChartScene(fps: 0) { self.line() } }, { try ChartScene(duration: .nan) { self.line() } },
                     { try ChartScene(hold: -1) { self.line() } }] {
            XCTAssertThrowsError(try make()) { XCTAssertTrue($0 is ChartReelError, "\($0)") }
        }
        XCTAssertThrowsError(try ChartScene(font: "/nonexistent/font.ttf") { line() })
    }

    func testWithoutALayoutEveryChartHasTheWholeCanvas() throws {
        let s = try ChartScene(width: 200, height: 100) { line(); line() }
        let a = try XCTUnwrap(s.scene.nodes.first?.find("line")?.restingBounds)
        let b = try XCTUnwrap(s.scene.nodes.last?.find("line")?.restingBounds)
        XCTAssertEqual(a, b)
        // Inset 10 on a 200 × 100 frame, widened by the 4 px round stroke's reach (2·√2).
        XCTAssertEqual(a, Rect(x: 10, y: 10, width: 180, height: 80).insetBy(-2 * 2.squareRoot()))
    }

    func testLayoutStacksChartsAndAutoHeightFitsThem() throws {
        let s = try ChartScene(width: 300, height: nil, layout: DashboardLayout(columns: 1, spacing: 10, padding: 20)) {
            line().frame(height: 100)
            line().frame(height: 50)
        }
        XCTAssertEqual(s.height, 20 + 100 + 10 + 50 + 20)
        let second = try XCTUnwrap(s.scene.nodes[1].find("line")?.restingBounds)
        XCTAssertEqual(second.minY, 20 + 100 + 10 + 10 - 2 * 2.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(s.scene.nodes.map(\.id), ["chart0", "chart1"])
        let auto = try ChartScene(width: 300, height: nil) { line() }
        XCTAssertEqual(auto.height, 16 + 300 + 16, "a chart without a height gets 300 px in the default layout")
    }

    func testBoundsAndIsolationOfANode() throws {
        let s = try ChartScene(width: 120, height: 120) {
            line()
            Chart { TextMark<DataRow>("never", x: .value("x", field: "x"), y: .value("y", field: "y")) }
                .title("Hello")
        }
        XCTAssertNil(s.bounds(of: "nothing"))
        XCTAssertNil(s.isolating("nothing"))
        let title = try XCTUnwrap(s.bounds(of: "title"))
        XCTAssertGreaterThan(title.width, 20)
        let alone = try XCTUnwrap(s.isolating("title"))
        XCTAssertEqual(alone.frameCount, s.frameCount)
        let frame = alone.frame(index: alone.frameCount - 1)
        let ink = try XCTUnwrap(frame.bounds(ofInk: .white))
        XCTAssertTrue(title.insetBy(-1).contains(ink), "\(ink) inside \(title)")
        XCTAssertNil(frame.bounds(ofInk: .white, in: Rect(x: 0, y: 60, width: 120, height: 60)), "the line is not drawn")
    }

    func testADecodedSceneRendersThroughTheSameCalls() throws {
        let doc = #"{ "canvas": { "width": 64, "height": 48 }, "fps": 12, "duration": 0.5, "data": { "d": { "values": [ { "x": 0, "y": 0 }, { "x": 1, "y": 1 } ] } }, "charts": [ { "data": "d", "inset": 4, "marks": [ { "type": "line" } ] } ] }"#
        let scene = ChartScene(try TimelineDecoder.decode(Array(doc.utf8), file: "tiny.json"))
        XCTAssertEqual(scene.frameCount, 6)
        XCTAssertEqual(scene.fps, 12)
        XCTAssertNotNil(scene.frame(index: 0).bounds(ofInk: .white))
    }
}

extension Rect {
    func contains(_ r: Rect) -> Bool { r.minX >= minX && r.minY >= minY && r.maxX <= maxX && r.maxY <= maxY }
}
