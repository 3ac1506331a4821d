import Foundation
import XCTest
import TestSupport
import Raster
@testable import Export

final class FrameSequencerTests: XCTestCase {
    /// A render whose duration varies by frame (0–3 ms, seeded), so frames finish out of order.
    private func jitteryRender(seed: UInt64, counter: AliveCounter? = nil) -> @Sendable (Int) throws -> Pixmap {
        return { i in
            counter?.renderStarted()
            defer { counter?.renderEnded() }
            var rng = SplitMix64(state: seed ^ UInt64(i) &* 0x2545_F491_4F6C_DD1D)
            usleep(UInt32.random(in: 0...3000, using: &rng))
            return solidFrame(i)
        }
    }

    func testDeliversInOrderWithOneTwoAndFourThreads() throws {
        var results: [[Pixmap]] = []
        for threads in [1, 2, 4] {
            let sink = RecordingSink()
            var progress: [Int] = []
            try FrameSequencer(threads: threads).run(frameCount: 40, render: jitteryRender(seed: 1), sink: sink,
                                                     progress: { done, total in
                XCTAssertEqual(total, 40)
                progress.append(done)
            })
            XCTAssertEqual(sink.indices, Array(0..<40), "threads: \(threads)")
            XCTAssertEqual(progress, Array(1...40))
            XCTAssertEqual(sink.finished, 1); XCTAssertEqual(sink.aborted, 0)
            XCTAssertTrue(sink.sameThread, "the sink is called on one thread")
            for (i, f) in sink.frames.enumerated() { XCTAssertEqual(f.pixel(0, 0), frameColor(i)) }
            results.append(sink.frames)
        }
        XCTAssertEqual(results[0], results[1]); XCTAssertEqual(results[0], results[2])
    }

    func testAtMostMaxInFlightFramesAreAlive() throws {
        for (threads, window) in [(4, 3), (4, 1), (2, 4), (3, 6)] {
            let counter = AliveCounter()
            let sink = RecordingSink()
            var rng = SplitMix64(state: 99)
            sink.onWrite = { _ in
                // A sink that is sometimes slower than rendering, so workers run ahead.
                usleep(UInt32.random(in: 0...2000, using: &rng))
                counter.delivered()
            }
            try FrameSequencer(threads: threads, maxInFlight: window)
                .run(frameCount: 60, render: jitteryRender(seed: 5, counter: counter), sink: sink)
            XCTAssertEqual(sink.indices, Array(0..<60))
            XCTAssertLessThanOrEqual(counter.maxAlive, window, "threads \(threads), maxInFlight \(window)")
            if window > 1 { XCTAssertGreaterThan(counter.maxAlive, 1, "frames should render in parallel") }
            XCTAssertEqual(counter.alive, 0)
        }
    }

    func testDefaultWindowIsTwiceTheThreads() {
        let s = FrameSequencer(threads: 3)
        XCTAssertEqual(s.maxInFlight, 6)
        XCTAssertEqual(FrameSequencer(threads: 0, maxInFlight: 0).threads, 1)
        XCTAssertEqual(FrameSequencer(threads: 0, maxInFlight: 0).maxInFlight, 1)
    }

    /// Found by the 4K load test: big frames wait in a window bounded by bytes.
    func testWindowForBigFramesIsBoundedByBytes() {
        let fourK = 3840 * 2160 * 4, hd = 1920 * 1080 * 4
        XCTAssertEqual(FrameSequencer(threads: 2, frameBytes: fourK).maxInFlight, 2)
        XCTAssertEqual(FrameSequencer(threads: 2, frameBytes: hd).maxInFlight, 4)
        XCTAssertEqual(FrameSequencer(threads: 8, frameBytes: 800 * 600 * 4).maxInFlight, 16)
        XCTAssertEqual(FrameSequencer(threads: 8, frameBytes: 8192 * 8192 * 4).maxInFlight, 8)
        XCTAssertEqual(FrameSequencer(threads: 2, maxInFlight: 7, frameBytes: fourK).maxInFlight, 7)
    }

    func testRenderErrorAbortsTheSinkAndRethrows() throws {
        for threads in [1, 4] {
            let counter = AliveCounter()
            let sink = RecordingSink()
            let base = jitteryRender(seed: 3, counter: counter)
            let render: @Sendable (Int) throws -> Pixmap = { i in
                if i == 7 { throw TestError(index: 7) }
                return try base(i)
            }
            XCTAssertThrowsError(try FrameSequencer(threads: threads).run(frameCount: 500, render: render, sink: sink)) {
                XCTAssertEqual($0 as? TestError, TestError(index: 7))
            }
            XCTAssertEqual(sink.aborted, 1); XCTAssertEqual(sink.finished, 0)
            XCTAssertEqual(sink.indices, Array(0..<sink.indices.count))
            XCTAssertLessThanOrEqual(sink.indices.count, 7)
            // Stopped promptly: nothing still rendering, nothing started afterwards,
            // and far fewer than 500 frames attempted.
            let after = counter.snapshot
            XCTAssertEqual(after.running, 0)
            usleep(20_000)
            XCTAssertEqual(counter.snapshot.started, after.started)
            XCTAssertLessThan(after.started, 7 + 2 * threads + 1)
        }
    }

    func testSinkErrorAbortsAndRethrows() throws {
        for threads in [1, 2, 4] {
            let counter = AliveCounter()
            let sink = RecordingSink()
            sink.failAt = 3
            XCTAssertThrowsError(try FrameSequencer(threads: threads)
                .run(frameCount: 200, render: jitteryRender(seed: 4, counter: counter), sink: sink)) {
                XCTAssertEqual($0 as? TestError, TestError(index: 3))
            }
            XCTAssertEqual(sink.indices, [0, 1, 2])
            XCTAssertEqual(sink.aborted, 1); XCTAssertEqual(sink.finished, 0)
            XCTAssertEqual(counter.snapshot.running, 0)
            XCTAssertLessThan(counter.snapshot.started, 20)
        }
    }

    func testFinishErrorAborts() throws {
        final class FailingFinish: FrameSink {
            var aborted = false
            func begin(width: Int, height: Int, fps: Double, frameCount: Int) throws {}
            func write(_ frame: Pixmap, index: Int) throws {}
            func finish() throws { throw TestError(index: -1) }
            func abort() { aborted = true }
        }
        let sink = FailingFinish()
        XCTAssertThrowsError(try FrameSequencer(threads: 2).run(frameCount: 5, render: { solidFrame($0) }, sink: sink))
        XCTAssertTrue(sink.aborted)
    }

    /// With a recycler, a sink whose encoding is a copy hands every frame back after
    /// encoding, unshared; a raw RGBA sink hands back the bytes it wrote, after writing
    /// them by copy, so unshared too; a sink that does not say so hands them back shared.
    func testFramesAreHandedBackForReuse() throws {
        final class Recycled: @unchecked Sendable {
            let lock = NSLock()
            var sizes: [Int] = []
            var unshared: [Bool] = []
            func add(_ p: Pixmap, _ u: Bool) { lock.lock(); sizes.append(p.data.count); unshared.append(u); lock.unlock() }
        }
        final class CopyingSink: FrameSink {
            var written = 0
            func begin(width: Int, height: Int, fps: Double, frameCount: Int) throws {}
            func encoder() -> @Sendable (Pixmap, Int) throws -> Int { { frame, _ in Int(frame.pixel(0, 0).r) } }
            var encodingSharesPixels: Bool { false }
            func write(_ frame: Int, index: Int) throws { written += 1 }
            func finish() throws {}
            func abort() {}
        }
        for threads in [1, 2] {
            let got = Recycled()
            let sink = CopyingSink()
            try FrameSequencer(threads: threads).run(frameCount: 12, render: { solidFrame($0) }, sink: sink,
                                                     recycle: { got.add($0, $1) })
            XCTAssertEqual(sink.written, 12)
            XCTAssertEqual(got.sizes.count, 12, "threads \(threads): every frame comes back once")
            XCTAssertEqual(got.unshared, Array(repeating: true, count: 12), "encoded to a copy: unshared")
            // Without a recycler nothing is asked of the sink.
            try FrameSequencer(threads: threads).run(frameCount: 3, render: { solidFrame($0) }, sink: CopyingSink())
        }
        let dir = try makeTempDirectory(self)
        let fd = open(dir + "/raw", O_WRONLY | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let raw = RawRGBASink(fileDescriptor: fd, closesDescriptor: true)
        XCTAssertTrue(raw.encodingSharesPixels, "raw RGBA writes the frame's own bytes")
        try raw.begin(width: 8, height: 6, fps: 30, frameCount: 5)
        let got = Recycled()
        try FrameSequencer(threads: 2).run(frameCount: 5, render: { solidFrame($0) }, sink: raw, recycle: { got.add($0, $1) })
        XCTAssertEqual(got.sizes, Array(repeating: 8 * 6 * 4, count: 5))
        XCTAssertEqual(got.unshared, Array(repeating: true, count: 5), "written by copy: unshared")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/raw")).count, 5 * 8 * 6 * 4)
        // A sink that shares its encoding and says nothing of what it reclaims: shared.
        final class SharingSink: FrameSink {
            func begin(width: Int, height: Int, fps: Double, frameCount: Int) throws {}
            func encoder() -> @Sendable (Pixmap, Int) throws -> [UInt8] { { frame, _ in frame.data } }
            func write(_ frame: [UInt8], index: Int) throws {}
            func reclaim(_ encoded: consuming [UInt8]) -> Pixmap? { Pixmap(width: 8, height: 6, premultipliedData: encoded) }
            func finish() throws {}
            func abort() {}
        }
        let shared = Recycled()
        try FrameSequencer(threads: 1).run(frameCount: 3, render: { solidFrame($0) }, sink: SharingSink(), recycle: { shared.add($0, $1) })
        XCTAssertEqual(shared.unshared, [false, false, false])
    }

    func testEncoderRunsOnTheRenderingThreads() throws {
        final class EncodingSink: FrameSink, @unchecked Sendable {
            let lock = NSLock()
            var encodeThreads: Set<ObjectIdentifier> = []
            var writeThread: ObjectIdentifier?
            var received: [Int] = []
            func begin(width: Int, height: Int, fps: Double, frameCount: Int) throws {}
            func encoder() -> @Sendable (Pixmap, Int) throws -> Int {
                return { [self] frame, index in
                    lock.lock(); encodeThreads.insert(ObjectIdentifier(Thread.current)); lock.unlock()
                    return Int(frame.pixel(0, 0).r) * 1000 + index
                }
            }
            func write(_ frame: Int, index: Int) throws {
                writeThread = ObjectIdentifier(Thread.current)
                received.append(frame)
            }
            func finish() throws {}
            func abort() {}
        }
        let sink = EncodingSink()
        try FrameSequencer(threads: 3).run(frameCount: 30, render: jitteryRender(seed: 8), sink: sink)
        XCTAssertEqual(sink.received, (0..<30).map { Int(frameColor($0).r) * 1000 + $0 })
        XCTAssertFalse(sink.encodeThreads.contains(sink.writeThread!), "encoding is not on the delivering thread")
        XCTAssertGreaterThan(sink.encodeThreads.count, 1)
    }

    func testZeroFramesJustFinishes() throws {
        let sink = RecordingSink()
        try FrameSequencer(threads: 4).run(frameCount: 0, render: { solidFrame($0) }, sink: sink)
        XCTAssertEqual(sink.indices, []); XCTAssertEqual(sink.finished, 1)
    }
}
