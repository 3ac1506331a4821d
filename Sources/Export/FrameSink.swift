import Raster

/// Where rendered frames go: a PNG directory, an ffmpeg pipe, a raw stream.
///
/// The life of a sink is `begin`, then `write` for frames 0, 1, 2, … strictly in index
/// order, all on one thread, then `finish`. If anything fails, `abort` is called instead
/// of (or after a failed) `finish`. Output appears at its final path only when `finish`
/// succeeds; `abort` removes whatever partial output exists. `abort` must be safe to call
/// at any point, including before `begin` and more than once.
public protocol FrameSink: AnyObject {
    /// Prepares for `frameCount` frames of `width` × `height` pixels shown at `fps` frames per second.
    func begin(width: Int, height: Int, fps: Double, frameCount: Int) throws
    /// Consumes frame `index`; frames arrive in order starting at 0, each sized as in `begin`.
    func write(_ frame: Pixmap, index: Int) throws
    /// Completes the output and moves it into place.
    func finish() throws
    /// Stops, releasing resources and removing partial output. Never throws.
    func abort()
}
