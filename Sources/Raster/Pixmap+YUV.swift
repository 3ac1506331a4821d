// Frames as yuv420p, the pixel format the video encoders store (H.264 in MP4, VP9 in WebM),
// converted by ChartReel's rendering threads so that ffmpeg does no conversion of its own.
//
// The conversion is BT.709 at limited ("TV") range, the matrix players assume for HD video
// and the one the streams are tagged with (Export's FFmpeg.swift):
//
//   Y' = Kr·R + Kg·G + Kb·B            Kr = 0.2126, Kb = 0.0722, Kg = 1 − Kr − Kb = 0.7152
//   Y  = 16  + 219/255 · Y'
//   Cb = 128 + 224/255 · (B − Y') / (2 (1 − Kb))
//   Cr = 128 + 224/255 · (R − Y') / (2 (1 − Kr))
//
// on the straight (unpremultiplied) 8-bit sRGB values, the alpha ignored, as ffmpeg does
// with `rgba` input. No linearisation: video matrices apply to the gamma-encoded values.
//
// Chroma has one sample per 2×2 block of pixels. H.264 and MPEG-2 place that sample, by
// default, level with the block's left column and halfway between its two rows ("left"
// siting); a plain 2×2 mean would sit half a pixel to its right, shifting colour against
// edges in every player that honours the default. So each sample averages the block's two
// rows and, across, the columns 2i−1, 2i and 2i+1 weighted 1, 2, 1 (the 2-pixel mean
// centred on the left column): weights 8 in all. Columns and rows outside the frame are
// clamped to its edge, which also covers odd sizes ((width+1)/2 × (height+1)/2 samples).
//
// Correct rounding: every coefficient is a decimal, so each sample is an integer numerator
// over a constant denominator, rounded half up exactly (no floating point):
//
//   Y  = 16 + ⌊(73·n + 425000) / 850000⌋,   n = 2126 R + 7152 G + 722 B
//        (219/255 · n/10000 = 73n/850000)
//   Cb = ⌊(14·(9278 ΣB − 2126 ΣR − 7152 ΣG) + 257·1182945) / 2365890⌋
//        (224/255 · N/(18556 · 8) = 7N/1182945; 128 + x rounded is ⌊(2·128·D + 2·7N + D)/2D⌋)
//   Cr = ⌊(14·(7874 ΣR − 7152 ΣG − 722 ΣB) + 257·1003935) / 2007870⌋   (2(1 − Kr) = 15748/10000)
//
// where Σ are the 1 2 1 weighted sums over the block's two rows. `yuv420pReference` is
// that arithmetic written plainly; `yuv420p` runs CRasterKernels' `crk_yuv420p` (AVX-512
// or AVX2 where the CPU has it, a scalar C loop otherwise; `CHARTREEL_SIMD` as for the
// other kernels), tested byte for byte against it.
//
// A frame drawn on an opaque background that knows the boxes it drew into
// (`Pixmap.damage`, a video frame from Scene's FrameRenderer) is converted only where a
// sample can see those boxes: every other sample is the background's, written without
// reading the pixels (`crk_yuv420p_parts`). A 1080p bar race draws into about half of its
// frame, and the conversion was a third of the race's own CPU.
// Measured on the curved-line frames (800×600): see docs/benchmarks.md.
import CRasterKernels

extension Pixmap {
    /// The bytes of one yuv420p frame of `width` × `height`: a full-size luma plane, then
    /// two chroma planes of ⌈width/2⌉ × ⌈height/2⌉ (ffmpeg's `rawvideo` layout).
    public static func yuv420pByteCount(width: Int, height: Int) -> Int {
        width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)
    }

    /// The frame as yuv420p planes (BT.709, limited range, left-sited chroma; the file
    /// comment has the definition), by the fast kernel. Byte-identical to
    /// `yuv420pReference()` on every CPU.
    public func yuv420p() -> [UInt8] {
        let (w, h) = (width, height)
        let count = Self.yuv420pByteCount(width: w, height: h)
        let chroma = ((w + 1) / 2) * ((h + 1) / 2)
        let straight = isOpaque ? data : straightRGBA()
        // Parts only when the background is opaque: then straight and premultiplied agree,
        // outside the boxes as inside.
        let parts = damage.flatMap { $0.background >> 24 == 255 ? Self.yuvParts(of: $0, width: w, height: h) : nil }
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            straight.withUnsafeBytes { raw in
                let src = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                let y = out.baseAddress!
                if let parts, let bg = damage?.background {
                    crk_yuv420p_parts(src, w, h, y, y + w * h, y + w * h + chroma, parts.parts, parts.rows, bg)
                } else {
                    crk_yuv420p(src, w, h, y, y + w * h, y + w * h + chroma)
                }
            }
            initialized = count
        }
    }

    /// Damage with more boxes than this is converted whole: finding each row pair's parts
    /// costs up to boxes² per change of the boxes crossing it.
    static let maxYUVPartBoxes = 512

    /// The chroma samples each row pair must convert for a frame whose pixels outside
    /// `damage`'s boxes are its background (`crk_yuv420p_parts`' layout): `parts` holds
    /// sample ranges (start, end) and `rows` each row pair's first and end index into them.
    /// Sample i of a pair reads columns 2i − 1 … 2i + 1 of its two rows, and carries the luma
    /// of columns 2i and 2i + 1, so a box over columns x0 ..< x1 and rows y0 ..< y1 reaches
    /// samples ⌊x0/2⌋ … ⌊x1/2⌋ of pairs ⌊y0/2⌋ … ⌊(y1 − 1)/2⌋. Row pairs crossed by the same
    /// boxes share one list. Nil when there are too many boxes.
    static func yuvParts(of damage: Damage, width w: Int, height h: Int) -> (parts: [Int32], rows: [Int32])? {
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        let b = damage.boxes
        guard b.count / 4 <= maxYUVPartBoxes else { return nil }
        // Each box as the samples and row pairs it reaches (clipped to the frame).
        var boxes: [(i0: Int32, i1: Int32, j0: Int, j1: Int)] = []
        boxes.reserveCapacity(b.count / 4)
        var k = 0
        while k + 3 < b.count {
            let x0 = max(0, Int(b[k])), y0 = max(0, Int(b[k + 1])), x1 = min(w, Int(b[k + 2])), y1 = min(h, Int(b[k + 3]))
            k += 4
            guard x1 > x0, y1 > y0 else { continue }
            boxes.append((Int32(x0 >> 1), Int32(min(cw, (x1 >> 1) + 1)), y0 >> 1, ((y1 - 1) >> 1) + 1))
        }
        boxes.sort { $0.j0 < $1.j0 }
        var parts: [Int32] = [], rows = [Int32](repeating: 0, count: 2 * ch)
        var active: [(i0: Int32, i1: Int32, j1: Int)] = []
        var next = 0, changeAt = 0, first: Int32 = 0, end: Int32 = 0
        for j in 0..<ch {
            if j == changeAt {
                active.removeAll { $0.j1 <= j }
                while next < boxes.count, boxes[next].j0 <= j {
                    let x = boxes[next]
                    active.append((x.i0, x.i1, x.j1))
                    next += 1
                }
                // The merged ranges of the boxes crossing this pair, until the next box
                // starts or ends.
                active.sort { $0.i0 < $1.i0 }
                first = Int32(parts.count / 2)
                for a in active {
                    if parts.count / 2 > first, let last = parts.last, a.i0 <= last {
                        parts[parts.count - 1] = max(last, a.i1)
                    } else {
                        parts.append(a.i0); parts.append(a.i1)
                    }
                }
                end = Int32(parts.count / 2)
                changeAt = min(next < boxes.count ? boxes[next].j0 : ch, active.map(\.j1).min() ?? ch)
            }
            rows[2 * j] = first; rows[2 * j + 1] = end
        }
        return (parts, rows)
    }

    /// The plain reference for `yuv420p()`: the formulas of the file comment, one sample
    /// at a time.
    public func yuv420pReference() -> [UInt8] {
        let (w, h) = (width, height)
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        let px = isOpaque ? data : straightRGBA()
        var out = [UInt8](repeating: 0, count: Self.yuv420pByteCount(width: w, height: h))
        for i in 0..<(w * h) {
            out[i] = Self.bt709Luma(r: Int(px[4 * i]), g: Int(px[4 * i + 1]), b: Int(px[4 * i + 2]))
        }
        for j in 0..<ch {
            for i in 0..<cw {
                var sr = 0, sg = 0, sb = 0
                for (dy, dx, weight) in [(0, -1, 1), (0, 0, 2), (0, 1, 1), (1, -1, 1), (1, 0, 2), (1, 1, 1)] {
                    let x = min(max(2 * i + dx, 0), w - 1), y = min(2 * j + dy, h - 1)
                    let p = 4 * (y * w + x)
                    sr += weight * Int(px[p]); sg += weight * Int(px[p + 1]); sb += weight * Int(px[p + 2])
                }
                let (cb, cr) = Self.bt709Chroma(sumR: sr, sumG: sg, sumB: sb)
                out[w * h + j * cw + i] = cb
                out[w * h + cw * ch + j * cw + i] = cr
            }
        }
        return out
    }

    /// BT.709 limited-range luma of one straight sRGB pixel, rounded half up exactly.
    public static func bt709Luma(r: Int, g: Int, b: Int) -> UInt8 {
        let n = 2126 * r + 7152 * g + 722 * b
        return UInt8(16 + (73 * n + 425_000) / 850_000)
    }

    /// BT.709 limited-range (Cb, Cr) of the mean of pixels whose channels, weighted by
    /// weights summing to 8, add up to `sumR`, `sumG` and `sumB`; rounded half up exactly.
    public static func bt709Chroma(sumR: Int, sumG: Int, sumB: Int) -> (cb: UInt8, cr: UInt8) {
        let nb = 9278 * sumB - 2126 * sumR - 7152 * sumG
        let nr = 7874 * sumR - 7152 * sumG - 722 * sumB
        return (UInt8((14 * nb + 257 * 1_182_945) / 2_365_890), UInt8((14 * nr + 257 * 1_003_935) / 2_007_870))
    }
}
