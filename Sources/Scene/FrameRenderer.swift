import Synchronization
import Raster

/// Renders frames of a scene, reusing the pixels of layers that are not changing.
///
/// The scene is flattened into its draw list (groups that only pass their children
/// through are opened; others stay one entry). At time t each entry is either in its
/// first state (t before anything in it starts), its last (t after everything in it
/// ends), or changing. The background plus the longest run of unchanging entries at the
/// start of the list depends only on which of the two states each is in, so its pixels
/// are kept and reused by every frame with the same states: grids, axes, titles and
/// cards are drawn once; a line that has finished drawing joins them; the hold at the
/// end of a video is one picture. Compositing is done in the same order on the same
/// bytes either way, so cached and uncached frames are byte-identical (a test checks).
///
/// Safe to call from many threads: each call takes a worker from a pool. A worker keeps
/// its cached pictures and one `Canvas`, reset for every frame, so its rasterizer
/// buffers and offscreen layers are allocated once, not once a frame (with a fresh
/// canvas a frame cost ~470 page faults on 800×600; see Canvas.swift, Layers).
///
/// Frames themselves can be recycled: a caller done with a frame's pixels hands them back
/// with `recycle(_:)`, and the next frame is drawn into them (filled with the background,
/// or given a cached picture's pixels by a copy) instead of a fresh allocation. A frame
/// above glibc's mmap threshold (4 MiB, set by the CLI; 1080p is 8.3 MB) is a new
/// mapping each time, every page of it a zero-filled fault when first written: a third of
/// the CPU of a 1080p race went to the kernel. Recycling is only an optimisation: frames
/// are values, so a recycled storage that is still shared is copied, never overwritten.
/// A frame drawn on the background comes back knowing the boxes it drew into
/// (`Pixmap.damage`, kept across a sink that hands back bytes alone by `outstanding`), and
/// only those are filled with the background again: a 1,000-key race at 1080p draws into
/// about half of its frame, and filling the whole frame was a sixth of its time.
public final class FrameRenderer: @unchecked Sendable {
    /// The scene.
    public let scene: Scene
    let entries: [Node]
    /// When each draw-list entry can change, in drawing order.
    public let spans: [ChangeSpan]
    let pool = Mutex<[Worker]>([])
    /// The cached pictures, shared by every worker (a picture is immutable once made),
    /// most recently used last.
    let cache = Mutex<[(key: [UInt8], pixels: Pixmap)]>([])
    /// How many bytes of cached pictures are kept: as many pictures as fit in 32 MB (16
    /// at 800×600, 3 at 1080p; bigger ones, see `frame(at:)`). A video has few distinct
    /// prefixes. Shared rather than one cache per worker: at 4K two workers' caches
    /// held 66–130 MB of mostly identical pictures (scripts/bench --load, peak 150–215 MB
    /// against 150 MB allowed).
    static let cacheBytes = 32 << 20
    /// Frames handed back by `recycle(_:)`, waiting to be drawn over.
    let spares = Mutex<[Pixmap]>([])
    /// The frame handed back last, which becomes a spare at the next hand-back (see `recycle(_:)`).
    let handedBack = Mutex<Pixmap?>(nil)
    /// Frames drawn on the background and handed out, kept (sharing their storage) until
    /// they come back to `recycle(_:)`, oldest first: a sink that writes a frame's own bytes
    /// hands back the bytes alone (`FrameSink.reclaim`), without the boxes the frame drew
    /// into (`Pixmap.damage`), and a frame whose storage is one of these gets them back.
    /// Holding the storage is what makes its address a safe name: it cannot be freed and
    /// given to another array (a sink's converted copy) while it is kept here. Only once a
    /// frame has been handed back (a caller that never recycles keeps no frames alive here).
    let outstanding = Mutex<(recycling: Bool, frames: [Pixmap])>((false, []))
    /// How many frames are kept for their damage: the frames in flight of an export, no
    /// more than 64 MB of them.
    static let outstandingBytes = 64 << 20
    /// How many spare frames are kept: enough for the frames of a window in flight to
    /// come back before they are reused, no more than 64 MB of them (2 at 4K).
    public static let spareBytes = 64 << 20
    public static let maxSpares = 4

    final class Worker {
        /// Reused for every frame the worker draws, with its rasterizer buffers and
        /// spare layers warm.
        var canvas: Canvas?
    }

    /// Prepares to render `scene`.
    public init(scene: Scene) {
        self.scene = scene
        var list: [Node] = []
        func flatten(_ n: Node) {
            if case .group(let g) = n, g.isTransparent { for c in g.children { flatten(c) } } else { list.append(n) }
        }
        for n in scene.nodes { flatten(n) }
        entries = list
        spans = list.map(\.changeSpan)
    }

    /// The frame at time `t`.
    public func frame(at t: Double) -> Pixmap {
        var key: [UInt8] = []
        key.reserveCapacity(entries.count)
        for s in spans {
            guard let state = s.state(at: t) else { break }
            key.append(state.rawValue)
        }
        let k = key.count
        let worker = pool.withLock { $0.popLast() } ?? Worker()
        defer { pool.withLock { $0.append(worker) } }
        let bg = scene.background.premultiplied
        var blank: Pixmap {
            guard var p = takeSpare() else { return Pixmap(width: scene.width, height: scene.height, fill: bg) }
            // A frame this renderer drew on the background comes back knowing the boxes it
            // drew into (`Pixmap.damage`): only those are cleared. Anything else (written
            // to since, or converted by a sink) is filled whole.
            if !p.restoreBackground(bg) { p.fill(bg) }
            return p
        }
        let c = worker.canvas ?? Canvas(width: 1, height: 1)
        worker.canvas = c
        // A picture too big to keep several of (above 16 MB: beyond 1080p) is cached only
        // when it is the whole frame (a hold, shared by every frame of it without a
        // copy); a partial one would cost a cached copy plus a copy per frame in flight,
        // 33 MB each at 4K. Such a frame drops what the cache held, which the video has
        // moved past.
        let big = scene.width * scene.height * 4 > Self.cacheBytes / 2
        if k == 0 || (big && k < entries.count) {
            if big { cache.withLock { $0.removeAll() } }
            c.reset(to: blank, background: bg)
            for n in entries { n.render(at: t, on: c) }
            let frame = c.takePixmap()
            if frame.damage != nil && frame.isKnownOpaque {
                // Opaque: the frames a sink writes as their own bytes (translucent ones are
                // converted to a copy first, which comes back instead of this storage).
                let limit = max(2, min(16, Self.outstandingBytes / max(1, frame.data.count)))
                outstanding.withLock { o in
                    guard o.recycling else { return }
                    o.frames.append(frame)
                    if o.frames.count > limit { o.frames.removeFirst(o.frames.count - limit) }
                }
            }
            return frame
        }
        let cached: Pixmap? = cache.withLock { list in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            let hit = list[i]
            if i != list.count - 1 { list.remove(at: i); list.append(hit) }
            return hit.pixels
        }
        let base: Pixmap
        if let cached {
            base = cached
        } else {
            // Drawn outside the lock; two workers may draw the same picture at once and
            // both keep theirs for this frame, but the cache keeps one.
            c.reset(to: blank, background: bg)
            for n in entries[0..<k] { n.render(at: t, on: c) }
            base = c.takePixmap()
            let limit = big ? 1 : Self.cacheBytes / base.data.count
            cache.withLock { list in
                if list.contains(where: { $0.key == key }) { return }
                list.append((key, base))
                if list.count > limit { list.removeFirst(list.count - limit) }
            }
        }
        if k == entries.count {
            var held = base
            held.mayRepeat = true
            return held
        }
        // The cached pixels are copied once: into a recycled frame, or by drawing on the
        // canvas (copy on write).
        if var p = takeSpare() {
            p.copyPixels(from: base)
            c.reset(to: p)
        } else {
            c.reset(to: base)
        }
        for n in entries[k...] { n.render(at: t, on: c) }
        return c.takePixmap()
    }

    /// Hands back a frame's pixels once the caller is done with them, to be drawn over by a
    /// later frame. A frame of another size, a picture the renderer shares (`mayRepeat`, or
    /// one of its cached pictures) and frames beyond the few kept are dropped. The caller
    /// should hold no other copy of the storage; if it does, reusing it costs a copy but
    /// changes no pixels the caller sees.
    ///
    /// `unshared`: the caller promises that nothing else references the storage, now or
    /// later (it consumed its last copy on the way here, and no writer still reads the
    /// bytes), so the frame is a spare at once. Otherwise it becomes one at the next
    /// hand-back (`handedBack`): a caller that passed its frame on without `consume` still
    /// holds a reference until this call returns, and a pipe that took the frame's pages
    /// by reference (`PipeFrameWriter`) keeps them until the next frame is in it; a worker
    /// that took the storage meanwhile copied all 8 MB of it before clearing it (with fresh
    /// pages: 10-14 % of the 1,000-key race's frame time in copies and page faults). That
    /// wait parks a whole frame, 33 MB at 4K, which took a 4K export over its 150 MB
    /// (scripts/bench --load), so exports that can make the promise do.
    public func recycle(_ frame: consuming Pixmap, unshared: Bool = false) {
        guard frame.width == scene.width, frame.height == scene.height, !frame.mayRepeat else { return }
        let address = frame.storageAddress
        if cache.withLock({ $0.contains { $0.pixels.storageAddress == address } }) { return }
        // The boxes it drew into, if it went out with them and came back as bytes; the kept
        // copy is released here (at the end of the `if`), so the storage is the frame's alone
        // again.
        var kept = outstanding.withLock { o -> Pixmap? in
            o.recycling = true
            guard let i = o.frames.firstIndex(where: { $0.storageAddress == address }) else { return nil }
            return o.frames.remove(at: i)
        }
        if let k = kept.take() { frame.adoptDamage(from: k) }
        let limit = max(1, min(Self.maxSpares, Self.spareBytes / frame.data.count))
        // Moved, not copied: a worker may take it the moment it is a spare, and must find it
        // unshared.
        var moving: Pixmap? = consume frame
        var ready = unshared ? moving.take() : handedBack.withLock { held -> Pixmap? in
            let previous = held.take()
            held = moving.take()
            return previous
        }
        guard ready != nil else { return }
        spares.withLock { list in
            if list.count < limit { list.append(ready.take()!) }
        }
    }

    /// A recycled frame of the scene's size, if one is waiting.
    func takeSpare() -> Pixmap? { spares.withLock { $0.popLast() } }

    /// The frame with index `i` at `fps` frames per second (t = i / fps).
    public func frame(index i: Int, fps: Double) -> Pixmap { frame(at: Scene.time(ofFrame: i, fps: fps)) }
}
