import XCTest
import Geometry
import Raster
import Motion
import Text
@testable import Scene
@testable import Charts

/// A chart's state at time t: computed once when nothing in it changes, recomputed per
/// frame (and only then) when a domain animates.
final class ChartStateTests: XCTestCase {
    func style() throws -> ChartStyle { ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)) }

    /// A line over 0…40 with axes, a grid, a card and a title; y's domain is `domain`.
    func chart(domain: (Double, Double)? = nil, animated: AnimatedDomain? = nil) throws -> ChartSpec {
        let rows: [DataRow] = (0..<9).map { ["x": .number(Double($0)), "y": .number(Double($0 * $0) / 2)] }
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 320, height: 220), style: try style(), data: rows)
        c.y.domain = domain
        c.y.animatedDomain = animated
        c.axes = [AxisSpec(side: .bottom), AxisSpec(side: .leading)]
        var g = GridSpec(); g.yAtTicks = true
        c.grid = g
        c.card = CardSpec()
        c.title = TitleSpec("Zoom")
        var line = LineMarkSpec(options: MarkOptions(id: "line"))
        line.stroke = (.solid(Color(r: 0.8, g: 0.1, b: 0.1)), StrokeStyle(width: 2))
        c.marks = [line]
        c.clipsMarks = true
        return c
    }

    /// y zooms from 0…10 to 0…40 between 0.5 s and 1.5 s, linearly.
    let zoom = AnimatedDomain(lower: .constant(0),
                              upper: .tween(Tween(from: 10, to: 40, animation: Animation(curve: .linear, duration: 1).delay(0.5))))

    func scene(_ c: ChartSpec) -> Scene { Scene(width: 320, height: 220, background: .white, nodes: [c.build(id: "chart0")]) }

    func testAStaticChartIsBuiltOnceWithoutPerFrameContent() throws {
        let c = try chart(domain: (0, 40))
        XCTAssertTrue(c.isStatic)
        func hasDynamic(_ n: Node) -> Bool {
            guard case .group(let g) = n else { return false }
            return g.dynamicChildren != nil || g.children.contains(where: hasDynamic)
        }
        XCTAssertFalse(hasDynamic(c.build()))
        XCTAssertTrue(try hasDynamic(chart(animated: zoom).build()), "an animated domain rebuilds the plot per frame")
    }

    func testTheStateFollowsTheAnimatedDomain() throws {
        let c = try chart(animated: zoom)
        XCTAssertFalse(c.isStatic)
        XCTAssertEqual(c.stateChangeSpan, ChangeSpan(start: 0.5, end: 1.5))
        for (t, top) in [(0.0, 10.0), (0.5, 10), (1.0, 25), (1.25, 32.5), (1.5, 40), (3, 40)] {
            let s = c.state(at: t)
            XCTAssertEqual(s.yResolved.domain.1, top, accuracy: 1e-9, "domain at \(t)")
            // The top pixel row of the plot is the domain's top, and the largest tick is
            // the largest nice step inside it.
            XCTAssertEqual(s.y(top), s.plot.minY, accuracy: 1e-9)
            let step = NiceTicks.step(0, top, count: 5)
            XCTAssertEqual(s.yTicks.last!.value, (top / step).rounded(.down) * step, accuracy: 1e-9, "top tick at \(t)")
        }
    }

    func testEveryFrameEqualsTheStaticChartOfThatMoment() throws {
        let moving = scene(try chart(animated: zoom))
        for t in [0.0, 0.5, 0.8, 1.0, 1.37, 1.5, 2.0] {
            let top = zoom.value(at: t).1
            let still = scene(try chart(domain: (0, top)))
            XCTAssertTrue(moving.frame(at: t).data == still.frame(at: t).data, "frame at \(t) differs from the chart with y 0…\(top)")
        }
        // And the frames really change: the line's end moves down as the domain grows.
        XCTAssertFalse(moving.frame(at: 0.5).data == moving.frame(at: 1.5).data)
    }

    func testTheFrameCacheKeepsWhatDoesNotChange() throws {
        let s = scene(try chart(animated: zoom))
        let r = FrameRenderer(scene: s)
        // Card and title are entries of their own that never change; the plot is one entry
        // that changes while the domain moves.
        XCTAssertEqual(r.spans.count, 3)
        XCTAssertEqual(r.spans[0], .never)
        XCTAssertEqual(r.spans[1], .never)
        XCTAssertNil(r.spans[2].state(at: 1.0))
        XCTAssertEqual(r.spans[2].state(at: 0.2), .initial)
        XCTAssertEqual(r.spans[2].state(at: 1.6), .final)
        for t in [0.0, 0.25, 0.6, 1.0, 1.49, 1.5, 2.5, 0.1] {
            XCTAssertTrue(r.frame(at: t).data == s.frame(at: t).data, "cached frame at \(t)")
        }
    }
}
