import XCTest
import Raster
@testable import Scene
@testable import Timelines
import Foundation

/// Cached layers must not change a single byte, for every document under timelines/.
/// (The frame cache's own tests, on scenes built from nodes, are in SceneTests.)
final class FrameCacheTests: XCTestCase {
    func testCachedAndUncachedFramesAreByteIdenticalForEveryTimeline() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: AllTimelinesTests.dir.path).filter({ $0.hasSuffix(".json") }).sorted() {
            let scene = try TimelineDecoder.load(path: AllTimelinesTests.dir.appendingPathComponent(name).path)
            let renderer = FrameRenderer(scene: scene)
            // 4 fps covers every phase (before, during and after each animation) of these documents.
            let n = scene.frameCount(fps: 4)
            var hits = 0
            // Up to 12 frames spread over the video, in order, then some out of order.
            for i in stride(from: 0, to: n, by: max(1, n / 12)) {
                let t = Scene.time(ofFrame: i, fps: 4)
                let cached = renderer.frame(at: t)
                XCTAssertTrue(cached.data == scene.frame(at: t).data, "\(name) frame \(i) differs when cached")
                hits += renderer.spans.prefix { $0.state(at: t) != nil }.isEmpty ? 0 : 1
            }
            XCTAssertGreaterThan(hits, 0, "\(name) never reused a layer")
            // Out of order (as parallel workers ask) gives the same bytes too.
            for i in stride(from: n - 1, through: 0, by: -max(3, n / 4)) {
                let t = Scene.time(ofFrame: i, fps: 4)
                XCTAssertTrue(renderer.frame(at: t).data == scene.frame(at: t).data, "\(name) frame \(i) out of order")
            }
        }
    }
}
