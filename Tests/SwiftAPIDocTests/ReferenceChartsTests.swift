import XCTest
import Foundation
import ChartReel

/// The four reference charts built in Swift (the tutorial's code) against their JSON
/// timelines: the two front doors must give the same scene, so the same bytes.
final class ReferenceChartsTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Decodes `timelines/<name>.json` and compares its frames with `swift`'s at `times`
    /// and at the last frame: same size, rate, length, and byte-identical pixels.
    func assertSameFrames(_ name: String, _ swift: ChartScene, at times: [Double], file: StaticString = #filePath, line: UInt = #line) throws {
        let json = try TimelineDecoder.load(path: Self.root.appendingPathComponent("timelines/\(name).json").path)
        XCTAssertEqual(swift.width, json.width, "width", file: file, line: line)
        XCTAssertEqual(swift.height, json.height, "height", file: file, line: line)
        XCTAssertEqual(swift.fps, json.fps, "fps", file: file, line: line)
        XCTAssertEqual(swift.scene.background, json.background, "background", file: file, line: line)
        XCTAssertEqual(swift.frameCount, json.frameCount, "frame count", file: file, line: line)
        XCTAssertEqual(swift.duration, json.effectiveDuration, accuracy: 1e-12, "duration", file: file, line: line)
        for t in times + [Scene.time(ofFrame: json.frameCount - 1, fps: json.fps)] {
            let a = swift.frame(at: t), b = json.frame(at: t)
            guard a.data != b.data else { continue }
            let d = try PixmapDifference(b, a)
            XCTFail("\(name) at \(t) s: \(d.summary)", file: file, line: line)
        }
    }

    func testCurvedLineRevealMatchesItsTimeline() throws {
        try assertSameFrames("curved-line-reveal", Snippets.curvedLineReveal(), at: [0, 0.2, 0.45, 0.6, 0.8, 1.1])
    }

    func testCoffeeBookMatchesItsTimeline() throws {
        try assertSameFrames("coffee-book", Snippets.coffeeBook(), at: [0, 0.5, 0.9, 1.3, 1.7])
    }

    func testBabyNamesMatchesItsTimeline() throws {
        // The snippet reads its CSV relative to the package root, as the tutorial runs there.
        let previous = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(Self.root.path)
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }
        try assertSameFrames("baby-names", Snippets.babyNames(), at: [0, 0.4, 0.9, 1.8, 2.3])
    }

    /// The transforms of timelines/weather-days.json, written in Swift, give its frames.
    func testWeatherDaysMatchesItsTimeline() throws {
        let previous = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(Self.root.path)
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }
        try assertSameFrames("weather-days", Snippets.weatherDays(), at: [0, 0.25, 0.5, 0.9])
    }

    func testFlightDelaysMatchesItsTimeline() throws {
        try assertSameFrames("flight-delays", Snippets.flightDelays(), at: [0, 0.3, 0.6, 0.9, 1.2])
    }

    /// The scenes are not trivially equal: frames change over time, so the comparisons
    /// above compare something.
    func testReferenceFramesChangeOverTime() throws {
        let s = try Snippets.curvedLineReveal()
        XCTAssertNotEqual(s.frame(at: 0.3).data, s.frame(at: 1.0).data)
        let f = try Snippets.flightDelays()
        XCTAssertNotEqual(f.frame(at: 0.1).data, f.frame(at: 1.2).data)
    }
}
