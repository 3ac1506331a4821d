import XCTest
import TestSupport
import Geometry
import Raster
import Motion
import Text
@testable import Scene
@testable import Charts

/// Data that changes over time: keyed rows interpolated between time steps.
final class DataTimelineTests: XCTestCase {
    func row(_ year: Double, _ key: String, _ v: Double, _ note: String = "") -> DataRow {
        ["year": .number(year), "k": .string(key), "v": .number(v), "note": .string(note)]
    }

    /// A: 10 → 40 → 60; B: 30, missing in 2001, 50 in 2002; C only from 2001.
    var rows: [DataRow] {
        [row(2000, "A", 10, "a0"), row(2000, "B", 30), row(2001, "A", 40, "a1"), row(2001, "C", 5),
         row(2002, "A", 60, "a2"), row(2002, "B", 50), row(2002, "C", 25)]
    }

    func value(_ rows: [DataRow], _ key: String) -> Double? {
        rows.first { $0["k"] == .string(key) }?["v"]?.number
    }

    /// An empty number cell between two of a key's steps with values is bridged on the line
    /// between them, by step (a bubble's population missing two years of four); before a
    /// key's first value and after its last the cell stays empty; other keys are untouched.
    func testEmptyNumberCellsInsideAKeysRangeAreBridged() throws {
        func r(_ year: Double, _ key: String, _ size: Double?) -> DataRow {
            var row: DataRow = ["year": .number(year), "k": .string(key), "v": .number(1)]
            if let size { row["size"] = .number(size) }
            return row
        }
        let rows = [r(2000, "A", 10), r(2001, "A", nil), r(2002, "A", nil), r(2003, "A", 40),
                    r(2000, "B", nil), r(2001, "B", 7), r(2003, "B", 9), r(2004, "B", nil), r(2004, "A", 50)]
        let tl = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 4))
        func size(_ t: Double, _ key: String) -> Double? {
            tl.rows(at: t).first { $0["k"] == .string(key) }?["size"]?.number
        }
        XCTAssertEqual(size(0, "A"), 10)
        XCTAssertEqual(try XCTUnwrap(size(1, "A")), 20, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(size(2, "A")), 30, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(size(2.5, "A")), 35, accuracy: 1e-12)
        XCTAssertEqual(size(3, "A"), 40)
        XCTAssertNil(size(0, "B"), "before B's first value")
        XCTAssertEqual(size(1, "B"), 7)
        XCTAssertEqual(try XCTUnwrap(size(2, "B")), 8, accuracy: 1e-12, "B has no 2002 row: bridged 7 → 9")
        XCTAssertNil(size(4, "B"), "after B's last value")
    }

    /// A step missing inside a key's range is a row of its own: a revealed history (a line,
    /// a stack that must stay whole) has the key at that step, on the line between its
    /// neighbours, with the step's time and the earlier step's text; a race ranks it there.
    func testAStepMissingInsideAKeysRangeIsBridgedInARevealedHistoryAndARace() throws {
        let rows = [row(2000, "A", 1, "a0"), row(2001, "A", 2), row(2002, "A", 3), row(2003, "A", 4),
                    row(2000, "B", 10, "b0"), row(2003, "B", 40, "b3")]
        var tl = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 3))
        tl.reveals = true
        let b = tl.rows(at: 3).filter { $0["k"] == .string("B") }
        XCTAssertEqual(b.map { $0["year"]?.number }, [2000, 2001, 2002, 2003])
        XCTAssertEqual(b.map { $0["v"]?.number }, [10, 20, 30, 40])
        XCTAssertEqual(b.map { $0["note"]?.string }, ["b0", "b0", "b0", "b3"])
        XCTAssertEqual(tl.rows(at: 1.5).filter { $0["k"] == .string("B") }.map { $0["v"]?.number }, [10, 20, 25],
                       "the head between two bridged steps is on the same line")
        let race = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 3),
                                    ranking: DataTimeline.Ranking(field: "v", top: 2))
        XCTAssertEqual(race.rows(at: 1).first { $0["k"] == .string("B") }?["rank"]?.number, 0, "B (20) leads A (2) in 2001")
        XCTAssertEqual(race.rows(at: 1).first { $0["k"] == .string("A") }?["rank"]?.number, 1)
    }

    func testRowsAtStepsAreTheDataAndBetweenThemAreInterpolated() throws {
        let tl = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 2))
        XCTAssertEqual(tl.steps, [2000, 2001, 2002])
        XCTAssertEqual(tl.keys, ["A", "B", "C"])
        XCTAssertEqual(tl.changeSpan, ChangeSpan(start: 0, end: 2))
        // At each step, each key's row as written.
        XCTAssertEqual(value(tl.rows(at: 0), "A"), 10)
        XCTAssertEqual(value(tl.rows(at: 1), "A"), 40)
        XCTAssertEqual(value(tl.rows(at: 2), "A"), 60)
        // Halfway: the interpolated value; text fields from the earlier step.
        let half = tl.rows(at: 0.5)
        XCTAssertEqual(value(half, "A")!, 25, accuracy: 1e-12)
        XCTAssertEqual(half.first { $0["k"] == .string("A") }?["note"], .string("a0"))
        XCTAssertEqual(half.first { $0["k"] == .string("A") }?["year"]?.number ?? 0, 2000.5, accuracy: 1e-9)
        // B has no 2001 row: bridged from 2000 to 2002.
        XCTAssertEqual(value(tl.rows(at: 1), "B")!, 40, accuracy: 1e-12)
        XCTAssertEqual(value(tl.rows(at: 1.5), "B")!, 45, accuracy: 1e-12)
        // C is shown from its first step on, not before.
        XCTAssertNil(value(tl.rows(at: 0.5), "C"))
        XCTAssertEqual(value(tl.rows(at: 1), "C"), 5)
        // Rows come in key order at every moment.
        XCTAssertEqual(tl.rows(at: 1.5).map { $0["k"]! }, [.string("A"), .string("B"), .string("C")])
        // Before the delay and after the end, the first and last steps.
        XCTAssertEqual(value(tl.rows(at: -1), "A"), 10)
        XCTAssertEqual(value(tl.rows(at: 9), "A"), 60)
    }

    func testContinuousTimeMovesSteadilyThroughUnevenSteps() throws {
        // Steps 2000, 2001 and 2010: 2001 comes a tenth of the way through the clock.
        let rows = [row(2000, "A", 0), row(2001, "A", 10), row(2010, "A", 100)]
        let tl = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 10), delay: 1)
        XCTAssertEqual(tl.dataTime(at: 1), 2000)
        XCTAssertEqual(tl.dataTime(at: 2), 2001, accuracy: 1e-9)
        XCTAssertEqual(tl.dataTime(at: 6), 2005, accuracy: 1e-9)
        XCTAssertEqual(value(tl.rows(at: 6), "A")!, 50, accuracy: 1e-9)
        XCTAssertEqual(tl.dataTime(at: 11), 2010)
    }

    func testStatesHoldAtEachStepThenEase() throws {
        let tl = try DataTimeline(rows: rows, timeField: "year", keyField: "k",
                                  mode: .states(transition: 1, hold: 0.5), easing: .easeInOut)
        XCTAssertEqual(tl.length, 3)
        XCTAssertEqual(tl.position(at: 0.25), 0)          // holding 2000
        XCTAssertEqual(tl.position(at: 0.5), 0)
        XCTAssertEqual(tl.position(at: 1.0), Easing.easeInOut(0.5), accuracy: 1e-12)
        XCTAssertEqual(tl.position(at: 1.5), 1)           // arrived at 2001, holding
        XCTAssertEqual(tl.position(at: 1.9), 1)
        XCTAssertEqual(tl.position(at: 2.5), 1 + Easing.easeInOut(0.5), accuracy: 1e-12)
        XCTAssertEqual(tl.position(at: 3), 2)
        XCTAssertEqual(value(tl.rows(at: 1.0), "A")!, 10 + 30 * Easing.easeInOut(0.5), accuracy: 1e-9)
    }

    /// A time field of text that is neither numbers nor dates names its steps, in order of
    /// first appearance: "2020-Q1", "Season 10" before "Season 2" when the data says so.
    func testTextTimesNameTheirSteps() throws {
        func r(_ q: String, _ key: String, _ v: Double) -> DataRow { ["q": .string(q), "k": .string(key), "v": .number(v)] }
        // B has no row in Q2: bridged, its time cell naming the step.
        let rows = [r("2020-Q1", "A", 10), r("2020-Q1", "B", 20), r("2020-Q2", "A", 30),
                    r("2020-Q3", "B", 40), r("2020-Q3", "A", 50)]
        let tl = try DataTimeline(rows: rows, timeField: "q", keyField: "k", mode: .continuous(duration: 2))
        XCTAssertEqual(tl.stepNames, ["2020-Q1", "2020-Q2", "2020-Q3"])
        XCTAssertEqual(tl.steps, [0, 1, 2])
        XCTAssertFalse(tl.timeIsDate)
        func at(_ t: Double, _ key: String) -> DataRow? { tl.rows(at: t).first { $0["k"] == .string(key) } }
        XCTAssertEqual(at(0.5, "A")?["v"]?.number ?? .nan, 20, accuracy: 1e-9, "halfway from Q1 to Q2")
        XCTAssertEqual(at(0.5, "A")?["q"], .string("2020-Q1"), "the time cell names the step shown (floored)")
        XCTAssertEqual(at(1, "B")?["v"]?.number ?? .nan, 30, accuracy: 1e-9, "B bridged at Q2")
        XCTAssertEqual(at(1, "B")?["q"], .string("2020-Q2"))
        let label = try MomentTemplate("{time} · {time:yyyy}")
        XCTAssertEqual(label.render(tl.moment(at: 0), rows: [DataRow]()), "2020-Q1 · 2020-Q1")
        XCTAssertEqual(label.render(tl.moment(at: 1.99), rows: [DataRow]()), "2020-Q2 · 2020-Q2")
        XCTAssertEqual(label.render(tl.moment(at: 2), rows: [DataRow]()), "2020-Q3 · 2020-Q3")

        let seasons = [r("Season 10", "A", 1), r("Season 2", "A", 2), r("Season 10", "B", 3)]
        XCTAssertEqual(try DataTimeline(rows: seasons, timeField: "q", keyField: "k", mode: .continuous(duration: 1)).stepNames,
                       ["Season 10", "Season 2"], "order of first appearance, not of the text")
        // Dates, numbers and empty cells keep the old meaning and errors.
        let dates = [r("2020-01-01", "A", 1), r("2020-04-01", "A", 2)]
        XCTAssertNil(try DataTimeline(rows: dates, timeField: "q", keyField: "k", mode: .continuous(duration: 1)).stepNames)
        for (bad, row): ([DataRow], Int) in [([r("2020-01-01", "A", 1), r("spring", "A", 2)], 1),
                                             ([r("Q1", "A", 1), ["k": .string("A"), "v": .number(2)]], 1),
                                             ([r("Q1", "A", 1), ["q": .number(2), "k": .string("A")]], 0)] {
            XCTAssertThrowsError(try DataTimeline(rows: bad, timeField: "q", keyField: "k", mode: .continuous(duration: 1))) {
                XCTAssertEqual($0 as? DataTimeline.Problem, .badTime(row: row))
            }
        }
    }

    func testProblemsNameTheRow() {
        XCTAssertThrowsError(try DataTimeline(rows: [row(2000, "A", 1), ["year": .string("soon"), "k": .string("B")]],
                                              timeField: "year", keyField: "k", mode: .continuous(duration: 1))) {
            XCTAssertEqual($0 as? DataTimeline.Problem, .badTime(row: 1))
        }
        XCTAssertThrowsError(try DataTimeline(rows: [row(2000, "A", 1), ["year": .number(2001)]],
                                              timeField: "year", keyField: "k", mode: .continuous(duration: 1))) {
            XCTAssertEqual($0 as? DataTimeline.Problem, .missingKey(row: 1))
        }
        XCTAssertThrowsError(try DataTimeline(rows: [row(2000, "A", 1), row(2001, "A", 2), row(2000, "A", 3)],
                                              timeField: "year", keyField: "k", mode: .continuous(duration: 1))) {
            XCTAssertEqual($0 as? DataTimeline.Problem, .duplicate(first: 0, second: 2, key: "A"))
        }
        // ISO dates are times too, in seconds.
        XCTAssertNoThrow(try DataTimeline(rows: [["d": .string("2024-01-01"), "k": .string("A")]], timeField: "d", keyField: "k",
                                          mode: .continuous(duration: 1)))
    }

    // MARK: In a chart

    func style() throws -> ChartStyle { ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)) }

    /// Horizontal bars of v per key, over a fixed 0…100 axis, the data moving 0…2 s.
    func barChart() throws -> ChartSpec {
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 300, height: 150), style: try style(), data: rows)
        c.inset = 10
        c.x = Channel(field: "v"); c.x.domain = (0, 100)
        c.y = Channel(field: "k")
        c.timeline = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 2))
        var bars = BarMarkSpec(options: MarkOptions(id: "bars"))
        bars.options.color = .category(field: "k", colors: nil, domain: nil)
        c.marks = [bars]
        return c
    }

    func testBarsHaveTheirValuesLengthAtStepsAndTheInterpolatedOneBetween() throws {
        let c = try barChart()
        let scene = Scene(width: 300, height: 150, background: .white, nodes: [c.build()])
        // Plot 10…290 px for 0…100: a value v ends at x = 10 + 2.8 v.
        for (t, a) in [(0.0, 10.0), (0.5, 25), (1.0, 40), (1.75, 55), (2.0, 60)] {
            let f = scene.frame(at: t)
            let s = c.state(at: t)
            guard case .band(let band) = s.y else { return XCTFail("y is a band scale") }
            let y = Int(band.position(at: 0) + band.bandwidth / 2)
            let ink = (0..<300).filter { f.pixel($0, y).r < 200 || f.pixel($0, y).b < 200 }
            XCTAssertEqual(Double(ink.last! + 1), 10 + 2.8 * a, accuracy: 1, "A's bar at \(t) s")
        }
    }

    func testAKeyKeepsItsBandAndColourWhileOthersComeAndGo() throws {
        let c = try barChart()
        // C is absent before 1 s, but its band is kept, so A and B never move.
        let early = c.state(at: 0.2), late = c.state(at: 1.8)
        guard case .band(let b0) = early.y, case .band(let b1) = late.y else { return XCTFail() }
        XCTAssertEqual(b0.domain, ["A", "B", "C"])
        XCTAssertEqual(b0.position(at: 1), b1.position(at: 1))
        // Colours by key stay with the key.
        let scene = Scene(width: 300, height: 150, background: .white, nodes: [c.build()])
        func colour(_ t: Double, _ i: Int, _ s: ChartState) -> PremultipliedRGBA8 {
            guard case .band(let band) = s.y else { return PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 0) }
            return scene.frame(at: t).pixel(12, Int(band.position(at: i) + band.bandwidth / 2))
        }
        XCTAssertEqual(colour(0.2, 1, early), colour(1.8, 1, late))
        XCTAssertEqual(colour(1.8, 2, late), Palette.color(2).premultiplied)
    }

    func testTheValueAxisFollowsTheDataShown() throws {
        var c = try barChart()
        c.x.domain = nil
        c.axes = [AxisSpec(side: .bottom)]
        for t in [0.0, 0.6, 1.3, 2.0] {
            let shown = c.snapshot(at: t).data.compactMap { $0["v"]?.number }
            let s = c.state(at: t)
            XCTAssertEqual(s.xResolved.domain.1, shown.max()!, accuracy: 1e-9, "domain at \(t)")
            let step = NiceTicks.step(0, shown.max()!, count: 5)
            XCTAssertEqual(s.xTicks.last!.value, (shown.max()! / step + 1e-9).rounded(.down) * step, accuracy: 1e-9, "top tick at \(t)")
        }
    }

    func testEnteringAndExitingKeysFadeOverTheStepBeforeAndAfter() throws {
        // C's first step is 2001 (position 1); B has no row after 2002 here, A none after 2001.
        let rows = [row(2000, "A", 10), row(2001, "A", 20), row(2001, "C", 5), row(2002, "C", 6)]
        var tl = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 2))
        XCTAssertNil(value(tl.rows(at: 0.5), "C"), "without a fade C appears at its first step")
        tl.fadesIn = true; tl.fadesOut = true
        func fade(_ t: Double, _ k: String) -> Double? {
            tl.rows(at: t).first { $0["k"] == .string(k) }.map { $0[DataTimeline.fadeField]?.number ?? 1 }
        }
        XCTAssertNil(fade(0, "C"))
        XCTAssertEqual(fade(0.25, "C")!, 0.25, accuracy: 1e-12)
        XCTAssertEqual(value(tl.rows(at: 0.25), "C"), 5, "entering at its first values")
        XCTAssertEqual(fade(1, "C"), 1)
        XCTAssertEqual(fade(1.75, "A")!, 0.25, accuracy: 1e-12)
        XCTAssertEqual(value(tl.rows(at: 1.75), "A"), 20, "leaving at its last values")
        XCTAssertNil(fade(2, "A"))
    }

    func testAFadingBarsOpacityFollowsTheClock() throws {
        var c = try barChart()
        c.timeline!.fadesIn = true
        // C enters over 0…1 s (the step before 2001); its bar's opacity is the clock's fraction.
        for t in [0.2, 0.5, 0.9] {
            let s = c.snapshot(at: t)
            let bars = BarMarkSpec(options: MarkOptions(id: "bars"))
            guard case .group(let g) = s.markNode(bars, s.state(at: t)) else { return XCTFail() }
            let opacities = g.children.compactMap { n -> Double? in if case .shape(let sh) = n { return sh.opacity.value(at: t) }; return nil }
            XCTAssertEqual(opacities.count, 3, "A, B and the entering C")
            XCTAssertEqual(opacities[2], t, accuracy: 1e-12, "C's opacity at \(t) s")
            XCTAssertEqual(opacities[0], 1)
        }
    }

    /// The first problem a timeline reports is the one reading the rows in order meets
    /// first (a missing key, or a key repeated at a step: its first two rows), whether
    /// the key column is text or numbers: random tables against that reading.
    func testTheFirstProblemIsTheOneRowOrderMeetsFirst() {
        var rng = SplitMix64(seed: 15)
        for round in 0..<400 {
            let n = 1 + Int(rng.next() % 14)
            let textKeys = round % 2 == 0
            var rows: [DataRow] = []
            for _ in 0..<n {
                var r: DataRow = ["t": .number(Double(rng.next() % 4))]
                let k = Int(rng.next() % 5)
                if rng.next() % 9 != 0 { r["k"] = textKeys ? .string(["a", "b", "c", "d", "e"][k]) : .number(Double(k)) }
                rows.append(r)
            }
            // Rows in order: the first without a key, or the first repeat of (time, key).
            var expected: DataTimeline.Problem? = nil
            var seen: [String: Int] = [:]
            for (i, r) in rows.enumerated() {
                guard let k = r["k"]?.keyText else { expected = .missingKey(row: i); break }
                let id = "\(r["t"]!.number!)|\(k)"
                if let first = seen[id] { expected = .duplicate(first: first, second: i, key: k); break }
                seen[id] = i
            }
            do {
                _ = try DataTimeline(rows: rows, timeField: "t", keyField: "k", mode: .continuous(duration: 1))
                XCTAssertNil(expected, "round \(round)")
            } catch {
                XCTAssertEqual(error, expected, "round \(round): \(rows)")
            }
        }
    }
}
