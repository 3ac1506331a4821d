import Foundation
import XCTest
import Raster
@testable import Export

final class FFmpegSinkTests: XCTestCase {
    private func ffprobe(_ path: String) throws -> String {
        let probe = try XCTUnwrap(FFmpeg.locate("ffprobe"), "ffprobe must be installed")
        let r = try runTool(probe, ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                    "-show_entries", "stream=nb_read_frames,width,height", "-of", "csv=p=0", path])
        XCTAssertEqual(r.status, 0)
        return r.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func export(_ format: OutputFormat, to path: String, width: Int = 64, height: Int = 48,
                        frames: Int = 30, ffmpegPath: String? = nil, overwrite: Bool = false) throws {
        let sink = FFmpegSink(outputPath: path, format: format, overwrite: overwrite, ffmpegPath: ffmpegPath)
        try sink.begin(width: width, height: height, fps: 30, frameCount: frames)
        try FrameSequencer(threads: 2).run(frameCount: frames,
                                           render: { solidFrame($0, width: width, height: height) }, sink: sink)
    }

    func testLocatesFFmpegOnPath() {
        XCTAssertNotNil(FFmpeg.locateFFmpeg(), "ffmpeg is installed here and in CI")
        XCTAssertNil(FFmpeg.locateFFmpeg(searchPath: "/nonexistent:/also/missing"))
    }

    func testMP4HasAllFramesAtTheRightSize() throws {
        let dir = try makeTempDirectory(self)
        try export(.mp4, to: dir + "/out.mp4")
        XCTAssertEqual(try ffprobe(dir + "/out.mp4"), "64,48,30")
        XCTAssertEqual(listing(dir), ["out.mp4"])
    }

    func testGIFHasAllFramesAtTheRightSize() throws {
        let dir = try makeTempDirectory(self)
        try export(.gif, to: dir + "/out.gif")
        XCTAssertEqual(try ffprobe(dir + "/out.gif"), "64,48,30")
        XCTAssertEqual(listing(dir), ["out.gif"])
    }

    func testOddSizedMP4IsPaddedToEven() throws {
        let dir = try makeTempDirectory(self)
        try export(.mp4, to: dir + "/odd.mp4", width: 63, height: 47, frames: 5)
        XCTAssertEqual(try ffprobe(dir + "/odd.mp4"), "64,48,5")
        XCTAssertTrue(FFmpeg.arguments(format: .mp4, width: 63, height: 47, fps: 30, output: "x")
            .contains { $0.hasPrefix("pad=ceil(iw/2)*2:ceil(ih/2)*2") })
        XCTAssertFalse(FFmpeg.arguments(format: .mp4, width: 64, height: 48, fps: 30, output: "x").contains("-vf"))
    }

    func testMissingFFmpegIsAClearErrorAndWritesNothing() throws {
        let dir = try makeTempDirectory(self)
        let sink = FFmpegSink(outputPath: dir + "/out.mp4", format: .mp4, ffmpegPath: "/nonexistent/ffmpeg")
        XCTAssertThrowsError(try sink.begin(width: 64, height: 48, fps: 30, frameCount: 3)) { error in
            XCTAssertEqual(error as? ExportError, .ffmpegMissing)
            XCTAssertTrue("\(error)".contains("apt-get install ffmpeg"), "\(error)")
        }
        sink.abort()
        XCTAssertEqual(listing(dir), [])
    }

    func testExistingOutputIsAnErrorUnlessOverwriting() throws {
        let dir = try makeTempDirectory(self)
        let path = dir + "/out.gif"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
        XCTAssertThrowsError(try export(.gif, to: path, frames: 2)) {
            XCTAssertEqual($0 as? ExportError, .outputExists(path))
        }
        try export(.gif, to: path, frames: 2, overwrite: true)
        XCTAssertEqual(try ffprobe(path), "64,48,2")
        XCTAssertEqual(listing(dir), ["out.gif"])
    }

    func testFFmpegFailureLeavesNoFiles() throws {
        // Real ffmpeg, asked to write into a directory that does not exist.
        let dir = try makeTempDirectory(self)
        XCTAssertThrowsError(try export(.mp4, to: dir + "/missing/out.mp4")) { error in
            guard case ExportError.ffmpegFailed(let status, let tail)? = error as? ExportError else {
                return XCTFail("expected ffmpegFailed, got \(error)")
            }
            XCTAssertNotEqual(status, 0)
            XCTAssertTrue(tail.contains("No such file or directory"), tail)
        }
        XCTAssertEqual(listing(dir), [])
    }

    func testFFmpegRejectingAnOptionLeavesNoFiles() throws {
        // Real ffmpeg with an invalid option, through a wrapper script.
        let dir = try makeTempDirectory(self)
        let ffmpeg = try XCTUnwrap(FFmpeg.locateFFmpeg())
        let wrapper = try script(in: dir, "#!/bin/sh\nexec '\(ffmpeg)' -no-such-option 1 \"$@\"\n")
        let out = dir + "/out.mp4"
        XCTAssertThrowsError(try export(.mp4, to: out, ffmpegPath: wrapper)) { error in
            guard case ExportError.ffmpegFailed(let status, let tail)? = error as? ExportError else {
                return XCTFail("expected ffmpegFailed, got \(error)")
            }
            XCTAssertNotEqual(status, 0)
            XCTAssertTrue(tail.contains("no-such-option"), tail)
        }
        XCTAssertEqual(listing(dir), ["ffmpeg-wrapper"])
    }

    func testFFmpegDyingMidStreamReportsItsStderr() throws {
        // A stand-in that reads a little, complains and exits: later writes hit EPIPE.
        let dir = try makeTempDirectory(self)
        let fake = try script(in: dir, "#!/bin/sh\nhead -c 100 >/dev/null\necho 'line one' >&2\necho 'encoder exploded' >&2\nexit 3\n")
        XCTAssertThrowsError(try export(.mp4, to: dir + "/out.mp4", width: 320, height: 240, frames: 60, ffmpegPath: fake)) { error in
            XCTAssertEqual(error as? ExportError, .ffmpegFailed(status: 3, stderrTail: "line one\nencoder exploded"))
            XCTAssertTrue("\(error)".contains("exited with status 3"))
        }
        XCTAssertEqual(listing(dir), ["ffmpeg-wrapper"])
    }

    func testAbortMidStreamRemovesTheTemporaryFile() throws {
        let dir = try makeTempDirectory(self)
        let sink = FFmpegSink(outputPath: dir + "/out.mp4", format: .mp4)
        try sink.begin(width: 64, height: 48, fps: 30, frameCount: 30)
        let encode = sink.encoder()
        for i in 0..<5 { try sink.write(encode(solidFrame(i, width: 64, height: 48), i), index: i) }
        sink.abort()
        sink.abort()  // idempotent
        XCTAssertEqual(listing(dir), [])
    }

    func testWrongFrameSizeIsRejected() throws {
        let dir = try makeTempDirectory(self)
        let sink = FFmpegSink(outputPath: dir + "/out.gif", format: .gif)
        try sink.begin(width: 64, height: 48, fps: 30, frameCount: 2)
        XCTAssertThrowsError(try sink.encoder()(solidFrame(0), 0)) {
            guard case ExportError.invalidArgument? = $0 as? ExportError else { return XCTFail("\($0)") }
        }
        sink.abort()
        XCTAssertEqual(listing(dir), [])
    }

    func testFrameRateArgument() {
        XCTAssertEqual(FFmpeg.rate(30), "30")
        XCTAssertEqual(FFmpeg.rate(29.97), "29.97")
    }

    private func script(in dir: String, _ text: String) throws -> String {
        let path = dir + "/ffmpeg-wrapper"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }
}
