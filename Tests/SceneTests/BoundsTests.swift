import XCTest
import Geometry
import Motion
import Raster
@testable import Scene

/// Where nodes draw: `restingBounds` (for looking at one node of a frame) and `inkBounds`
/// (for sizing group layers). Both must contain every pixel the node inks.
final class BoundsTests: XCTestCase {
    let box = Rect(x: 20, y: 30, width: 60, height: 40)

    /// Renders `node` alone on a white canvas and returns where it put ink.
    func ink(of node: Node, at t: Double = 10, width: Int = 140, height: Int = 120) -> Rect? {
        Scene(width: width, height: height, nodes: [node]).frame(at: t).bounds(ofInk: .white)
    }

    func testRestingBoundsOfShapes() throws {
        let filled = Node.shape(ShapeNode(path: .rect(box), fill: (.solid(.black), .nonZero)))
        XCTAssertEqual(filled.restingBounds, box)
        XCTAssertNil(Node.shape(ShapeNode(path: .rect(box))).restingBounds, "neither filled nor stroked draws nothing")
        XCTAssertNil(Node.shape(ShapeNode(path: Path(), fill: (.solid(.black), .nonZero))).restingBounds, "an empty path")

        // A stroke widens the box by its reach: w/2·√2 for round joins, w/2·miter limit for miters.
        let round = StrokeStyle(width: 6, cap: .round, join: .round)
        let stroked = Node.shape(ShapeNode(path: .rect(box), stroke: (.solid(.black), round)))
        XCTAssertEqual(stroked.restingBounds, box.insetBy(-3 * 2.squareRoot()))
        let miter = StrokeStyle(width: 6, join: .miter, miterLimit: 4)
        XCTAssertEqual(Node.shape(ShapeNode(path: .rect(box), stroke: (.solid(.black), miter))).restingBounds, box.insetBy(-12))

        // The ink is inside, also for a square cap on a diagonal (its corner sticks out most).
        var diagonal = Path()
        diagonal.move(to: Point(40, 40)); diagonal.line(to: Point(90, 90))
        let capped = Node.shape(ShapeNode(path: diagonal, stroke: (.solid(.black), StrokeStyle(width: 10, cap: .square, join: .bevel))))
        for node in [filled, stroked, capped] {
            let b = try XCTUnwrap(node.restingBounds), drawn = try XCTUnwrap(ink(of: node))
            XCTAssertTrue(b.insetBy(-1).contains(drawn), "ink \(drawn) inside \(b)")
        }
    }

    /// Resting bounds ignore animation: a shape at the start of its trim still reports
    /// where its whole path draws.
    func testRestingBoundsIgnoreTrimAndMotion() throws {
        var s = ShapeNode(path: .rect(box), fill: (.solid(.black), .nonZero))
        s.trimEnd = tween(0, 1, duration: 1)
        s.motion.translateX = tween(0, 50, duration: 1)
        XCTAssertEqual(Node.shape(s).restingBounds, box)
        XCTAssertNil(Node.shape(s).inkBounds, "a moving shape has no fixed ink box")
    }

    func testRestingBoundsOfGroupsAndText() throws {
        let a = Node.shape(ShapeNode(path: .rect(Rect(x: 0, y: 0, width: 10, height: 10)), fill: (.solid(.black), .nonZero)))
        let b = Node.shape(ShapeNode(path: .rect(Rect(x: 30, y: 5, width: 10, height: 20)), fill: (.solid(.black), .nonZero)))
        let nothing = Node.shape(ShapeNode(path: .rect(box)))
        let g = Node.group(GroupNode(children: [a, nothing, b], transform: .translation(100, 50)))
        XCTAssertEqual(g.restingBounds, Rect(x: 100, y: 50, width: 40, height: 25))
        XCTAssertNil(Node.group(GroupNode(children: [nothing])).restingBounds)
        // A quarter turn maps the children's corners: (x, y) → (−y, x).
        let turned = Node.group(GroupNode(children: [b], transform: .rotation(.pi / 2)))
        let r = try XCTUnwrap(turned.restingBounds)
        XCTAssertEqual(r.minX, -25, accuracy: 1e-9); XCTAssertEqual(r.maxX, -5, accuracy: 1e-9)
        XCTAssertEqual(r.minY, 30, accuracy: 1e-9); XCTAssertEqual(r.maxY, 40, accuracy: 1e-9)

        let text = Node.text(TextNode("Resting", font: dejaVu, size: 20, position: Point(20, 60),
                                      background: TextBackground(color: Color(r: 0.9, g: 0.9, b: 0.9))))
        let tb = try XCTUnwrap(text.restingBounds)
        XCTAssertGreaterThan(tb.width, 60)
        let drawn = try XCTUnwrap(ink(of: text))
        XCTAssertTrue(tb.insetBy(-1).contains(drawn), "ink \(drawn) inside \(tb)")
    }

    /// Ink bounds hold at every time, so they are nil for anything that moves or changes
    /// shape, and a group's is its children's through its transform.
    func testInkBounds() throws {
        let style = StrokeStyle(width: 4, cap: .round, join: .round)
        let shape = ShapeNode(path: .rect(box), stroke: (.solid(.black), style))
        XCTAssertEqual(shape.inkBounds, box.insetBy(-(1 + style.reach)), "one pixel beyond the stroke's reach")
        var faded = shape
        faded.opacity = tween(0, 1, duration: 1)
        faded.trimEnd = tween(0, 1, duration: 1)
        XCTAssertEqual(faded.inkBounds, shape.inkBounds, "opacity and trim stay inside the box")
        var growing = shape
        growing.dynamicPath = { t in .rect(Rect(x: 20, y: 30, width: 60 * t, height: 40)) }
        XCTAssertNil(growing.inkBounds)

        let g = GroupNode(children: [.shape(shape)], transform: .translation(5, 7))
        let gb = try XCTUnwrap(g.inkBounds)
        XCTAssertEqual(gb.minX, box.minX - 1 - style.reach + 5, accuracy: 1e-12)
        XCTAssertEqual(gb.minY, box.minY - 1 - style.reach + 7, accuracy: 1e-12)
        var moving = ShapeNode(path: .rect(box), fill: (.solid(.black), .nonZero))
        moving.motion.rotation = tween(0, 1, duration: 1)
        XCTAssertNil(GroupNode(children: [.shape(shape), .shape(moving)]).inkBounds, "one moving child: unknown")
        XCTAssertEqual(GroupNode(children: []).inkBounds, .null, "nothing in it")

        let drawn = try XCTUnwrap(ink(of: .group(g)))
        XCTAssertTrue(gb.contains(drawn), "ink \(drawn) inside \(gb)")
    }
}
