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
        // Ranked again every tenth of a step from the interpolated values: A (60 → 50) and
        // B (40 → 70) are level at 0.5, so A keeps the lead until then and they swap over
        // the tenth of a step after it.
        XCTAssertEqual(rank(0.25, "A")!, 0, accuracy: 1e-12)
        XCTAssertEqual(rank(0.5, "A")!, 0, accuracy: 1e-12, "a tie keeps key order")
        XCTAssertEqual(rank(0.52, "A")!, 0.2, accuracy: 1e-9)
        XCTAssertEqual(rank(0.52, "B")!, 0.8, accuracy: 1e-9)
        XCTAssertEqual(rank(0.75, "A")!, 1, accuracy: 1e-12)
        XCTAssertEqual(rank(2, "C"), 0); XCTAssertEqual(rank(2, "B"), 1); XCTAssertNil(rank(2, "A"))
        // C (20 → 90) passes A (50 → 30) a third of the way to 2002 and B (70 → 80) at
        // five sixths: it climbs one slot at a time, as it overtakes.
        XCTAssertNil(rank(1.3, "C"), "third, below the top two, until it passes A")
        XCTAssertEqual(rank(1.35, "C")!, 1.5, accuracy: 1e-9)
        XCTAssertEqual(rank(1.5, "C")!, 1, accuracy: 1e-12)
        XCTAssertEqual(rank(1.85, "C")!, 0.5, accuracy: 1e-9)
        XCTAssertEqual(rank(1.9, "C")!, 0, accuracy: 1e-12)
    }

    /// A race is ranked every tenth of a second of video, at most ten times a step.
    func testRankingFollowsTheVideoClock() throws {
        func substeps(_ mode: DataTimeline.Mode) throws -> Int {
            try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: mode,
                             ranking: .init(field: "v", output: "rank", top: 2)).rankSubsteps
        }
        XCTAssertEqual(try substeps(.continuous(duration: 2)), 10)     // 1 s a step
        XCTAssertEqual(try substeps(.continuous(duration: 0.8)), 4)    // 0.4 s a step: a swap takes 0.1 s
        XCTAssertEqual(try substeps(.continuous(duration: 0.1)), 1)    // 0.05 s a step: ranked at the steps
        XCTAssertEqual(try substeps(.continuous(duration: 60)), 10)
        XCTAssertEqual(try substeps(.states(transition: 0.3, hold: 1)), 3)
    }

    /// At every sub-step the shown keys' ranks are exactly the slots 0 … top − 1, one key
    /// each, on random data with keys entering late, leaving early and missing steps.
    func testEverySubstepFillsEverySlotOnce() throws {
        var state: UInt64 = 20261202   // a fixed LCG: the same data every run
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        var rows: [DataRow] = []
        for k in 0..<12 {
            var v = Double(next() % 100)
            let first = k % 4 == 0 ? Int(next() % 5) : 0, last = k % 5 == 0 ? 10 + Int(next() % 4) : 14
            for step in first...last {
                v = max(0, v + Double(Int(next() % 41) - 20))
                if step != first && step != last && next() % 7 == 0 { continue }   // a missing step, bridged
                rows.append(["k": .string("key\(k)"), "t": .number(Double(step)), "v": .number(v)])
            }
        }
        let top = 5
        let tl = try DataTimeline(rows: rows, timeField: "t", keyField: "k", mode: .continuous(duration: 14),
                                  ranking: .init(field: "v", output: "rank", top: top))
        XCTAssertEqual(tl.rankSubsteps, 10, "a second a step: ranked every tenth")
        for n in 0...(14 * tl.rankSubsteps) {
            let p = Double(n) / Double(tl.rankSubsteps)
            let ranks = tl.rows(atPosition: p).compactMap { $0["rank"]?.number }.filter { $0 < Double(top) }.sorted()
            XCTAssertEqual(ranks, (0..<top).map(Double.init), "at \(p)")
        }
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
        // Before and after the values cross (at 0.5 s) each bar is in its slot with its
        // interpolated length; during the swap (0.5 … 0.6 s) both are between the slots,
        // on opposite sides of the middle.
        for (t, expectedA, slotA) in [(0.25, 57.5, 30.0), (0.75, 52.5, 90)] {
            let f = scene.frame(at: t)
            let yA = centre(rowsOf(f, red, x: 5)), yB = centre(rowsOf(f, green, x: 5))
            XCTAssertEqual(yA, slotA, accuracy: 0.5, "A at \(t) s")
            XCTAssertEqual(yB, 120 - slotA, accuracy: 0.5, "B at \(t) s")
            XCTAssertEqual(Double(lastColumn(f, red, y: Int(yA))! + 1), 3 * expectedA, accuracy: 1, "A's length at \(t) s")
        }
        let f = scene.frame(at: 0.52)
        let yA = centre(rowsOf(f, red, x: 5)), yB = centre(rowsOf(f, green, x: 5))
        XCTAssertEqual(yA, 30 + 60 * 0.2, accuracy: 0.5, "A during the swap")
        XCTAssertEqual(yB, 90 - 60 * 0.2, accuracy: 0.5, "B during the swap")
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
