import XCTest
@testable import Geometry

final class ShapesTests: XCTestCase {
    let box = Rect(x: 10, y: 20, width: 200, height: 100)

    func testRectAndStandardizing() {
        let p = Path.rect(box)
        XCTAssertEqual(signedArea(p), 20_000, accuracy: 1e-9)   // positive: clockwise on screen
        XCTAssertEqual(p.elements.first, .move(Point(10, 20)))
        XCTAssertEqual(Path.rect(Rect(x: 210, y: 120, width: -200, height: -100)), p)
    }

    func testCircularRoundedRectArea() {
        for r in [5.0, 20, 37.5, 50] {
            let p = Path.roundedRect(box, cornerRadius: r, style: .circular)
            let expected = 200 * 100 - (4 - Double.pi) * r * r
            XCTAssertEqual(signedArea(p), expected, accuracy: expected * 1e-3, "r \(r)")
            XCTAssertEqual(p.elements.first, .move(Point(10 + r, 20)))
        }
        // Clamped to half the shorter side: a capsule.
        XCTAssertEqual(Path.roundedRect(box, cornerRadius: 500), Path.roundedRect(box, cornerRadius: 50))
        // No radius is a rectangle.
        XCTAssertEqual(Path.roundedRect(box, cornerRadius: 0), Path.rect(box))
        XCTAssertEqual(Path.roundedRect(box, cornerRadius: .nan, style: .continuous), Path.rect(box))
    }

    /// Curvature samples along a path's curves and lines, in order (lines count as 0).
    func curvatureProfile(_ p: Path, samples: Int = 200) -> [Double] {
        var out: [Double] = []
        var cur = Point.zero
        for e in p.elements {
            switch e {
            case .move(let q): cur = q
            case .line(let q): out.append(0); out.append(0); cur = q
            case .close: out.append(0)
            case .cubic(let c1, let c2, let q):
                for i in 0...samples { out.append(curvature(cur, c1, c2, q, Double(i) / Double(samples))) }
                cur = q
            default: XCTFail("unexpected \(e)")
            }
        }
        return out
    }

    func testContinuousCornerHasNoCurvatureJump() {
        let r = 20.0
        let cont = Path.roundedRect(box, cornerRadius: r, style: .continuous)
        let circ = Path.roundedRect(box, cornerRadius: r, style: .circular)
        // At every joint (edge → transition, transition → arc, arc → transition, → edge)
        // the curvature on both sides agrees; between samples 1/200 apart it moves little.
        let k = curvatureProfile(cont)
        var worstJump = 0.0
        for i in 1..<k.count { worstJump = max(worstJump, abs(k[i] - k[i - 1])) }
        XCTAssertLessThan(worstJump * r, 0.02)
        // The same measure sees the circular corner's jump from 0 to 1/r at the edges.
        let kc = curvatureProfile(circ)
        var circJump = 0.0
        for i in 1..<kc.count { circJump = max(circJump, abs(kc[i] - kc[i - 1])) }
        XCTAssertEqual(circJump * r, 1, accuracy: 0.03)   // a cubic quarter circle ends at 0.979/r
        // Curvature rises monotonically from 0 to 1/r in the first corner's transition,
        // turning clockwise, and never goes past 1/r.
        let first = Array(k[2..<203])   // after the top edge's two zeros
        XCTAssertEqual(first.first!, 0, accuracy: 1e-12)
        XCTAssertEqual(first.last! * r, 1, accuracy: 2e-3)
        for i in 1..<first.count { XCTAssertGreaterThanOrEqual(first[i], first[i - 1] - 1e-9) }
        XCTAssertLessThanOrEqual(k.max()! * r, 1.002)
        XCTAssertGreaterThanOrEqual(k.min()!, -1e-12)
    }

    func testContinuousCornerShape() {
        let r = 20.0
        let cont = Path.roundedRect(box, cornerRadius: r, style: .continuous)
        // It leaves the top edge 1.528·r from the corner, and each corner is three cubics.
        XCTAssertEqual(cont.elements.first, .move(Point(10 + 1.528 * r, 20)))
        XCTAssertEqual(cont.elements.filter { if case .cubic = $0 { return true } else { return false } }.count, 12)
        // It is smoother, so it cuts a little more off than the circular corner.
        let a = signedArea(cont), circular = 20_000 - (4 - Double.pi) * r * r
        XCTAssertLessThan(a, circular)
        XCTAssertGreaterThan(a, 20_000 - 2 * (4 - Double.pi) * r * r)
        // Everything stays inside the rectangle.
        XCTAssertTrue(box.insetBy(-1e-9).contains(cont.controlBounds))
        // The middle of the corner, on the diagonal from the vertex, is 0.4708·r away
        // from it (a circular corner: (√2 − 1)·r = 0.4142·r).
        let m = PathMeasure(cont)
        let polys = cont.flattened(tolerance: 1e-4)[0].points
        let nearest = polys.map { ($0 - Point(10, 20)).length }.min()!
        XCTAssertEqual(nearest / r, 0.4708, accuracy: 1e-3)
        XCTAssertGreaterThan(m.length, 0)
    }

    func testContinuousCornersShrinkToFitSmallRects() {
        let small = Rect(x: 0, y: 0, width: 30, height: 60)
        let p = Path.roundedRect(small, cornerRadius: 20, style: .continuous)
        // 1.528·r must fit in half of 30: r becomes 15 / 1.528 and the corners meet.
        XCTAssertEqual(p.elements.first, .move(Point(15, 0)))
        XCTAssertTrue(small.insetBy(-1e-9).contains(p.controlBounds))
        let k = curvatureProfile(p)
        var worstJump = 0.0
        for i in 1..<k.count { worstJump = max(worstJump, abs(k[i] - k[i - 1])) }
        XCTAssertLessThan(worstJump * 15 / 1.528, 0.02)
        XCTAssertGreaterThan(signedArea(p), 0)
    }

    // Areas of curved shapes are within 0.1 %: a cubic quarter circle bulges out by up
    // to 0.027 % of the radius, which adds about that much area.
    func testCapsuleArea() {
        let p = Path.capsule(in: Rect(x: 0, y: 0, width: 200, height: 60))
        XCTAssertEqual(signedArea(p), 140 * 60 + .pi * 900, accuracy: 11_227 * 1e-3)
        let tall = Path.capsule(in: Rect(x: 0, y: 0, width: 20, height: 100))
        XCTAssertEqual(signedArea(tall), 80 * 20 + .pi * 100, accuracy: 1914 * 1e-3)
        let round = Path.capsule(in: Rect(x: 0, y: 0, width: 40, height: 40))
        XCTAssertEqual(signedArea(round), .pi * 400, accuracy: 1257 * 1e-3)
    }

    func testEllipseAndCircle() {
        XCTAssertEqual(signedArea(Path.ellipse(in: Rect(x: 0, y: 0, width: 100, height: 40))), .pi * 50 * 20, accuracy: 2)
        let c = Path.circle(center: Point(5, 5), radius: 10)
        XCTAssertEqual(c.elements.first, .move(Point(15, 5)))
        XCTAssertEqual(signedArea(c), .pi * 100, accuracy: .pi * 100 * 1e-3)
    }

    func testWedgeArea() {
        let c = Point(100, 100)
        for (R, r) in [(50.0, 0.0), (50, 20), (80, 79)] {
            for clockwise in [true, false] {
                for (a0, sweep) in [(0.3, 1.2), (-2.0, 2.9), (1.0, 5.5), (0.0, .pi / 2)] {
                    let a1 = clockwise ? a0 + sweep : a0 - sweep
                    let w = Path.wedge(center: c, radius: R, innerRadius: r, startAngle: a0, endAngle: a1, clockwise: clockwise)
                    let expected = sweep / 2 * (R * R - r * r)
                    let area = signedArea(w)
                    XCTAssertEqual(abs(area), expected, accuracy: expected * 1e-3, "R \(R) r \(r) \(clockwise) \(a0) \(sweep)")
                    XCTAssertEqual(area > 0, clockwise, "orientation follows the direction on screen")
                }
            }
        }
        // A full turn: a disc, or a ring whose hole stays empty under both fill rules.
        let ring = Path.wedge(center: c, radius: 50, innerRadius: 20, startAngle: 1, endAngle: 1 + 2 * .pi, clockwise: true)
        XCTAssertEqual(subpathCount(ring), 2)
        XCTAssertEqual(abs(signedArea(ring)), .pi * (2500 - 400), accuracy: .pi * 2100 * 1e-3)
        let polys = ring.flattened(tolerance: 0.01)
        XCTAssertEqual(winding(Point(100, 100), polys), 0)
        XCTAssertEqual(abs(winding(Point(135, 100), polys)), 1)
        let disc = Path.wedge(center: c, radius: 50, startAngle: 0, endAngle: -7, clockwise: false)
        XCTAssertEqual(subpathCount(disc), 1)
        XCTAssertEqual(abs(signedArea(disc)), .pi * 2500, accuracy: .pi * 2500 * 1e-3)
    }

    func testPieWedgeStartsAtTheCentre() {
        let w = Path.wedge(center: Point(0, 0), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        XCTAssertEqual(w.elements.first, .move(Point(0, 0)))
        XCTAssertEqual(w.elements[1], .line(Point(10, 0)))
        XCTAssertEqual(w.elements.last, .close)
        let polys = w.flattened(tolerance: 0.01)
        XCTAssertEqual(winding(Point(4, 4), polys) != 0, true, "the slice covers 3 → 6 o'clock (lower right on screen)")
        XCTAssertEqual(winding(Point(4, -4), polys), 0)
    }

    func testArcEndPointsAndDirection() {
        let c = Point(100, 100), R = 50.0
        let h = R / 2.0.squareRoot()
        // Clockwise on screen from 3 o'clock to 6 o'clock: through the lower right.
        let cw = Path.arc(center: c, radius: R, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        XCTAssertEqual(cw.elements.first, .move(Point(150, 100)))
        XCTAssertPointEqual(cw.currentPoint, Point(100, 150), accuracy: 1e-9)
        let m = PathMeasure(cw)
        XCTAssertEqual(m.length, .pi / 2 * R, accuracy: R * 1e-3)
        XCTAssertPointEqual(m.position(atDistance: m.length / 2), Point(100 + h, 100 + h), accuracy: R * 3e-4)
        if case .cubic(let c1, _, _) = cw.elements[1] {
            XCTAssertEqual(c1.x, 150, accuracy: 1e-9); XCTAssertGreaterThan(c1.y, 100, "leaves downwards")
        } else { XCTFail() }
        XCTAssertNotEqual(cw.elements.last, .close)

        // The same angles counter-clockwise: the long way, up through 12 and 9 o'clock.
        let ccw = Path.arc(center: c, radius: R, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        XCTAssertEqual(ccw.elements.first, .move(Point(150, 100)))
        XCTAssertPointEqual(ccw.currentPoint, Point(100, 150), accuracy: 1e-9)
        let mc = PathMeasure(ccw)
        XCTAssertEqual(mc.length, 1.5 * .pi * R, accuracy: R * 1e-3)
        XCTAssertPointEqual(mc.position(atDistance: mc.length / 3), Point(100, 50), accuracy: R * 3e-4)
        XCTAssertPointEqual(mc.position(atDistance: mc.length / 2), Point(100 - h, 100 - h), accuracy: R * 3e-4)
        XCTAssertEqual(ccw.elements.count, 4, "three quarter pieces")

        // From 12 o'clock counter-clockwise to 9 o'clock: a quarter through the upper left.
        let q = Path.arc(center: c, radius: R, startAngle: -.pi / 2, endAngle: -.pi, clockwise: false)
        XCTAssertPointEqual(q.elements.first.flatMap { if case .move(let p) = $0 { return p } else { return nil } },
                            Point(100, 50), accuracy: 1e-9)
        XCTAssertPointEqual(q.currentPoint, Point(50, 100), accuracy: 1e-9)
        XCTAssertEqual(PathMeasure(q).length, .pi / 2 * R, accuracy: R * 1e-3)
        // Clockwise from 0 to −π/2 wraps to a sweep of 3π/2.
        let wrap = Path.arc(center: c, radius: R, startAngle: 0, endAngle: -.pi / 2, clockwise: true)
        XCTAssertEqual(PathMeasure(wrap).length, 1.5 * .pi * R, accuracy: R * 1e-3)
        XCTAssertPointEqual(PathMeasure(wrap).position(atDistance: .pi / 2 * R), Point(100, 150), accuracy: R * 3e-4)
    }

    func testArcPiecesAreAtMostAQuarterAndAccurate() {
        let c = Point(0, 0), R = 1000.0
        for (sweep, pieces) in [(0.1, 1), (Double.pi / 2, 1), (Double.pi / 2 + 0.01, 2), (Double.pi, 2), (4.0, 3), (2 * Double.pi, 4)] {
            let p = Path.arc(center: c, radius: R, startAngle: 0.7, endAngle: 0.7 + sweep, clockwise: true)
            var cur = Point.zero, count = 0, worst = 0.0
            for e in p.elements {
                switch e {
                case .move(let q): cur = q
                case .cubic(let c1, let c2, let q):
                    count += 1
                    for i in 0...100 {
                        let t = Double(i) / 100, u = 1 - t
                        let b = cur * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + q * (t * t * t)
                        worst = max(worst, abs(b.length - R))
                    }
                    cur = q
                default: break
                }
            }
            XCTAssertEqual(count, pieces, "sweep \(sweep)")
            XCTAssertLessThanOrEqual(worst, 3e-4 * R, "sweep \(sweep)")
        }
        // A full circle is closed and ends exactly where it starts.
        let full = Path.arc(center: c, radius: R, startAngle: 0.7, endAngle: 0.7 + 2 * .pi, clockwise: true)
        XCTAssertEqual(full.elements.last, .close)
        XCTAssertEqual(full.elements.first, .move(full.elements.dropLast().last.flatMap {
            if case .cubic(_, _, let q) = $0 { return q } else { return nil } }!))
    }

    func testDegenerateShapesAreEmpty() {
        let bad: [Rect] = [Rect(x: 0, y: 0, width: 0, height: 10), Rect(x: 0, y: 0, width: 10, height: 0),
                           Rect(x: .nan, y: 0, width: 10, height: 10), Rect(x: 0, y: 0, width: .infinity, height: 10),
                           Rect(x: 1e308, y: 0, width: 1e308, height: 10), .null]
        for r in bad {
            XCTAssertTrue(Path.rect(r).isEmpty, "\(r)")
            XCTAssertTrue(Path.roundedRect(r, cornerRadius: 3, style: .continuous).isEmpty, "\(r)")
            XCTAssertTrue(Path.capsule(in: r).isEmpty, "\(r)")
            XCTAssertTrue(Path.ellipse(in: r).isEmpty, "\(r)")
        }
        let c = Point(0, 0)
        for r in [0.0, -1, .nan, .infinity] {
            XCTAssertTrue(Path.circle(center: c, radius: r).isEmpty)
            XCTAssertTrue(Path.arc(center: c, radius: r, startAngle: 0, endAngle: 1, clockwise: true).isEmpty)
            XCTAssertTrue(Path.wedge(center: c, radius: r, startAngle: 0, endAngle: 1, clockwise: true).isEmpty)
        }
        XCTAssertTrue(Path.circle(center: Point(.nan, 0), radius: 1).isEmpty)
        XCTAssertTrue(Path.arc(center: c, radius: 5, startAngle: 1, endAngle: 1, clockwise: true).isEmpty)
        XCTAssertTrue(Path.arc(center: c, radius: 5, startAngle: 0, endAngle: -2 * .pi, clockwise: true).isEmpty)
        XCTAssertTrue(Path.arc(center: c, radius: 5, startAngle: .nan, endAngle: 1, clockwise: true).isEmpty)
        XCTAssertTrue(Path.arc(center: c, radius: 5, startAngle: 0, endAngle: .infinity, clockwise: false).isEmpty)
        XCTAssertTrue(Path.wedge(center: c, radius: 5, innerRadius: 5, startAngle: 0, endAngle: 1, clockwise: true).isEmpty)
        XCTAssertTrue(Path.wedge(center: c, radius: 5, innerRadius: 9, startAngle: 0, endAngle: 1, clockwise: true).isEmpty)
        XCTAssertTrue(Path.wedge(center: c, radius: 5, innerRadius: .infinity, startAngle: 0, endAngle: 1, clockwise: true).isEmpty)
        // NaN or negative inner radius: a pie slice.
        XCTAssertEqual(Path.wedge(center: c, radius: 5, innerRadius: .nan, startAngle: 0, endAngle: 1, clockwise: true),
                       Path.wedge(center: c, radius: 5, startAngle: 0, endAngle: 1, clockwise: true))
        // Angles so far apart that their difference overflows still give an arc.
        XCTAssertEqual(subpathCount(Path.arc(center: c, radius: 5, startAngle: -1e308, endAngle: 1e308, clockwise: true)), 1)
        let back = Path.arc(center: c, radius: 5, startAngle: 1e308, endAngle: -1e308, clockwise: true)
        XCTAssertLessThanOrEqual(back.elements.count, 5)
    }
}

extension Rect {
    func contains(_ r: Rect) -> Bool { r.minX >= minX && r.maxX <= maxX && r.minY >= minY && r.maxY <= maxY }
}
