import XCTest
import Foundation
import Geometry
@testable import Raster

/// Gradients against an exact per-pixel evaluation: the position t computed in closed
/// form at each pixel centre, spread, interpolated between stops and premultiplied in
/// Double, never rounded before the comparison.
final class GradientTests: XCTestCase {
    /// Five stops with varying alpha and a steep middle segment.
    static let stops: [GradientStop] = [
        GradientStop(offset: 0, color: Color(r: 0.9, g: 0.1, b: 0.2, a: 1)),
        GradientStop(offset: 0.3, color: Color(r: 0.1, g: 0.8, b: 0.3, a: 0.6)),
        GradientStop(offset: 0.45, color: Color(r: 0.2, g: 0.2, b: 1, a: 1)),
        GradientStop(offset: 0.7, color: Color(r: 1, g: 1, b: 1, a: 0.2)),
        GradientStop(offset: 1, color: Color(r: 0, g: 0, b: 0, a: 1)),
    ]

    /// t after the spread mode, exactly.
    static func spread(_ t: Double, _ mode: SpreadMode) -> Double {
        switch mode {
        case .pad: return min(1, max(0, t))
        case .repeat: return t - t.rounded(.down)
        case .reflect:
            let m = t - 2 * (t / 2).rounded(.down)
            return m <= 1 ? m : 2 - m
        }
    }

    /// The premultiplied colour at t, in 8-bit units, unrounded.
    static func exact(_ stops: [GradientStop], _ t: Double) -> [Double] {
        let c = interpolate(stops, at: t)
        return [c.r * c.a * 255, c.g * c.a * 255, c.b * c.a * 255, c.a * 255]
    }

    /// Fills the whole canvas with `paint` and returns the largest channel difference, in
    /// levels, from `reference` (nil where the pixel is skipped: at a discontinuity).
    /// A reference of all zeros stands for "transparent".
    func maxError(_ paint: Paint, size: Int = 64, transform: Transform = .identity,
                  _ reference: (Double, Double) -> [Double]?) -> (error: Double, compared: Int) {
        let c = Canvas(width: size, height: size)
        c.transform = transform
        let inv = transform.inverted!
        let user = Rect(x: -1e4, y: -1e4, width: 2e4, height: 2e4)
        c.fill(.rect(user), paint: paint)
        var worst = 0.0, n = 0
        for y in 0..<size {
            for x in 0..<size {
                let p = inv.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
                guard let e = reference(p.x, p.y) else { continue }
                let px = c.pixmap.pixel(x, y)
                let got = [Double(px.r), Double(px.g), Double(px.b), Double(px.a)]
                for k in 0..<4 { worst = max(worst, abs(got[k] - e[k])) }
                n += 1
            }
        }
        return (worst, n)
    }

    func testLinearGradientEveryPixelInEverySpreadMode() {
        let a = Point(20.3, 11.7), b = Point(41.9, 30.2)
        let d = b - a, len2 = d.dot(d)
        for mode in SpreadMode.allCases {
            let g = LinearGradient(start: a, end: b, stops: Self.stops, spread: mode)
            let r = maxError(.linearGradient(g)) { x, y in
                let t = (Point(x, y) - a).dot(d) / len2
                // Repeat jumps from colour 1 to colour 0 at whole t.
                if mode == .repeat && abs(t - t.rounded()) < 1e-3 { return nil }
                return Self.exact(g.stops, Self.spread(t, mode))
            }
            XCTAssertLessThanOrEqual(r.error, 1.0, "\(mode)")
            XCTAssertGreaterThan(r.compared, 64 * 64 - 200, "\(mode)")
        }
    }

    func testVerticalGradientFastPathIsExact() {
        // a = 0: one colour per row, drawn by the solid blitter.
        for mode in SpreadMode.allCases {
            let g = LinearGradient(start: Point(0, 10), end: Point(0, 30), stops: Self.stops, spread: mode)
            let r = maxError(.linearGradient(g)) { _, y in
                let t = (y - 10) / 20
                if mode == .repeat && abs(t - t.rounded()) < 1e-3 { return nil }
                return Self.exact(g.stops, Self.spread(t, mode))
            }
            XCTAssertLessThanOrEqual(r.error, 1.0, "\(mode)")
        }
    }

    func testPadPaintsTheEndColoursExactlyBeyondTheEnds() {
        let g = LinearGradient(start: Point(10, 0), end: Point(50, 0), colors: [.black, .white])
        let c = Canvas(width: 64, height: 4)
        c.fill(.rect(Rect(x: 0, y: 0, width: 64, height: 4)), paint: .linearGradient(g))
        XCTAssertEqual(c.pixmap.pixel(3, 1), PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
        XCTAssertEqual(c.pixmap.pixel(60, 1), PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
        // Pixel 30's centre is at t = 20.5/40.
        XCTAssertEqual(Double(c.pixmap.pixel(30, 1).r), 255 * 20.5 / 40, accuracy: 1)
    }

    func testConcentricRadialEveryPixelInEverySpreadMode() {
        let center = Point(31.4, 29.8), r0 = 4.5, r1 = 17.25
        for mode in SpreadMode.allCases {
            let g = RadialGradient(center: center, startRadius: r0, endRadius: r1, stops: Self.stops, spread: mode)
            let r = maxError(.radialGradient(g)) { x, y in
                let t = (Point(x, y).distance(to: center) - r0) / (r1 - r0)
                if t < 0 && (Point(x, y).distance(to: center) < 1e-9) { return nil }
                if mode == .repeat && abs(t - t.rounded()) < 1e-3 { return nil }
                return Self.exact(g.stops, Self.spread(t, mode))
            }
            XCTAssertLessThanOrEqual(r.error, 1.0, "\(mode)")
            XCTAssertGreaterThan(r.compared, 64 * 64 - 200, "\(mode)")
        }
    }

    func testFocalRadialEveryPixelInEverySpreadMode() {
        // SVG's focal gradient: the circles of the gradient are the end circle scaled
        // about the focal point, so t = |p − f| / |E − f| where E is where the ray from f
        // through p meets the end circle.
        let f = Point(26.2, 35.1), c0 = Point(32.5, 30.5), radius = 20.0
        for mode in SpreadMode.allCases {
            let g = RadialGradient(focal: f, center: c0, radius: radius, stops: Self.stops, spread: mode)
            let r = maxError(.radialGradient(g)) { x, y in
                let p = Point(x, y)
                let dist = p.distance(to: f)
                if dist < 1e-9 { return nil }
                let u = (p - f) * (1 / dist), w = f - c0
                let b = u.dot(w)
                let s = -b + (b * b - w.dot(w) + radius * radius).squareRoot()
                let t = dist / s
                if mode == .repeat && abs(t - t.rounded()) < 1e-3 { return nil }
                return Self.exact(g.stops, Self.spread(t, mode))
            }
            XCTAssertLessThanOrEqual(r.error, 1.0, "\(mode)")
            XCTAssertGreaterThan(r.compared, 64 * 64 - 200, "\(mode)")
        }
    }

    func testTwoCircleRadialIsTransparentOutsideItsCone() {
        // Neither circle contains the other: the gradient exists only inside the cone
        // tangent to both (apex at t = −1, where the radius reaches 0).
        let c0 = Point(20, 32), c1 = Point(44, 32)
        let g = RadialGradient(startCenter: c0, startRadius: 5, endCenter: c1, endRadius: 10, stops: Self.stops)
        var transparent = 0
        let r = maxError(.radialGradient(g)) { x, y in
            // The textbook quadratic for |p − c(t)| = r(t), largest root with r(t) ≥ 0.
            let cd = c1 - c0, dr = 5.0, pd = Point(x, y) - c0
            let a = cd.dot(cd) - dr * dr, b = pd.dot(cd) + 5 * dr, c = pd.dot(pd) - 25
            let disc = b * b - a * c
            // Skip the pixels whose centre lies on the cone's edge (disc ≈ 0).
            if abs(disc) < 4 * (abs(b) + abs(a)) { return nil }
            if disc < 0 { transparent += 1; return [0, 0, 0, 0] }
            let roots = [(b + disc.squareRoot()) / a, (b - disc.squareRoot()) / a].sorted(by: >)
            guard let t = roots.first(where: { 5 + $0 * dr >= 0 }) else { transparent += 1; return [0, 0, 0, 0] }
            return Self.exact(g.stops, Self.spread(t, .pad))
        }
        XCTAssertLessThanOrEqual(r.error, 1.0)
        XCTAssertGreaterThan(transparent, 500, "the region outside the cone is large")
        let c = Canvas(width: 64, height: 64)
        c.fill(.rect(Rect(x: 0, y: 0, width: 64, height: 64)), paint: .radialGradient(g))
        XCTAssertEqual(c.pixmap.pixel(20, 5).a, 0)
        XCTAssertEqual(c.pixmap.pixel(60, 60).a, 0)
        XCTAssertNotEqual(c.pixmap.pixel(44, 32).a, 0)
    }

    func testSweepGradientFullTurnIsClockwiseFromPlusX() {
        let center = Point(32, 32)
        let g = SweepGradient(center: center, stops: Self.stops)
        let r = maxError(.sweepGradient(g)) { x, y in
            let dx = x - center.x, dy = y - center.y
            if dx * dx + dy * dy < 4 { return nil }
            var th = atan2(dy, dx)
            if th < 0 { th += 2 * .pi }
            // The seam along +x, where colour 1 meets colour 0.
            if dx > 0 && abs(dy) < 0.01 * dx { return nil }
            return Self.exact(g.stops, th / (2 * .pi))
        }
        XCTAssertLessThanOrEqual(r.error, 1.0)
        // Below-right of the centre on screen is an eighth of a turn clockwise.
        let c = Canvas(width: 64, height: 64)
        let two = SweepGradient(center: Point(32, 32), stops: [GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: .white)])
        c.fill(.rect(Rect(x: 0, y: 0, width: 64, height: 64)), paint: .sweepGradient(two))
        XCTAssertEqual(Double(c.pixmap.pixel(52, 52).r), 255.0 / 8, accuracy: 1)
        // Pixel (12, 52)'s centre is 19.5 left of and 20.5 below the centre: just short of 3/8.
        XCTAssertEqual(Double(c.pixmap.pixel(12, 52).r), 255 * (Double.pi - atan(20.5 / 19.5)) / (2 * .pi), accuracy: 1)
        // Straight up is three quarters of a turn.
        XCTAssertEqual(Double(c.pixmap.pixel(31, 5).r), 255 * (1.5 * .pi - atan(0.5 / 26.5)) / (2 * .pi), accuracy: 1)
    }

    func testSweepGradientRangesAndSpreadModes() {
        let center = Point(30.5, 33.5)
        // A start at the top (−π/2), a half turn and a quarter turn, in each spread mode.
        for (start, end) in [(-Double.pi / 2, 3 * Double.pi / 2), (0.3, 0.3 + Double.pi), (1.0, 1.0 + Double.pi / 2),
                             (2.0, 2.0 - Double.pi)] {
            for mode in SpreadMode.allCases {
                let g = SweepGradient(center: center, startAngle: start, endAngle: end, stops: Self.stops, spread: mode)
                let span = end - start
                let r = maxError(.sweepGradient(g)) { x, y in
                    let dx = x - center.x, dy = y - center.y
                    if dx * dx + dy * dy < 9 { return nil }
                    // Each direction is measured in the turn centred on the range's middle.
                    let base = (start + end) / 2 - Double.pi
                    var th = atan2(dy, dx) - base
                    th -= 2 * .pi * (th / (2 * .pi)).rounded(.down)
                    // Skip pixels within 1.5 px of a discontinuity: the window's seam and,
                    // for repeat, every whole t.
                    let tol = 1.5 / (dx * dx + dy * dy).squareRoot()
                    if th < tol || 2 * .pi - th < tol { return nil }
                    let t = (base + th - start) / span
                    if mode == .repeat && abs(t - t.rounded()) * abs(span) < tol { return nil }
                    return Self.exact(g.stops, Self.spread(t, mode))
                }
                XCTAssertLessThanOrEqual(r.error, 1.0, "\(start)…\(end) \(mode)")
                XCTAssertGreaterThan(r.compared, 3000, "\(start)…\(end) \(mode)")
            }
        }
    }

    func testSweepWithLessThanATurnSplitsTheGapBetweenTheEndColours() {
        // 0…π/2 (the lower-right quadrant on screen): the other three quadrants are the gap;
        // its first half (clockwise from π/2) takes colour 1, the second half colour 0.
        let g = SweepGradient(center: Point(32, 32), startAngle: 0, endAngle: .pi / 2,
                              stops: [GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: .white)])
        let c = Canvas(width: 64, height: 64)
        c.fill(.rect(Rect(x: 0, y: 0, width: 64, height: 64)), paint: .sweepGradient(g))
        XCTAssertEqual(c.pixmap.pixel(10, 40).r, 255)   // ~π·0.9: colour 1
        XCTAssertEqual(c.pixmap.pixel(40, 10).r, 0)     // ~1.8π: colour 0
        XCTAssertEqual(Double(c.pixmap.pixel(52, 52).r), 127.5, accuracy: 1)
    }

    func testTableSizeGrowsWithTheSteepestStop() throws {
        let two = try XCTUnwrap(GradientTable(stops: evenStops([.black, .white]), spread: .pad))
        XCTAssertEqual(two.n, 512)
        let steep = try XCTUnwrap(GradientTable(stops: [GradientStop(offset: 0.5, color: .black),
                                                        GradientStop(offset: 0.55, color: .white)], spread: .pad))
        XCTAssertEqual(steep.n, 4096)
        let flat = try XCTUnwrap(GradientTable(stops: evenStops([.white, Color(r: 0.9, g: 1, b: 1)]), spread: .pad))
        XCTAssertEqual(flat.n, 256)
    }

    func testSteepStopsStayWithinOneLevel() {
        // Stops a tenth apart with full swings: the table grows until the error bound holds.
        let stops = [GradientStop(offset: 0.4, color: .black), GradientStop(offset: 0.5, color: .white),
                     GradientStop(offset: 0.7, color: Color(r: 1, g: 0, b: 0, a: 0.3))]
        let a = Point(0, 0), b = Point(61, 7)
        let d = b - a, len2 = d.dot(d)
        let g = LinearGradient(start: a, end: b, stops: stops)
        let r = maxError(.linearGradient(g)) { x, y in
            Self.exact(stops, Self.spread((Point(x, y) - a).dot(d) / len2, .pad))
        }
        XCTAssertLessThanOrEqual(r.error, 1.0)
    }
}
