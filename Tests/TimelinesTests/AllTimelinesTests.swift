import XCTest
import Raster
import Scene
@testable import Timelines

/// Every document under timelines/ decodes and renders; frames are deterministic.
final class AllTimelinesTests: XCTestCase {
    static let dir = CurvedLineRevealTests.root.appendingPathComponent("timelines")

    func documents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Self.dir.path).filter { $0.hasSuffix(".json") }.sorted()
    }

    func testEveryTimelineRendersAtThreeTimes() throws {
        let docs = try documents()
        XCTAssertGreaterThanOrEqual(docs.count, 2)
        for name in docs {
            let scene = try TimelineDecoder.load(path: Self.dir.appendingPathComponent(name).path)
            let d = scene.effectiveDuration
            var previous: [UInt8]? = nil
            for t in [0, d / 2, d] {
                let f = scene.frame(at: t)
                XCTAssertEqual(f.width, scene.width); XCTAssertEqual(f.height, scene.height)
                XCTAssertNotEqual(f.data, previous, "\(name) did not change between frames")
                previous = f.data
            }
            XCTAssertEqual(scene.frame(at: d / 3).data, scene.frame(at: d / 3).data, "\(name) is not deterministic")
        }
    }

    /// Issue 16, defect 4: every guide and label stays inside the canvas. At each
    /// timeline's last frame, no pixel of the outermost two rows and columns differs from
    /// what the surface there is: the background, or a chart's card where the document
    /// asks for one reaching the edge (the same frame drawn with the cards alone).
    func testNoInkTouchesTheCanvasEdgeAtTheEnd() throws {
        func cards(_ n: Node) -> [Node] {
            switch n {
            case .shape(let s): return s.id == "card" ? [n] : []
            case .group(let g): return g.children.flatMap(cards)
            case .text: return []
            }
        }
        for name in try documents() {
            let scene = try TimelineDecoder.load(path: Self.dir.appendingPathComponent(name).path)
            let end = scene.effectiveDuration
            let f = scene.frame(at: end)
            let surface = Scene(width: scene.width, height: scene.height, background: scene.background,
                                nodes: scene.nodes.flatMap(cards)).frame(at: end)
            var touched: [(Int, Int)] = []
            for y in 0..<f.height {
                for x in 0..<f.width where x < 2 || y < 2 || x >= f.width - 2 || y >= f.height - 2 {
                    let p = f.pixel(x, y), q = surface.pixel(x, y)
                    if max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b))) > 8 { touched.append((x, y)) }
                }
            }
            XCTAssertTrue(touched.isEmpty, "\(name): ink at the canvas edge at \(touched.prefix(8).map { "(\($0.0), \($0.1))" }) (\(touched.count) pixels)")
        }
    }

    func testAxesAndLabelsHasEveryGuide() throws {
        let scene = try TimelineDecoder.load(path: Self.dir.appendingPathComponent("axes-and-labels.json").path)
        XCTAssertEqual(scene.nodes.count, 4)
        for id in ["title", "subtitle", "grid", "zero", "axis-bottom", "axis-leading", "axis-trailing", "axis-top",
                   "legend", "max-label", "zero-label", "card", "axis-title"] {
            XCTAssertNotNil(scene.node(id), "no \(id)")
        }
        // The canvas height follows the content: 2 rows of 300 and 280 plus padding and spacing.
        XCTAssertEqual(scene.height, 16 + 300 + 16 + 280 + 16)
        // Guides fade in: the first chart's axes are invisible at 0 and opaque after 0.5 s.
        guard case .group(let axis)? = scene.node("axis-leading") else { return XCTFail() }
        XCTAssertEqual(axis.opacity.value(at: 0), 0)
        XCTAssertEqual(axis.opacity.value(at: 0.5), 1)
    }
}
