import XCTest
import Raster
@testable import Scene
@testable import Timelines
import Foundation

/// Cached layers must not change a single byte.
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

    func testTheHoldAtTheEndIsOnePicture() throws {
        let scene = try TimelineDecoder.load(path: CurvedLineRevealTests.document)
        let r = FrameRenderer(scene: scene)
        XCTAssertTrue(r.spans.allSatisfy { $0.state(at: 1.7) == .final })
        XCTAssertEqual(r.frame(at: 1.7).data, r.frame(at: 2.0).data)
        // Draw list: grid, fill, line, then the two axes.
        XCTAssertEqual(r.spans.count, 5)
        XCTAssertNil(r.spans[2].state(at: 0.5), "the line is drawing at 0.5 s")
        XCTAssertEqual(r.spans[1].state(at: 0.5), .initial, "the fill has not started at 0.5 s")
    }

    /// The cache is shared by the workers and bounded by bytes: an 800×600 video keeps
    /// its few pictures; above 1080p only the hold's whole picture is kept, and frames
    /// that are still changing are drawn from scratch (and still byte-identical).
    func testTheCacheIsBoundedByBytes() throws {
        let scene = try TimelineDecoder.load(path: CurvedLineRevealTests.document)
        let r = FrameRenderer(scene: scene)
        for t in stride(from: 0.0, through: 2.0, by: 0.05) { _ = r.frame(at: t) }
        let small = r.cache.withLock { $0.map(\.pixels.data.count) }
        XCTAssertGreaterThan(small.count, 1)
        XCTAssertLessThanOrEqual(small.reduce(0, +), FrameRenderer.cacheBytes)

        let big = scene.scaled(by: 3)   // 2400×1800: 17 MB a picture
        let rb = FrameRenderer(scene: big)
        for t in [0.1, 0.5, 1.2] {
            XCTAssertEqual(rb.frame(at: t), big.frame(at: t))
            XCTAssertTrue(rb.cache.withLock { $0.isEmpty }, "a changing frame at \(t) s kept a big picture")
        }
        let hold = rb.frame(at: 1.8)
        XCTAssertEqual(rb.cache.withLock { $0.count }, 1)
        // The hold is that one picture, shared (no copy) by every frame of it.
        XCTAssertEqual(rb.frame(at: 2.0).data.withUnsafeBytes { $0.baseAddress }, hold.data.withUnsafeBytes { $0.baseAddress })
        _ = rb.frame(at: 0.5)
        XCTAssertTrue(rb.cache.withLock { $0.isEmpty }, "going back to a changing frame drops the big picture")
    }
}
