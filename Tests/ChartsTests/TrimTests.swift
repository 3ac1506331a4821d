import XCTest
import Geometry
import Raster
import Motion
import Scene
import Text
@testable import Charts

/// Trimmed areas show the area under the revealed line; a trim on a clipped line spends
/// its time on the part in view (#16 defects 2 and 13).
final class TrimTests: XCTestCase {
    func style() throws -> ChartStyle { ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)) }
    let blue = Color(r: 0, g: 0, b: 1)

    func render(_ c: ChartSpec, at t: Double) -> Pixmap {
        Scene(width: Int(c.frame.width), height: Int(c.frame.height), background: .white, nodes: [c.build()]).frame(at: t)
    }
    func isInk(_ p: PremultipliedRGBA8) -> Bool { p.r < 200 }

    /// y = x² over 0…10 on a 220×120 frame with a 10 px inset: plot x 10…210, y 10…110.
    func curve(_ kind: String, trim: AnimatedValue, domain: (Double, Double) = (0, 10), clip: Bool = false) throws -> ChartSpec {
        let rows: [DataRow] = (0...10).map { ["x": .number(Double($0)), "y": .number(Double($0 * $0))] }
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 220, height: 120), style: try style(), data: rows)
        c.inset = 10
        c.x.domain = domain; c.y.domain = (0, 100)
        c.clipsMarks = clip
        var o = MarkOptions(id: "m")
        o.trimEnd = trim
        if kind == "area" {
            var a = AreaMarkSpec(options: o); a.fill = .solid(blue); c.marks = [a]
        } else {
            var l = LineMarkSpec(options: o); l.stroke = (.solid(blue), StrokeStyle(width: 2)); c.marks = [l]
        }
        return c
    }

    func testATrimmedAreaIsTheAreaUnderTheRevealedLine() throws {
        let c = try curve("area", trim: .constant(0.5))
        let f = render(c, at: 0)
        let l = c.state(at: 0)
        // Half of the parabola's length ends where its arc length is half: find it from
        // the line itself, then check ink left of it and none right of it.
        var top = Path(); top.move(to: Point(l.x(0), l.y(0)))
        for i in 1...10 { top.line(to: Point(l.x(Double(i)), l.y(Double(i * i)))) }
        let m = PathMeasure(top)
        let cut = try XCTUnwrap(m.position(atDistance: m.length / 2))
        let baseline = Int(l.y(0)) - 2
        // Just above the baseline everywhere left of the cut: filled down to the baseline
        // (a chord from the cut back to the start would leave this empty).
        for x in stride(from: Int(l.x(2.5)), to: Int(cut.x) - 1, by: 5) {
            XCTAssertTrue(isInk(f.pixel(x, baseline)), "filled above the baseline at x = \(x)")
        }
        for x in (Int(cut.x) + 2)..<215 { XCTAssertFalse(isInk(f.pixel(x, baseline)), "nothing right of the cut at x = \(x)") }
        // And under the revealed line only: above the curve stays empty.
        let x6 = l.x(6)
        XCTAssertLessThan(cut.x, x6, "the cut lies before x = 6 on a parabola")
        XCTAssertFalse(isInk(f.pixel(Int(l.x(3)), Int(l.y(20)))), "above the curve at x = 3")
        XCTAssertTrue(isInk(f.pixel(Int(l.x(3)), Int(l.y(4)))), "under the curve at x = 3")
        // A trim that animates reveals left to right and ends as the whole area.
        let anim = try curve("area", trim: .tween(Tween(from: 0, to: 1, animation: Animation(curve: .linear, duration: 1))))
        XCTAssertFalse(isInk(render(anim, at: 0).pixel(Int(l.x(5)), baseline)))
        XCTAssertTrue(isInk(render(anim, at: 1).pixel(Int(l.x(9.5)), baseline)))
    }

    func testATrimOnANarrowedDomainSpendsItsTimeOnThePartInView() throws {
        // The line runs over 0…10 but the domain shows 5…10 and marks are clipped: the
        // trim's first moment already draws in view, and its middle reaches the middle of
        // what is shown (by length), not the edge of the plot.
        let trim = AnimatedValue.tween(Tween(from: 0, to: 1, animation: Animation(curve: .linear, duration: 2)))
        let c = try curve("line", trim: trim, domain: (5, 10), clip: true)
        let l = c.state(at: 0)
        func lastInkColumn(_ t: Double) -> Int? {
            let f = render(c, at: t)
            return (0..<220).last { x in (0..<120).contains { isInk(f.pixel(x, $0)) } }
        }
        let early = try XCTUnwrap(lastInkColumn(0.2), "in view at a tenth of the trim")
        XCTAssertLessThan(Double(early), l.x(6.5))
        XCTAssertGreaterThan(Double(try XCTUnwrap(lastInkColumn(1.9))), l.x(9.5))
        // Without the clip the whole line is drawn and the trim is the line's own.
        let unclipped = try curve("line", trim: trim, domain: (5, 10), clip: false)
        let f = render(unclipped, at: 0.2)
        XCTAssertFalse((0..<120).contains { isInk(f.pixel(Int(l.x(5.5)), $0)) }, "a tenth of the whole line is left of the plot")
    }
}

/// A domain the document narrows clips the marks and narrows the other axis (#16 defect 3).
final class NarrowedDomainTests: XCTestCase {
    func style() throws -> ChartStyle { ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)) }

    func chart(_ xDomain: (Double, Double)?) throws -> ChartSpec {
        let rows: [DataRow] = (0...10).map { ["x": .number(Double($0)), "y": .number(Double($0) * 10)] }
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 220, height: 120), style: try style(), data: rows)
        c.inset = 20
        c.x.domain = xDomain
        var line = LineMarkSpec(options: MarkOptions(id: "line"))
        line.stroke = (.solid(Color(r: 0, g: 0, b: 1)), StrokeStyle(width: 3))
        c.marks = [line]
        return c
    }

    func inkColumns(_ c: ChartSpec) -> [Int] {
        let f = Scene(width: 220, height: 120, background: .white, nodes: [c.build()]).frame(at: 0)
        return (0..<220).filter { x in (0..<120).contains { f.pixel(x, $0).r < 200 } }
    }

    func testANarrowedDomainClipsTheMarksAndTheOtherAxisCoversWhatIsInView() throws {
        let c = try chart((3, 6))
        let l = c.state(at: 0)
        XCTAssertTrue(c.marksAreClipped(l), "rows lie outside the x domain")
        XCTAssertEqual(l.yResolved.domain.0, 0)
        XCTAssertEqual(l.yResolved.domain.1, 60, "y covers the rows at x 3…6 (and zero), not the 100 at x = 10")
        let columns = inkColumns(c)
        XCTAssertGreaterThanOrEqual(columns.min()!, 20, "nothing in the left margin")
        XCTAssertLessThanOrEqual(columns.max()!, 200, "nothing in the right margin")
        // "clip": false draws the whole line over the margins, as before.
        var unclipped = c
        unclipped.clipsMarks = false
        XCTAssertLessThan(inkColumns(unclipped).min()!, 20)
        // Data inside its domain is not clipped (a dot at the edge keeps its round ends).
        let whole = try chart((0, 10))
        XCTAssertFalse(whole.marksAreClipped(whole.state(at: 0)))
        XCTAssertEqual(whole.state(at: 0).yResolved.domain.1, 100)
    }
}
