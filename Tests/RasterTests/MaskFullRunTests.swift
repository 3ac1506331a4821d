import CRasterKernels
import Geometry
import XCTest
import TestSupport
@testable import Raster

/// A clip mask's runs of full coverage: drawing over them skips the mask loop (a solid
/// span's middle goes to the fused blitter; a shape wholly inside them draws with the
/// mask set aside), and either way gives the bytes of the mask loop.
final class MaskFullRunTests: XCTestCase {
    override func tearDown() { crk_reset_wide(); super.tearDown() }

    func testFullRunsAreEachRowsLongestRunOf255() {
        var rng = SplitMix64(state: 11)
        for _ in 0..<300 {
            let w = 1 + rng.below(40), h = 1 + rng.below(4)
            let data = (0..<(w * h)).map { _ in rng.below(3) == 0 ? UInt8(truncatingIfNeeded: rng.next()) : 255 }
            let m = Canvas.ClipMask(x: 3, y: 5, width: w, height: h, data: data)
            for r in 0..<h {
                var best = 0
                for i in 0..<w { var j = i; while j < w && data[r * w + j] == 255 { j += 1 }; best = max(best, j - i) }
                let a = Int(m.fullRuns[2 * r]), b = Int(m.fullRuns[2 * r + 1])
                XCTAssertEqual(b - a, best, "row \(r) of \(data[(r * w)..<(r * w + w)])")
                XCTAssertTrue((a..<b).allSatisfy { data[r * w + $0] == 255 })
            }
            // isFull is never wrong (a box it calls full is all 255) and knows each row's
            // longest run (shorter runs elsewhere in the row it may not).
            for _ in 0..<10 {
                let x0 = 3 + rng.below(w), x1 = x0 + rng.below(w + 3 - x0 + 1), y0 = 5 + rng.below(h), y1 = y0 + 1
                let truth = x1 <= 3 + w && (x0..<x1).allSatisfy { data[(y0 - 5) * w + $0 - 3] == 255 }
                if m.isFull(x0, y0, x1, y1) { XCTAssertTrue(truth, "box \(x0)..<\(x1) row \(y0) is not full") }
                let r = y0 - 5, inRun = x0 - 3 >= Int(m.fullRuns[2 * r]) && x1 - 3 <= Int(m.fullRuns[2 * r + 1])
                if inRun && x1 > x0 { XCTAssertTrue(m.isFull(x0, y0, x1, y1), "box \(x0)..<\(x1) row \(y0) lies in the run") }
            }
        }
    }

    func testSolidSpanThroughAMaskMatchesTheMaskLoop() {
        var rng = SplitMix64(state: 5)
        var dst = [UInt32](repeating: 0, count: 64), ref = dst
        var mask = [UInt8](repeating: 0, count: 64)
        for level in Array(0...crk_cpu_level()) {
            crk_set_wide(level)
            for _ in 0..<20_000 {
                // A mask row like a clip's: partial at its ends, full between (sometimes
                // not at all), and a span starting anywhere around it.
                let f0 = rng.below(30), f1 = f0 + rng.below(30)
                for i in 0..<64 { mask[i] = i >= f0 && i < f1 ? 255 : (rng.below(4) == 0 ? 255 : UInt8(rng.coverage())) }
                let m = Canvas.ClipMask(x: 0, y: 0, width: 64, height: 1, data: mask)
                let x = rng.below(40), len = rng.below(64 - x + 1), cov = rng.coverage()
                let color = [rng.pixel()]
                for i in 0..<64 { dst[i] = rng.pixel() }
                ref = dst
                mask.withUnsafeBufferPointer { mp in
                    color.withUnsafeBufferPointer { c in
                        ref.withUnsafeMutableBufferPointer {
                            compositeSpan(.sourceOver, $0.baseAddress! + x, c.baseAddress!, 0, len, cov, mp.baseAddress! + x)
                        }
                        dst.withUnsafeMutableBufferPointer {
                            blitSolidMasked($0.baseAddress!, x, len, cov, c.baseAddress!, mp.baseAddress!, 0,
                                            Int(m.fullRuns[0]), Int(m.fullRuns[1]), wide: level > 0)
                        }
                    }
                }
                if dst != ref { XCTFail("level \(level) span \(x)+\(len) coverage \(cov) colour \(color[0]) full \(m.fullRuns)"); return }
            }
        }
    }

    /// Shapes drawn under a fractional rectangle clip, once through the mask and once with
    /// it set aside where it is full: the same bytes, and the mask is set aside only where
    /// it may be.
    func testSettingTheMaskAsideChangesNoByte() {
        let clip = Rect(x: 10.3, y: 8.6, width: 100.5, height: 70.2)
        let g = LinearGradient(start: Point(20, 20), end: Point(90, 60), colors: [Color(r: 1, g: 0.2, b: 0.1, a: 0.8), Color(r: 0.1, g: 0.4, b: 1)])
        let v = LinearGradient(start: Point(0, 15), end: Point(0, 70), colors: [.black, Color(r: 0.3, g: 0.9, b: 0.5, a: 0.5)])
        let shapes: [(Path, Paint, Double)] = [
            (.rect(Rect(x: 12.25, y: 11.5, width: 60.3, height: 8.8)), .solid(Color(r: 0.2, g: 0.5, b: 0.9)), 1),
            (.roundedRect(Rect(x: 20.7, y: 25.1, width: 70.2, height: 12.4), cornerRadius: 4), .solid(Color(r: 0.9, g: 0.1, b: 0.3, a: 0.6)), 1),
            (.circle(center: Point(60, 50), radius: 15.3), .linearGradient(g), 0.7),
            (.rect(Rect(x: 15, y: 40, width: 30.5, height: 30)), .linearGradient(v), 1),
            // Crossing the clip's edges: drawn through the mask either way.
            (.rect(Rect(x: 5.5, y: 60.2, width: 120, height: 30)), .solid(Color(r: 0.1, g: 0.7, b: 0.2, a: 0.9)), 1),
        ]
        for level in Array(0...crk_cpu_level()) {
            crk_set_wide(level)
            let masked = Canvas(width: 128, height: 96, background: Color(r: 0.95, g: 0.95, b: 0.9))
            let aside = Canvas(width: 128, height: 96, background: Color(r: 0.95, g: 0.95, b: 0.9))
            masked.clip(to: clip); aside.clip(to: clip)
            XCTAssertTrue(aside.hasClipMask)
            for (i, (path, paint, opacity)) in shapes.enumerated() {
                masked.fill(path, paint: paint, opacity: opacity)
                var inside: Bool?
                aside.withClipMaskSetAside(within: path.controlBounds) {
                    inside = !aside.hasClipMask
                    aside.fill(path, paint: paint, opacity: opacity)
                }
                XCTAssertEqual(inside, i < 4, "shape \(i): the mask is set aside only where it is full")
                XCTAssertTrue(aside.hasClipMask, "the mask is back after the body")
            }
            XCTAssertEqual(masked.pixmap.data, aside.pixmap.data, "level \(level)")
        }
    }
}
