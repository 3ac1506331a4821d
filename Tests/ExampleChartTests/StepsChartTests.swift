// An example of how a project tests its own animated chart with ChartReel, frame by
// frame: build the scene as the app does, render the instants that matter, and ask
// questions of the pixels. Copy this file into your own test target and change the chart.
import XCTest
import Foundation
import ChartReel

/// The app's data and chart: a week of walking, the line drawing itself, then the last
/// day's total appearing beside its point.
struct Walk {
    var day: String
    var steps: Int
}

let walks: [Walk] = [
    Walk(day: "Mon", steps: 6_200), Walk(day: "Tue", steps: 8_100), Walk(day: "Wed", steps: 5_400),
    Walk(day: "Thu", steps: 10_300), Walk(day: "Fri", steps: 7_700), Walk(day: "Sat", steps: 12_900),
    Walk(day: "Sun", steps: 9_412),
]

func stepsScene() throws -> ChartScene {
    try ChartScene(width: 480, height: 320, fps: 30) {
        Chart(walks) {
            LineMark(x: .value("Day", \.day), y: .value("Steps", \.steps))
                .id("line")
                .stroke(.teal, lineWidth: 3)
                .animation(.trim(from: 0), .easeInOut(duration: 1.2).delay(0.3))
            TextMark(x: .value("Day", \.day), y: .value("Steps", \.steps), text: .value("Steps", \.steps))
                .id("total")
                .filter { $0.day == "Sun" }
                .format(NumberFormat(grouping: true, suffix: " steps"))
                .position(.bottom, offset: 10)
                .font(size: 13)
                .foregroundStyle(.black)
                .animation(.opacity(from: 0), .easeIn(duration: 0.3).delay(1.5))
        }
        .title("Steps this week")
        .chartXAxis(line: false)
    }
}

final class StepsChartTests: XCTestCase {
    let background = Color.white

    /// No pixel of the line's region is inked before its animation starts (0.3 s), and
    /// ink appears as soon as it has started.
    func testTheLineIsAbsentBeforeItStartsAndPresentAfter() throws {
        let scene = try stepsScene()
        let region = try XCTUnwrap(scene.bounds(of: "line"))
        XCTAssertNil(scene.frame(at: 0).bounds(ofInk: background, in: region))
        XCTAssertNil(scene.frame(at: 0.3).bounds(ofInk: background, in: region))
        XCTAssertNotNil(scene.frame(at: 0.5).bounds(ofInk: background, in: region))
    }

    /// The line draws from left to right: its ink reaches further right frame after frame,
    /// and its left end does not move.
    func testTheLineGrowsToTheRight() throws {
        let scene = try stepsScene()
        let region = try XCTUnwrap(scene.bounds(of: "line"))
        var previous: Rect? = nil
        for i in stride(from: 12, through: 45, by: 3) {        // 0.4 s … 1.5 s
            let ink = try XCTUnwrap(scene.frame(index: i).bounds(ofInk: background, in: region), "frame \(i)")
            if let p = previous {
                XCTAssertGreaterThanOrEqual(ink.maxX, p.maxX, "frame \(i)")
                XCTAssertEqual(ink.minX, p.minX, "frame \(i)")
            }
            previous = ink
        }
        XCTAssertGreaterThan(previous!.maxX, region.maxX - 3)
    }

    /// The total's text is written as the app formats it, hidden until 1.5 s, and in the
    /// last frame its pixels are exactly those of the label drawn alone: nothing covers it.
    func testTheTotalIsVisibleAtTheEnd() throws {
        let scene = try stepsScene()
        guard case .text(let label)? = scene.node("total[0]") else { return XCTFail("no label node") }
        XCTAssertEqual(label.string, "9,412 steps")
        let box = try XCTUnwrap(scene.bounds(of: "total[0]"))
        XCTAssertNil(scene.frame(at: 1.5).bounds(ofInk: background, in: box))

        let last = scene.frame(index: scene.frameCount - 1)
        let alone = try XCTUnwrap(scene.isolating("total[0]")).frame(index: scene.frameCount - 1)
        let ink = try XCTUnwrap(last.bounds(ofInk: background, in: box))
        XCTAssertGreaterThan(ink.width, 60, "the text spans most of its box")
        XCTAssertEqual(last.cropped(to: box), alone.cropped(to: box))
        XCTAssertGreaterThan(last.inkPixelCount(background: background, in: box, tolerance: 128), 50)
    }

    /// A golden image of the final frame, compared with a tolerance of 1 (run with
    /// CHARTREEL_UPDATE_REFERENCES=1 after an intended change to rewrite it).
    func testTheFinalFrameMatchesItsReference() throws {
        let scene = try stepsScene()
        let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("References/steps-final.png")
        try scene.frame(index: scene.frameCount - 1).verifyMatches(png: reference, tolerance: 1)
    }
}
