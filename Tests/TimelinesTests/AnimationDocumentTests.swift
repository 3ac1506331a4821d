import XCTest
import Motion
import Raster
import Scene
@testable import Timelines

/// Issue #4 in documents: chaining by id, sequences, keyframes, repeats, springs, and
/// every animatable property.
final class AnimationDocumentTests: XCTestCase {
    func scene(_ marks: String, extra: String = "") throws -> Scene {
        let doc = """
        { "canvas": { "width": 200, "height": 100 }, \(extra)
          "data": { "d": { "values": [ { "x": 0, "y": 1 }, { "x": 1, "y": 3 }, { "x": 2, "y": 2 } ] } },
          "charts": [ { "data": "d", "inset": 10, "marks": [ \(marks) ] } ] }
        """
        return try TimelineDecoder.decode(Array(doc.utf8), file: "t.json")
    }

    func errors(_ marks: String, extra: String = "") -> String {
        do { _ = try scene(marks, extra: extra); return "" } catch { return "\(error)" }
    }

    func shape(_ s: Scene, _ id: String) -> ShapeNode? {
        switch s.node(id) {
        case .shape(let x)?: return x
        case .group(let g)?: for c in g.children { if case .shape(let x) = c { return x } }; return nil
        default: return nil
        }
    }

    func testAfterAndWithChainByIdWithOffsets() throws {
        let s = try scene("""
          { "id": "line", "type": "line", "animate": { "trim": { "to": { "from": 0, "to": 1, "duration": 0.8, "delay": 0.2 } } } },
          { "id": "fill", "type": "area", "animate": { "opacity": { "from": 0, "to": 1, "duration": 1, "after": "line", "offset": -0.2 } } },
          { "id": "dots", "type": "point", "animate": { "opacity": { "from": 0, "to": 1, "duration": 0.5, "with": "fill", "offset": 0.1 } } }
        """)
        guard case .tween(let fill)? = shape(s, "fill").map(\.opacity) else { return XCTFail() }
        XCTAssertEqual(fill.animation.start, 0.8, accuracy: 1e-9)      // line ends at 1.0, minus 0.2
        guard case .tween(let dots)? = shape(s, "dots").map(\.opacity) else { return XCTFail() }
        XCTAssertEqual(dots.animation.start, 0.9, accuracy: 1e-9)
        XCTAssertEqual(s.lastAnimationEnd, 1.8, accuracy: 1e-9)
    }

    func testAfterAStaggeredMarkWaitsForItsLastElement() throws {
        // Three dots staggered 0.2 s apart, each fading in over 0.5 s: the last one ends at
        // 0.9 s, so "after": "dots" starts there (before, it started at 0.5 s).
        func fillStart(_ stagger: String, kind: String = "point") throws -> Double? {
            let s = try scene("""
              { "id": "dots", "type": "\(kind)", "animate": { "opacity": { "from": 0, "to": 1, "duration": 0.5 }, "stagger": \(stagger) } },
              { "id": "fill", "type": "area", "animate": { "opacity": { "from": 0, "to": 1, "duration": 1, "after": "dots" } } }
            """)
            if case .tween(let t)? = shape(s, "fill")?.opacity { return t.animation.start }
            return nil
        }
        XCTAssertEqual(try fillStart(#"{ "step": 0.2 }"#) ?? -1, 0.9, accuracy: 1e-9)
        XCTAssertEqual(try fillStart(#"{ "amount": 1 }"#) ?? -1, 1.5, accuracy: 1e-9)
        XCTAssertEqual(try fillStart("{}") ?? -1, 0.7, accuracy: 1e-9, "the default step, 0.1 s")
        XCTAssertEqual(try fillStart(#"{ "step": 0.2 }"#, kind: "line") ?? -1, 0.5, accuracy: 1e-9, "one line: one element, nothing to wait for")
    }

    func testRootSequencePlacesMarksOneAfterAnother() throws {
        let s = try scene("""
          { "id": "a", "type": "line", "animate": { "trim": { "to": { "from": 0, "to": 1, "duration": 0.5 } } } },
          { "id": "b", "type": "area", "animate": { "opacity": { "from": 0, "to": 1, "duration": 0.5, "delay": 0.1 } } }
        """, extra: "\"sequence\": [\"a\", \"b\"],")
        guard case .tween(let b)? = shape(s, "b").map(\.opacity) else { return XCTFail() }
        XCTAssertEqual(b.animation.start, 0.6, accuracy: 1e-9)
    }

    func testSequencesAndParallelGroupsNest() throws {
        let s = try scene("""
          { "id": "a", "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "duration": 0.5 } } },
          { "id": "b", "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "duration": 0.3 } } },
          { "id": "c", "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "duration": 0.7 } } },
          { "id": "d", "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "duration": 0.2 } } }
        """, extra: "\"sequence\": [\"a\", { \"parallel\": [\"b\", \"c\"] }, \"d\"],")
        func start(_ id: String) -> Double? { if case .tween(let t)? = shape(s, id)?.opacity { return t.animation.start }; return nil }
        XCTAssertEqual(start("a")!, 0, accuracy: 1e-9)
        XCTAssertEqual(start("b")!, 0.5, accuracy: 1e-9)
        XCTAssertEqual(start("c")!, 0.5, accuracy: 1e-9)
        XCTAssertEqual(start("d")!, 1.2, accuracy: 1e-9)      // after the longer of b and c
    }

    func testCyclesAndUnknownIdsAreErrorsThatNameThem() {
        let cycle = errors("""
          { "id": "a", "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "after": "b" } } },
          { "id": "b", "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "after": "a" } } }
        """)
        XCTAssertTrue(cycle.contains("cycle"), cycle)
        XCTAssertTrue(cycle.contains("\"a") && cycle.contains("\"b"), cycle)
        let unknown = errors("""
          { "id": "line", "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "after": "lnie" } } }
        """)
        XCTAssertTrue(unknown.contains("no animation or mark has the id \"lnie\"; did you mean \"line\"?"), unknown)
        XCTAssertTrue(unknown.contains("t.json:3:"), unknown)
    }

    func testKeyframesHoldAndRepeatsAndSprings() throws {
        let s = try scene("""
          { "id": "k", "type": "line", "animate": { "opacity": { "keyframes": [
              { "time": 0, "value": 0, "curve": "linear" }, { "time": 1, "value": 1, "hold": true }, { "time": 2, "value": 0.2 } ] } } },
          { "id": "r", "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "duration": 1, "curve": "linear",
              "repeat": 2, "autoreverses": true } } },
          { "id": "s", "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "curve": "spring(duration: 0.5, bounce: 0.3)" } } }
        """)
        let k = shape(s, "k")!.opacity
        XCTAssertEqual(k.value(at: 0.5), 0.5, accuracy: 1e-9)
        XCTAssertEqual(k.value(at: 1.5), 1, accuracy: 1e-9)        // held
        XCTAssertEqual(k.value(at: 2.5), 0.2, accuracy: 1e-9)
        let r = shape(s, "r")!.opacity
        XCTAssertEqual(r.value(at: 0.5), 0.5, accuracy: 1e-9)
        XCTAssertEqual(r.value(at: 1.25), 0.75, accuracy: 1e-9)     // reversing
        XCTAssertEqual(r.value(at: 3), 1, accuracy: 1e-9)           // after its end: the to-value, as SwiftUI's model
        let last = try scene("""
          { "id": "r", "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "duration": 1, "curve": "linear",
              "repeat": 2, "autoreverses": true, "holdAfter": "lastPass" } } }
        """)
        XCTAssertEqual(shape(last, "r")!.opacity.value(at: 3), 0, accuracy: 1e-9)   // where the last (reverse) pass ended
        let sp = shape(s, "s")!.opacity
        XCTAssertGreaterThan((0..<100).map { sp.value(at: Double($0) / 100) }.max()!, 1, "a bouncy spring overshoots")
        XCTAssertEqual(sp.value(at: 5), 1, accuracy: 1e-3)
        let bad = errors("""
          { "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "curve": "easeInOutBounc" } } }
        """)
        XCTAssertTrue(bad.contains("did you mean \"easeInOutBounce\""), bad)
    }

    func testTranslateRotationColourAndOffsetAnimate() throws {
        let s = try scene("""
          { "id": "p", "type": "point", "fill": "#FF0000", "animate": {
              "translate": { "x": { "from": 0, "to": 40, "duration": 1, "curve": "linear" } },
              "rotation": { "from": 0, "to": 90, "duration": 1, "curve": "linear" },
              "color": { "from": "#FF0000", "to": "#0000FF", "duration": 1, "curve": "linear" } } },
          { "id": "o", "type": "line", "animate": { "trim": { "from": 0, "to": 0.25,
              "offset": { "from": 0, "to": 1, "duration": 1, "curve": "linear" } } } }
        """)
        let p = shape(s, "p")!
        XCTAssertEqual(p.motion.translateX.value(at: 0.5), 20, accuracy: 1e-9)
        XCTAssertEqual(p.motion.rotation.value(at: 1), .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(p.fillColor!.value(at: 1), Color(r: 0, g: 0, b: 1))
        let mid = p.fillColor!.value(at: 0.5)
        XCTAssertTrue(mid.r > 0.3 && mid.b > 0.3, "OKLab midpoint of red and blue is purple: \(mid)")
        XCTAssertEqual(shape(s, "o")!.trimOffset!.value(at: 0.5), 0.5, accuracy: 1e-9)
    }

    func testCountersTickUpWithTheEasing() throws {
        let s = try scene("""
          { "id": "n", "type": "text", "text": { "format": { "maxFractionDigits": 0, "unit": " mg" } },
            "animate": { "count": { "from": 0, "to": 1, "duration": 1, "curve": "linear" } } }
        """)
        guard case .group(let g)? = s.node("n"), case .text(let t) = g.children[1] else { return XCTFail() }
        // Half of 3 floors while counting (issue 16, defect 9); the label's own text at the end.
        XCTAssertEqual(t.counter!.format(t.counter!.value.value(at: 0.5)), "1 mg")
        XCTAssertEqual(t.counter!.format(t.counter!.value.value(at: 1)), "3 mg")
        let nearest = try scene("""
          { "id": "n", "type": "text", "text": { "format": { "maxFractionDigits": 0, "unit": " mg", "rounding": "nearest" } },
            "animate": { "count": { "from": 0, "to": 1, "duration": 1, "curve": "linear" } } }
        """)
        guard case .group(let g2)? = nearest.node("n"), case .text(let t2) = g2.children[1] else { return XCTFail() }
        XCTAssertEqual(t2.counter!.format(t2.counter!.value.value(at: 0.5)), "2 mg")   // ties to even
    }

    func testFrame36At60fpsShowsExactlyHalfway() throws {
        let s = try TimelineDecoder.load(path: CurvedLineRevealTests.root.appendingPathComponent("timelines/curved-line-reveal.json").path)
        let t = Scene.time(ofFrame: 36, fps: 60)
        XCTAssertEqual(shape(s, "line")!.trimEnd.value(at: t), Easing.easeInOut(0.5))
        XCTAssertEqual(shape(s, "line")!.trimEnd.value(at: t), 0.5)
    }

    func testEasingGalleryDotsFinishOnTheRight() throws {
        let s = try TimelineDecoder.load(path: CurvedLineRevealTests.root.appendingPathComponent("timelines/easing-gallery.json").path)
        let end = s.effectiveDuration
        for id in ["dot-0", "dot-14", "dot-40"] {
            guard let n = shape(s, id), let dyn = n.dynamicPath else { return XCTFail("no \(id)") }
            let b0 = dyn(0).controlBounds, b1 = dyn(end).controlBounds
            XCTAssertGreaterThan(b1.midX - b0.midX, 400, id)
        }
    }
}
