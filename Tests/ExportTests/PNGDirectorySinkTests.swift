import Foundation
import XCTest
import Raster
@testable import Export

final class PNGDirectorySinkTests: XCTestCase {
    func testWritesReadableFramesAndLeavesNoTemporaryDirectory() throws {
        let parent = try makeTempDirectory(self)
        let dir = parent + "/frames"
        let sink = PNGDirectorySink(directory: dir)
        try sink.begin(width: 8, height: 6, fps: 30, frameCount: 12)
        try FrameSequencer(threads: 2).run(frameCount: 12, render: { solidFrame($0) }, sink: sink)

        XCTAssertEqual(listing(parent), ["frames"], "no .partial directory left beside it")
        let names = listing(dir)
        XCTAssertEqual(names, (0..<12).map { String(format: "frame-%05d.png", $0) })
        for (i, name) in names.enumerated() {
            XCTAssertEqual(try Pixmap(pngFile: dir + "/" + name), solidFrame(i))
        }
    }

    func testExistingTargetIsAnErrorUnlessOverwriting() throws {
        let parent = try makeTempDirectory(self)
        let dir = parent + "/frames"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/old.txt", contents: Data("old".utf8)))

        XCTAssertThrowsError(try PNGDirectorySink(directory: dir).begin(width: 8, height: 6, fps: 30, frameCount: 3)) {
            XCTAssertEqual($0 as? ExportError, .outputExists(dir))
        }
        XCTAssertEqual(listing(dir), ["old.txt"])

        let sink = PNGDirectorySink(directory: dir, overwrite: true)
        try sink.begin(width: 8, height: 6, fps: 30, frameCount: 3)
        try FrameSequencer(threads: 1).run(frameCount: 3, render: { solidFrame($0) }, sink: sink)
        XCTAssertEqual(listing(dir), ["frame-00000.png", "frame-00001.png", "frame-00002.png"])
        XCTAssertEqual(listing(parent), ["frames"], "the displaced directory is removed")
    }

    func testAbortRemovesTheTemporaryDirectory() throws {
        let parent = try makeTempDirectory(self)
        let sink = PNGDirectorySink(directory: parent + "/frames")
        let render: @Sendable (Int) throws -> Pixmap = { i in
            if i == 5 { throw TestError(index: 5) }
            return solidFrame(i)
        }
        try sink.begin(width: 8, height: 6, fps: 30, frameCount: 10)
        XCTAssertThrowsError(try FrameSequencer(threads: 1).run(frameCount: 10, render: render, sink: sink))
        XCTAssertEqual(listing(parent), [])
    }

    func testIndexWidthGrowsWithFrameCount() throws {
        let parent = try makeTempDirectory(self)
        let sink = PNGDirectorySink(directory: parent + "/frames")
        try sink.begin(width: 1, height: 1, fps: 30, frameCount: 123_456)
        try sink.write(sink.encoder()(Pixmap(width: 1, height: 1), 7), index: 7)
        try sink.finish()
        XCTAssertEqual(listing(parent + "/frames"), ["frame-000007.png"])
    }
}
