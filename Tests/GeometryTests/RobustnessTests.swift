import XCTest
@testable import Geometry

/// Adversarial input through every Geometry entry point: nothing may trap, hang or
/// produce output out of proportion to the input. Each case counts the points it
/// produced against a fixed bound; a hang would show as the test never finishing.
final class RobustnessTests: XCTestCase {
    let weird: [Double] = [0, -0.0, 1, -1, 1e-300, 1e30, -1e30, 1e300, -1e300, .greatestFiniteMagnitude,
                           -.greatestFiniteMagnitude, .infinity, -.infinity, .nan]

    /// Paths built from the weird numbers: huge, non-finite, degenerate and empty.
    var paths: [Path] {
        var out: [Path] = [Path(), Path([.move(Point(1, 1))]), Path([.close]), Path([.move(Point(1, 1)), .close]),
                           Path([.move(Point(3, 3)), .line(Point(3, 3)), .line(Point(3, 3)), .close])]
        for (i, a) in weird.enumerated() {
            let b = weird[(i * 5 + 3) % weird.count]
            var p = Path()
            p.move(to: Point(a, 0)); p.line(to: Point(10, b)); p.line(to: Point(b, a))
            p.cubic(to: Point(a, a), control1: Point(b, 1), control2: Point(0, a))
            p.quad(to: Point(5, 5), control: Point(a, b))
            p.close()
            p.line(to: Point(b, b))
            out.append(p)
            out.append(Path.circle(center: Point(a, 0), radius: abs(b)))
            out.append(Path.roundedRect(Rect(x: a, y: 0, width: abs(b), height: 50), cornerRadius: b, style: .continuous))
            out.append(Path.wedge(center: Point(0, a), radius: abs(a), innerRadius: b, startAngle: a, endAngle: b, clockwise: i % 2 == 0))
            out.append(Path.arc(center: Point(0, 0), radius: 10, startAngle: a, endAngle: b, clockwise: i % 2 == 1))
            out.append(Path.capsule(in: Rect(x: 0, y: b, width: a, height: 10)))
        }
        return out
    }

    func count(_ polys: [Polyline]) -> Int { polys.reduce(0) { $0 + $1.points.count } }

    func testFlattenMeasureTrimAndStrokeNeverExplode() {
        let styles: [StrokeStyle] = [
            StrokeStyle(width: 0), StrokeStyle(width: -1), StrokeStyle(width: .nan), StrokeStyle(width: .infinity),
            StrokeStyle(width: 1e30, cap: .round, join: .round),
            StrokeStyle(width: 2, cap: .round, join: .round, dash: [0, 0]),
            StrokeStyle(width: 2, cap: .round, dash: [0]),
            StrokeStyle(width: 2, cap: .square, dash: [0, 1e-300]),
            StrokeStyle(width: 2, cap: .round, dash: [1e-9, 1e-9], dashPhase: .nan),
            StrokeStyle(width: 2, cap: .butt, join: .miter, miterLimit: .nan, dash: [5, 3], dashPhase: -1e300),
            StrokeStyle(width: 3, cap: .round, join: .miter, miterLimit: .infinity, dash: [.nan, 2]),
            StrokeStyle(width: 3, cap: .square, dash: [1e300, 1e-300, 1e300], dashPhase: 1e308),
        ]
        var produced = 0
        for p in paths {
            for tol in [0.1, 0, -1, .nan, .infinity, 1e-300] {
                let polys = p.flattened(tolerance: tol)
                XCTAssertLessThanOrEqual(count(polys), 100_000)
                for q in polys.flatMap(\.points) { XCTAssertTrue(q.isFinite) }
                for style in styles {
                    let o = Stroker.stroke(polys, style: style, tolerance: tol)
                    // Proportional to the input: a round join or cap is at most ~316 points
                    // (the stroker's smallest arc step is 0.01 rad), pivots 3.
                    XCTAssertLessThanOrEqual(count(o), 320 * count(polys) + 700, "\(style)")
                    produced += count(o)
                }
            }
            let m = PathMeasure(p)
            XCTAssertTrue(m.length.isFinite)
            XCTAssertGreaterThanOrEqual(m.length, 0)
            for d in weird { _ = m.position(atDistance: d) }
            for a in weird {
                for b in weird {
                    let t = m.trimmed(from: a, to: b)
                    XCTAssertLessThanOrEqual(t.elements.count, 2 * p.elements.count + 4)
                    let l = m.trimmed(start: a, end: b, offset: a)
                    XCTAssertLessThanOrEqual(l.elements.count, 2 * p.elements.count + 6)
                }
            }
        }
        XCTAssertLessThan(produced, 50_000_000)
    }

    func testDashesOnHugeAndTinyGeometryAreBounded() {
        let huge = [Polyline(points: [Point(-1e30, 0), Point(1e30, 1e30), Point(1e30, -1e30)], closed: true)]
        let extreme = [Polyline(points: [Point(-1e308, 0), Point(1e308, 0), Point(.nan, 1)], closed: false)]
        let tiny = [Polyline(points: [Point(0, 0), Point(1e-300, 0), Point(2e-300, 1e-300)], closed: false)]
        for polys in [huge, extreme, tiny] {
            for dash: [Double] in [[5, 5], [0, 1], [1e-300, 1e-300], [1, 0], [0, 0, 1], [1e30, 1e-30]] {
                let p = DashPattern(dash, phase: 0.5)!
                let pieces = Dasher.dash(polys, pattern: p)
                XCTAssertLessThanOrEqual(pieces.count, Dasher.maxPieces)
                for style in [StrokeStyle(width: 2, cap: .round, dash: dash), StrokeStyle(width: 1e20, cap: .square, dash: dash)] {
                    XCTAssertLessThanOrEqual(count(Stroker.stroke(polys, style: style)), 100_000)
                }
            }
        }
        // 1e30-long segments dashed at 5 units would be 1e29 pieces: drawn solid instead.
        XCTAssertEqual(Dasher.dash(huge, pattern: DashPattern([5, 5])!), huge)
        // A zero-gap pattern splits without limit only up to the bound.
        let line = [Polyline(points: [Point(0, 0), Point(1, 0)], closed: false)]
        XCTAssertEqual(Dasher.dash(line, pattern: DashPattern([1e-9, 0])!), line)
        XCTAssertEqual(Dasher.dash(line, pattern: DashPattern([0.25, 0])!).count, 4)
    }

    func testStrokeOfOverflowingDifferencesStaysFinite() {
        // Finite points whose difference overflows: directions must not become NaN.
        let polys = [Polyline(points: [Point(-1.5e308, 0), Point(1.5e308, 1e308)], closed: false)]
        for cap in LineCap.allCases {
            let o = Stroker.stroke(polys, style: StrokeStyle(width: 4, cap: cap, join: .round))
            XCTAssertEqual(o.count, 1)
            XCTAssertTrue(o[0].points.allSatisfy(\.isFinite), "\(cap)")
        }
    }

    func testShapesWithHugeCoordinatesStayFinite() {
        for p in [Path.circle(center: Point(1e30, -1e30), radius: 1e30),
                  Path.roundedRect(Rect(x: -1e30, y: -1e30, width: 2e30, height: 1e30), cornerRadius: 1e29, style: .continuous),
                  Path.wedge(center: Point(0, 0), radius: 1e300, innerRadius: 1e299, startAngle: 0, endAngle: 1, clockwise: true)] {
            XCTAssertFalse(p.isEmpty)
            XCTAssertTrue(p.controlBounds.isFinite)
            XCTAssertLessThanOrEqual(count(p.flattened(tolerance: 0.1)), 4096 * p.elements.count)
        }
    }

    /// A rectangle's box under a transform: the extremes of its four mapped corners
    /// (rotations, skews, flips), and nil when a corner is not finite. Compared with the
    /// corners mapped one by one; the weird numbers as sides and as transform entries.
    /// On ordinary rectangles the box also holds every corner.
    func testARectanglesBoxUnderATransformHoldsItsMappedCornersExactly() {
        var transforms: [Transform] = [.identity, .rotation(0.3), .rotation(-2.2), .scale(-1, 2), .translation(5, -7),
                                       Transform(a: 1, b: 0.5, c: -0.25, d: 1, tx: 3, ty: 4)]
        for w in weird { transforms.append(Transform(a: 1, b: w, c: 0, d: 1, tx: w, ty: 0)) }
        for t in transforms {
            for (i, a) in weird.enumerated() {
                let b = weird[(i * 3 + 1) % weird.count]
                let r = Rect(x: a, y: -3, width: abs(b), height: 8)
                let c = [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)].map(t.apply)
                guard let box = r.applying(t) else {
                    XCTAssertFalse(c.allSatisfy(\.isFinite), "\(r) under \(t): nil for finite corners")
                    continue
                }
                XCTAssertTrue(c.allSatisfy(\.isFinite), "\(r) under \(t): a box for non-finite corners")
                if abs(a) < 1e6 && abs(b) < 1e6 && abs(t.b) < 1e6 && abs(t.tx) < 1e6 {
                    for p in c {
                        XCTAssertTrue(p.x >= box.minX - 1e-9 && p.x <= box.maxX + 1e-9 && p.y >= box.minY - 1e-9
                                      && p.y <= box.maxY + 1e-9, "\(p) outside \(box)")
                    }
                }
                // As a corner and a size, the box of the corners' extremes (with huge
                // coordinates its far side rounds, as any Rect's does).
                let expected = Rect(corner: Point(c.map(\.x).min()!, c.map(\.y).min()!),
                                    Point(c.map(\.x).max()!, c.map(\.y).max()!))
                // Bit for bit: which of two equal extremes is kept shows only in a zero's sign.
                XCTAssertEqual([box.x, box.y, box.width, box.height].map(\.bitPattern),
                               [expected.x, expected.y, expected.width, expected.height].map(\.bitPattern), "\(r) under \(t)")
            }
        }
    }
}
