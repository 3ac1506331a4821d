import Foundation
import XCTest
import Raster
@testable import Export

/// GIF delays: whole hundredths, at least 2, and a running sum that tracks true time.
final class GIFTimingTests: XCTestCase {
    func testThirtyFPSAlternatesThreeAndFourHundredths() {
        let d = GIFTiming.delays(frameCount: 9, fps: 30)
        XCTAssertEqual(d, [3, 4, 3, 3, 4, 3, 3, 4, 3])
    }

    func testRunningSumStaysWithinHalfAHundredthForEveryRateUpTo50() {
        var rates = stride(from: 1.0, through: 50, by: 0.25).map { $0 }
        rates += [23.976, 29.97, 59.94 / 2, 47.952]
        for fps in rates {
            let n = Int(fps * 7) + 1   // several seconds: long enough for any drift to show
            let d = GIFTiming.delays(frameCount: n, fps: fps)
            var sum = 0
            for (i, delay) in d.enumerated() {
                XCTAssertGreaterThanOrEqual(delay, 2, "fps \(fps), frame \(i)")
                sum += delay
                XCTAssertLessThanOrEqual(abs(Double(sum) - Double(i + 1) * 100 / fps), 0.5 + 1e-9, "fps \(fps), frame \(i)")
            }
        }
    }

    func testPauseLengthensOnlyTheLastFrame() {
        XCTAssertEqual(GIFTiming.delays(frameCount: 3, fps: 50, pause: 0.75), [2, 2, 77])
        XCTAssertEqual(GIFTiming.delays(frameCount: 0, fps: 50), [])
    }

    private func encodeGIF(frames: Int, fps: Double, options: VideoOptions = VideoOptions()) throws -> String {
        let dir = try makeTempDirectory(self)
        let path = dir + "/t.gif"
        let sink = FFmpegSink(outputPath: path, format: .gif, options: options)
        try sink.begin(width: 16, height: 8, fps: fps, frameCount: frames)
        try FrameSequencer(threads: 2).run(frameCount: frames, render: { solidFrame($0, width: 16, height: 8) }, sink: sink)
        return path
    }

    /// (pts, duration) of every packet, in the GIF's 1/100 s time base.
    private func packets(_ path: String) throws -> [(Int, Int)] {
        let probe = try XCTUnwrap(FFmpeg.locate("ffprobe"))
        let r = try runTool(probe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,duration",
                                    "-of", "csv=p=0", path])
        XCTAssertEqual(r.status, 0)
        return r.output.split(separator: "\n").map { line in
            let f = line.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces))! }
            return (f[0], f[1])
        }
    }

    func testFFmpegWritesTheseDelaysAt30FPS() throws {
        let p = try packets(try encodeGIF(frames: 31, fps: 30))
        XCTAssertEqual(p.count, 31)
        XCTAssertEqual(p.map(\.0), (0..<31).map { GIFTiming.timestamp(ofFrame: $0, fps: 30) })
        XCTAssertEqual(p.map(\.1), GIFTiming.delays(frameCount: 31, fps: 30))
        XCTAssertEqual(p.map(\.1).reduce(0, +), 103)   // 31 / 30 s, rounded
    }

    func testPauseAndLoopReachTheFile() throws {
        let path = try encodeGIF(frames: 5, fps: 25, options: VideoOptions(loop: .times(1), pause: 2))
        XCTAssertEqual(try packets(path).map(\.1), [4, 4, 4, 4, 204])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertNil(bytes.firstRange(of: Array("NETSCAPE2.0".utf8)), "played once: no loop block")

        let looping = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try encodeGIF(frames: 3, fps: 25,
                                                                                   options: VideoOptions(loop: .times(3))))))
        let at = try XCTUnwrap(looping.firstRange(of: Array("NETSCAPE2.0".utf8))).upperBound
        // Sub-block: size 3, id 1, then the repeat count little-endian: 2 repeats = 3 plays.
        XCTAssertEqual(Array(looping[at..<at + 4]), [3, 1, 2, 0])
    }
}
