import XCTest
import Geometry
import Raster
import Motion
import Text
@testable import Scene
@testable import Charts

/// A bar chart race: bars ranked by value at every step, sliding between rank slots, top N.
final class BarRaceTests: XCTestCase {
    let red = Color(r: 1, g: 0, b: 0), green = Color(r: 0, g: 1, b: 0), blue = Color(r: 0, g: 0, b: 1)

    /// A leads B in 2000, B leads A in 2001 (a swap), C climbs from last into the top two in 2002.
    var rows: [DataRow] {
        [("A", 2000.0, 60.0), ("B", 2000, 40), ("C", 2000, 10),
         ("A", 2001, 50), ("B", 2001, 70), ("C", 2001, 20),
         ("A", 2002, 30), ("B", 2002, 80), ("C", 2002, 90)].map {
            ["k": .string($0.0), "year": .number($0.1), "v": .number($0.2)]
        }
    }

    /// 2 slots on a 300×120 plot (inset 0), x over 0…100, a second a step.
    func race() throws -> ChartSpec {
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 300, height: 120),
                          style: ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)), data: rows)
        c.inset = 0
        c.x = Channel(field: "v"); c.x.domain = (0, 100)
        c.y = Channel(field: "rank"); c.y.domain = (1.5, -0.5)
        c.timeline = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 2),
                                      ranking: .init(field: "v", output: "rank", top: 2))
        c.clipsMarks = true
        var bars = BarMarkSpec(options: MarkOptions(id: "bars"))
        bars.orientation = .horizontal
        bars.slot = 1
        bars.barWidth = 0.5
        bars.options.color = .category(field: "k", colors: [red, green, blue], domain: nil)
        c.marks = [bars]
        return c
    }

    /// Rows of ink of a colour in column x, and its last column in row y.
    func rowsOf(_ f: Pixmap, _ c: Color, x: Int) -> [Int] {
        let p = c.premultiplied
        return (0..<f.height).filter { f.pixel(x, $0) == p }
    }
    func lastColumn(_ f: Pixmap, _ c: Color, y: Int) -> Int? {
        let p = c.premultiplied
        return (0..<f.width).last { f.pixel($0, y) == p }
    }
    func centre(_ rows: [Int]) -> Double { Double(rows.min()! + rows.max()! + 1) / 2 }

    func testRanksAreWrittenAtEveryStepAndMoveBetween() throws {
        let tl = try race().timeline!
        func rank(_ t: Double, _ k: String) -> Double? {
            tl.rows(at: t).first { $0["k"] == .string(k) }?["rank"]?.number
        }
        XCTAssertEqual(rank(0, "A"), 0); XCTAssertEqual(rank(0, "B"), 1); XCTAssertNil(rank(0, "C"), "third: below the top two")
        XCTAssertEqual(rank(1, "A"), 1); XCTAssertEqual(rank(1, "B"), 0)
        XCTAssertEqual(rank(0.25, "A")!, 0.25, accuracy: 1e-12)
        XCTAssertEqual(rank(2, "C"), 0); XCTAssertEqual(rank(2, "B"), 1); XCTAssertNil(rank(2, "A"))
        XCTAssertEqual(rank(1.5, "C")!, 1, accuracy: 1e-12, "C slides in from below: halfway from 2 to 0")
    }

    func testBarsHaveTheirValuesAtStepsAndSlideBetweenSlotsDuringASwap() throws {
        let c = try race()
        let scene = Scene(width: 300, height: 120, background: .white, nodes: [c.build()])
        // Slot centres: rank 0 at y = 30, rank 1 at y = 90 (60 px a slot).
        for (t, a, b) in [(0.0, 60.0, 40.0), (1.0, 50, 70)] {
            let f = scene.frame(at: t)
            let yA = centre(rowsOf(f, red, x: 5)), yB = centre(rowsOf(f, green, x: 5))
            XCTAssertEqual(yA, t == 0 ? 30 : 90, accuracy: 0.5); XCTAssertEqual(yB, t == 0 ? 90 : 30, accuracy: 0.5)
            XCTAssertEqual(Double(lastColumn(f, red, y: Int(yA))! + 1), 3 * a, accuracy: 1, "A's length at \(t) s")
            XCTAssertEqual(Double(lastColumn(f, green, y: Int(yB))! + 1), 3 * b, accuracy: 1, "B's length at \(t) s")
        }
        // Halfway: the interpolated value; during the swap both bars are between their
        // slots, on opposite sides of the middle, never on one slot.
        for (t, expectedA) in [(0.25, 57.5), (0.75, 52.5)] {
            let f = scene.frame(at: t)
            let yA = centre(rowsOf(f, red, x: 5)), yB = centre(rowsOf(f, green, x: 5))
            XCTAssertEqual(yA, 30 + 60 * t, accuracy: 0.5, "A at \(t) s")
            XCTAssertEqual(yB, 90 - 60 * t, accuracy: 0.5, "B at \(t) s")
            XCTAssertNotEqual(yA, yB)
            XCTAssertTrue(yA > 30 && yA < 90 && yB > 30 && yB < 90)
            let rowA = rowsOf(f, red, x: 5).first { !rowsOf(f, green, x: 5).contains($0) }!
            XCTAssertEqual(Double(lastColumn(f, red, y: rowA)! + 1), 3 * expectedA, accuracy: 1, "A's length at \(t) s")
        }
    }

    func testAKeyOutsideTheTopHasNoInk() throws {
        let c = try race()
        let scene = Scene(width: 300, height: 120, background: .white, nodes: [c.build()])
        let f0 = scene.frame(at: 0)
        XCTAssertTrue((0..<120).allSatisfy { y in (0..<300).allSatisfy { f0.pixel($0, y) != self.blue.premultiplied } }, "C is third at 2000")
        // And the frame does not build a node for it.
        let nodes = c.snapshot(at: 0).data
        XCTAssertEqual(nodes.count, 2)
        let f2 = scene.frame(at: 2)
        XCTAssertFalse(rowsOf(f2, blue, x: 5).isEmpty, "C leads in 2002")
    }

    func testCountingLabelsAndThePeriodLabelUseTabularFigures() throws {
        var c = try race()
        var label = TextMarkSpec(options: MarkOptions(id: "labels"))
        label.literal = "{field:k} {field:v:.0f}"
        label.position = .insideEnd
        c.marks.append(label)
        c.periodLabel = PeriodLabelSpec()
        let s = c.snapshot(at: 0.5)
        guard case .group(let mark) = s.markNode(label, s.state(at: 0.5)), case .text(let t)? = mark.children.first else {
            return XCTFail("no label")
        }
        XCTAssertEqual(t.string, "A 55")
        XCTAssertTrue(t.options.features.contains("tnum"), "a counting label keeps its digits in place")
        guard case .text(let year) = s.periodLabelNode(c.periodLabel!, s.state(at: 0.5)) else { return XCTFail() }
        XCTAssertEqual(year.string, "2000")
        XCTAssertTrue(year.options.features.contains("tnum"))
        // A fixed text is shaped as written.
        var fixed = TextMarkSpec(); fixed.literal = "hello"
        guard case .group(let g) = s.markNode(fixed, s.state(at: 0.5)), case .text(let h)? = g.children.first else { return XCTFail() }
        XCTAssertFalse(h.options.features.contains("tnum"))
    }
}
