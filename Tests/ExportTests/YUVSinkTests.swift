import Foundation
import XCTest
import Raster
@testable import Export

/// MP4 and opaque WebM frames reach ffmpeg as yuv420p converted by the rendering threads.
final class YUVSinkTests: XCTestCase {
    /// ffmpeg's decode of `path` as straight RGBA (honouring the stream's colour tags).
    private func decode(_ path: String) throws -> [UInt8] {
        let ffmpeg = try XCTUnwrap(FFmpeg.locateFFmpeg())
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ffmpeg)
        p.arguments = ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        return [UInt8](data)
    }

    func testEncoderConvertsToYUVAndConvertsAHeldFrameOnce() throws {
        let dir = try makeTempDirectory(self)
        let sink = FFmpegSink(outputPath: dir + "/out.mp4", format: .mp4)
        try sink.begin(width: 64, height: 48, fps: 30, frameCount: 3)
        defer { sink.abort() }
        let encode = sink.encoder()
        var held = solidFrame(3, width: 64, height: 48)
        held.mayRepeat = true   // as the renderer marks the picture of a hold
        let a = try encode(held, 0), b = try encode(held, 1)
        XCTAssertEqual(a, held.yuv420p())
        XCTAssertEqual(a.count, 64 * 48 * 3 / 2)
        // The second is the first's storage, remembered: no second conversion.
        XCTAssertEqual(a.withUnsafeBytes { $0.baseAddress }, b.withUnsafeBytes { $0.baseAddress })
        // A frame drawn separately with the same pixels is converted again (same bytes).
        let twin = try encode(solidFrame(3, width: 64, height: 48), 2)
        XCTAssertEqual(twin, a)
        XCTAssertNotEqual(twin.withUnsafeBytes { $0.baseAddress }, a.withUnsafeBytes { $0.baseAddress })
        XCTAssertThrowsError(try sink.write(held.data, index: 0), "RGBA bytes are the wrong size for a yuv420p pipe")
    }

    func testMP4AndWebMDecodeToTheFramesColours() throws {
        // Solid frames of distinct colours: after the round trip through BT.709 yuv420p,
        // the encoder and ffmpeg's tag-honouring decoder, each pixel is within a few levels.
        for format in [OutputFormat.mp4, .webm] {
            let dir = try makeTempDirectory(self)
            let path = dir + "/out." + format.rawValue
            let (w, h, n) = (64, 48, 6)
            let sink = FFmpegSink(outputPath: path, format: format)
            try sink.begin(width: w, height: h, fps: 30, frameCount: n)
            try FrameSequencer(threads: 2).run(frameCount: n, render: { solidFrame($0, width: w, height: h) }, sink: sink)
            let rgba = try decode(path)
            XCTAssertEqual(rgba.count, w * h * 4 * n, "\(format)")
            guard rgba.count == w * h * 4 * n else { continue }
            for i in 0..<n {
                let c = frameColor(i)
                let at = (i * w * h + (h / 2) * w + w / 2) * 4
                for (got, want) in zip(rgba[at..<(at + 3)], [c.r, c.g, c.b]) {
                    XCTAssertEqual(Double(got), Double(want), accuracy: 3, "\(format) frame \(i)")
                }
            }
        }
    }

    func testOddSizedWebMTakesOddYUVFrames() throws {
        // VP9 keeps odd sizes; the chroma planes round up (ffmpeg's rawvideo layout).
        let dir = try makeTempDirectory(self)
        let sink = FFmpegSink(outputPath: dir + "/odd.webm", format: .webm)
        try sink.begin(width: 33, height: 17, fps: 30, frameCount: 3)
        try FrameSequencer(threads: 2).run(frameCount: 3, render: { solidFrame($0, width: 33, height: 17) }, sink: sink)
        let rgba = try decode(dir + "/odd.webm")
        XCTAssertEqual(rgba.count, 33 * 17 * 4 * 3)
        let c = frameColor(2), at = (2 * 33 * 17 + 8 * 33 + 16) * 4
        XCTAssertEqual(Double(rgba[at]), Double(c.r), accuracy: 3)
        XCTAssertEqual(Double(rgba[at + 1]), Double(c.g), accuracy: 3)
        XCTAssertEqual(Double(rgba[at + 2]), Double(c.b), accuracy: 3)
    }
}
