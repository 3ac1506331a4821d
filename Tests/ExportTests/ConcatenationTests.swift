import Foundation
import XCTest
import Raster
@testable import Export

final class ConcatenationTests: XCTestCase {
    /// Renders frames `range` of a `total`-frame solid-colour video into `dir`.
    private func chunk(_ dir: String, _ range: Range<Int>, total: Int) throws {
        let sink = PNGDirectorySink(directory: dir, firstIndex: range.lowerBound, totalFrames: total)
        try sink.begin(width: 8, height: 6, fps: 30, frameCount: range.count)
        try FrameSequencer(threads: 2).run(frameCount: range.count, render: { solidFrame(range.lowerBound + $0) }, sink: sink)
    }

    func testPNGChunksJoinIntoTheSingleRenderDirectory() throws {
        let root = try makeTempDirectory(self)
        try chunk(root + "/whole", 0..<12, total: 12)
        try chunk(root + "/a", 0..<5, total: 12)
        try chunk(root + "/b", 5..<9, total: 12)
        try chunk(root + "/c", 9..<12, total: 12)
        XCTAssertEqual(listing(root + "/b"), ["frame-00005.png", "frame-00006.png", "frame-00007.png", "frame-00008.png"])
        let n = try Concatenation.joinFrameDirectories([root + "/c", root + "/a", root + "/b"], output: root + "/joined")
        XCTAssertEqual(n, 12)
        let names = listing(root + "/whole")
        XCTAssertEqual(listing(root + "/joined"), names)
        for name in names {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: root + "/joined/" + name)),
                           try Data(contentsOf: URL(fileURLWithPath: root + "/whole/" + name)), name)
        }
        XCTAssertEqual(listing(root), ["a", "b", "c", "joined", "whole"], "no temporary directory left")
    }

    func testOverlapsAndGapsAreErrorsAndWriteNothing() throws {
        let root = try makeTempDirectory(self)
        try chunk(root + "/a", 0..<5, total: 12)
        try chunk(root + "/b", 4..<8, total: 12)
        try chunk(root + "/c", 9..<12, total: 12)
        XCTAssertThrowsError(try Concatenation.joinFrameDirectories([root + "/a", root + "/b"], output: root + "/out")) {
            XCTAssertTrue("\($0)".contains("frame 4 is in both"), "\($0)")
        }
        XCTAssertThrowsError(try Concatenation.joinFrameDirectories([root + "/a", root + "/c"], output: root + "/out")) {
            XCTAssertTrue("\($0)".contains("frames 5..<9 are missing"), "\($0)")
        }
        XCTAssertEqual(listing(root), ["a", "b", "c"])
    }

    func testGIFChunksAreRefused() {
        XCTAssertThrowsError(try Concatenation.joinVideos(["a.gif"], format: .gif, output: "x.gif")) {
            guard case ExportError.unsupported? = $0 as? ExportError else { return XCTFail("\($0)") }
        }
    }

    func testMP4ChunksJoinWithEveryFrame() throws {
        let dir = try makeTempDirectory(self)
        var parts: [String] = []
        for (k, range) in [0..<10, 10..<25, 25..<30].enumerated() {
            // A quote followed by a combining mark in a name: still a quote in the ffconcat list.
            let path = dir + (k == 1 ? "/part1'\u{301}.mp4" : "/part\(k).mp4")
            let sink = FFmpegSink(outputPath: path, format: .mp4)
            try sink.begin(width: 64, height: 48, fps: 30, frameCount: range.count)
            try FrameSequencer(threads: 2).run(frameCount: range.count,
                                               render: { solidFrame(range.lowerBound + $0, width: 64, height: 48) }, sink: sink)
            parts.append(path)
        }
        try Concatenation.joinVideos(parts, format: .mp4, output: dir + "/joined.mp4")
        let probe = try XCTUnwrap(FFmpeg.locate("ffprobe"))
        let r = try runTool(probe, ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                    "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", dir + "/joined.mp4"])
        XCTAssertEqual(r.output.trimmingCharacters(in: .whitespacesAndNewlines), "30")
        XCTAssertEqual(listing(dir), ["joined.mp4", "part0.mp4", "part1'\u{301}.mp4", "part2.mp4"])
        XCTAssertThrowsError(try Concatenation.joinVideos(parts, format: .mp4, output: dir + "/joined.mp4")) {
            XCTAssertEqual($0 as? ExportError, .outputExists(dir + "/joined.mp4"))
        }
    }
}
