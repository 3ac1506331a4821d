import XCTest
import Geometry
@testable import Raster

/// Each row's spans, from a sweep that hands over runs of rows; a row handed over twice
/// fails the test.
func sweptRows(_ sweep: ((Int, Int, UnsafeBufferPointer<Span>) -> Void) -> Void) -> [Int: [Span]] {
    var out: [Int: [Span]] = [:]
    sweep { y, n, spans in
        for k in 0..<n {
            XCTAssertNil(out[y + k], "row \(y + k) handed over twice")
            out[y + k] = Array(spans)
        }
    }
    return out
}

/// The non-zero sweep of `polylines` inside `clip` (x, y, width, height), row by row.
func sweptRows(_ r: Rasterizer, _ polylines: [Polyline], clip: (Int, Int, Int, Int), opacity: Double) -> [Int: [Span]] {
    r.reset(clipX: clip.0, clipY: clip.1, clipWidth: clip.2, clipHeight: clip.3)
    r.add(polylines)
    return sweptRows { r.sweepRuns(rule: .nonZero, opacity: opacity, $0) }
}
