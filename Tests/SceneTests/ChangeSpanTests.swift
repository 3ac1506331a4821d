import XCTest
import Geometry
import Motion
import Raster
@testable import Scene

/// When things can change: the spans the frame cache keys its pictures on.
final class ChangeSpanTests: XCTestCase {
    func testStatesBeforeDuringAndAfter() {
        let s = ChangeSpan(start: 0.2, end: 1.0)
        XCTAssertEqual(s.state(at: -1), .initial)
        XCTAssertEqual(s.state(at: 0.2), .initial, "the start still shows the first state")
        XCTAssertNil(s.state(at: 0.2000001))
        XCTAssertNil(s.state(at: 0.999))
        XCTAssertEqual(s.state(at: 1.0), .final, "the end shows the last state")
        XCTAssertEqual(s.state(at: 7), .final)
        // Something that never changes is in its final state at every time.
        for t: Double in [-.infinity, -1, 0, 1e9] { XCTAssertEqual(ChangeSpan.never.state(at: t), .final) }
        // A jump (start = end) is initial up to it and final from it.
        let jump = ChangeSpan(start: 0.5, end: 0.5)
        XCTAssertEqual(jump.state(at: 0.49), .initial)
        XCTAssertEqual(jump.state(at: 0.5), .final)
    }

    func testUnionCoversBothAndNeverIsItsIdentity() {
        let a = ChangeSpan(start: 0.2, end: 0.4), b = ChangeSpan(start: 1, end: 3)
        XCTAssertEqual(a.union(b), ChangeSpan(start: 0.2, end: 3))
        XCTAssertEqual(b.union(a), ChangeSpan(start: 0.2, end: 3))
        XCTAssertEqual(a.union(.never), a)
        XCTAssertEqual(ChangeSpan.never.union(.never), .never)
        XCTAssertNil(a.union(b).state(at: 0.7), "changing between the two, where neither is")
    }

    func testAnimatedValues() {
        XCTAssertEqual(AnimatedValue.constant(3).changeSpan, .never)
        XCTAssertEqual(tween(2, 2, duration: 1).changeSpan, .never, "a tween between equal values never changes")
        XCTAssertEqual(tween(0, 1, duration: 0.8, delay: 0.2).changeSpan, ChangeSpan(start: 0.2, end: 1.0))
        var forever = Animation(duration: 0.5, delay: 0.1)
        forever.repetition = .forever
        let endless = AnimatedValue.tween(Tween(from: 0, to: 1, animation: forever)).changeSpan
        XCTAssertEqual(endless.start, 0.1)
        XCTAssertEqual(endless.end, .infinity)
        XCTAssertNil(endless.state(at: 1e6), "an endless repeat is never final")
        let flat = Keyframes([Keyframe(time: 0.3, value: 5), Keyframe(time: 0.9, value: 5)])!
        XCTAssertEqual(AnimatedValue.keyframes(flat).changeSpan, .never)
        let moving = Keyframes([Keyframe(time: 0.3, value: 5), Keyframe(time: 0.6, value: 1), Keyframe(time: 0.9, value: 5)])!
        XCTAssertEqual(AnimatedValue.keyframes(moving).changeSpan, ChangeSpan(start: 0.3, end: 0.9))
    }

    /// A node's span covers every property that animates, and a group's its children's.
    func testNodesUniteTheirProperties() {
        let square = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10))
        var s = ShapeNode(path: square, fill: (.solid(.black), .nonZero))
        XCTAssertEqual(s.changeSpan, .never)
        s.trimEnd = tween(0, 1, duration: 0.5, delay: 1)
        XCTAssertEqual(s.changeSpan, ChangeSpan(start: 1, end: 1.5))
        s.opacity = tween(0, 1, duration: 0.2)
        XCTAssertEqual(s.changeSpan, ChangeSpan(start: 0, end: 1.5))
        s.fillColor = AnimatedColor(from: .black, to: .white, animation: Animation(duration: 1, delay: 2))
        XCTAssertEqual(s.changeSpan, ChangeSpan(start: 0, end: 3))
        s.motion.translateX = tween(0, 10, duration: 1, delay: 3)
        XCTAssertEqual(s.changeSpan, ChangeSpan(start: 0, end: 4))
        s.dynamicPath = { _ in square }
        s.dynamicPathEnd = 5
        XCTAssertEqual(s.changeSpan, ChangeSpan(start: -.infinity, end: 5), "changing geometry has no first state to keep")

        var still = ShapeNode(path: square, fill: (.solid(.black), .nonZero))
        still.trimOffset = tween(0, 0.5, duration: 1, delay: 0.5)
        let g = GroupNode(children: [.shape(still), .shape(ShapeNode(path: square, fill: (.solid(.black), .nonZero)))],
                          opacity: tween(0, 1, duration: 0.25))
        XCTAssertEqual(Node.group(g).changeSpan, ChangeSpan(start: 0, end: 1.5))
        XCTAssertEqual(Node.group(g).endTime, 1.5)
    }

    /// A colour animation holds its from-colour up to its start and its to-colour from its
    /// end, and mixes in OKLab between.
    func testAnimatedColor() {
        let red = Color(r: 1, g: 0, b: 0), blue = Color(r: 0, g: 0, b: 1, a: 0.5)
        let c = AnimatedColor(from: red, to: blue, animation: Animation(curve: .linear, duration: 1, delay: 1))
        XCTAssertEqual(c.value(at: 0), red)
        XCTAssertEqual(c.value(at: 1), red)
        XCTAssertEqual(c.value(at: 2), blue)
        XCTAssertEqual(c.value(at: 9), blue)
        XCTAssertEqual(c.value(at: 1.25), OKLab.mix(red, blue, 0.25))
        XCTAssertEqual(c.value(at: 1.5).a, 0.75, accuracy: 1e-12, "alpha moves linearly")
    }
}
