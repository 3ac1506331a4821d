// Fuzz target: the PNG reader (libpng's simplified API behind PNGCodec).
//
// Any bytes must decode or throw a `PNGError`. An image that decodes must survive the
// round trip: encoded again and decoded, it gives the same premultiplied pixels
// (PNGCodec's documented exactness), and every pixel is validly premultiplied.
import Raster

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
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
