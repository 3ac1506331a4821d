import XCTest
import Raster
@testable import Export

final class PixelLayoutTests: XCTestCase {
    func testBGRAIsRGBAWithRedAndBlueSwappedForEveryAlpha() {
        // Every alpha with a spread of channel values (premultiplied: each ≤ alpha).
        var p = Pixmap(width: 256, height: 7)
        for a in 0..<256 {
            for row in 0..<7 {
                func c(_ k: Int) -> UInt8 { UInt8(a * ((row * 3 + k) % 7) / 6) }
                p.setPixel(a, row, PremultipliedRGBA8(r: c(0), g: c(1), b: c(2), a: UInt8(a)))
            }
        }
        let rgba = p.straightRGBA(), bgra = p.straightBGRA()
        XCTAssertEqual(bgra.count, rgba.count)
        for i in stride(from: 0, to: rgba.count, by: 4) {
            XCTAssertEqual([bgra[i], bgra[i + 1], bgra[i + 2], bgra[i + 3]], [rgba[i + 2], rgba[i + 1], rgba[i], rgba[i + 3]],
                           "pixel \(i / 4)")
        }
    }

    /// Also the last frame: ffmpeg's palettegen stats_mode=diff alone leaves its colours
    /// out of the palette (green came out blue before the flush frame).
    func testGIFColoursSurviveTheChannelSwap() throws {
        let dir = try makeTempDirectory(self)
        let path = dir + "/c.gif"
        let colours = [PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255), PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255),
                       PremultipliedRGBA8(r: 20, g: 200, b: 90, a: 255)]
        let sink = FFmpegSink(outputPath: path, format: .gif)
        try sink.begin(width: 16, height: 8, fps: 10, frameCount: 3)
        try FrameSequencer(threads: 2).run(frameCount: 3, render: { Pixmap(width: 16, height: 8, fill: colours[$0]) }, sink: sink)
        let ffmpeg = try XCTUnwrap(FFmpeg.locateFFmpeg())
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ffmpeg)
        p.arguments = ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let bytes = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        p.waitUntilExit()
        XCTAssertEqual(bytes.count, 3 * 16 * 8 * 4)
        for (k, c) in colours.enumerated() {
            let i = k * 16 * 8 * 4 + (4 * 16 + 8) * 4
            XCTAssertEqual(Array(bytes[i..<i + 4]), [c.r, c.g, c.b, 255], "frame \(k)")
        }
    }
}
