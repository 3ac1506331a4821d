import XCTest
import Foundation
import ChartReel

/// `render(to:)` by extension, with the sinks of Export.
final class RenderTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("chartreel-render-\(getpid())-\(name.hashValue)")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func scene(fps: Double = 60) throws -> ChartScene {
        struct P { var x: Double; var y: Double }
        return try ChartScene(width: 64, height: 48, fps: fps, duration: 0.5) {
            Chart([P(x: 0, y: 0), P(x: 1, y: 1)]) {
                LineMark(x: .value("x", \.x), y: .value("y", \.y)).animation(.trim(from: 0), .linear(duration: 0.5))
            }
            .plotInset(4)
        }
    }

    func testADirectoryGetsEveryFrameAsPNG() throws {
        let s = try scene(fps: 20)
        let out = dir.appendingPathComponent("frames")
        var reports: [Int] = []
        try s.render(to: out, threads: 2) { done, total in reports.append(done); XCTAssertEqual(total, 10) }
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        XCTAssertEqual(files.count, 10)
        XCTAssertEqual(reports, Array(1...10))
        XCTAssertEqual(try Pixmap(contentsOf: out.appendingPathComponent(files[7])), s.frame(index: 7))
    }

    func testGIFsAreSampledAtFiftyFramesPerSecond() throws {
        let out = dir.appendingPathComponent("clip.gif")
        var total = 0
        try scene(fps: 60).render(to: out) { _, t in total = t }
        XCTAssertEqual(total, 25, "0.5 s at 50 fps, not 60")
        let head = try Data(contentsOf: out).prefix(6)
        XCTAssertEqual(String(decoding: head, as: UTF8.self), "GIF89a")
    }

    func testMP4AtTheScenesRate() throws {
        let out = dir.appendingPathComponent("clip.mp4")
        var total = 0
        try scene(fps: 24).render(to: out) { _, t in total = t }
        XCTAssertEqual(total, 12)
        let bytes = try Data(contentsOf: out)
        XCTAssertEqual(String(decoding: bytes[4..<8], as: UTF8.self), "ftyp")
    }

    func testUnknownOrSingleFileOutputsAreRefusedAndNothingIsWritten() throws {
        for name in ["clip.xyz", "frame.png"] {
            XCTAssertThrowsError(try scene().render(to: dir.appendingPathComponent(name))) { error in
                guard case .unsupportedOutput(let path, _)? = error as? ChartReelError else { return XCTFail("\(error)") }
                XCTAssertTrue(path.hasSuffix(name))
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testAnExistingOutputIsKeptUnlessOverwriting() throws {
        let out = dir.appendingPathComponent("clip.gif")
        try Data("keep".utf8).write(to: out)
        XCTAssertThrowsError(try scene().render(to: out, overwrite: false)) { XCTAssertEqual($0 as? ExportError, .outputExists(out.path)) }
        XCTAssertEqual(try Data(contentsOf: out), Data("keep".utf8))
        try scene().render(to: out)
        XCTAssertNotEqual(try Data(contentsOf: out), Data("keep".utf8))
    }
}
