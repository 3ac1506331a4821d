import Synchronization
import Raster

/// Remembers what the last few frames encoded to, keyed by the frames' pixel storage, so
/// a frame that is the very same pixels as one just encoded is not encoded again.
///
/// `Scene.FrameRenderer` hands out its cached picture itself for every frame in which
/// nothing changes (the hold at the end of a video, pauses between animations): those
/// frames share one pixel buffer. Storage identity is a safe key because the memo keeps
/// the pixmap alive: while it holds a reference no other buffer can take that address,
/// and a shared buffer cannot change (arrays copy on write). Frames drawn separately are
/// never matched, even when their pixels happen to be equal, so a hit costs one pointer
/// comparison and a miss nothing more.
///
/// Holding a frame costs its pixels when the renderer has dropped them, so only frames up
/// to `maxFrameBytes` (1080p) are remembered, at most two: no more than 16.6 MB. Used by
/// the PNG directory, whose encoding is slow and small, and by the yuv420p video sinks
/// (MP4, WebM), whose held frames are then converted once; RGBA video sinks hand ffmpeg
/// the pixmap's own bytes, where there is nothing to save.
///
/// Measured on the curved-line reveal (126 frames, the last 30 a hold): a PNG frame
/// directory skips 30 zlib compressions of ~4.5 ms each.
final class FrameMemo<Encoded: Sendable>: Sendable {
    struct Entry: @unchecked Sendable {
        var pixmap: Pixmap
        var address: UnsafeRawPointer
        var encoded: Encoded
    }
    /// Entries, most recent last. Two: each rendering thread keeps its own cached picture.
    private let entries = Mutex<[Entry]>([])
    let capacity: Int
    let maxFrameBytes: Int

    init(capacity: Int = 2, maxFrameBytes: Int = 1920 * 1080 * 4) {
        self.capacity = capacity
        self.maxFrameBytes = maxFrameBytes
    }

    /// `frame`'s encoding: remembered if `frame` shares its storage with a frame encoded
    /// before, otherwise `encode(frame)`, remembered for the next frames.
    func encoded(_ frame: Pixmap, _ encode: (Pixmap) throws -> Encoded) rethrows -> Encoded {
        // Only a picture handed out for several frames can come again; remembering any
        // other would keep its pixels from being recycled (FrameRenderer.recycle).
        guard frame.mayRepeat else { return try encode(frame) }
        let address = frame.storageAddress
        if let hit = entries.withLock({ es in es.last(where: { $0.address == address && $0.pixmap.data.count == frame.data.count })?.encoded }) {
            return hit
        }
        let e = try encode(frame)
        if frame.data.count > maxFrameBytes { return e }
        entries.withLock { es in
            es.append(Entry(pixmap: frame, address: address, encoded: e))
            if es.count > capacity { es.removeFirst() }
        }
        return e
    }
}
