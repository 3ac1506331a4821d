import XCTest
import Raster
import Scene
@testable import Timelines

/// `"animate": { "domain": … }` on a channel: the chart's state is recomputed per frame,
/// and each frame is the chart with that moment's domain.
final class AnimatedDomainTests: XCTestCase {
    func scene(y: String, clip: String = "") throws -> Scene {
        let text = """
        { "canvas": { "width": 60, "height": 60 }, "duration": 2,
          "data": { "d": { "values": [ { "x": 0, "y": 10 }, { "x": 2, "y": 10 } ] } },
          "charts": [ { "data": "d", "inset": 10, \(clip) "x": { "domain": [0, 2] }, "y": \(y),
                        "marks": [ { "type": "line", "stroke": { "width": 2, "paint": "#FF0000" } } ] } ] }
        """
        return try TimelineDecoder.decode(Array(text.utf8), file: "zoom.json")
    }

    /// Rows of column 30 with red ink.
    func redRows(_ f: Pixmap) -> [Int] { (0..<f.height).filter { f.pixel(30, $0).r > 200 && f.pixel(30, $0).g < 100 } }

    func testTheLineMovesAsTheDomainGrowsAndMatchesTheFixedDomain() throws {
        // y from 0…20 to 0…40 between 0.5 s and 1.5 s, linearly: the line at 10 goes from
        // the middle of the 40 px plot (y = 30) to three quarters down (y = 40).
        let moving = try scene(y: #"{ "domain": [0, 20], "animate": { "domain": { "to": [0, 40], "curve": "linear", "duration": 1, "delay": 0.5 } } }"#)
        for (t, top) in [(0.0, 20.0), (1.0, 30), (1.5, 40), (2.0, 40)] {
            let fixed = try scene(y: #"{ "domain": [0, \#(top)] }"#, clip: #""clip": true,"#)
            XCTAssertTrue(moving.frame(at: t).data == fixed.frame(at: t).data, "frame at \(t) is the chart with y 0…\(top)")
            let rows = redRows(moving.frame(at: t))
            let expected = 50 - 400 / top   // plot 10…50, value 10 of top
            XCTAssertEqual(Double(rows.min()! + rows.max()! + 1) / 2, expected, accuracy: 0.5, "line at \(t)")
        }
    }

    func testAZoomClipsTheMarksToThePlot() throws {
        // Zoomed into 11…21 the line at 10 lies 4 px below the plot: no ink at all.
        let zoomed = try scene(y: #"{ "domain": [0, 20], "animate": { "domain": { "to": [11, 21], "duration": 0.5 } } }"#)
        XCTAssertFalse(redRows(zoomed.frame(at: 0)).isEmpty)
        XCTAssertTrue(redRows(zoomed.frame(at: 1)).isEmpty)
        // Without the clip the line is drawn below the plot, over the margin.
        let unclipped = try scene(y: #"{ "domain": [0, 20], "animate": { "domain": { "to": [11, 21], "duration": 0.5 } } }"#,
                                  clip: #""clip": false,"#)
        XCTAssertFalse(redRows(unclipped.frame(at: 1)).isEmpty)
    }

    func testBadZoomsSayWhatIsMissing() {
        func message(_ y: String) -> String {
            do { _ = try scene(y: y); return "" } catch { return "\(error)" }
        }
        XCTAssertTrue(message(#"{ "animate": { "domain": { "to": [0, 1] } } }"#)
            .contains(#"charts[0].y.animate.domain: expected "from": [low, high], or a "domain" beside "animate" to start from"#))
        XCTAssertTrue(message(#"{ "domain": [0, 1], "animate": { "domain": { "duration": 1 } } }"#)
            .contains("charts[0].y.animate.domain"), message(#"{ "domain": [0, 1], "animate": { "domain": { "duration": 1 } } }"#))
        XCTAssertTrue(message(#"{ "domain": [0, 1], "animate": { "domain": { "to": [3, 3] } } }"#)
            .contains("expected two different values [low, high], found [3, 3]"))
        XCTAssertTrue(message(#"{ "domain": [0, 1], "animate": { "zoom": {} } }"#).contains(#"unknown key "zoom""#))
    }

    func testKeyframedDomainsZoomInAndOutThroughEachKeyframe() throws {
        // 0…20, then 0…40 at 1 s, back to 0…20 at 2 s (linear): at 0.5 s the domain is 0…30.
        let frames = #"{ "animate": { "domain": { "keyframes": [ { "time": 0, "value": [0, 20] }, { "time": 1, "value": [0, 40] }, { "time": 2, "value": [0, 20] } ] } } }"#
        let moving = try scene(y: frames)
        for (t, top) in [(0.0, 20.0), (0.5, 30), (1.0, 40), (1.5, 30), (2.0, 20)] {
            let fixed = try scene(y: #"{ "domain": [0, \#(top)] }"#, clip: #""clip": true,"#)
            XCTAssertTrue(moving.frame(at: t).data == fixed.frame(at: t).data, "frame at \(t) is the chart with y 0…\(top)")
        }
        func message(_ y: String) -> String { do { _ = try scene(y: y); return "" } catch { return "\(error)" } }
        let outOfOrder = message(#"{ "animate": { "domain": { "keyframes": [ { "time": 1, "value": [0, 20] }, { "time": 0.5, "value": [0, 40] } ] } } }"#)
        XCTAssertTrue(outOfOrder.contains("charts[0].y.animate.domain.keyframes[1].time: expected keyframe times in increasing order"), outOfOrder)
        let mixed = message(#"{ "animate": { "domain": { "to": [0, 1], "keyframes": [ { "time": 0, "value": [0, 20] } ] } } }"#)
        XCTAssertTrue(mixed.contains(#""to" does not go with "keyframes""#), mixed)
    }
}
