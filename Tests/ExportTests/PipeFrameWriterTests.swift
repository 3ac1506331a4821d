import Foundation
import XCTest
import TestSupport
@testable import Export

final class PipeFrameWriterTests: XCTestCase {
    /// Sends `frames` fresh buffers of `size` bytes through a pipe of `pipeSize` bytes to a
    /// reader that sleeps now and then, and returns (what was sent, what arrived).
    private func roundTrip(frames: Int, size: Int, pipeSize: Int32, yuv4mpeg: Bool = false) throws -> ([UInt8], [UInt8], Bool) {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        _ = fcntl(fds[1], 1031 /* F_SETPIPE_SZ */, pipeSize)
        final class Received: @unchecked Sendable { var bytes: [UInt8] = [] }
        let received = Received()
        let done = DispatchSemaphore(value: 0)
        let readFD = fds[0]
        Thread {
            var chunk = [UInt8](repeating: 0, count: 50_000)
            var reads = 0
            while true {
                let n = chunk.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                received.bytes.append(contentsOf: chunk[0..<n])
                reads += 1
                if reads % 7 == 0 { usleep(2_000) }   // a slow reader, so the pipe fills up
            }
            done.signal()
        }.start()
        let writer = PipeFrameWriter(fd: fds[1], yuv4mpeg: yuv4mpeg)
        var sent: [UInt8] = []
        var rng = SplitMix64(state: 42)
        for _ in 0..<frames {
            // A fresh buffer per frame: if the writer let go of a frame the pipe still
            // referenced, the allocator would hand its memory to the next frame and the
            // reader would see the newer bytes.
            var frame = [UInt8](repeating: 0, count: size)
            for i in stride(from: 0, to: size, by: 8) {
                let v = rng.next()
                for k in 0..<min(8, size - i) { frame[i + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(k))) }
            }
            if yuv4mpeg { sent += Array("FRAME\n".utf8) }
            sent += frame
            XCTAssertEqual(writer.write(frame), 0)
        }
        let splicing = writer.splicing
        close(fds[1])
        done.wait()
        close(fds[0])
        writer.releaseAll()
        return (sent, received.bytes, splicing)
    }

    func testFramesLargerThanThePipeArriveIntact() throws {
        let (sent, got, splicing) = try roundTrip(frames: 12, size: 300_000, pipeSize: 65_536)
        XCTAssertTrue(splicing, "vmsplice is available on Linux")
        XCTAssertEqual(got.count, sent.count)
        XCTAssertTrue(got == sent)
    }

    func testFramesSmallerThanThePipeArriveIntact() throws {
        let (sent, got, _) = try roundTrip(frames: 200, size: 12_345, pipeSize: 1 << 20)
        XCTAssertEqual(got.count, sent.count)
        XCTAssertTrue(got == sent)
    }

    func testAFileFallsBackToCopying() throws {
        let dir = try makeTempDirectory(self)
        let fd = open(dir + "/f", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(fd) }
        let writer = PipeFrameWriter(fd: fd)
        XCTAssertFalse(writer.splicing)
        XCTAssertEqual(writer.write([1, 2, 3]), 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/f")), Data([1, 2, 3]))
    }

    func testYUV4MPEGFramesArriveEachAfterItsMarker() throws {
        // Frames larger and smaller than the pipe: the marker and the frame go in one
        // vmsplice call, which the pipe may cut anywhere, inside the marker too.
        for (frames, size, pipeSize) in [(12, 300_000, Int32(65_536)), (300, 4_090, Int32(4_096))] {
            let (sent, got, splicing) = try roundTrip(frames: frames, size: size, pipeSize: pipeSize, yuv4mpeg: true)
            XCTAssertTrue(splicing)
            XCTAssertEqual(got.count, frames * (size + 6))
            XCTAssertTrue(got == sent, "\(frames) frames of \(size) bytes")
        }
    }

    func testYUV4MPEGFramesOnACopyingWriterToo() throws {
        let dir = try makeTempDirectory(self)
        let fd = open(dir + "/f", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(fd) }
        let writer = PipeFrameWriter(fd: fd, yuv4mpeg: true)
        XCTAssertFalse(writer.splicing)
        XCTAssertEqual(writer.write([1, 2, 3]), 0)
        XCTAssertEqual(writer.write([4]), 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/f")), Data(Array("FRAME\n".utf8) + [1, 2, 3] + Array("FRAME\n".utf8) + [4]))
    }
}
