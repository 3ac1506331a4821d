import Geometry
import XCTest
import TestSupport
@testable import Raster

/// A canvas started on a pixmap of one colour hands its pixels over with the boxes it drew
/// into (`Pixmap.damage`): every pixel outside them is still that colour, and restoring
/// the colour in those boxes alone gives a pixmap of that colour throughout.
final class DamageTests: XCTestCase {
    let background = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)

    /// Draws a random picture: fills, strokes, a clip mask, a layer at partial opacity, a
    /// replayed block, a fill that the clip shuts out.
    func drawRandom(on c: Canvas, _ rng: inout SplitMix64) {
        func r(_ a: Double, _ b: Double) -> Double { Double.random(in: a...b, using: &rng) }
        for _ in 0..<Int.random(in: 1...6, using: &rng) {
            let kind = Int.random(in: 0..<7, using: &rng)
            let color = Color(r: r(0, 1), g: r(0, 1), b: r(0, 1), a: r(0.3, 1))
            let rect = Rect(x: r(-20, 180), y: r(-20, 100), width: r(0.3, 60), height: r(0.3, 40))
            switch kind {
            case 0: c.fill(.rect(rect), paint: .solid(color))
            case 1: c.stroke(.circle(center: Point(r(0, 160), r(0, 90)), radius: r(1, 30)), style: StrokeStyle(width: r(0.5, 4)),
                             paint: .solid(color))
            case 2:
                c.save()
                c.clip(to: Rect(x: r(0, 80) + 0.37, y: r(0, 40) + 0.61, width: r(10, 80), height: r(10, 40)))
                c.fill(.ellipse(in: rect), paint: .solid(color))
                c.restore()
            case 3:
                c.beginLayer(opacity: r(0.2, 0.9), bounds: rect.insetBy(-4))
                c.fill(.roundedRect(rect, cornerRadius: 3), paint: .solid(color))
                c.fill(.circle(center: Point(rect.midX, rect.midY), radius: 5), paint: .solid(.black))
                c.endLayer()
            case 4:
                // A block kept for its fraction of a pixel and replayed.
                let cache = CoverageCache()
                for k in 0..<2 {
                    c.save()
                    c.concatenate(.translation(r(0, 140) + Double(k) * 0.25, r(0, 70)))
                    c.fill(.ellipse(in: Rect(x: 0, y: 0, width: 9, height: 13)), paint: .solid(color), cache: cache, subpixelSteps: 4)
                    c.restore()
                }
            case 5:
                c.save()
                c.clip(to: Rect(x: 300, y: 300, width: 5, height: 5))   // outside the canvas: draws nothing
                c.fill(.rect(rect), paint: .solid(color))
                c.restore()
            default:
                c.fill(.rect(rect), paint: .linearGradient(LinearGradient(start: Point(rect.minX, 0), end: Point(rect.maxX, 0),
                    stops: [GradientStop(offset: 0, color: color), GradientStop(offset: 1, color: .black)])))
            }
        }
    }

    func testDamageBoxesHoldEveryChangedPixelAndRestoreTheBackground() {
        checkDamageAndRestore(background, seed: 99)
    }

    /// A background whose four bytes differ is restored word by word (wmemset), not with
    /// memset: the same check on a dark one.
    func testDamageOnADarkBackgroundRestoresIt() {
        checkDamageAndRestore(PremultipliedRGBA8(r: 17, g: 24, b: 39, a: 255), seed: 101)
    }

    func checkDamageAndRestore(_ background: PremultipliedRGBA8, seed: UInt64) {
        var rng = SplitMix64(state: seed)
        let canvas = Canvas(width: 1, height: 1)
        var frame = Pixmap(width: 160, height: 90, fill: background)
        let blank = Pixmap(width: 160, height: 90, fill: background)
        var restored = 0
        for trial in 0..<300 {
            canvas.reset(to: frame, background: background)
            drawRandom(on: canvas, &rng)
            frame = canvas.takePixmap()
            guard let damage = frame.damage else { return XCTFail("no damage kept, trial \(trial)") }
            XCTAssertEqual(damage.background, background.packed)
            // Every pixel outside the boxes is the background.
            var inside = [Bool](repeating: false, count: 160 * 90)
            var i = 0
            while i + 3 < damage.boxes.count {
                for y in max(0, Int(damage.boxes[i + 1]))..<min(90, max(0, Int(damage.boxes[i + 3]))) {
                    for x in max(0, Int(damage.boxes[i]))..<min(160, max(0, Int(damage.boxes[i + 2]))) { inside[y * 160 + x] = true }
                }
                i += 4
            }
            for y in 0..<90 {
                for x in 0..<160 where !inside[y * 160 + x] {
                    XCTAssertEqual(frame.pixel(x, y), background, "trial \(trial): (\(x), \(y)) outside the boxes")
                }
            }
            XCTAssertTrue(frame.restoreBackground(background))
            XCTAssertEqual(frame.data, blank.data, "trial \(trial): restored")
            XCTAssertNil(frame.damage, "restored pixels carry no damage until drawn again")
            restored += 1
        }
        XCTAssertEqual(restored, 300)
    }

    func testDamageIsOnlyKeptWhenItCanBeTrusted() {
        let canvas = Canvas(width: 1, height: 1)
        canvas.reset(to: Pixmap(width: 40, height: 30, fill: background), background: background)
        canvas.fill(.rect(Rect(x: 3.5, y: 4, width: 10, height: 6)), paint: .solid(.black))
        var p = canvas.takePixmap()
        XCTAssertNotNil(p.damage)
        // Another colour is not restored by the boxes.
        XCTAssertFalse(p.restoreBackground(PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255)))
        // A write through the pixels drops the damage: the boxes no longer hold every change.
        p.setPixel(39, 29, PremultipliedRGBA8(r: 1, g: 2, b: 3, a: 255))
        XCTAssertNil(p.damage)
        XCTAssertFalse(p.restoreBackground(background))
        // A canvas reset without a background keeps none.
        canvas.reset(to: Pixmap(width: 40, height: 30, fill: background))
        canvas.fill(.rect(Rect(x: 3, y: 4, width: 10, height: 6)), paint: .solid(.black))
        XCTAssertNil(canvas.takePixmap().damage)
        // A layer left open at the hand-over: none either.
        canvas.reset(to: Pixmap(width: 40, height: 30, fill: background), background: background)
        canvas.beginLayer(opacity: 0.5)
        canvas.fill(.rect(Rect(x: 3, y: 4, width: 10, height: 6)), paint: .solid(.black))
        XCTAssertNil(canvas.takePixmap().damage)
        // A clear is the whole canvas.
        canvas.reset(to: Pixmap(width: 40, height: 30, fill: background), background: background)
        canvas.clear(Color(r: 0.5, g: 0.5, b: 0.5))
        var cleared = canvas.takePixmap()
        XCTAssertTrue(cleared.restoreBackground(background))
        XCTAssertEqual(cleared.data, Pixmap(width: 40, height: 30, fill: background).data)
    }

    func testManyBoxesAreMergedAndStillHoldEveryChange() {
        let canvas = Canvas(width: 1, height: 1)
        canvas.reset(to: Pixmap(width: 300, height: 200, fill: background), background: background)
        for k in 0..<(Canvas.maxDamageBoxes * 3) {
            let x = Double(k % 97) * 3.1, y = Double(k % 61) * 3.2
            canvas.fill(.rect(Rect(x: x, y: y, width: 1.5, height: 1.5)), paint: .solid(.black))
        }
        var p = canvas.takePixmap()
        let boxes = p.damage?.boxes.count ?? 0
        XCTAssertGreaterThan(boxes, 0)
        XCTAssertLessThanOrEqual(boxes, 4 * (Canvas.maxDamageBoxes + 1))
        XCTAssertTrue(p.restoreBackground(background))
        XCTAssertEqual(p.data, Pixmap(width: 300, height: 200, fill: background).data)
    }
}
