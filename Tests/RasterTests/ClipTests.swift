import XCTest
import Geometry
@testable import Raster

final class ClipTests: XCTestCase {
    /// Total coverage in pixels: the sum of alpha over the canvas for opaque white paint.
    func coverage(_ c: Canvas) -> Double {
        var s = 0
        for i in stride(from: 3, to: c.pixmap.data.count, by: 4) { s += Int(c.pixmap.data[i]) }
        return Double(s) / 255
    }

    /// The area of a circle inside an axis-aligned rectangle: the chord length inside
    /// [y0, y1] integrated over x (midpoint rule on 200,000 strips, error < 10⁻⁶).
    func circleRectArea(_ c: Point, _ r: Double, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Double {
        let a = max(x0, c.x - r), b = min(x1, c.x + r)
        guard b > a else { return 0 }
        let n = 200_000, h = (b - a) / Double(n)
        var sum = 0.0
        for i in 0..<n {
            let x = a + (Double(i) + 0.5) * h
            let half = max(0, r * r - (x - c.x) * (x - c.x)).squareRoot()
            sum += max(0, min(y1, c.y + half) - max(y0, c.y - half))
        }
        return sum * h
    }

    func testCircleClippedByAFractionalRectangleCoversTheIntersection() {
        let c = Canvas(width: 64, height: 64)
        c.tolerance = 0.005
        let center = Point(32.3, 30.7), r = 20.0
        let clip = Rect(x: 25.25, y: 10.6, width: 44.75, height: 34.7)
        c.clip(to: clip)
        XCTAssertTrue(c.hasClipMask)
        c.fill(.circle(center: center, radius: r), paint: .solid(.white))
        let area = circleRectArea(center, r, clip.minX, clip.minY, clip.maxX, clip.maxY)
        XCTAssertEqual(coverage(c), area, accuracy: area * 0.002)
        // And the other way round: the circle as the clip, the rectangle as the shape.
        let d = Canvas(width: 64, height: 64)
        d.tolerance = 0.005
        d.clip(to: .circle(center: center, radius: r))
        d.fill(.rect(clip), paint: .solid(.white))
        XCTAssertEqual(coverage(d), area, accuracy: area * 0.002)
    }

    func testAntiAliasedRectClipLeavesFractionalCoverage() {
        let c = Canvas(width: 30, height: 10)
        c.clip(to: Rect(x: 10.25, y: 0, width: 10, height: 10))
        c.fill(.rect(Rect(x: 0, y: 0, width: 30, height: 10)), paint: .solid(.white))
        for y in 0..<10 {
            XCTAssertEqual(Double(c.pixmap.pixel(10, y).a) / 255, 0.75, accuracy: 1.0 / 255)
            XCTAssertEqual(c.pixmap.pixel(11, y).a, 255)
            XCTAssertEqual(c.pixmap.pixel(9, y).a, 0)
            XCTAssertEqual(Double(c.pixmap.pixel(20, y).a) / 255, 0.25, accuracy: 1.0 / 255)
            XCTAssertEqual(c.pixmap.pixel(21, y).a, 0)
        }
    }

    func testWholePixelRectClipNeedsNoMask() {
        let c = Canvas(width: 40, height: 40)
        c.save()
        c.concatenate(.translation(2, 3))
        c.clip(to: Rect(x: 5, y: 5, width: 10, height: 20))
        XCTAssertFalse(c.hasClipMask)
        XCTAssertEqual(c.clipBounds.x0, 7); XCTAssertEqual(c.clipBounds.y0, 8)
        XCTAssertEqual(c.clipBounds.x1, 17); XCTAssertEqual(c.clipBounds.y1, 28)
        c.fill(.rect(Rect(x: -100, y: -100, width: 400, height: 400)), paint: .solid(.white))
        XCTAssertEqual(coverage(c), 200)
        c.restore()
        XCTAssertEqual(c.clipBounds.x1, 40)
        // A 90° rotation onto whole pixels is still a box.
        c.save()
        c.concatenate(Transform(a: 0, b: 1, c: -1, d: 0, tx: 30, ty: 0))
        c.clip(to: Rect(x: 0, y: 0, width: 10, height: 5))
        XCTAssertFalse(c.hasClipMask)
        XCTAssertEqual(c.clipBounds.x0, 25); XCTAssertEqual(c.clipBounds.x1, 30)
        c.restore()
    }

    func testMaskedAndUnmaskedDrawsAgreeInsideTheClip() {
        // A fractional clip that contains every pixel of interest fully: masked blitting
        // must give the same bytes as the fast path there.
        let paints: [Paint] = [
            .solid(Color(r: 0.3, g: 0.6, b: 0.9, a: 0.7)),
            .linearGradient(LinearGradient(start: Point(3, 2), end: Point(40, 31), stops: GradientTests.stops, spread: .reflect)),
            .linearGradient(LinearGradient(start: Point(0, 3), end: Point(0, 40), stops: GradientTests.stops)),
            .radialGradient(RadialGradient(focal: Point(20, 20), center: Point(24, 22), radius: 15, stops: GradientTests.stops)),
        ]
        for paint in paints {
            let plain = Canvas(width: 48, height: 48, background: Color(r: 0.1, g: 0.2, b: 0.1, a: 0.5))
            let masked = Canvas(width: 48, height: 48, background: Color(r: 0.1, g: 0.2, b: 0.1, a: 0.5))
            masked.clip(to: Rect(x: 0.5, y: 0.5, width: 47, height: 47))
            XCTAssertTrue(masked.hasClipMask)
            for cv in [plain, masked] {
                cv.fill(.circle(center: Point(24, 24), radius: 19.3), paint: paint)
            }
            for y in 1..<47 { for x in 1..<47 { XCTAssertEqual(plain.pixmap.pixel(x, y), masked.pixmap.pixel(x, y)) } }
        }
    }

    func testNestedClipsIntersectAndRestoreUndoesThem() {
        let c = Canvas(width: 64, height: 64)
        c.tolerance = 0.005
        let a = Point(26, 32), b = Point(38, 32), r = 12.0
        c.save()
        c.clip(to: .circle(center: a, radius: r))
        c.clip(to: .circle(center: b, radius: r))
        c.fill(.rect(Rect(x: 0, y: 0, width: 64, height: 64)), paint: .solid(.white))
        // The lens of two circles of radius r whose centres are d apart.
        let d = b.x - a.x
        let lens = 2 * r * r * acos(d / (2 * r)) - d / 2 * (4 * r * r - d * d).squareRoot()
        XCTAssertEqual(coverage(c), lens, accuracy: lens * 0.003)
        XCTAssertEqual(c.pixmap.pixel(20, 32).a, 0)   // inside a only
        XCTAssertEqual(c.pixmap.pixel(44, 32).a, 0)   // inside b only
        XCTAssertEqual(c.pixmap.pixel(32, 32).a, 255)
        c.restore()
        XCTAssertFalse(c.hasClipMask)
        c.fill(.rect(Rect(x: 0, y: 0, width: 4, height: 4)), paint: .solid(.white))
        XCTAssertEqual(c.pixmap.pixel(1, 1).a, 255)
    }

    func testEvenOddPathClipAndRotatedRectClip() {
        // A ring: even-odd of two concentric squares.
        var ring = Path.rect(Rect(x: 10, y: 10, width: 40, height: 40))
        ring.append(contentsOf: .rect(Rect(x: 20, y: 20, width: 20, height: 20)))
        let c = Canvas(width: 64, height: 64)
        c.clip(to: ring, rule: .evenOdd)
        c.fill(.rect(Rect(x: 0, y: 0, width: 64, height: 64)), paint: .solid(.white))
        XCTAssertEqual(coverage(c), 1600 - 400, accuracy: 0.01)
        XCTAssertEqual(c.pixmap.pixel(30, 30).a, 0)
        // A square rotated 45° about its centre clips to a diamond of the same area.
        let d = Canvas(width: 64, height: 64)
        d.concatenate(Transform.translation(-32, -32).concatenating(.rotation(.pi / 4)).concatenating(.translation(32, 32)))
        d.clip(to: Rect(x: 22, y: 22, width: 20, height: 20))
        d.transform = .identity
        d.fill(.rect(Rect(x: 0, y: 0, width: 64, height: 64)), paint: .solid(.white))
        XCTAssertEqual(coverage(d), 400, accuracy: 0.5)
        XCTAssertEqual(d.pixmap.pixel(32, 19).a, 255)   // the diamond's top reaches y ≈ 17.9
        XCTAssertEqual(d.pixmap.pixel(22, 22).a, 0)     // the square's corner is cut off
    }

    func testDegenerateClipsDrawNothingAndStayBounded() {
        let c = Canvas(width: 32, height: 32)
        c.save()
        c.clip(to: Rect(x: 5, y: 5, width: 0, height: 10))
        c.fill(.rect(Rect(x: 0, y: 0, width: 32, height: 32)), paint: .solid(.white))
        XCTAssertEqual(coverage(c), 0)
        c.restore()
        c.save()
        var p = Path()
        p.move(to: Point(.nan, 3)); p.line(to: Point(.infinity, 5)); p.line(to: Point(1, .nan)); p.close()
        c.clip(to: p)
        c.fill(.rect(Rect(x: 0, y: 0, width: 32, height: 32)), paint: .solid(.white))
        XCTAssertEqual(coverage(c), 0)
        c.restore()
        c.save()
        c.clip(to: Rect(x: .nan, y: 0, width: 10, height: 10))
        c.fill(.rect(Rect(x: 0, y: 0, width: 32, height: 32)), paint: .solid(.white))
        XCTAssertEqual(coverage(c), 0)
        c.restore()
        // Huge coordinates: the mask is never larger than the canvas.
        c.save()
        var huge = Path()
        huge.move(to: Point(-1e30, -1e30)); huge.line(to: Point(1e30, -1e30)); huge.line(to: Point(0, 1e30)); huge.close()
        c.clip(to: huge)
        if let m = c.state.mask { XCTAssertLessThanOrEqual(m.data.count, 32 * 32) }
        let b = c.clipBounds
        XCTAssertGreaterThanOrEqual(b.x0, 0); XCTAssertLessThanOrEqual(b.x1, 32)
        c.restore()
        // A singular transform flattens the clip to nothing.
        c.save()
        c.concatenate(.scale(0, 1))
        c.clip(to: .circle(center: Point(16, 16), radius: 10))
        c.transform = .identity
        c.fill(.rect(Rect(x: 0, y: 0, width: 32, height: 32)), paint: .solid(.white))
        XCTAssertEqual(coverage(c), 0)
        c.restore()
    }
}
