import XCTest
import Motion

final class TimelineTests: XCTestCase {
    typealias Item = Timeline.Item

    func resolve(_ items: [Item], file: StaticString = #filePath, line: UInt = #line) -> [String: [Double]] {
        do {
            return try Timeline(items).resolve().mapValues { [$0.start, $0.end] }
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return [:]
        }
    }

    /// Each case: the items and every id's resolved [start, end].
    func testResolvedTimesTable() {
        let cases: [(String, [Item], [String: [Double]])] = [
            ("sequence: each starts when the previous ends",
             [.sequence("s", [.animation("a", duration: 1), .animation("b", duration: 2), .animation("c", duration: 0.5)])],
             ["s": [0, 3.5], "a": [0, 1], "b": [1, 3], "c": [3, 3.5]]),
            ("parallel: all start with the group, the group ends with the last",
             [.parallel("p", [.animation("a", duration: 1), .animation("b", duration: 2, position: .automatic(offset: 0.5))])],
             ["p": [0, 2.5], "a": [0, 1], "b": [0.5, 2.5]]),
            ("top level is parallel from 0; .at is a delay",
             [.animation("a", duration: 1, position: .at(0.6)), .animation("b", duration: 0.8, position: .at(0.2))],
             ["a": [0.6, 1.6], "b": [0.2, 1.0]]),
            ("nested: a parallel group inside a sequence, then a sequence after it",
             [.sequence("s", [
                .animation("a", duration: 1),
                .parallel("g", [.animation("b", duration: 2), .animation("c", duration: 1, position: .automatic(offset: 0.5))]),
                .animation("d", duration: 1),
             ])],
             ["s": [0, 4], "a": [0, 1], "g": [1, 3], "b": [1, 3], "c": [1.5, 2.5], "d": [3, 4]]),
            (".at inside a group counts from the group's start",
             [.sequence("s", [.animation("a", duration: 2), .parallel("g", [.animation("b", duration: 1, position: .at(0.25))])],
                        position: .at(1))],
             ["s": [1, 4.25], "a": [1, 3], "g": [3, 4.25], "b": [3.25, 4.25]]),
            ("negative offsets overlap",
             [.sequence("s", [.animation("a", duration: 1), .animation("b", duration: 1, position: .automatic(offset: -0.25)),
                              .animation("c", duration: 1, position: .automatic(offset: -0.5))])],
             ["s": [0, 2.25], "a": [0, 1], "b": [0.75, 1.75], "c": [1.25, 2.25]]),
            ("after and with chains, GSAP's position parameter",
             [.animation("line", duration: 0.8, position: .at(0.2)),
              .animation("fill", duration: 1, position: .after("line", offset: -0.4)),
              .animation("dots", duration: 0.5, position: .with("fill", offset: 0.1)),
              .animation("label", duration: 0.3, position: .after("dots")),
              .animation("axis", duration: 2, position: .with("line"))],
             ["line": [0.2, 1.0], "fill": [0.6, 1.6], "dots": [0.7, 1.2], "label": [1.2, 1.5], "axis": [0.2, 2.2]]),
            ("references into and out of groups; a group's end grows with a late child",
             [.animation("intro", duration: 1),
              .sequence("bars", [.animation("bar0", duration: 0.5), .animation("bar1", duration: 0.5)],
                        position: .after("intro")),
              .parallel("labels", [.animation("l0", duration: 0.2, position: .with("bar1")),
                                   .animation("l1", duration: 0.2, position: .after("bars", offset: 1))])],
             ["intro": [0, 1], "bars": [1, 2], "bar0": [1, 1.5], "bar1": [1.5, 2],
              "labels": [0, 3.2], "l0": [1.5, 1.7], "l1": [3, 3.2]]),
            ("a negative start is allowed; an empty group is a point",
             [.animation("early", duration: 1, position: .at(-0.5)), .parallel("empty", [], position: .at(2))],
             ["early": [-0.5, 0.5], "empty": [2, 2]]),
            ("decimal times add exactly: 0.1 + 0.2 = 0.3",
             [.sequence("s", [.animation("a", duration: 0.1), .animation("b", duration: 0.2)])],
             ["s": [0, 0.3], "a": [0, 0.1], "b": [0.1, 0.3]]),
        ]
        for (name, items, expected) in cases {
            let resolved = resolve(items)
            XCTAssertEqual(resolved, expected, name)
        }
    }

    /// Items without ids are placed but not reported.
    func testAnonymousItems() {
        let resolved = resolve([.sequence(nil, [.animation(nil, duration: 1), .animation("b", duration: 1)])])
        XCTAssertEqual(resolved, ["b": [1, 2]])
    }

    func assertError(_ items: [Item], _ expected: Timeline.ResolutionError, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Timeline(items).resolve(), file: file, line: line) { error in
            XCTAssertEqual(error as? Timeline.ResolutionError, expected, file: file, line: line)
        }
    }

    /// A cycle names its ids in order, each waiting for the next.
    func testCycleErrorsNameTheIdsInOrder() {
        assertError([.animation("a", duration: 1, position: .after("b")),
                     .animation("b", duration: 1, position: .after("c")),
                     .animation("c", duration: 1, position: .with("a"))],
                    .cycle(["a", "b", "c"]))
        assertError([.animation("x", duration: 1), .animation("c", duration: 1, position: .after("b")),
                     .animation("b", duration: 1, position: .after("c"))],
                    .cycle(["c", "b"]))
        assertError([.animation("self", duration: 1, position: .after("self"))], .cycle(["self"]))
        // A child that waits for its own group's end.
        assertError([.parallel("g", [.animation("child", duration: 1, position: .after("g"))])], .cycle(["g", "child"]))
        let description = Timeline.ResolutionError.cycle(["a", "b"]).description
        XCTAssertEqual(description, "items wait for each other in a cycle: \"a\" waits for \"b\" waits for \"a\"")
    }

    /// with: on itself is no cycle: it starts when it starts.
    func testStartingWithAnItemThatEndsLaterIsFine() {
        let resolved = resolve([.parallel("g", [.animation("a", duration: 1, position: .with("g", offset: 0.5))])])
        XCTAssertEqual(resolved, ["g": [0, 1.5], "a": [0.5, 1.5]])
    }

    func testUnknownIdsAreListedOnce() {
        assertError([.animation("a", duration: 1, position: .after("nope")),
                     .animation("b", duration: 1, position: .with("ghost")),
                     .sequence("s", [.animation("c", duration: 1, position: .after("nope"))])],
                    .unknownIDs(["nope", "ghost"]))
        XCTAssertTrue(Timeline.ResolutionError.unknownIDs(["nope"]).description.contains("\"nope\""))
    }

    func testDuplicateIdsAndInvalidTimes() {
        assertError([.animation("a", duration: 1), .sequence(nil, [.animation("a", duration: 2)])], .duplicateID("a"))
        assertError([.animation("a", duration: -1)], .invalidTime(item: "a"))
        assertError([.animation("a", duration: .infinity)], .invalidTime(item: "a"))
        assertError([.sequence(nil, [.animation(nil, duration: 1, position: .automatic(offset: .nan))])],
                    .invalidTime(item: "0.0"))
    }

    /// Long chains resolve without deep recursion.
    func testLongSequence() {
        let items = (0..<5000).map { Item.animation("a\($0)", duration: 0.01) }
        let resolved = resolve([.sequence("s", items)])
        XCTAssertEqual(resolved["a4999"]?[1] ?? 0, 50, accuracy: 1e-9)
        XCTAssertEqual(resolved["s"], [0, 50])
    }
}
