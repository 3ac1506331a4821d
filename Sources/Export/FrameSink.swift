import Raster

/// Where rendered frames go: a PNG directory, an ffmpeg pipe, a raw stream.
///
/// A sink works in two stages so the costly part runs in parallel. `encoder()` returns a
/// pure function that the rendering threads apply to each frame as soon as it is drawn
/// (PNG compression, conversion to straight RGBA): concurrently and in any order. `write`
/// then receives the encoded frames 0, 1, 2, … strictly in index order, all on one thread.
///
/// The life of a sink is `begin`, `encoder()`, then `write` for every frame, then `finish`.
/// If anything fails, `abort` is called instead of (or after a failed) `finish`. Output
/// appears at its final path only when `finish` succeeds; `abort` removes whatever partial
/// output exists. `abort` must be safe to call at any point, including before `begin` and
/// more than once.
public protocol FrameSink: AnyObject {
    /// What a frame becomes on the rendering threads before `write` receives it.
    associatedtype Encoded = Pixmap

    /// Prepares for `frameCount` frames of `width` × `height` pixels shown at `fps` frames per second.
    func begin(width: Int, height: Int, fps: Double, frameCount: Int) throws
    /// The per-frame work done on the rendering threads; called once, after `begin`. The
    /// function must depend only on its arguments (the index is the sink's 0-based index),
    /// since it runs on several threads at once.
    func encoder() -> @Sendable (Pixmap, Int) throws -> Encoded
    /// Consumes frame `index`; frames arrive in order starting at 0.
    func write(_ frame: Encoded, index: Int) throws
    /// Completes the output and moves it into place.
    func finish() throws
    /// Stops, releasing resources and removing partial output. Never throws.
    func abort()
    /// Called from another thread when the export is cancelled (a signal): makes a
    /// `write` or `finish` that is blocked (on a child process) return soon, with an
    /// error. Optional; by default nothing happens.
    func interrupt()
    /// Whether what `encoder()` returns may share the rendered frame's pixel storage (raw
    /// RGBA handed to the output as it is). When false, the sequencer hands the frame
    /// back to the renderer for reuse as soon as it is encoded. By default true: nothing
    /// is reused.
    var encodingSharesPixels: Bool { get }
    /// Whether a frame that `reclaim` returns is referenced by nothing of the sink any
    /// more (its bytes written by copy, not left in a pipe by reference), so the renderer
    /// may draw into it at once (`FrameRenderer.recycle(_:unshared:)`). By default false.
    var reclaimsUnshared: Bool { get }
    /// Pixels to reuse once `write` has consumed `encoded`: a frame-sized buffer (the
    /// frame's own storage, or a converted copy of it), or nil. By default nil.
    func reclaim(_ encoded: consuming Encoded) -> Pixmap?
}

extension FrameSink {
    /// Nothing to unblock.
    public func interrupt() {}
    /// Unknown: assume the encoding keeps the pixels.
    public var encodingSharesPixels: Bool { true }
    /// Unknown: assume the sink may still read a reclaimed frame's bytes.
    public var reclaimsUnshared: Bool { false }
    /// Nothing to reuse.
    public func reclaim(_ encoded: consuming Encoded) -> Pixmap? { nil }
}

extension FrameSink where Encoded == Pixmap {
    /// Frames reach `write` as rendered.
    public func encoder() -> @Sendable (Pixmap, Int) throws -> Pixmap { { frame, _ in frame } }
}
