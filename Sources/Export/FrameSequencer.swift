// The frame sequencer: parallel rendering and encoding, in-order delivery, bounded memory.
//
// Frames are independent (DESIGN.md, Performance model), so `threads` workers each
// claim the next unclaimed index from a shared counter, render it and run the sink's
// encoder on it (PNG compression, straight-RGBA conversion), so that work is spread
// over every core too. The calling thread delivers encoded frames to the sink in index
// order. A worker may claim index i only while i < delivered + maxInFlight, where
// `delivered` counts frames whose `sink.write` has returned; so from the start of its
// render to the end of its write at most maxInFlight frames exist, whatever the video
// length. The frame the sink waits for is always inside that window, so the window
// cannot deadlock.
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

    /// How many bytes of frames the default window holds when it knows the frame size,
    /// if that leaves at least one frame per thread. A 4K frame is 33 MB: twice the
    /// threads in flight held 217–245 MB on two threads, one per thread 156 MB (scripts/
    /// bench --load); frames up to 1080p still get the full window of twice the threads.
    public static let windowBytes = 64 << 20

    /// Creates a sequencer with `threads` rendering threads (one per core by default) and at
    /// most `maxInFlight` frames in memory. By default that is twice the thread count or,
    /// given the size of a frame in `frameBytes`, as many as fit in `windowBytes` within
    /// one to two per thread. Values below 1 are raised to 1.
    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount, maxInFlight: Int? = nil,
                frameBytes: Int? = nil) {
        let t = max(1, threads)
        self.threads = t
        let fitting = frameBytes.map { max(t, min(2 * t, Self.windowBytes / max(1, $0))) }
        self.maxInFlight = max(1, maxInFlight ?? fitting ?? 2 * t)
    }

    /// Renders frames `0..<frameCount` with `render`, encodes them with the sink's encoder
    /// and hands them to `sink` in index order.
    ///
    /// The caller has already called `sink.begin`. `run` calls `sink.write` for every frame
    /// on the calling thread, then `sink.finish()`. If `render`, the encoder, `write` or
    /// `finish` throws, or `cancellation` is cancelled, no further frames are started, the
    /// workers already rendering finish their current frame and stop, `sink.abort()` is
    /// called and the first error (the cancellation's error, if it was cancelled) is
    /// rethrown. When `run` returns or throws, no `render` call is still running.
    ///
    /// `progress`, if given, is called on the calling thread after each frame is written
    /// with (frames written, frameCount).
    ///
    /// `recycle`, if given, receives frames' pixels once nothing of the export uses them
    /// any more (after encoding, or after `write` for sinks that write the frame's own
    /// bytes; see `FrameSink.encodingSharesPixels`), for the renderer to draw over, with
    /// whether they are unshared: consumed on the way and read by nothing any more (a
    /// frame encoded to a copy, or reclaimed from a sink that wrote it by copy,
    /// `FrameSink.reclaimsUnshared`); see `FrameRenderer.recycle(_:unshared:)`.
    public func run<Sink: FrameSink>(frameCount: Int, render: @escaping @Sendable (Int) throws -> Pixmap,
                                     sink: Sink, cancellation: CancellationToken? = nil,
                                     progress: ((Int, Int) -> Void)? = nil,
                                     recycle: (@Sendable (consuming Pixmap, _ unshared: Bool) -> Void)? = nil) throws {
        // A sink blocked on ffmpeg (a full pipe, a flush that never ends) hears of the
        // cancellation at once, not when its write returns.
        let box = UncheckedSink(sink)
        let interruptKey = cancellation?.onCancel { _ in box.sink.interrupt() }
        defer { if let interruptKey { cancellation?.removeHandler(interruptKey) } }
        do {
            let encode = sink.encoder()
            let recycleEncoded = recycle != nil && !sink.encodingSharesPixels
            // Rendering and encoding one frame, on a rendering thread. The frame is this
            // function's own until it is handed back, so the renderer gets its storage
            // unshared (a shared one would be copied when drawn over).
            let produce: @Sendable (Int) throws -> Sink.Encoded = { i in
                let frame = try render(i)
                let e = try encode(frame, i)
                if recycleEncoded, let recycle { recycle(consume frame, true) }
                return e
            }
            if threads == 1 || frameCount <= 1 {
                for i in 0..<max(0, frameCount) {
                    if let e = cancellation?.error { throw e }
                    let frame = try produce(i)
                    try sink.write(frame, index: i)
                    if let recycle, let p = sink.reclaim(consume frame) { recycle(consume p, sink.reclaimsUnshared) }
                    progress?(i + 1, frameCount)
                }
            } else {
                try runParallel(frameCount: frameCount, produce: produce, sink: sink,
                                cancellation: cancellation, progress: progress, recycle: recycle)
            }
            if let e = cancellation?.error { throw e }
            try sink.finish()
        } catch {
            sink.abort()
            // A cancelled export often fails in the sink first (ffmpeg was stopped);
            // report the cancellation, which is the cause.
            throw cancellation?.error ?? error
        }
    }

    private func runParallel<Sink: FrameSink>(frameCount: Int, produce: @escaping @Sendable (Int) throws -> Sink.Encoded,
                                              sink: Sink, cancellation: CancellationToken?,
                                              progress: ((Int, Int) -> Void)?,
                                              recycle: (@Sendable (consuming Pixmap, Bool) -> Void)?) throws {
        let state = SequencerState<Sink.Encoded>(frameCount: frameCount, window: maxInFlight)
        let workerCount = min(threads, frameCount)
        state.runningWorkers = workerCount
        let key = cancellation?.onCancel { state.fail($0) }
        defer { if let key { cancellation?.removeHandler(key) } }
        for _ in 0..<workerCount {
            let t = Thread { state.workerLoop(produce: produce) }
            t.name = "chartreel.render"
            t.start()
        }
        // Whatever happens below, stop the workers and wait for them before returning.
        defer { state.stopAndJoin() }

        for i in 0..<frameCount {
            let frame = try state.waitForFrame(i)
            do {
                try sink.write(frame, index: i)
                if let recycle, let p = sink.reclaim(consume frame) { recycle(consume p, sink.reclaimsUnshared) }
            } catch {
                state.fail(error)
                throw error
            }
            state.delivered(i)
            progress?(i + 1, frameCount)
        }
    }
}

/// A sink handed to the cancellation handler, which runs on the cancelling thread;
/// `interrupt` is the one call made there, and sinks make it thread-safe.
private final class UncheckedSink<S: FrameSink>: @unchecked Sendable {
    let sink: S
    init(_ sink: S) { self.sink = sink }
}

/// The state shared by the workers and the delivering thread, all guarded by `cond`.
final class SequencerState<Frame>: @unchecked Sendable {
    let cond = NSCondition()
    let frameCount: Int
    let window: Int
    var nextToClaim = 0
    var deliveredCount = 0
    var ready: [Int: Frame] = [:]
    var error: Error?
    var stopped = false
    var runningWorkers = 0

    init(frameCount: Int, window: Int) {
        self.frameCount = frameCount
        self.window = window
    }

    func workerLoop(produce: (Int) throws -> Frame) {
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
                let frame = try produce(i)
                cond.lock()
                ready[i] = frame
                cond.broadcast()
                cond.unlock()
            } catch {
                fail(error)
            }
        }
    }

    /// Blocks until frame `i` is ready (returning it) or something failed (throwing).
    func waitForFrame(_ i: Int) throws -> Frame {
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
