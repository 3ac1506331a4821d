import CRasterKernels

/// A rectangle of premultiplied RGBA8 pixels, row-major, top row first, 4 bytes per pixel
/// in the order R, G, B, A (DESIGN.md, Pixels).
public struct Pixmap: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixel bytes, `width * height * 4` of them.
    public var data: [UInt8] {
        didSet { isKnownOpaque = false; mayRepeat = false; damage = nil }
    }
    /// Set when every pixel is known to be opaque without looking: a pixmap filled with
    /// an opaque colour, or a canvas's drawing on one (compositing onto an opaque pixel
    /// leaves it opaque in every blend mode: αs + 255 − αs·255/255 = 255, exactly in
    /// the integer arithmetic used). Any write through `data` clears it. It spares
    /// `isOpaque` a pass over the frame, 4–7 % of the curved-line video's CPU time.
    /// Not part of equality.
    public internal(set) var isKnownOpaque = false
    /// Set by a renderer on a picture it hands out for more than one frame (a cached
    /// hold, shared by every frame of it without a copy), so an encoder may remember what
    /// the picture encoded to, keyed by its storage (`Export.FrameMemo`), and a frame
    /// recycler knows the storage is not the caller's alone. Any write through `data`
    /// clears it. Not part of equality.
    public var mayRepeat = false
    /// Set by a canvas on the pixels it hands over (`Canvas.takePixmap()`) when it drew
    /// them on a pixmap of one colour (`Canvas.reset(to:background:)`): that colour and the
    /// boxes its drawing touched; every pixel outside them is that colour. A frame drawn
    /// again into this storage then needs only those boxes filled (`restoreBackground(_:)`),
    /// not the whole frame: a 1080p race's bars, labels and grid touch about half of it,
    /// and the 8 MB clear was a sixth of its frame. Any write through `data` clears it.
    /// Not part of equality.
    public internal(set) var damage: Damage? = nil

    /// The colour a pixmap was drawn on and the boxes drawn into (see `damage`).
    public struct Damage: Sendable {
        /// The colour every pixel outside `boxes` has, packed (`PremultipliedRGBA8.packed`).
        public let background: UInt32
        /// Boxes as x0, y0, x1, y1 (the ends excluded), four values each, in pixels.
        public let boxes: [Int32]
    }

    /// Creates a pixmap filled with one pixel value (transparent by default).
    /// Sizes below 1 are raised to 1 so a pixmap always has memory to point at.
    public init(width: Int, height: Int, fill: PremultipliedRGBA8 = .transparent) {
        self.width = max(1, width); self.height = max(1, height)
        let count = self.width * self.height
        defer { isKnownOpaque = fill.a == 255 }
        if fill == .transparent && count * 4 < Pixmap.hugePageBytes {
            data = [UInt8](repeating: 0, count: count * 4)
        } else {
            data = [UInt8](unsafeUninitializedCapacity: count * 4) { buf, n in
                Pixmap.adviseHugePages(buf.baseAddress!, count * 4)
                if fill.r == fill.g && fill.g == fill.b && fill.b == fill.a {
                    buf.baseAddress!.initialize(repeating: fill.r, count: count * 4)   // memset, see fill(_:)
                } else {
                    buf.baseAddress!.withMemoryRebound(to: UInt32.self, capacity: count) { p in
                        crk_fill_span(p, count, fill.packed)   // wmemset, see fill(_:)
                    }
                }
                n = count * 4
            }
        }
    }

    /// Storage from this size up (a 1024×1024 frame) is advised into transparent huge
    /// pages before its first write (`crk_advise_huge`): one page fault per 2 MB instead
    /// of 512, and one TLB entry where a 1920-pixel row alone spans two 4 KB pages, so
    /// a span's first pixel on each row of a shape misses the TLB less often.
    static let hugePageBytes = 4 << 20

    /// `crk_advise_huge` for storage of at least `hugePageBytes`, before it is written.
    @inline(__always)
    static func adviseHugePages(_ p: UnsafeMutableRawPointer, _ bytes: Int) {
        if bytes >= hugePageBytes { crk_advise_huge(p, bytes) }
    }

    /// Wraps existing premultiplied RGBA8 bytes; nil when the count does not match the size.
    public init?(width: Int, height: Int, premultipliedData: [UInt8]) {
        guard width > 0, height > 0, premultipliedData.count == width * height * 4 else { return nil }
        self.width = width; self.height = height; data = premultipliedData
    }

    /// Overwrites every pixel with `other`'s, which has the same size, in this pixmap's own
    /// storage: a recycled frame takes a cached picture's pixels without allocating (a
    /// fresh 8 MB frame arrives as ~2,000 zero-filled page faults).
    public mutating func copyPixels(from other: Pixmap) {
        precondition(other.width == width && other.height == height, "copyPixels: sizes differ")
        data.withUnsafeMutableBytes { dst in
            other.data.withUnsafeBytes { src in dst.copyMemory(from: src) }
        }
        isKnownOpaque = other.isKnownOpaque
    }

    /// The address of the pixel storage: the same for copies that share it (arrays copy on
    /// write), different for storages alive at the same time.
    public var storageAddress: UnsafeRawPointer {
        data.withUnsafeBytes { UnsafeRawPointer($0.baseAddress!) }
    }

    /// The pixel at (x, y); the caller keeps the coordinates in bounds.
    @inlinable public func pixel(_ x: Int, _ y: Int) -> PremultipliedRGBA8 {
        let i = (y * width + x) * 4
        return PremultipliedRGBA8(r: data[i], g: data[i + 1], b: data[i + 2], a: data[i + 3])
    }

    /// Overwrites the pixel at (x, y).
    @inlinable public mutating func setPixel(_ x: Int, _ y: Int, _ p: PremultipliedRGBA8) {
        let i = (y * width + x) * 4
        data[i] = p.r; data[i + 1] = p.g; data[i + 2] = p.b; data[i + 3] = p.a
    }

    /// Takes `other`'s damage when both share one storage, so have the same bytes: for a
    /// frame that comes back as its bytes alone (a sink's `reclaim`) after it was handed
    /// out with its damage. Nothing changes otherwise.
    public mutating func adoptDamage(from other: Pixmap) {
        guard damage == nil, width == other.width, height == other.height, let d = other.damage,
              storageAddress == other.storageAddress else { return }
        damage = d
    }

    /// Makes every pixel `background` by filling only the boxes its `damage` names, when
    /// it was drawn on that colour; false, and nothing changed, when it was not (no
    /// damage kept, or another colour). Either way the damage is gone afterwards.
    public mutating func restoreBackground(_ background: PremultipliedRGBA8) -> Bool {
        guard let d = damage, d.background == background.packed else { return false }
        let w = width, h = height, v = background.packed
        let bytewise = background.r == background.g && background.g == background.b && background.b == background.a
        data.withUnsafeMutableBytes { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
            d.boxes.withUnsafeBufferPointer { b in
                let n = b.count / 4
                /// Box k lies inside box j (a label drawn on its bar): filled once, with j.
                func inside(_ k: Int, _ j: Int) -> Bool {
                    b[4 * j] <= b[4 * k] && b[4 * j + 1] <= b[4 * k + 1] && b[4 * j + 2] >= b[4 * k + 2] && b[4 * j + 3] >= b[4 * k + 3]
                }
                for k in 0..<n {
                    if n <= 256, (0..<n).contains(where: { j in j != k && inside(k, j) && (j < k || !inside(j, k)) }) { continue }
                    let i = 4 * k
                    let x0 = max(0, Int(b[i])), y0 = max(0, Int(b[i + 1])), x1 = min(w, Int(b[i + 2])), y1 = min(h, Int(b[i + 3]))
                    guard x1 > x0, y1 > y0 else { continue }
                    if x1 - x0 <= 8 {
                        // A grid line or a tick: a few words a row, stored in place (a call
                        // to memset per row of a 900-row line cost more than its bytes).
                        for y in y0..<y1 {
                            let row = p + y * w
                            for x in x0..<x1 { row[x] = v }
                        }
                        continue
                    }
                    for y in y0..<y1 {
                        let row = p + y * w + x0
                        if bytewise {
                            UnsafeMutableRawPointer(row).initializeMemory(as: UInt8.self, repeating: background.r, count: 4 * (x1 - x0))
                        } else {
                            crk_fill_span(row, x1 - x0, v)
                        }
                    }
                }
            }
        }
        isKnownOpaque = background.a == 255
        return true
    }

    /// Overwrites every pixel with one value.
    public mutating func fill(_ p: PremultipliedRGBA8) {
        let count = width * height, v = p.packed
        data.withUnsafeMutableBytes { raw in
            if p.r == p.g && p.g == p.b && p.b == p.a {
                // White, black or transparent: one byte repeated, which libc's memset
                // writes with the widest stores the CPU has (Swift's word loop is SSE2 at
                // x86-64's baseline): the dashboard benchmark's clear took 11 % of a frame
                // as a word loop.
                raw.initializeMemory(as: UInt8.self, repeating: p.r)
                return
            }
            // Any other colour: the same words through libc's wmemset (a dark or tinted
            // background).
            raw.baseAddress!.withMemoryRebound(to: UInt32.self, capacity: count) { q in
                crk_fill_span(q, count, v)
            }
        }
        isKnownOpaque = p.a == 255
    }

    public static func == (a: Pixmap, b: Pixmap) -> Bool {
        a.width == b.width && a.height == b.height && a.data == b.data
    }

    public func hash(into h: inout Hasher) {
        h.combine(width); h.combine(height); h.combine(data)
    }

    /// The pixels as straight (unpremultiplied) RGBA8 bytes, the layout PNG and ffmpeg's `rgba` expect.
    public func straightRGBA() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: data.count)
        writeStraightRGBA(into: &out)
        return out
    }

    /// True when every pixel is fully opaque: then premultiplied and straight bytes are
    /// the same and the pixels can be handed to PNG or ffmpeg without conversion.
    public var isOpaque: Bool {
        if isKnownOpaque { return true }
        return data.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            var acc: UInt32 = 0xFFFF_FFFF
            // An AND reduction LLVM vectorises; checked in blocks so a transparent
            // frame stops early.
            var i = 0
            let n = words.count
            while i < n {
                let end = min(n, i &+ 4096)
                while i < end { acc &= words[i]; i &+= 1 }
                if acc >> 24 != 255 { return false }
            }
            return true
        }
    }

    /// Calls `body` with the pixels as straight RGBA8 bytes: the pixmap's own memory when
    /// it is opaque, else a conversion written into `scratch` (resized as needed).
    public func withStraightRGBABytes<R>(scratch: inout [UInt8], _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if isOpaque { return try data.withUnsafeBytes(body) }
        if scratch.count < data.count { scratch = [UInt8](repeating: 0, count: data.count) }
        writeStraightRGBA(into: &scratch)
        return try scratch.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<data.count])) }
    }

    /// Writes the pixels as straight RGBA8 into `out`, which must hold `width * height * 4` bytes.
    /// Opaque and fully transparent pixels (nearly all of a chart) are copied as words.
    public func writeStraightRGBA(into out: inout [UInt8]) {
        precondition(out.count >= data.count)
        let count = width * height
        data.withUnsafeBytes { sraw in
            out.withUnsafeMutableBytes { draw in
                let src = sraw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                let dst = draw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                for i in 0..<count {
                    let v = src[i]
                    let a = v >> 24
                    if a == 255 || v == 0 { dst[i] = v; continue }
                    if a == 0 { dst[i] = 0; continue }
                    let h = a / 2
                    let r = min(255, ((v & 0xFF) &* 255 &+ h) / a)
                    let g = min(255, (((v >> 8) & 0xFF) &* 255 &+ h) / a)
                    let b = min(255, (((v >> 16) & 0xFF) &* 255 &+ h) / a)
                    dst[i] = r | g << 8 | b << 16 | a << 24
                }
            }
        }
    }

    /// Builds a pixmap from straight RGBA8 bytes, premultiplying with rounding.
    public init?(width: Int, height: Int, straightRGBA: [UInt8]) {
        guard width > 0, height > 0, straightRGBA.count == width * height * 4 else { return nil }
        self.width = width; self.height = height
        var d = straightRGBA
        var i = 0
        while i < d.count {
            let a = UInt32(d[i + 3])
            if a != 255 {
                for k in 0..<3 { d[i + k] = UInt8(div255(UInt32(d[i + k]) * a)) }
            }
            i += 4
        }
        data = d
    }
}

/// Exact rounded division by 255 of a value in 0…65025 (the product of two 8-bit values).
@inlinable @inline(__always)
public func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
}
