// The frame sequencer: parallel rendering, in-order delivery, bounded memory.
//
// Frames are independent (DESIGN.md, Performance model), so `threads` workers each
// claim the next unclaimed index from a shared counter and render it. The calling
// thread delivers finished frames to the sink in index order. A worker may claim
// index i only while i < delivered + maxInFlight, where `delivered` counts frames
// whose `sink.write` has returned; so from the start of its render to the end of its
// write at most maxInFlight frames exist, whatever the video length. The frame the
// sink waits for is always inside that window, so the window cannot deadlock.
//
// One lock and one condition variable cover the whole state: contention is a few
// lock operations per frame, negligible next to rendering or encoding a frame.
//
// The sequencer only orders: which thread renders a frame never changes its pixels,
// so output is byte-identical for any thread count (DESIGN.md, Determinism).
import Foundation
import Raster

/// Renders frames in parallel and delivers them to a `FrameSink` in order, keeping a
/// bounded number of frames in memory.
public struct FrameSequencer {
    /// The number of rendering threads (at least 1).
    public let threads: Int
    /// The most frames alive at once: being rendered, or rendered and waiting for the sink.
    public let maxInFlight: Int

    /// Creates a sequencer with `threads` rendering threads (one per core by default) and at
    /// most `maxInFlight` frames in memory (twice the thread count by default). Values below
    /// 1 are raised to 1.
    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount, maxInFlight: Int? = nil) {
        self.threads = max(1, threads)
        self.maxInFlight = max(1, maxInFlight ?? 2 * self.threads)
    }

    /// Renders frames `0..<frameCount` with `render` and hands them to `sink` in index order.
    ///
    /// The caller has already called `sink.begin`. `run` calls `sink.write` for every frame
    /// on the calling thread, then `sink.finish()`. If `render`, `write` or `finish` throws,
    /// no further frames are started, the workers already rendering finish their current
    /// frame and stop, `sink.abort()` is called and the first error is rethrown. When `run`
    /// returns or throws, no `render` call is still running.
    ///
    /// `progress`, if given, is called on the calling thread after each frame is written
    /// with (frames written, frameCount).
    public func run(frameCount: Int, render: @escaping @Sendable (Int) throws -> Pixmap,
                    sink: FrameSink, progress: ((Int, Int) -> Void)? = nil) throws {
        do {
            if threads == 1 || frameCount <= 1 {
                for i in 0..<max(0, frameCount) {
                    try sink.write(try render(i), index: i)
                    progress?(i + 1, frameCount)
                }
            } else {
                try runParallel(frameCount: frameCount, render: render, sink: sink, progress: progress)
            }
            try sink.finish()
        } catch {
            sink.abort()
            throw error
        }
    }

    private func runParallel(frameCount: Int, render: @escaping @Sendable (Int) throws -> Pixmap,
                             sink: FrameSink, progress: ((Int, Int) -> Void)?) throws {
        let state = SequencerState(frameCount: frameCount, window: maxInFlight)
        let workerCount = min(threads, frameCount)
        state.runningWorkers = workerCount
        for _ in 0..<workerCount {
            let t = Thread { state.workerLoop(render: render) }
            t.name = "chartreel.render"
            t.start()
        }
        // Whatever happens below, stop the workers and wait for them before returning.
        defer { state.stopAndJoin() }

        for i in 0..<frameCount {
            let frame = try state.waitForFrame(i)
            do {
                try sink.write(frame, index: i)
            } catch {
                state.fail(error)
                throw error
            }
            state.delivered(i)
            progress?(i + 1, frameCount)
        }
    }
}

/// The state shared by the workers and the delivering thread, all guarded by `cond`.
private final class SequencerState: @unchecked Sendable {
    let cond = NSCondition()
    let frameCount: Int
    let window: Int
    /// The next index no worker has claimed yet.
    var nextToClaim = 0
    /// Frames whose `sink.write` has returned.
    var deliveredCount = 0
    /// Rendered frames waiting for delivery, by index (at most `window` of them).
    var ready: [Int: Pixmap] = [:]
    /// The first error, from a render or the sink; once set everyone stops.
    var error: Error?
    /// Set when the deliverer is done (normally or not), so idle workers exit.
    var stopped = false
    var runningWorkers = 0

    init(frameCount: Int, window: Int) {
        self.frameCount = frameCount
        self.window = window
    }

    func workerLoop(render: (Int) throws -> Pixmap) {
        while true {
            cond.lock()
            while !stopped && error == nil && nextToClaim < frameCount
                    && nextToClaim >= deliveredCount + window {
                cond.wait()
            }
            if stopped || error != nil || nextToClaim >= frameCount {
                runningWorkers -= 1
                cond.broadcast()
                cond.unlock()
                return
            }
            let i = nextToClaim
            nextToClaim += 1
            cond.unlock()

            do {
                let frame = try render(i)
                cond.lock()
                ready[i] = frame
                cond.broadcast()
                cond.unlock()
            } catch {
                fail(error)
            }
        }
    }

    /// Blocks until frame `i` is rendered (returning it) or something failed (throwing).
    func waitForFrame(_ i: Int) throws -> Pixmap {
        cond.lock()
        defer { cond.unlock() }
        while ready[i] == nil && error == nil { cond.wait() }
        if let error { throw error }
        return ready.removeValue(forKey: i)!
    }

    /// Records that frame `i` has left the sink, opening the window by one.
    func delivered(_ i: Int) {
        cond.lock()
        deliveredCount = i + 1
        cond.broadcast()
        cond.unlock()
    }

    /// Records the first error and wakes everyone.
    func fail(_ e: Error) {
        cond.lock()
        if error == nil { error = e }
        cond.broadcast()
        cond.unlock()
    }

    /// Tells the workers to stop and waits until each has returned.
    func stopAndJoin() {
        cond.lock()
        stopped = true
        cond.broadcast()
        while runningWorkers > 0 { cond.wait() }
        ready.removeAll()
        cond.unlock()
    }
}
