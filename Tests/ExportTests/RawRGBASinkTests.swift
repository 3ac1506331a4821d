import Foundation
import XCTest
import Raster
@testable import Export

final class RawRGBASinkTests: XCTestCase {
    func testWritesStraightRGBAFramesBackToBack() throws {
        let dir = try makeTempDirectory(self)
        let path = dir + "/raw"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let sink = RawRGBASink(fileDescriptor: fd, closesDescriptor: true)
        let half = Pixmap(width: 2, height: 1, fill: PremultipliedRGBA8(r: 64, g: 0, b: 0, a: 128))
        try sink.begin(width: 2, height: 1, fps: 30, frameCount: 2)
        try FrameSequencer(threads: 1).run(frameCount: 2, render: { $0 == 0 ? half : solidFrame(1, width: 2, height: 1) }, sink: sink)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(bytes, half.straightRGBA() + solidFrame(1, width: 2, height: 1).straightRGBA())
        XCTAssertEqual(Array(bytes.prefix(4)), [128, 0, 0, 128])
    }

    func testClosedReaderIsAnIOError() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        close(fds[0])
        let sink = RawRGBASink(fileDescriptor: fds[1], closesDescriptor: true)
        try sink.begin(width: 4, height: 4, fps: 30, frameCount: 1)
        XCTAssertThrowsError(try sink.write(sink.encoder()(solidFrame(0, width: 4, height: 4), 0), index: 0)) {
            guard case ExportError.io? = $0 as? ExportError else { return XCTFail("\($0)") }
        }
        sink.abort()
    }
}
