import XCTest
import Foundation
import ChartReel

/// docs/swift-api.md's code is Snippets.swift's: every ```swift block of the page is a
/// `// doc:begin` region of that file, in order, and the other way round; the snippets
/// then run here (the reference charts in ReferenceChartsTests, the test-case snippet as
/// a test of its own).
final class DocSnippetTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Lines without their common indentation and trailing spaces, joined.
    static func dedent(_ lines: [String]) -> String {
        let trimmed = lines.map { l -> String in
            var s = Substring(l)
            while s.last == " " { s = s.dropLast() }
            return String(s)
        }
        let indent = trimmed.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return trimmed.map { $0.isEmpty ? "" : String($0.dropFirst(indent)) }.joined(separator: "\n")
    }

    /// The ```swift blocks of the page, in order.
    static func pageBlocks() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/swift-api.md"), encoding: .utf8)
        var blocks: [String] = [], current: [String]? = nil
        for line in text.components(separatedBy: "\n") {
            if current == nil {
                if line.hasPrefix("```swift") { current = [] }
            } else if line.hasPrefix("```") {
                blocks.append(dedent(current!)); current = nil
            } else {
                current!.append(line)
            }
        }
        return blocks
    }

    /// The regions of Snippets.swift, in order, by name.
    static func snippetRegions() throws -> [(name: String, text: String)] {
        let text = try String(contentsOf: root.appendingPathComponent("Tests/SwiftAPIDocTests/Snippets.swift"), encoding: .utf8)
        var regions: [(String, String)] = [], name: String? = nil, lines: [String] = []
        for line in text.components(separatedBy: "\n") {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("// doc:begin ") { name = String(t.dropFirst("// doc:begin ".count)); lines = [] }
            else if t == "// doc:end", let n = name { regions.append((n, dedent(lines))); name = nil }
            else if name != nil { lines.append(line) }
        }
        return regions
    }

    func testEveryBlockOfThePageIsASnippetAndEverySnippetIsOnThePage() throws {
        let blocks = try Self.pageBlocks(), regions = try Self.snippetRegions()
        XCTAssertEqual(blocks.count, 16, "the page has the tutorial's sixteen Swift blocks")
        for (i, block) in blocks.enumerated() where !regions.contains(where: { $0.text == block }) {
            XCTFail("block \(i + 1) of docs/swift-api.md is not a region of Snippets.swift:\n\(block)")
        }
        for r in regions where !blocks.contains(r.text) {
            XCTFail("region \"\(r.name)\" of Snippets.swift is not on docs/swift-api.md:\n\(r.text)")
        }
        XCTAssertEqual(blocks, regions.map(\.text), "the page and the file list the snippets in the same order")
    }

    /// The render snippet writes an MP4, a PNG directory and one PNG where it runs, and
    /// finds the line's ink in the plot.
    func testRenderSnippetWritesEveryOutputAndFindsInk() throws {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("swiftapi-doc-\(getpid())")
        try? fm.removeItem(at: dir)
        try fm.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: dir) }
        let previous = fm.currentDirectoryPath
        fm.changeCurrentDirectoryPath(dir.path)
        defer { fm.changeCurrentDirectoryPath(previous) }

        let scene = try Snippets.curvedLineReveal()
        let (frame, ink) = try Snippets.renderAndInspect(scene)
        let mp4 = try fm.attributesOfItem(atPath: dir.appendingPathComponent("caffeine.mp4").path)[.size] as? Int ?? 0
        XCTAssertGreaterThan(mp4, 1000)
        let pngs = try fm.contentsOfDirectory(atPath: dir.appendingPathComponent("frames").path).filter { $0.hasSuffix(".png") }
        XCTAssertEqual(pngs.count, scene.frameCount)
        XCTAssertEqual(scene.frameCount, 126, "the line ends at 1.0 s, the fill at 1.6 s, plus 0.5 s of hold, at 60 fps")
        let back = try Pixmap(contentsOf: dir.appendingPathComponent("caffeine-0.6s.png"))
        XCTAssertEqual(back, frame)
        // At 0.6 s the line is half drawn: ink starts at the plot's left edge and stops
        // well short of its right edge (x = 760).
        let box = try XCTUnwrap(ink)
        XCTAssertLessThanOrEqual(box.minX, 42)
        XCTAssertLessThan(box.maxX, 600)
        XCTAssertGreaterThan(box.maxX, 200)
    }

    /// The per-row spelling draws what the key-path spelling of the same chart draws.
    func testPerRowSnippetMatchesTheKeyPathSpelling() throws {
        let perRow = try Snippets.perRow()
        let keyPaths = try ChartScene(width: 800, height: 600, fps: 60) {
            Chart(week) {
                AreaMark(x: .value("Day", \.day), y: .value("Caffeine", \.mg))
                    .interpolationMethod(.bezier(0.5))
                    .fill(.linearGradient([.white, .indigo.opacity(0.6)], from: .bottom, to: .top))
                    .animation(.opacity(from: 0), .easeInOut(duration: 1).delay(0.6))
                LineMark(x: .value("Day", \.day), y: .value("Caffeine", \.mg))
                    .stroke(.linearGradient([.indigo, .cyan]), lineWidth: 3)
                    .animation(.trim(from: 0), .easeInOut(duration: 0.8).delay(0.2))
            }
            .title("Caffeine (mg)")
            // The per-row spelling is Swift Charts', so it gets Swift Charts' automatic axes.
            .chartXAxis(.visible)
            .chartYAxis(.visible)
        }
        XCTAssertEqual(perRow.frameCount, keyPaths.frameCount)
        for t in [0.0, 0.5, 0.9, 1.3, 2.0] { XCTAssertEqual(perRow.frame(at: t), keyPaths.frame(at: t), "at \(t) s") }
        XCTAssertNotEqual(perRow.frame(at: 0.5), perRow.frame(at: 2.0))
        XCTAssertNotNil(perRow.node("title"))
    }

    /// Rows may make different marks, as in Swift Charts: each mark is then an element
    /// of its own, and the points stand only on the days over 10 mg.
    func testPerRowChartsMayMakeDifferentMarksForDifferentRows() throws {
        let scene = try ChartScene(width: 400, height: 300) {
            Chart(week) { day in
                LineMark(x: .value("Day", day.day), y: .value("Caffeine", day.mg))
                    .foregroundStyle(.indigo)
                if day.mg > 10 {
                    PointMark(x: .value("Day", day.day), y: .value("Caffeine", day.mg))
                        .id("dots")
                        .foregroundStyle(.orange)
                }
            }
        }
        guard case .group(let dots)? = scene.node("dots") else { return XCTFail("no dots") }
        XCTAssertEqual(dots.children.count, week.filter { $0.mg > 10 }.count, "a dot for each day over 10 mg")
        XCTAssertNotNil(scene.frame(at: 0).bounds(ofInk: .white, in: Rect(x: 0, y: 0, width: 400, height: 300)))
    }

    /// The Swift Charts snippet: grouped bars in the scale's colours, grown by the end,
    /// the red target rule across the plot, and the y axis on the leading side.
    func testSwiftChartsSnippetDrawsGroupedBarsAndTheRule() throws {
        let scene = try Snippets.swiftCharts()
        let last = scene.frame(index: scene.frameCount - 1)
        if let dir = ProcessInfo.processInfo.environment["SWIFTCHARTS_TEST_FRAMES"] { try last.writePNG(toFile: dir + "/swift-charts-snippet.png") }
        func box(_ c: Color) -> Rect? {
            var minX = Int.max, maxX = Int.min, minY = Int.max
            for y in 0..<last.height { for x in 0..<last.width where last.color(x: x, y: y) == c {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y)
            } }
            return minX <= maxX ? Rect(x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: 1) : nil
        }
        let cups = try XCTUnwrap(box(.brown)), tea = try XCTUnwrap(box(.green))
        XCTAssertLessThan(cups.minX, tea.minX, "cups stand left of tea in each quarter")
        XCTAssertNotNil(box(.red), "the target rule")
        XCTAssertGreaterThan(scene.frameCount, 18, "the bars grow over 0.6 s, then the hold")
        XCTAssertNotEqual(scene.frame(at: 0), last, "the bars grow")
    }

    func testRasterSnippetDrawsTheWaveAndTheDot() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wave-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try drawWave(to: path)
        let p = try Pixmap(pngFile: path)
        XCTAssertEqual(p.width, 240)
        XCTAssertEqual(p.color(x: 2, y: 2), .white)
        // The dot's centre: orange at 80 % over the purple stroke that passes through it.
        let c = try XCTUnwrap(p.color(x: 120, y: 60))
        XCTAssertGreaterThan(c.r, 0.8)
        XCTAssertLessThan(c.b, 0.4)
        // The stroke starts at (20, 60) with a round cap.
        XCTAssertEqual(p.color(x: 20, y: 60), Color.hex("#6A5ACD"))
    }

    func testMotionSnippetValues() {
        XCTAssertEqual(halfway, 0.5, accuracy: 1e-9)
        XCTAssertEqual(starts, [0.2, 0.1, 0, 0.1, 0.2])
        XCTAssertEqual(pulse.end, pulse.activeDuration * 3, accuracy: 1e-9)
        XCTAssertEqual(trimEnd.value(at: 0.2), 0)
        XCTAssertEqual(trimEnd.value(at: 1.0), 1)
    }

    /// The line race snippet: lines revealed to the moment, heads labelled.
    func testLineRaceSnippetRevealsTheLines() throws {
        let shares = (0..<6).flatMap { y in ["A", "B"].map { Share(year: 2000 + Double(y), country: $0, share: Double(y) * ($0 == "A" ? 2 : 3)) } }
        let scene = try lineRace(shares)
        XCTAssertEqual(scene.frameCount, Int(((0.5 + 5 * 0.3 + 0.5) * 30).rounded()))
        let early = scene.frame(index: 20), late = scene.frame(index: scene.frameCount - 1)
        XCTAssertFalse(early.data == late.data, "the lines grow")
    }
}
