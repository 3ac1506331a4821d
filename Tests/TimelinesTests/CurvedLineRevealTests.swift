import XCTest
import Geometry
import Raster
import Motion
import Scene
@testable import Timelines

/// Frame-by-frame checks of the default timeline, on pixels at known places and times.
final class CurvedLineRevealTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let document = root.appendingPathComponent("timelines/curved-line-reveal.json").path

    var scene: Scene!
    override func setUpWithError() throws { scene = try TimelineDecoder.load(path: Self.document) }

    // Plot: inset 40 from an 800×600 canvas, x 0…8, y 0…15, y up.
    func px(_ x: Double, _ y: Double) -> Point { Point(40 + x / 8 * 720, 560 - y / 15 * 520) }

    /// The stroke's colours (#6A5ACD → #00BFFF) are bluish; nothing else in the frame is
    /// until the fill fades in (grid grey, white background).
    func isStrokeInk(_ p: PremultipliedRGBA8) -> Bool {
        Int(p.b) - Int(p.r) > 60 && p.a > 0
    }

    func inkPoints(_ frame: Pixmap) -> [Point] {
        var out: [Point] = []
        for y in 0..<frame.height { for x in 0..<frame.width where isStrokeInk(frame.pixel(x, y)) { out.append(Point(Double(x) + 0.5, Double(y) + 0.5)) } }
        return out
    }

    struct MissingNode: Error {}

    /// The line mark's shape: the mark is a group named "line" holding one shape per series.
    func lineNode() throws -> ShapeNode {
        switch scene.node("line") {
        case .shape(let s)?: return s
        case .group(let g)?:
            for c in g.children { if case .shape(let s) = c { return s } }
        default: break
        }
        XCTFail("no line node")
        throw MissingNode()
    }

    func testDurationIsLastAnimationPlusHold() {
        // The fill ends last, at 0.6 + 1.0 s; the hold is 0.5 s.
        XCTAssertEqual(scene.lastAnimationEnd, 1.6, accuracy: 1e-12)
        XCTAssertEqual(scene.frameCount, Int((2.1 * 60).rounded()))
        XCTAssertEqual(scene.width, 800); XCTAssertEqual(scene.height, 600); XCTAssertEqual(scene.fps, 60)
    }

    func testNoStrokeInkAtTimeZeroOrBeforeTheDelay() {
        for t in [0.0, 0.1, 0.2] {
            XCTAssertTrue(inkPoints(scene.frame(at: t)).isEmpty, "ink at t=\(t)")
        }
    }

    func testStrokeReachesTheLastPointAtOneSecond() {
        let frame = scene.frame(at: 1.0)
        let last = px(8, 11)
        let near = inkPoints(frame).filter { $0.distance(to: last) <= 2 }
        XCTAssertFalse(near.isEmpty, "no ink within 2 px of the last point \(last)")
        // Its colour is the trailing end of the gradient (#00BFFF): red near 0.
        let p = frame.pixel(Int(last.x) - 1, Int(last.y))
        XCTAssertLessThan(p.r, 40)
    }

    func testHalfwayTheTrimmedLengthIsHalfAndNoInkLiesBeyondIt() throws {
        let t = 0.6
        let line = try lineNode()
        let end = line.trimEnd.value(at: t)
        XCTAssertEqual(end, Easing.easeInOut(0.5), accuracy: 1e-12)
        XCTAssertEqual(end, 0.5, accuracy: 1e-12)
        let trimmed = PathMeasure(line.measure.trimmed(from: 0, to: end))
        XCTAssertEqual(trimmed.length / line.measure.length, 0.5, accuracy: 0.5 * 0.02)

        // On the frame: every stroke pixel lies within the pen's reach of the trimmed
        // curve, and the ink reaches the trim's end point.
        let frame = scene.frame(at: t)
        let poly = line.measure.trimmed(from: 0, to: end).flattened(tolerance: 0.05)[0].points
        func distance(_ q: Point) -> Double {
            var best = Double.infinity
            for i in 1..<poly.count {
                let a = poly[i - 1], d = poly[i] - a, l2 = d.dot(d)
                let u = l2 > 0 ? min(1, max(0, (q - a).dot(d) / l2)) : 0
                best = min(best, (a + d * u - q).length)
            }
            return best
        }
        let ink = inkPoints(frame)
        XCTAssertGreaterThan(ink.count, 500)
        let worst = ink.map(distance).max() ?? 0
        XCTAssertLessThanOrEqual(worst, 1.5 + 1.0, "ink beyond the pen's reach of the trimmed curve")
        let endPoint = line.measure.position(atDistance: end * line.measure.length)!
        XCTAssertTrue(ink.contains { $0.distance(to: endPoint) <= 2 })
        // And the untrimmed rest of the curve has no ink: sample it beyond the cap.
        for f in stride(from: 0.56, through: 1.0, by: 0.04) {
            let q = line.measure.position(atDistance: f * line.measure.length)!
            XCTAssertFalse(isStrokeInk(frame.pixel(Int(q.x), Int(q.y))), "ink at fraction \(f)")
        }
    }

    func testFillAlphaFollowsTheEasingCurve() {
        var clear = scene!
        clear.background = .clear
        // A pixel inside the fill, away from grid lines and the stroke.
        let x = 445, y = 540
        // The fill's vertical gradient: white (alpha 1) at the plot's bottom (y 560),
        // the line colour at alpha 0.6 at its top (y 40).
        let g = (560.0 - (Double(y) + 0.5)) / 520
        let gradientAlpha = 1 + (0.6 - 1) * g
        for t in [0.0, 0.3, 0.6] {
            XCTAssertEqual(clear.frame(at: t).pixel(x, y).a, 0, "t=\(t)")
        }
        for t in [0.8, 1.1, 1.4, 1.6, 2.0] {
            let e = Easing.easeInOut(min(1, (t - 0.6) / 1.0))
            let a = Double(clear.frame(at: t).pixel(x, y).a)
            XCTAssertEqual(a, 255 * gradientAlpha * e, accuracy: 1.0, "t=\(t)")
        }
    }

    func testFramesAreDeterministic() {
        let a = scene.frame(at: 0.75), b = scene.frame(at: 0.75)
        XCTAssertEqual(a.data, b.data)
    }
}
