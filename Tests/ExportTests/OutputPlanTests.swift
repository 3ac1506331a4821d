import XCTest
import Geometry
import Motion
import Raster
import Scene
@testable import Export

final class OutputPlanTests: XCTestCase {
    /// A 63×47 scene lasting 1 s at 30 fps: a half-transparent red square at (10, 10)–(30, 30).
    private func scene(background: Color) -> Scene {
        let square = ShapeNode(id: "square", path: .rect(Rect(x: 10, y: 10, width: 20, height: 20)),
                               fill: (.solid(Color(r: 1, g: 0, b: 0, a: 0.5)), .nonZero))
        return Scene(width: 63, height: 47, background: background, fps: 30, duration: 1, nodes: [.shape(square)])
    }

    func testOddMP4IsPaddedWithTheBackgroundAndSaysSo() throws {
        let bg = Color(r8: 0x33, g8: 0x66, b8: 0x99)
        let plan = try OutputPlan(scene: scene(background: bg), format: .mp4)
        XCTAssertEqual(plan.scene.width, 64); XCTAssertEqual(plan.scene.height, 48)
        XCTAssertTrue(plan.warnings.contains { $0.contains("padded to 64x48 with the background colour") }, "\(plan.warnings)")
        let f = plan.frame(0)
        XCTAssertEqual(f.pixel(63, 20), bg.premultiplied, "the new column is background, not black")
        XCTAssertEqual(f.pixel(20, 47), bg.premultiplied, "the new row too")
        XCTAssertEqual(f.pixel(20, 20), try OutputPlan(scene: scene(background: bg), format: .png).frame(0).pixel(20, 20),
                       "marks keep their place")
        for format in [OutputFormat.webm, .mov, .gif, .apng, .png] {
            let p = try OutputPlan(scene: scene(background: bg), format: format)
            XCTAssertEqual(p.scene.width, 63, format.rawValue)
            XCTAssertTrue(p.warnings.isEmpty, format.rawValue)
        }
    }

    func testTransparentBackgroundIsMattedOnlyForMP4() throws {
        let s = scene(background: .clear)
        let mp4 = try OutputPlan(scene: s, format: .mp4, matte: Color(r8: 0, g8: 0, b8: 0))
        XCTAssertFalse(mp4.videoOptions.alpha)
        XCTAssertTrue(mp4.warnings.contains { $0.contains("composited onto #000000") }, "\(mp4.warnings)")
        let matted = mp4.frame(0)
        XCTAssertTrue(matted.isOpaque)
        XCTAssertEqual(matted.pixel(2, 2), PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
        // Half-transparent red over a transparent background, then over black, is the
        // same as half-transparent red over black: (128, 0, 0).
        let inside = matted.pixel(20, 20)
        XCTAssertEqual(Int(inside.r), 128, accuracy: 1)
        XCTAssertEqual(inside.g, 0); XCTAssertEqual(inside.a, 255)
        // Compositing the transparent render onto the matte by hand agrees within rounding.
        let clear = try OutputPlan(scene: s, format: .webm)
        XCTAssertTrue(clear.videoOptions.alpha)
        XCTAssertTrue(clear.warnings.isEmpty)
        let p = clear.frame(0).pixel(20, 20)
        XCTAssertEqual(p.a, 128)
        XCTAssertEqual(Int(p.r), Int(inside.r), accuracy: 1)
        for format in [OutputFormat.mov, .gif, .apng, .png, .rgba] {
            XCTAssertTrue(try OutputPlan(scene: s, format: format).videoOptions.alpha, format.rawValue)
        }
        XCTAssertFalse(try OutputPlan(scene: scene(background: .white), format: .webm).videoOptions.alpha)
    }

    func testPartlyTransparentBackgroundBlendsWithTheMatte() throws {
        let s = scene(background: Color(r: 1, g: 1, b: 1, a: 0.5))
        let plan = try OutputPlan(scene: s, format: .mp4, matte: .black)
        XCTAssertEqual(plan.scene.background, Color(r: 0.5, g: 0.5, b: 0.5, a: 1))
    }

    func testGIFIsCappedAt50FPS() throws {
        var s = scene(background: .white)
        s.fps = 60
        let gif = try OutputPlan(scene: s, format: .gif)
        XCTAssertEqual(gif.fps, 50)
        XCTAssertEqual(gif.totalFrames, 50)
        XCTAssertEqual(gif.notes.count, 1)
        XCTAssertEqual(try OutputPlan(scene: s, format: .mp4).fps, 60)
        XCTAssertEqual(try OutputPlan(scene: s, format: .gif, fps: 25).fps, 25)
    }

    func testScaleMultipliesTheCanvasAndTheMarks() throws {
        let plan = try OutputPlan(scene: scene(background: .white), format: .png, scale: 2)
        XCTAssertEqual(plan.scene.width, 126); XCTAssertEqual(plan.scene.height, 94)
        let f = plan.frame(0)
        XCTAssertEqual(f.pixel(18, 18).g, 255, "outside the square at 2x (it starts at 20)")
        XCTAssertLessThan(f.pixel(58, 58).g, 200, "inside the square at 2x (it ends at 60)")
        XCTAssertEqual(f.pixel(62, 62).g, 255)
        let half = try OutputPlan(scene: scene(background: .white), format: .mp4, scale: 0.5)
        XCTAssertEqual(half.scene.width, 32); XCTAssertEqual(half.scene.height, 24)
    }

    func testCachedFramesEqualDirectRenders() throws {
        var s = scene(background: Color(r8: 250, g8: 250, b8: 240))
        var fading = ShapeNode(id: "fade", path: .rect(Rect(x: 5, y: 25, width: 50, height: 10)),
                               fill: (.solid(Color(r: 0, g: 0.4, b: 1)), .nonZero))
        fading.opacity = .tween(Tween(from: 0, to: 1, animation: .easeInOut(duration: 0.4).delay(0.3)))
        s.nodes.append(.shape(fading))
        let plan = try OutputPlan(scene: s, format: .png)
        // Backwards and forwards, so frames come both from and around the cache.
        for i in Array((0..<30).reversed()) + Array(0..<30) {
            XCTAssertEqual(plan.frame(i), s.frame(at: Double(i) / 30), "frame \(i)")
        }
    }

    func testFrameRangesInSecondsAndFrames() throws {
        let s = scene(background: .white)   // 30 frames
        XCTAssertEqual(try OutputPlan(scene: s, format: .png).range, 0..<30)
        XCTAssertEqual(try OutputPlan(scene: s, format: .png, from: .seconds(0.5), to: .frame(20)).range, 15..<20)
        XCTAssertEqual(try OutputPlan(scene: s, format: .png, from: .frame(10), to: .frame(500)).range, 10..<30, "end clamped")
        XCTAssertEqual(try OutputPlan(scene: s, format: .png, fps: 10, to: .seconds(0.55)).range, 0..<6)
        XCTAssertThrowsError(try OutputPlan(scene: s, format: .png, from: .frame(30)))
        XCTAssertThrowsError(try OutputPlan(scene: s, format: .png, from: .frame(12), to: .frame(12)))
        XCTAssertEqual(FramePosition("0.5s"), .seconds(0.5))
        XCTAssertEqual(FramePosition("90"), .frame(90))
        XCTAssertNil(FramePosition("-1"))
        XCTAssertNil(FramePosition("soon"))
        // Frame i of the range shows time (first + i) / fps.
        let plan = try OutputPlan(scene: s, format: .png, from: .frame(7))
        XCTAssertEqual(plan.frame(3), s.frame(at: 10.0 / 30))
    }
}
