import Foundation
import Raster
import Export

/// Two images that differ by more than the tolerance: exit 1 after the report.
struct ImagesDiffer: Error, CustomStringConvertible {
    let description: String
}

/// `chartreel diff A.png B.png [--tolerance T] [-o DIFF.png]`.
func runDiff(_ args: [String]) throws {
    let a = try Arguments(args, flags: ["-y", "--overwrite", "-h", "--help"],
                          valued: ["-o", "--output", "--tolerance"])
    if a.flag("-h", "--help") { print(diffHelp); return }
    guard a.positional.count == 2 else { throw UsageError("diff compares two PNG files: chartreel diff A.png B.png") }
    let tolerance = try a.int("--tolerance", min: 0, max: 255) ?? 0
    let output = a.value("-o", "--output")
    if let o = output {
        if o == "-" { try requireStandardOutput() }
        _ = try OutputTarget.prepare(o, format: nil, overwrite: a.flag("-y", "--overwrite"), inputs: a.positional)
    }
    let images = try a.positional.map { path -> Pixmap in
        do { return try Pixmap(pngFile: path) } catch { throw UnreadableInput(message: "\(error)") }
    }
    let (x, y) = (images[0], images[1])
    guard x.width == y.width, x.height == y.height else {
        throw ImagesDiffer(description: "the images differ in size: \(a.positional[0]) is \(x.width)x\(x.height), "
                           + "\(a.positional[1]) is \(y.width)x\(y.height)")
    }
    let d = try PixmapDifference(x, y, tolerance: tolerance)
    let total = x.width * x.height
    print("largest channel difference: \(d.maxDifference)")
    print("mean channel difference:    " + String(format: "%.4f", d.meanDifference))
    print("differing pixels:           \(d.differingPixels) of \(total) ("
          + String(format: "%.3f", 100 * Double(d.differingPixels) / Double(total)) + " %)")
    print("over tolerance \(tolerance):" + String(repeating: " ", count: max(1, 12 - String(tolerance).count))
          + "\(d.pixelsOverTolerance)")
    if let o = output {
        removeStalePartials(of: o)
        try FramePNG.write(d.image, toFile: o)
    }
    if !d.withinTolerance {
        throw ImagesDiffer(description: "the images differ by up to \(d.maxDifference), over the tolerance of \(tolerance)")
    }
}

/// An input that cannot be read: bad input, exit 2.
struct UnreadableInput: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
