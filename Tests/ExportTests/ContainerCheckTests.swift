import Foundation
import XCTest
import Raster
@testable import Export

/// The container walks that verify a finished video: the same count as ffprobe for every
/// format (with and without alpha), and every file cut short is rejected.
final class ContainerCheckTests: XCTestCase {
    private func encode(_ format: OutputFormat, alpha: Bool, to path: String, frames: Int) throws {
        var options = VideoOptions()
        options.alpha = alpha
        let sink = FFmpegSink(outputPath: path, format: format, options: options)
        try sink.begin(width: 64, height: 48, fps: 30, frameCount: frames)
        try FrameSequencer(threads: 2).run(frameCount: frames, render: { i in
            var p = solidFrame(i, width: 64, height: 48)
            if alpha { p.setPixel(0, 0, PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 0)) }
            return p
        }, sink: sink)
    }

    func testCountsMatchFFprobeAndCutFilesAreRejected() throws {
        let dir = try makeTempDirectory(self)
        for format in OutputFormat.videoFormats {
            for alpha in format.supportsAlpha ? [false, true] : [false] {
                let path = dir + "/v\(alpha ? "a" : "").\(format.rawValue)"
                try encode(format, alpha: alpha, to: path, frames: 17)
                XCTAssertEqual(try ContainerCheck.frameCount(of: path, format: format), 17, path)
                XCTAssertEqual(try MediaProbe.probe(path).frames, 17, "ffprobe agrees: \(path)")
                let whole = try Data(contentsOf: URL(fileURLWithPath: path))
                for cut in [whole.count / 3, whole.count / 2, whole.count * 9 / 10, whole.count - 1] {
                    let short = dir + "/cut.\(format.rawValue)"
                    try whole.prefix(cut).write(to: URL(fileURLWithPath: short))
                    let counted = try? ContainerCheck.frameCount(of: short, format: format)
                    XCTAssertNil(counted, "\(path) cut to \(cut) of \(whole.count) bytes counted \(counted ?? -1)")
                }
            }
        }
    }

    func testOtherBytesAreNotAVideo() throws {
        let dir = try makeTempDirectory(self)
        let path = dir + "/junk"
        try Data("not a video at all".utf8).write(to: URL(fileURLWithPath: path))
        for format in OutputFormat.videoFormats {
            XCTAssertThrowsError(try ContainerCheck.frameCount(of: path, format: format), format.rawValue)
        }
    }
}
