import Geometry
import XCTest
import TestSupport
@testable import Raster

/// A canvas keeps the last clip mask it made outside any other (a chart's plot clip, the
/// same on every frame) and gives it again for the same clip on the same box: the bytes of
/// making it anew, frame after frame, whatever clips come between.
final class ClipMemoTests: XCTestCase {
    func drawClipped(_ c: Canvas, _ clips: [Rect], _ shapes: [(Path, Color)]) {
        c.save()
        for r in clips { c.clip(to: r) }
        for (p, color) in shapes { c.fill(p, paint: .solid(color)) }
        c.restore()
    }

    func testAKeptMaskGivesTheBytesOfAFreshOne() {
        var rng = SplitMix64(state: 31)
        let reused = Canvas(width: 1, height: 1)
        let plot = Rect(x: 10.37, y: 8.5, width: 140.26, height: 70.75)
        var memoHits = 0
        for frame in 0..<200 {
            func r(_ a: Double, _ b: Double) -> Double { Double.random(in: a...b, using: &rng) }
            // Mostly the plot clip, sometimes another rectangle, a nested clip, a rotated
            // clip or a whole-pixel box, as a chart's frames and their groups make them.
            var clips = [plot]
            switch frame % 7 {
            case 2: clips = [Rect(x: r(0, 30) + 0.3, y: r(0, 20) + 0.6, width: r(20, 120), height: r(10, 60))]
            case 4: clips = [plot, Rect(x: r(20, 60) + 0.25, y: r(10, 30) + 0.5, width: 50.3, height: 30.2)]
            case 5: clips = [Rect(x: 20, y: 10, width: 100, height: 50), plot]
            default: break
            }
            let shapes: [(Path, Color)] = (0..<3).map { _ in
                (.roundedRect(Rect(x: r(-10, 150), y: r(-10, 80), width: r(5, 80), height: r(5, 40)), cornerRadius: 3),
                 Color(r: r(0, 1), g: r(0, 1), b: r(0, 1), a: r(0.4, 1)))
            }
            reused.reset(to: Pixmap(width: 170, height: 100, fill: PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)))
            if frame % 11 == 6 { reused.concatenate(.rotation(0.05)) }
            // Held here, so a mask made anew cannot take its storage's address.
            let before = reused.clipMemo?.mask.data
            drawClipped(reused, clips, shapes)
            let address = { (a: [UInt8]?) in a?.withUnsafeBufferPointer { $0.baseAddress } }
            if before != nil, address(reused.clipMemo?.mask.data) == address(before) { memoHits += 1 }
            let fresh = Canvas(width: 170, height: 100, background: .white)
            if frame % 11 == 6 { fresh.concatenate(.rotation(0.05)) }
            drawClipped(fresh, clips, shapes)
            XCTAssertEqual(reused.takePixmap().data, fresh.pixmap.data, "frame \(frame): \(clips)")
        }
        XCTAssertGreaterThan(memoHits, 50, "the plot's mask was found again, not made anew")
    }
}
