import Raster

/// A raw frame layout on ffmpeg's pipe (`-f rawvideo -pix_fmt NAME`).
public enum PipePixelFormat: String, Sendable {
    /// Straight RGBA8, 4 bytes a pixel.
    case rgba
    /// Straight BGRA8, 4 bytes a pixel (GIF's palette filters' layout).
    case bgra
    /// Planar 4:2:0 YUV, BT.709 limited range: 1.5 bytes a pixel (odd sizes round the
    /// chroma planes up), `Pixmap.yuv420p`.
    case yuv420p

    /// ffmpeg's name for it.
    public var ffmpegName: String { rawValue }

    /// The bytes of one `width` × `height` frame.
    public func frameBytes(width: Int, height: Int) -> Int {
        self == .yuv420p ? Pixmap.yuv420pByteCount(width: width, height: height) : width * height * 4
    }
}

extension Pixmap {
    /// The pixels as straight (unpremultiplied) BGRA8 bytes, the layout ffmpeg's GIF
    /// filters work in. Same rounding as `straightRGBA()`, with red and blue swapped;
    /// opaque and fully transparent pixels (nearly all of a chart) are handled as words.
    public func straightBGRA() -> [UInt8] {
        let count = width * height
        return [UInt8](unsafeUninitializedCapacity: count * 4) { out, initialized in
            data.withUnsafeBytes { raw in
                let src = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                let dst = UnsafeMutableRawPointer(out.baseAddress!).assumingMemoryBound(to: UInt32.self)
                for i in 0..<count {
                    let v = src[i]   // little-endian: r | g << 8 | b << 16 | a << 24
                    let a = v >> 24
                    if a == 255 {
                        dst[i] = (v & 0xFF00_FF00) | (v & 0xFF) << 16 | (v >> 16) & 0xFF
                        continue
                    }
                    if a == 0 { dst[i] = 0; continue }
                    let h = a / 2
                    let r = min(255, ((v & 0xFF) &* 255 &+ h) / a)
                    let g = min(255, (((v >> 8) & 0xFF) &* 255 &+ h) / a)
                    let b = min(255, (((v >> 16) & 0xFF) &* 255 &+ h) / a)
                    dst[i] = b | g << 8 | r << 16 | a << 24
                }
            }
            initialized = count * 4
        }
    }
}
