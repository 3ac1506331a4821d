import XCTest
import Geometry
import Raster
import Motion
import Text
import TestSupport
@testable import Scene
@testable import Charts

/// A race's frame costs what is on screen: keys that never come near the shown slots add
/// no row, no node and no pixel to any frame (the 1,000-key race, top 20, must
/// not slow down with the 980 keys below the last slot). Counted, not timed.
final class OffScreenKeysTests: XCTestCase {
    /// 12 keys racing over 10 steps (values 10…100), then `filler` keys that stay below 1,
    /// listed after them at every step, so the 12 keep their order (and their colours).
    func rows(filler: Int) -> [DataRow] {
        // Two streams, so the racing keys' values do not depend on how many fillers there are.
        var racing = SplitMix64(state: 20_261_202), filling = SplitMix64(state: 7)
        var rows: [DataRow] = []
        for step in 0..<10 {
            for k in 0..<12 { rows.append(["year": .number(Double(step)), "k": .string("k\(k)"), "v": .number(10 + 90 * racing.uniform())]) }
            for k in 0..<filler { rows.append(["year": .number(Double(step)), "k": .string("f\(k)"), "v": .number(filling.uniform())]) }
        }
        return rows
    }

    /// Top 6 on a plot whose edges fall between pixels (so the marks' clip is a mask),
    /// bars coloured by key, labels naming the key and its value, the x axis following
    /// the leader, the moment in the subtitle.
    func race(filler: Int) throws -> ChartSpec {
        let data = rows(filler: filler)
        var c = ChartSpec(frame: Rect(x: 0.5, y: 0.25, width: 419.3, height: 260.6),
                          style: ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)), data: data)
        c.inset = 10.3
        c.x = Channel(field: "v")
        c.y = Channel(field: "rank"); c.y.domain = (5.5, -0.5)
        c.title = TitleSpec("Off screen", subtitle: "step {time}")
        c.axes = [AxisSpec(side: .top)]
        c.timeline = try DataTimeline(rows: data, timeField: "year", keyField: "k", mode: .continuous(duration: 9),
                                      ranking: .init(field: "v", output: "rank", top: 6))
        c.timeline!.fadesIn = true; c.timeline!.fadesOut = true
        c.clipsMarks = true
        var bars = BarMarkSpec(options: MarkOptions(id: "bars"))
        bars.orientation = .horizontal
        bars.slot = 1
        bars.barWidth = 0.8
        bars.options.color = .category(field: "k", colors: nil, domain: nil)
        var labels = TextMarkSpec(options: MarkOptions(id: "labels"))
        labels.literal = "{field:k} {field:v:.1f}"
        labels.position = .insideEnd
        c.marks = [bars, labels]
        return c
    }

    /// Every node of a tree, groups included.
    func count(_ nodes: [Node]) -> Int {
        nodes.reduce(0) { n, node in
            if case .group(let g) = node { return n + 1 + count(g.children) }
            return n + 1
        }
    }

    func testKeysThatNeverComeOnScreenAddNoRowNodeOrPixel() throws {
        let small = try race(filler: 0), big = try race(filler: 988)
        XCTAssertEqual(big.timeline!.keys.count, 1000)
        XCTAssertEqual(Array(big.timeline!.keys.prefix(12)), small.timeline!.keys)
        // The on-screen index lists only keys that reach the shown slots.
        XCTAssertLessThanOrEqual(big.timeline!.onScreenIndex!.map(\.count).max()!, 12)
        let smallScene = Scene(width: 420, height: 262, background: .white, nodes: [small.build()])
        let bigScene = Scene(width: 420, height: 262, background: .white, nodes: [big.build()])
        let smallFrames = FrameRenderer(scene: smallScene), bigFrames = FrameRenderer(scene: bigScene)
        guard case .group(let smallChart) = small.build(), case .group(let bigChart) = big.build(),
              case .group(let smallPlot)? = smallChart.children.last, case .group(let bigPlot)? = bigChart.children.last,
              let smallNodes = smallPlot.dynamicChildren, let bigNodes = bigPlot.dynamicChildren else {
            return XCTFail("a chart of moving data rebuilds its plot at every frame")
        }
        for i in 0...45 {
            let t = Double(i) / 5
            let a = small.snapshot(at: t), b = big.snapshot(at: t)
            XCTAssertEqual(b.data.count, a.data.count, "rows at \(t) s")
            XCTAssertLessThanOrEqual(b.data.count, 8, "the top 6 and keys sliding in or out")
            XCTAssertEqual(b.data.rows, a.data.rows, "the same rows at \(t) s")
            XCTAssertEqual(count(bigNodes(t)), count(smallNodes(t)), "nodes at \(t) s")
            if i % 3 == 0 {
                XCTAssertEqual(bigFrames.frame(at: t).data, smallFrames.frame(at: t).data, "pixels at \(t) s")
            }
        }
    }

    /// Colouring by the key field takes each key's position from the timeline (found once),
    /// and gives the colours that hashing the whole key order at every frame gave.
    func testColoursByKeyComeFromTheTimelinesIndex() throws {
        let big = try race(filler: 988)
        let shown = big.snapshot(at: 4.5)
        XCTAssertNotNil(shown.fieldOrderIndex["k"], "the snapshot carries the timeline's key positions")
        var plain = shown
        plain.fieldOrderIndex = [:]
        let l = shown.state(at: 4.5)
        let indexed = shown.elements(shown.marks[0], l), scanned = plain.elements(plain.marks[0], l)
        XCTAssertFalse(indexed.isEmpty)
        XCTAssertEqual(indexed.map(\.color), scanned.map(\.color))
        XCTAssertEqual(indexed.map(\.color), indexed.map { Palette.color(big.timeline!.keys.firstIndex(of: shown.key(shown.data[$0.row]["k"]))!) })
        // An order changed after the snapshot is not read from the stale index.
        var reordered = shown
        reordered.fieldOrders["k"] = Array(big.timeline!.keys.reversed())
        let flipped = reordered.elements(reordered.marks[0], l)
        XCTAssertEqual(flipped.map(\.color), flipped.map { Palette.color(999 - big.timeline!.keys.firstIndex(of: shown.key(shown.data[$0.row]["k"]))!) })
    }
}
