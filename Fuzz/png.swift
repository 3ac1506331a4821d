// Fuzz target: the PNG reader (libpng's simplified API behind PNGCodec).
//
// Any bytes must decode or throw a `PNGError`. An image that decodes must survive the
// round trip: encoded again and decoded, it gives the same premultiplied pixels
// (PNGCodec's documented exactness), and every pixel is validly premultiplied.
//
// Every chunk's CRC is recomputed before decoding (when the input starts with the PNG
// signature), or nearly every mutation would stop at libpng's CRC check and the
// chunk parsers and decompression behind it would go unexercised.
import Raster

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    fixChunkCRCs(&bytes)
    guard let image = try? PNGCodec.decode(bytes) else { return 0 }
    for y in 0..<image.height {
        for x in 0..<image.width {
            let p = image.pixel(x, y)
            if p.r > p.a || p.g > p.a || p.b > p.a { fatalError("pixel (\(x), \(y)) not premultiplied: \(p)") }
        }
    }
    // Re-encoding a huge image costs seconds under ASan and finds nothing new.
    guard image.width * image.height <= 1 << 16 else { return 0 }
    do {
        let again = try PNGCodec.decode(try PNGCodec.encode(image))
        if again != image { fatalError("round trip changed the pixels") }
    } catch {
        fatalError("round trip failed: \(error)")
    }
    return 0
}

let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

/// The CRC-32 table of PNG (and zlib): polynomial 0xEDB88320, reflected.
let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
}

/// Rewrites the CRC of every complete chunk to match its type and data.
func fixChunkCRCs(_ b: inout [UInt8]) {
    guard b.count >= 8, Array(b[0..<8]) == signature else { return }
    var i = 8
    while i + 12 <= b.count {
        let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
        let end = i + 8 + length
        guard length < 1 << 31, end + 4 <= b.count else { return }
        var c: UInt32 = 0xFFFF_FFFF
        for k in (i + 4)..<end { c = crcTable[Int((c ^ UInt32(b[k])) & 0xFF)] ^ (c >> 8) }
        c ^= 0xFFFF_FFFF
        b[end] = UInt8(c >> 24); b[end + 1] = UInt8(c >> 16 & 0xFF); b[end + 2] = UInt8(c >> 8 & 0xFF); b[end + 3] = UInt8(c & 0xFF)
        i = end + 4
    }
}
