import XCTest
import Foundation
import Geometry
@testable import Raster

final class TransformAndRobustnessTests: XCTestCase {
    func coverage(_ c: Canvas) -> Double {
        var s = 0
        for i in stride(from: 3, to: c.pixmap.data.count, by: 4) { s += Int(c.pixmap.data[i]) }
        return Double(s) / 255
    }

    func testRotatedRectangleCoverageEqualsItsArea() {
        for angle in [0.1, Double.pi / 6, 1.0, 2.5] {
            let c = Canvas(width: 80, height: 80)
            c.concatenate(Transform.rotation(angle).concatenating(.translation(40.3, 39.8)))
            let r = Rect(x: -15.2, y: -9.7, width: 27.35, height: 18.9)
            c.fill(.rect(r), paint: .solid(.white))
            XCTAssertEqual(coverage(c), r.width * r.height, accuracy: 0.5, "angle \(angle)")
        }
    }

    func testGradientsRotateWithTheTransform() {
        // A quarter turn about (32, 32): a gradient along user +x runs down the screen.
        let t = Transform.translation(-32, -32).concatenating(.rotation(.pi / 2)).concatenating(.translation(32, 32))
        let inv = t.inverted!
        let stops = GradientTests.stops
        let paints: [(Paint, (Point) -> Double)] = [
            (.linearGradient(LinearGradient(start: Point(10, 0), end: Point(54, 0), stops: stops)), { ($0.x - 10) / 44 }),
            (.radialGradient(RadialGradient(center: Point(20, 32), endRadius: 30, stops: stops)), { $0.distance(to: Point(20, 32)) / 30 }),
            (.sweepGradient(SweepGradient(center: Point(32, 32), stops: stops)), { p in
                var a = atan2(p.y - 32, p.x - 32)
                if a < 0 { a += 2 * .pi }
                return a / (2 * .pi)
            }),
        ]
        for (i, (paint, tOf)) in paints.enumerated() {
            let c = Canvas(width: 64, height: 64)
            c.concatenate(t)
            c.fill(.rect(Rect(x: 0, y: 0, width: 64, height: 64)), paint: paint)
            var worst = 0.0
            for y in 1..<63 {
                for x in 1..<63 {
                    let u = inv.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
                    if i == 2 {
                        // Skip the sweep's centre and its seam along user +x.
                        let dx = u.x - 32, dy = u.y - 32
                        if dx * dx + dy * dy < 4 || (dx > 0 && abs(dy) < 1.5) { continue }
                    }
                    let e = GradientTests.exact(stops, min(1, max(0, tOf(u))))
                    let p = c.pixmap.pixel(x, y)
                    for (k, v) in [p.r, p.g, p.b, p.a].enumerated() { worst = max(worst, abs(Double(v) - e[k])) }
                }
            }
            XCTAssertLessThanOrEqual(worst, 1.0, "paint \(i)")
        }
        // Concretely for the linear one: down the screen the colour changes, across it not.
        let c = Canvas(width: 64, height: 64)
        c.concatenate(t)
        c.fill(.rect(Rect(x: 0, y: 0, width: 64, height: 64)),
               paint: .linearGradient(LinearGradient(start: Point(10, 0), end: Point(54, 0), colors: [.black, .white])))
        XCTAssertEqual(c.pixmap.pixel(5, 40), c.pixmap.pixel(60, 40))
        XCTAssertLessThan(c.pixmap.pixel(30, 12).r, c.pixmap.pixel(30, 50).r)
    }

    func testNonUniformScaleMakesRadialGradientsElliptical() {
        let c = Canvas(width: 64, height: 64)
        c.concatenate(Transform.scale(2, 1))
        let g = RadialGradient(center: Point(16, 32), endRadius: 10, stops: [GradientStop(offset: 0, color: .black),
                                                                               GradientStop(offset: 1, color: .white)])
        c.fill(.rect(Rect(x: 0, y: 0, width: 32, height: 64)), paint: .radialGradient(g))
        // Device (32 ± 10, 32) is user (16 ± 5, 32): halfway; device (32, 32 ± 5) likewise.
        XCTAssertEqual(Double(c.pixmap.pixel(42, 31).r), 255 * ((Point(21.25, 31.5) - Point(16, 32)).length / 10), accuracy: 1)
        XCTAssertEqual(Double(c.pixmap.pixel(31, 37).r), 255 * ((Point(15.75, 37.5) - Point(16, 32)).length / 10), accuracy: 1)
    }

    func testDegenerateGradientsNeverCrash() {
        let c = Canvas(width: 16, height: 16, background: .white)
        let box = Path.rect(Rect(x: 0, y: 0, width: 16, height: 16))
        let two = [GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: Color(r: 1, g: 0, b: 0))]
        var nanColor = Color.black
        nanColor.r = .nan; nanColor.a = .infinity
        let weird = [GradientStop(offset: .nan, color: nanColor), GradientStop(offset: -.infinity, color: .white),
                     GradientStop(offset: .infinity, color: .black)]
        let nan = Double.nan, inf = Double.infinity
        var paints: [Paint] = []
        for spread in SpreadMode.allCases {
            paints += [
                .linearGradient(LinearGradient(start: Point(nan, 0), end: Point(1, 1), stops: two, spread: spread)),
                .linearGradient(LinearGradient(start: Point(0, 0), end: Point(inf, 1), stops: two, spread: spread)),
                .linearGradient(LinearGradient(start: Point(0, 0), end: Point(1e-300, 0), stops: two, spread: spread)),
                .linearGradient(LinearGradient(start: Point(-1e30, 0), end: Point(1e30, 0), stops: weird, spread: spread)),
                .linearGradient(LinearGradient(start: Point(0, 0), end: Point(16, 0), stops: [], spread: spread)),
                .radialGradient(RadialGradient(center: Point(8, 8), endRadius: 0, stops: two, spread: spread)),
                .radialGradient(RadialGradient(center: Point(8, 8), startRadius: 3, endRadius: 3, stops: two, spread: spread)),
                .radialGradient(RadialGradient(startCenter: Point(2, 8), startRadius: 0, endCenter: Point(12, 8), endRadius: 0,
                                               stops: two, spread: spread)),
                .radialGradient(RadialGradient(center: Point(8, 8), endRadius: nan, stops: two, spread: spread)),
                .radialGradient(RadialGradient(center: Point(8, 8), endRadius: -4, stops: two, spread: spread)),
                .radialGradient(RadialGradient(center: Point(8, 8), endRadius: 1e300, stops: weird, spread: spread)),
                .radialGradient(RadialGradient(focal: Point(18, 8), center: Point(8, 8), radius: 10, stops: two, spread: spread)),
                .sweepGradient(SweepGradient(center: Point(8, 8), startAngle: 1, endAngle: 1, stops: two, spread: spread)),
                .sweepGradient(SweepGradient(center: Point(inf, 8), stops: two, spread: spread)),
                .sweepGradient(SweepGradient(center: Point(8, 8), startAngle: nan, endAngle: 1, stops: two, spread: spread)),
                .sweepGradient(SweepGradient(center: Point(8, 8), startAngle: 0, endAngle: 1e-300, stops: two, spread: spread)),
                .sweepGradient(SweepGradient(center: Point(8, 8), startAngle: -1e20, endAngle: 1e20, stops: weird, spread: spread)),
            ]
        }
        for p in paints {
            c.fill(box, paint: p, opacity: 0.5)
            c.fill(box, paint: p, blendMode: .softLight)
            c.save()
            c.concatenate(Transform(a: 1e-300, b: 0, c: 0, d: 1e300, tx: 0, ty: 0))
            c.fill(box, paint: p)
            c.restore()
        }
        for y in 0..<16 { for x in 0..<16 {
            let px = c.pixmap.pixel(x, y)
            XCTAssert(px.r <= px.a && px.g <= px.a && px.b <= px.a)
        } }
    }

    func testDegenerateGradientsFollowTheSpecs() {
        let box = Path.rect(Rect(x: 0, y: 0, width: 8, height: 8))
        let two = [GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: Color(r: 1, g: 0, b: 0))]
        func pixel(_ p: Paint) -> PremultipliedRGBA8 {
            let c = Canvas(width: 8, height: 8)
            c.fill(box, paint: p)
            return c.pixmap.pixel(4, 4)
        }
        // SVG: a zero-length linear gradient paints its last colour; no stops paint nothing.
        XCTAssertEqual(pixel(.linearGradient(LinearGradient(start: Point(3, 3), end: Point(3, 3), stops: two))),
                       PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
        XCTAssertEqual(pixel(.linearGradient(LinearGradient(start: Point(0, 0), end: Point(8, 0), stops: []))).a, 0)
        // One stop: that colour everywhere.
        XCTAssertEqual(pixel(.linearGradient(LinearGradient(start: Point(0, 0), end: Point(8, 0),
                                                            stops: [GradientStop(offset: 0.3, color: .white)]))),
                       PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
        // Canvas 2D: two equal circles paint nothing; so do negative or NaN radii.
        XCTAssertEqual(pixel(.radialGradient(RadialGradient(center: Point(4, 4), startRadius: 2, endRadius: 2, stops: two))).a, 0)
        XCTAssertEqual(pixel(.radialGradient(RadialGradient(center: Point(4, 4), endRadius: -1, stops: two))).a, 0)
        XCTAssertEqual(pixel(.sweepGradient(SweepGradient(center: Point(.nan, 4), stops: two))).a, 0)
        // A start circle shrinking to a point at its centre is a valid gradient: the
        // centre is at offset 1.
        let shrink = RadialGradient(center: Point(4.5, 4.5), startRadius: 4, endRadius: 0, stops: two)
        XCTAssertEqual(pixel(.radialGradient(shrink)).r, 255)
        // NaN opacity draws nothing.
        let c = Canvas(width: 4, height: 4)
        c.fill(.rect(Rect(x: 0, y: 0, width: 4, height: 4)), paint: .solid(.white), opacity: .nan)
        XCTAssertEqual(c.pixmap.pixel(1, 1).a, 0)
    }

    func testEdgesOfDenormalHeightNeitherHangNorLoseCoverage() {
        // An edge 2·10⁻³²⁰ px high across 40 columns has an infinite slope; it used to
        // walk columns from x = ∞ forever. The triangle is (0, 0), (40, 0), (0, 30).
        let c = Canvas(width: 50, height: 50)
        var p = Path()
        p.move(to: Point(0, -1e-320)); p.line(to: Point(40, 1e-320)); p.line(to: Point(0, 30)); p.close()
        c.fill(p, paint: .solid(.white))
        XCTAssertEqual(coverage(c), 600, accuracy: 0.05)
        let d = Canvas(width: 50, height: 50)
        var q = Path()
        q.move(to: Point(5, 5)); q.line(to: Point(45, 5 + 1e-310)); q.line(to: Point(45, 40)); q.line(to: Point(5, 40 - 1e-315)); q.close()
        d.fill(q, paint: .solid(.white))
        XCTAssertEqual(coverage(d), 40 * 35, accuracy: 0.05)
    }
}
