import Foundation
import XCTest
@testable import Export

/// What `OutputTarget.prepare` decides for each kind of path, and stale partials.
final class OutputTargetTests: XCTestCase {
    func testEachKindOfPath() throws {
        let dir = try makeTempDirectory(self)
        XCTAssertEqual(try OutputTarget.prepare("-", format: .rgba, overwrite: false), .stdout)
        XCTAssertEqual(try OutputTarget.prepare(dir + "/new.mp4", format: .mp4, overwrite: false), .new(path: dir + "/new.mp4"))
        FileManager.default.createFile(atPath: dir + "/old.mp4", contents: Data("x".utf8))
        XCTAssertThrowsError(try OutputTarget.prepare(dir + "/old.mp4", format: .mp4, overwrite: false)) {
            XCTAssertEqual($0 as? ExportError, .outputExists(dir + "/old.mp4"))
        }
        XCTAssertEqual(try OutputTarget.prepare(dir + "/old.mp4", format: .mp4, overwrite: true), .file(path: dir + "/old.mp4"))
        XCTAssertThrowsError(try OutputTarget.prepare(dir + "/old.mp4", format: .mp4, overwrite: true,
                                                      inputs: [dir + "/old.mp4"])) {
            guard case .refused(let why)? = $0 as? ExportError else { return XCTFail("\($0)") }
            XCTAssertTrue(why.contains("never overwrites its inputs"), why)
        }
        // A symlink to the file: the link's target is what is written.
        XCTAssertEqual(symlink(dir + "/old.mp4", dir + "/link.mp4"), 0)
        XCTAssertEqual(try OutputTarget.prepare(dir + "/link.mp4", format: .mp4, overwrite: true),
                       .file(path: OutputTarget.realPath(dir + "/old.mp4")))
        XCTAssertEqual(mkfifo(dir + "/fifo", 0o644), 0)
        XCTAssertEqual(try OutputTarget.prepare(dir + "/fifo", format: .gif, overwrite: false), .stream(path: dir + "/fifo", kind: "a FIFO"))
        XCTAssertThrowsError(try OutputTarget.prepare(dir + "/fifo", format: .mov, overwrite: true))
        XCTAssertThrowsError(try OutputTarget.prepare(dir, format: .mp4, overwrite: true), "a directory for a video")
        XCTAssertTrue(OutputTarget.isFrameFileName("frame-00012.png"))
        XCTAssertFalse(OutputTarget.isFrameFileName("frame-.png"))
        XCTAssertFalse(OutputTarget.isFrameFileName("frame-0001a.png"))
    }

    func testStalePartialsAreRemovedAndAMovedAsideOutputIsPutBack() throws {
        let dir = try makeTempDirectory(self)
        let dead = "2147483646"   // beyond any pid_max: no such process
        FileManager.default.createFile(atPath: dir + "/.out.mp4.partial-\(dead)", contents: Data())
        FileManager.default.createFile(atPath: dir + "/.out.mp4.partial-\(dead).ffconcat", contents: Data())
        FileManager.default.createFile(atPath: dir + "/.out.mp4.partial-1", contents: Data())   // pid 1 runs
        FileManager.default.createFile(atPath: dir + "/.other.mp4.partial-\(dead)", contents: Data())
        let removed = OutputTarget.removeStalePartials(of: dir + "/out.mp4").map { ($0 as NSString).lastPathComponent }
        XCTAssertEqual(removed, [".out.mp4.partial-\(dead)", ".out.mp4.partial-\(dead).ffconcat"])
        XCTAssertEqual(listing(dir), [".other.mp4.partial-\(dead)", ".out.mp4.partial-1"])

        try FileManager.default.createDirectory(atPath: dir + "/.frames.old-\(dead)", withIntermediateDirectories: false)
        FileManager.default.createFile(atPath: dir + "/.frames.old-\(dead)/frame-00000.png", contents: Data("f".utf8))
        XCTAssertEqual(OutputTarget.removeStalePartials(of: dir + "/frames"), [])
        XCTAssertEqual(listing(dir + "/frames"), ["frame-00000.png"], "the earlier output is back at its name")
    }
}
