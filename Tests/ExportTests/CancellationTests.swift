import Foundation
import XCTest
import Raster
@testable import Export

final class CancellationTests: XCTestCase {
    func testCancellingMidRunAbortsTheSinkAndThrowsTheCancellation() throws {
        for threads in [1, 3] {
            let token = CancellationToken()
            let sink = RecordingSink()
            sink.onWrite = { i in if i == 4 { token.cancel(ExportError.interrupted(signal: SIGINT)) } }
            XCTAssertThrowsError(try FrameSequencer(threads: threads)
                .run(frameCount: 1000, render: { solidFrame($0) }, sink: sink, cancellation: token)) {
                XCTAssertEqual($0 as? ExportError, .interrupted(signal: SIGINT))
            }
            XCTAssertEqual(sink.aborted, 1); XCTAssertEqual(sink.finished, 0)
            XCTAssertLessThanOrEqual(sink.indices.count, 5 + 1, "stops at the next frame, threads \(threads)")
        }
    }

    func testCancellationFromAnotherThreadWakesAWaitingSequencer() throws {
        let token = CancellationToken()
        let sink = RecordingSink()
        // Renders that never finish quickly: the delivering thread is waiting for frame 1.
        let render: @Sendable (Int) throws -> Pixmap = { i in
            if i >= 1 { usleep(200_000) }
            return solidFrame(i)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { token.cancel(ExportError.interrupted(signal: SIGTERM)) }
        let start = Date()
        XCTAssertThrowsError(try FrameSequencer(threads: 2).run(frameCount: 100, render: render, sink: sink, cancellation: token)) {
            XCTAssertEqual($0 as? ExportError, .interrupted(signal: SIGTERM))
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.0, "did not render on to the end")
        XCTAssertEqual(sink.aborted, 1)
    }

    func testCancelledBeforeTheRunStartsNothing() throws {
        let token = CancellationToken()
        token.cancel(ExportError.interrupted(signal: SIGINT))
        token.cancel(ExportError.io("later"))   // only the first counts
        let sink = RecordingSink()
        XCTAssertThrowsError(try FrameSequencer(threads: 1).run(frameCount: 10, render: { solidFrame($0) },
                                                                 sink: sink, cancellation: token)) {
            XCTAssertEqual($0 as? ExportError, .interrupted(signal: SIGINT))
        }
        XCTAssertEqual(sink.indices, [])
    }

    func testHandlersRunOnceAndCanBeRemoved() {
        let token = CancellationToken()
        let calls = AliveCounter()
        token.onCancel { _ in calls.renderStarted() }
        let removed = token.onCancel { _ in calls.renderStarted() }
        token.removeHandler(removed)
        token.cancel(ExportError.interrupted(signal: SIGINT))
        token.cancel(ExportError.interrupted(signal: SIGINT))
        token.onCancel { _ in calls.renderStarted() }   // already cancelled: runs at once
        XCTAssertEqual(calls.snapshot.started, 2)
    }

    func testCancelledVideoExportLeavesNoFiles() throws {
        let dir = try makeTempDirectory(self)
        let token = CancellationToken()
        let sink = FFmpegSink(outputPath: dir + "/out.mp4", format: .mp4)
        try sink.begin(width: 64, height: 48, fps: 30, frameCount: 300)
        let render: @Sendable (Int) throws -> Pixmap = { i in
            if i == 20 { token.cancel(ExportError.interrupted(signal: SIGINT)) }
            return solidFrame(i, width: 64, height: 48)
        }
        XCTAssertThrowsError(try FrameSequencer(threads: 2).run(frameCount: 300, render: render, sink: sink, cancellation: token))
        XCTAssertEqual(listing(dir), [])
    }
}
