import Raster

/// The difference between two images of one size, for checking frames in test suites
/// (`chartreel diff`).
///
/// Channels are compared as stored in a `Pixmap`, premultiplied: two fully transparent
/// pixels are equal whatever colour their PNG files give them, since neither shows.
public struct FrameDiff: Sendable {
    /// The largest difference of any channel of any pixel, 0–255.
    public let maxDifference: Int
    /// The mean absolute difference over every channel of every pixel.
    public let meanDifference: Double
    /// Pixels where any channel differs at all.
    public let differingPixels: Int
    /// Pixels where some channel differs by more than the tolerance.
    public let pixelsOverTolerance: Int
    /// The tolerance the comparison used.
    public let tolerance: Int
    /// A picture of the difference: the first image faded to a light grey, pixels that
    /// differ within the tolerance in amber, pixels over it in red.
    public let image: Pixmap

    /// Whether the images match within the tolerance.
    public var withinTolerance: Bool { maxDifference <= tolerance }

    /// Compares `a` with `b`, which must have the same size. A channel difference up to
    /// `tolerance` (0–255) counts as a match.
    public init(_ a: Pixmap, _ b: Pixmap, tolerance: Int = 0) throws {
        guard a.width == b.width, a.height == b.height else {
            throw ExportError.invalidArgument("the images differ in size: \(a.width)x\(a.height) and \(b.width)x\(b.height)")
        }
        let count = a.width * a.height
        var out = [UInt8](repeating: 0, count: count * 4)
        var maxD = 0, sum = 0, differing = 0, over = 0
        let tol = tolerance
        a.data.withUnsafeBufferPointer { pa in
            b.data.withUnsafeBufferPointer { pb in
                out.withUnsafeMutableBufferPointer { po in
                    for p in 0..<count {
                        let i = p &* 4
                        var m = 0
                        for k in 0..<4 {
                            let d = abs(Int(pa[i &+ k]) &- Int(pb[i &+ k]))
                            sum &+= d
                            if d > m { m = d }
                        }
                        if m > maxD { maxD = m }
                        if m == 0 {
                            // Luminance of a over white, faded to a quarter of its contrast.
                            let al = Int(pa[i &+ 3])
                            let lum = (Int(pa[i]) &* 54 &+ Int(pa[i &+ 1]) &* 183 &+ Int(pa[i &+ 2]) &* 19) >> 8
                            let onWhite = lum &+ (255 &- al)
                            let g = UInt8(255 &- (255 &- min(255, onWhite)) / 4)
                            po[i] = g; po[i &+ 1] = g; po[i &+ 2] = g
                        } else if m <= tol {
                            differing &+= 1
                            po[i] = 255; po[i &+ 1] = 176; po[i &+ 2] = 0
                        } else {
                            differing &+= 1
                            over &+= 1
                            po[i] = 255; po[i &+ 1] = 0; po[i &+ 2] = 0
                        }
                        po[i &+ 3] = 255
                    }
                }
            }
        }
        maxDifference = maxD
        meanDifference = count > 0 ? Double(sum) / Double(count * 4) : 0
        differingPixels = differing
        pixelsOverTolerance = over
        self.tolerance = tol
        image = Pixmap(width: a.width, height: a.height, premultipliedData: out)!
    }
}
