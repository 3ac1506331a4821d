// How far apart two images are, as golden-image tests need it (STYLE.md, 6): the
// largest channel difference decides pass or fail against a tolerance, the mean and the
// count of differing pixels say how big a failure is, and a picture shows where.
//
// Channels are compared as a Pixmap stores them, premultiplied: two fully transparent
// pixels are equal whatever colour their PNG files give them, since neither shows. This
// is the measure `chartreel diff` reports.

/// Two pixmaps that cannot be compared because their sizes differ.
public struct PixmapSizeMismatch: Error, Hashable, Sendable, CustomStringConvertible {
    /// Width and height of the first image.
    public var first: (width: Int, height: Int)
    /// Width and height of the second image.
    public var second: (width: Int, height: Int)
    /// The sizes of the two images.
    public init(first: (width: Int, height: Int), second: (width: Int, height: Int)) {
        self.first = first; self.second = second
    }
    /// The sizes, in the message a test prints.
    public var description: String {
        "the images differ in size: \(first.width)x\(first.height) and \(second.width)x\(second.height)"
    }
    /// Equal when both sizes are.
    public static func == (a: Self, b: Self) -> Bool { a.first == b.first && a.second == b.second }
    /// Hashes both sizes.
    public func hash(into h: inout Hasher) {
        h.combine(first.width); h.combine(first.height); h.combine(second.width); h.combine(second.height)
    }
}

/// The difference between two images of one size.
public struct PixmapDifference: Sendable {
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
    public init(_ a: Pixmap, _ b: Pixmap, tolerance: Int = 0) throws(PixmapSizeMismatch) {
        guard a.width == b.width, a.height == b.height else {
            throw PixmapSizeMismatch(first: (a.width, a.height), second: (b.width, b.height))
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
                            // Luminance of `a` over white, faded to a quarter of its contrast,
                            // so the differences stand out against the picture they are in.
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

    /// One line for a failing test: the three measures and the tolerance.
    public var summary: String {
        let total = image.width * image.height
        let mean = (meanDifference * 10_000).rounded() / 10_000
        return "largest channel difference \(maxDifference) (tolerance \(tolerance)), mean \(mean), "
            + "\(differingPixels) of \(total) pixels differ, \(pixelsOverTolerance) over the tolerance"
    }

    /// `expected | actual | difference` side by side on a mid-grey strip, the picture a
    /// failed golden-image test leaves behind. Both images must have the size this
    /// difference was computed at.
    public func sideBySide(expected: Pixmap, actual: Pixmap, gap: Int = 8) -> Pixmap {
        let w = image.width, h = image.height, g = max(0, gap)
        var out = Pixmap(width: 3 * w + 2 * g, height: h, fill: Color(r: 0.5, g: 0.5, b: 0.5).premultiplied)
        for (k, panel) in [expected, actual, image].enumerated() where panel.width == w && panel.height == h {
            let x0 = k * (w + g)
            for y in 0..<h {
                let src = y * w * 4, dst = (y * out.width + x0) * 4
                out.data.replaceSubrange(dst..<(dst + w * 4), with: panel.data[src..<(src + w * 4)])
            }
        }
        return out
    }
}
