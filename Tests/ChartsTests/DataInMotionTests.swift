import XCTest
import Geometry
import Raster
import Motion
import Text
@testable import Scene
@testable import Charts

/// Data in motion beyond the race: domains that follow the data, ticks that fade, lines
/// revealed by time with labels riding their heads, keys that grow or fly in, bubbles
/// sized by area, wakes and traces, and the on-screen index of a big race.
final class DataInMotionTests: XCTestCase {
    func style() throws -> ChartStyle { ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)) }

    func row(_ year: Double, _ key: String, _ v: Double) -> DataRow {
        ["year": .number(year), "k": .string(key), "v": .number(v)]
    }

    /// A: 3 → 12 → 60 → 61; B: 1 → 2 → 5 → 90: the leader's nice bound moves 3 → 12 → 60 → 100.
    var growing: [DataRow] {
        [row(2000, "A", 3), row(2000, "B", 1), row(2001, "A", 12), row(2001, "B", 2),
         row(2002, "A", 60), row(2002, "B", 5), row(2003, "A", 61), row(2003, "B", 90)]
    }

    func lineChart(_ rows: [DataRow], reveal: Bool = false) throws -> ChartSpec {
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 400, height: 200), style: try style(), data: rows)
        c.inset = 20
        c.x = Channel(field: "year")
        c.y = Channel(field: "v")
        c.y.nice = true
        c.axes = [AxisSpec(side: .leading)]
        c.timeline = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 3))
        c.timeline!.reveals = reveal
        var line = LineMarkSpec(options: MarkOptions(id: "lines"))
        line.options.series = "k"
        c.marks = [line]
        return c
    }

    // MARK: Domains that follow the data

    func testAFollowingDomainIsTheNiceBoundAtEachStepAndMovesLinearlyBetween() throws {
        var c = try lineChart(growing)
        c.x = Channel(field: "k")   // one band per key; y follows the values
        let bounds = [3.0, 12, 60, 90].map { NiceTicks.nice(0, $0, count: 5).1 }
        XCTAssertEqual(bounds, [3, 12, 60, 100])
        for (step, top) in bounds.enumerated() {
            let s = c.state(at: Double(step))
            XCTAssertEqual(s.yResolved.domain.0, 0)
            XCTAssertEqual(s.yResolved.domain.1, top, accuracy: 1e-9, "nice bound at step \(step)")
            XCTAssertEqual(s.yTicks.last!.value, top, accuracy: 1e-9, "the top tick at step \(step) is the nice bound")
        }
        // Between steps: on the line between the steps' bounds, and above every value shown.
        var previous = 0.0
        for t in stride(from: 0.0, through: 3.0, by: 1.0 / 30) {
            let s = c.state(at: t)
            let i = min(2, Int(t)), f = t - Double(i)
            XCTAssertEqual(s.yResolved.domain.1, bounds[i] + (bounds[i + 1] - bounds[i]) * f, accuracy: 1e-9, "at \(t)")
            let shown = c.snapshot(at: t).data.compactMap { $0["v"]?.number }.max()!
            XCTAssertGreaterThanOrEqual(s.yResolved.domain.1 + 1e-9, shown, "data stays inside at \(t)")
            // Never jumps: a frame's change is at most the steepest segment's per-frame change.
            XCTAssertLessThanOrEqual(abs(s.yResolved.domain.1 - previous), 48.0 / 30 + 1e-9 + (t == 0 ? 3 : 0), "smooth at \(t)")
            previous = s.yResolved.domain.1
        }
    }

    func testTicksOfOneStepFadeWithTheDistanceToIt() throws {
        var c = try lineChart(growing)
        c.x = Channel(field: "k")
        // Step 1's domain 0…12 ticks every 2 (0, 2, …, 12); step 2's 0…60 every 10.
        for f in [0.25, 0.5, 0.8] {
            let s = c.state(at: 1 + f)
            let byValue = Dictionary(s.yTicks.map { ($0.value, $0.opacity) }, uniquingKeysWith: { a, _ in a })
            XCTAssertEqual(byValue[0], 1, "a tick of both steps is opaque")
            XCTAssertEqual(byValue[10], 1)
            XCTAssertEqual(byValue[4]!, 1 - f, accuracy: 1e-12, "a tick of the earlier step fades out")
            XCTAssertEqual(byValue[20]!, f, accuracy: 1e-12, "a tick of the later step fades in")
            XCTAssertTrue(s.yTicks.allSatisfy { $0.value <= s.yResolved.domain.1 + 1e-9 }, "no tick beyond the domain")
        }
        // The fading ticks are drawn at their opacity.
        let s = c.state(at: 1.5)
        guard case .group(let axis) = c.snapshot(at: 1.5).axisNode(c.axes[0], s) else { return XCTFail() }
        let labels = axis.children.compactMap { n -> (String, Double)? in
            if case .text(let t) = n, t.id == "tick-label" { return (t.string, t.opacity.value(at: 0)) }; return nil
        }
        XCTAssertEqual(labels.first { $0.0 == "4" }?.1 ?? -1, 0.5, accuracy: 1e-12)
        XCTAssertEqual(labels.first { $0.0 == "10" }?.1, 1)
    }

    func testMaxFollowKeepsTheLowerEndAndPaddingAndMinimumSpanApply() throws {
        var c = try lineChart(growing, reveal: true)
        c.x.follow = DomainFollow(.max, padding: 0.5, minSpan: 2)
        c.y.follow = DomainFollow(.both, padding: 0.1)
        c.y.nice = false
        // At step 0 x holds one year: the minimum span; at step 3 the whole span padded.
        XCTAssertEqual(c.state(at: 0).xResolved.domain.0, 2000)
        XCTAssertEqual(c.state(at: 0).xResolved.domain.1, 2002, accuracy: 1e-9)
        XCTAssertEqual(c.state(at: 3).xResolved.domain.0, 2000, "the time axis does not reach for zero")
        XCTAssertEqual(c.state(at: 3).xResolved.domain.1, 2004.5, accuracy: 1e-9)
        // y follows both ends: 0…90 at the end (zero kept), padded by a tenth each side.
        let y = c.state(at: 3).yResolved.domain
        XCTAssertEqual(y.0, -9, accuracy: 1e-9); XCTAssertEqual(y.1, 99, accuracy: 1e-9)
        // Fixed: the extent over the whole timeline at every moment.
        c.y.follow = DomainFollow(.fixed)
        XCTAssertEqual(c.state(at: 0.3).yResolved.domain.1, 90)
        XCTAssertEqual(c.preparedForFrames().state(at: 1.7).yResolved.domain.1, 90)
    }

    // MARK: Reveal by time

    func testARevealedTimelineShowsEachKeysHistoryAndItsHeadAtTheMoment() throws {
        var tl = try DataTimeline(rows: growing, timeField: "year", keyField: "k", mode: .continuous(duration: 3))
        tl.reveals = true
        let rows = tl.rows(atPosition: 1.25)
        let a = rows.filter { $0["k"] == .string("A") }
        XCTAssertEqual(a.map { $0["year"]!.number! }, [2000, 2001, 2001.25])
        XCTAssertEqual(a.last!["v"]!.number!, 12 + 48 * 0.25, accuracy: 1e-12)
        XCTAssertEqual(rows.filter { $0[DataTimeline.headField] != nil }.count, 2, "one head per key")
        XCTAssertTrue(rows.filter { $0[DataTimeline.headField] != nil }.allSatisfy { $0["year"] == .number(2001.25) },
                      "every series is cut at the same time value")
        // At a step exactly the head is the step's row.
        XCTAssertEqual(tl.rows(atPosition: 2).filter { $0["k"] == .string("B") }.map { $0["year"]!.number! }, [2000, 2001, 2002])
    }

    func testRevealedLinesEndAtTheSameXAndHeadLabelsRideThem() throws {
        var c = try lineChart(growing, reveal: true)
        c.x.domain = (2000, 2003); c.y.domain = (0, 100)
        var dots = PointMarkSpec(options: MarkOptions(id: "heads")); dots.options.headsOnly = true
        c.marks.append(dots)
        let scene = Scene(width: 400, height: 200, background: .white, nodes: [c.build()])
        for t in [0.5, 1.4, 2.75] {
            let s = c.state(at: t)
            let headX = s.x(2000 + t)
            let f = scene.frame(at: t)
            // Ink left of the head, none right of the head's dot (radius 4, plus antialiasing).
            let columns = (0..<400).filter { x in (0..<200).contains { f.pixel(x, $0) != PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255) } }
            XCTAssertEqual(Double(columns.max()!), headX + 4, accuracy: 1.5, "nothing drawn beyond the heads at \(t)")
            let heads = c.snapshot(at: t).data.filter { $0[DataTimeline.headField] != nil }
            XCTAssertEqual(heads.count, 2)
        }
    }

    func testLinesOverNamedStepsGlideBetweenThem() throws {
        // The time field names quarters: its axis has a band per quarter, all of them from
        // the start, and the heads move between bands as they would between years.
        let quarters = ["2020-Q1", "2020-Q2", "2020-Q3", "2020-Q4"]
        let rows: [DataRow] = growing.map { r in
            var r = r
            r["q"] = .string(quarters[Int(r["year"]!.number!) - 2000])
            r["year"] = nil
            return r
        }
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 400, height: 200), style: try style(), data: rows)
        c.inset = 20
        c.x = Channel(field: "q")
        c.y = Channel(field: "v"); c.y.domain = (0, 100)
        c.timeline = try DataTimeline(rows: rows, timeField: "q", keyField: "k", mode: .continuous(duration: 3))
        c.timeline!.reveals = true
        var line = LineMarkSpec(options: MarkOptions(id: "lines")); line.options.series = "k"
        var dots = PointMarkSpec(options: MarkOptions(id: "heads")); dots.options.headsOnly = true
        c.marks = [line, dots]
        let scene = Scene(width: 400, height: 200, background: .white, nodes: [c.build()])
        for t in [0.5, 1.4, 2.75] {
            let snap = c.snapshot(at: t)
            let r = snap.resolve(snap.x)
            XCTAssertEqual(r.categories, quarters, "every quarter has its band from the start")
            XCTAssertTrue(r.values.contains { $0.map { abs($0 - t) < 1e-9 } ?? false }, "a head at step position \(t)")
            let s = c.state(at: t)
            XCTAssertEqual(s.x(t), s.x(0) + t * (s.x(1) - s.x(0)), accuracy: 1e-9, "linear across the bands")
            let f = scene.frame(at: t)
            let columns = (0..<400).filter { x in (0..<200).contains { f.pixel(x, $0) != PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255) } }
            XCTAssertEqual(Double(columns.max()!), s.x(t) + 4, accuracy: 1.5, "the heads, and nothing beyond, at \(t)")
        }
    }

    // MARK: Labels pushed apart

    func testSeparatedLabelsDoNotOverlapMoveLittleAndKeepLeaders() throws {
        // Three series ending within a few pixels of one another, one far away.
        let rows: [DataRow] = [("A", 50.0), ("B", 50.5), ("C", 51.0), ("D", 10)].map { ["x": .number(1), "k": .string($0.0), "v": .number($0.1)] }
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 300, height: 200), style: try style(), data: rows)
        c.inset = 10
        c.x = Channel(field: "x"); c.x.domain = (0, 2)
        c.y = Channel(field: "v"); c.y.domain = (0, 100)
        var labels = TextMarkSpec(options: MarkOptions(id: "labels"))
        labels.field = "k"; labels.position = .trailing; labels.separate = true
        let l = c.state(at: 0)
        let nodes = labels.nodes(in: c, state: l)
        let texts = nodes.compactMap { n -> TextNode? in if case .text(let t) = n { return t }; return nil }
        XCTAssertEqual(texts.count, 4)
        let boxes = texts.map { ($0.position.y - ($0.metrics.ascent + $0.metrics.descent) / 2, $0.position.y + ($0.metrics.ascent + $0.metrics.descent) / 2) }
            .sorted { $0.0 < $1.0 }
        for i in 1..<boxes.count { XCTAssertGreaterThanOrEqual(boxes[i].0, boxes[i - 1].1 - 1e-9, "labels \(i - 1) and \(i) overlap") }
        // The three near labels are centred on their mean wanted place; D is untouched.
        let near = texts.filter { $0.string != "D" }.map(\.position.y)
        let wanted = [50.0, 50.5, 51.0].map { l.y($0) }
        XCTAssertEqual(near.reduce(0, +) / 3, wanted.reduce(0, +) / 3, accuracy: 1e-9)
        XCTAssertEqual(texts.first { $0.string == "D" }!.position.y, l.y(10), accuracy: 1e-9)
        let leaders = nodes.filter { if case .shape(let s) = $0 { return s.id == "leader" }; return false }
        XCTAssertEqual(leaders.count, 2, "the outer two of the three moved; the middle one stayed")
        // Continuity: moving one label's value a hair moves the labels a hair.
        var moved = c
        moved.data.set(.number(50.51), field: "v", row: 1)
        let after = labels.nodes(in: moved, state: moved.state(at: 0)).compactMap { n -> TextNode? in if case .text(let t) = n { return t }; return nil }
        for t in texts { XCTAssertEqual(after.first { $0.string == t.string }!.position.y, t.position.y, accuracy: 0.05) }
    }

    // MARK: Enter and exit

    func testEnteringBarsGrowFromTheBaselineAndFlyingOnesSlideFromTheEdge() throws {
        let rows = [row(2000, "A", 40), row(2001, "A", 40), row(2001, "C", 80)]
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 300, height: 150), style: try style(), data: rows)
        c.inset = 0
        c.x = Channel(field: "v"); c.x.domain = (0, 100)
        c.y = Channel(field: "k")
        c.timeline = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 1))
        c.timeline!.enter = .init(grow: true)
        c.marks = [BarMarkSpec(options: MarkOptions(id: "bars"))]
        func bars(_ t: Double) -> [Rect] {
            let s = c.snapshot(at: t)
            guard case .group(let g) = s.markNode(c.marks[0], s.state(at: t)) else { return [] }
            return g.children.compactMap { if case .shape(let sh) = $0 { return sh.path.controlBounds }; return nil }
        }
        for t in [0.25, 0.5, 0.75] {
            XCTAssertEqual(bars(t)[1].width, 3 * 80 * t, accuracy: 1e-9, "C's bar at \(t) s is that part of its length")
            XCTAssertEqual(bars(t)[0].width, 120, accuracy: 1e-9, "A does not grow")
        }
        c.timeline!.enter = .init(fly: .bottom)
        let s = c.snapshot(at: 0.25)
        guard case .group(let g) = s.markNode(c.marks[0], s.state(at: 0.25)), case .group(let flying) = g.children[1] else {
            return XCTFail("the entering bar is wrapped in a moved group")
        }
        XCTAssertEqual(flying.transform, .translation(0, 150 * 0.75), "three quarters of the plot's height below its place")
    }

    // MARK: Bubbles, wakes and traces

    func testBubbleAreasAreProportionalToTheValueOverTheWholeTimeline() {
        let e = SizeEncoding(field: "pop", range: (0, 40))
        XCTAssertEqual(e.diameter(of: 100, domain: (0, 100)), 40)
        XCTAssertEqual(e.diameter(of: 25, domain: (0, 100)), 20, "a quarter of the area, half the diameter")
        XCTAssertEqual(SizeEncoding(field: "p", range: (10, 30)).diameter(of: 50, domain: (0, 100)), (100.0 + 800 / 2).squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(e.diameter(of: nil, domain: (0, 100)), 0)
    }

    func testAWakeFollowsAMovingDotWithFadingShrinkingCopies() throws {
        let rows = [row(0, "A", 0), row(1, "A", 100)]
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 200, height: 100), style: try style(), data: rows)
        c.inset = 0
        c.x = Channel(field: "v"); c.x.domain = (0, 100)
        c.y = Channel(field: "year"); c.y.domain = (-1, 2)
        c.timeline = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 1))
        var dots = PointMarkSpec(options: MarkOptions(id: "dots"))
        dots.size = 10
        dots.options.trail = TrailSpec(length: 0.4, copies: 4, opacity: 0.2, size: 0.5)
        c.marks = [dots]
        let s = c.snapshot(at: 0.8)
        let ghosts = s.ghostRows[0]!
        XCTAssertEqual(ghosts.count, 4)
        // Oldest first: at 0.4 s (x = 40) with opacity 0.2 and half the size, the newest at 0.7 s.
        XCTAssertEqual(ghosts[0].rows[0]["v"]!.number!, 40, accuracy: 1e-9)
        XCTAssertEqual(ghosts[0].rows[0][DataTimeline.fadeField]!.number!, 0.2, accuracy: 1e-12)
        XCTAssertEqual(ghosts[0].rows[0][DataTimeline.growField]!.number!, 0.5, accuracy: 1e-12)
        XCTAssertEqual(ghosts[3].rows[0]["v"]!.number!, 70, accuracy: 1e-9)
        XCTAssertGreaterThan(ghosts[3].rows[0][DataTimeline.fadeField]!.number!, ghosts[0].rows[0][DataTimeline.fadeField]!.number!)
        // Drawn: a faint dot at the wake's oldest place.
        let f = Scene(width: 200, height: 100, background: .white, nodes: [c.build()]).frame(at: 0.8)
        let y = Int(s.state(at: 0.8).y(0.8))
        XCTAssertEqual(f.pixel(160, y).r, 0, "the dot itself at x = 160")
        let ghost = f.pixel(80, Int(s.state(at: 0.8).y(0.4)))
        XCTAssertTrue(ghost.r > 150 && ghost.r < 255, "a faint copy at x = 80, found \(ghost)")
        // Before the data moves there is no wake.
        XCTAssertNil(c.snapshot(at: 0).ghostRows[0])
    }

    func testATraceLeavesEveryPastStepBehind() throws {
        let rows = (0..<5).map { row(Double($0), "A", Double($0) * 10) }
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 200, height: 100), style: try style(), data: rows)
        c.timeline = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 4))
        var dots = PointMarkSpec(options: MarkOptions(id: "dots"))
        dots.options.trace = TraceSpec(opacity: 0.3)
        c.marks = [dots]
        XCTAssertEqual(c.snapshot(at: 2.5).ghostRows[0]!.map { $0.rows[0]["v"]!.number! }, [0, 10, 20])
        XCTAssertEqual(c.snapshot(at: 2.5).ghostRows[0]![0].rows[0][DataTimeline.fadeField], .number(0.3))
    }

    // MARK: A big race costs what is on screen

    func testTheOnScreenIndexGivesTheSameRowsAsWalkingEveryKey() throws {
        // Deterministic pseudo-random data: 60 keys over 30 steps, some missing steps.
        var state: UInt64 = 42
        func next() -> Double { state = state &* 6364136223846793005 &+ 1442695040888963407; return Double(state >> 11) / Double(1 << 53) }
        var rows: [DataRow] = []
        for step in 0..<30 { for k in 0..<60 where next() > 0.15 { rows.append(row(Double(step), "k\(k)", next() * 100 + Double(k % 7) * Double(step))) } }
        for enter in [false, true] {
            var fast = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 29),
                                        ranking: .init(field: "v", output: "rank", top: 8))
            var slow = try DataTimeline(rows: rows, timeField: "year", keyField: "k", mode: .continuous(duration: 29),
                                        ranking: .init(field: "v", output: "rank", top: nil))
            fast.fadesIn = enter; fast.fadesOut = enter; slow.fadesIn = enter; slow.fadesOut = enter
            XCTAssertLessThan(fast.onScreenIndex!.map(\.count).max()!, 30, "an interval lists far fewer than the 60 keys")
            for i in 0...290 {
                let p = Double(i) / 10
                let expected = slow.rows(atPosition: p).filter { ($0["rank"]?.number ?? 0) < 8 }
                XCTAssertEqual(fast.rows(atPosition: p), expected, "rows at position \(p)")
            }
        }
    }

    // MARK: Guides

    func testLogAxesLabelOnlyLeadingDigitsThatFit() throws {
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 600, height: 100), style: try style(), data: [["x": .number(300), "y": .number(1)], ["x": .number(150_000), "y": .number(2)]])
        c.x = Channel(field: "x"); c.x.scale = .log; c.x.domain = (200, 200_000)
        c.axes = [AxisSpec(side: .bottom)]
        let ticks = c.state(at: 0).xTicks
        XCTAssertGreaterThan(ticks.count, 20, "a tick at every 1…9 × 10ⁿ")
        XCTAssertEqual(ticks.filter { !$0.label.isEmpty }.map(\.value), [1000, 10_000, 100_000])
    }

    func testTheLastTickLabelOfAHorizontalAxisStaysInsideTheFrame() throws {
        var c = ChartSpec(frame: Rect(x: 0, y: 0, width: 400, height: 100), style: try style(), data: [["x": .number(0), "y": .number(1)], ["x": .number(123_456), "y": .number(2)]])
        c.x = Channel(field: "x"); c.x.domain = (0, 200_000)
        c.axes = [AxisSpec(side: .bottom)]
        let s = c.state(at: 0)
        let last = s.xTicks.last!
        XCTAssertEqual(last.value, 200_000)
        let half = c.style.font.measure(last.label, size: c.style.labelSize).width / 2
        XCTAssertLessThanOrEqual(s.x(last.value) + half, 399 + 1e-9)
    }
}
