import XCTest
@testable import Geometry

/// Signed area of closed polygons (shoelace); positive for clockwise on screen (y down).
func signedArea(_ polys: [Polyline]) -> Double {
    var a = 0.0
    for p in polys {
        let n = p.points.count
        for i in 0..<n {
            let u = p.points[i], v = p.points[(i + 1) % n]
            a += u.x * v.y - v.x * u.y
        }
    }
    return a / 2
}

/// Signed area enclosed by a path, from a fine flattening.
func signedArea(_ path: Path, tolerance: Double = 1e-4) -> Double {
    signedArea(path.flattened(tolerance: tolerance).map { Polyline(points: $0.points, closed: true) })
}

/// A path through polylines, for measuring dash pieces with PathMeasure.
func path(_ polylines: [Polyline]) -> Path {
    var p = Path()
    for l in polylines {
        guard let f = l.points.first else { continue }
        p.move(to: f)
        for q in l.points.dropFirst() { p.line(to: q) }
        if l.closed { p.close() }
    }
    return p
}

/// Length of one polyline (closing segment included when closed).
func length(_ l: Polyline) -> Double { PathMeasure(path([l])).length }

/// Signed curvature of a cubic at t (positive turning clockwise on screen).
func curvature(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> Double {
    let u = 1 - t
    let d1 = (p1 - p0) * (3 * u * u) + (p2 - p1) * (6 * u * t) + (p3 - p2) * (3 * t * t)
    let d2 = (p2 - p1 * 2 + p0) * (6 * u) + (p3 - p2 * 2 + p1) * (6 * t)
    let s = d1.length
    return d1.cross(d2) / (s * s * s)
}

/// Number of subpaths (moves) in a path.
func subpathCount(_ p: Path) -> Int {
    p.elements.reduce(0) { n, e in if case .move = e { return n + 1 } else { return n } }
}

/// Winding number of `q` with respect to closed polygons.
func winding(_ q: Point, _ polys: [Polyline]) -> Int {
    var w = 0
    for p in polys {
        for i in 0..<p.points.count {
            let a = p.points[i], b = p.points[(i + 1) % p.points.count]
            let side = (b - a).cross(q - a)
            if a.y <= q.y && b.y > q.y && side > 0 { w += 1 }
            if a.y > q.y && b.y <= q.y && side < 0 { w -= 1 }
        }
    }
    return w
}

func XCTAssertPointEqual(_ a: Point?, _ b: Point, accuracy: Double, _ message: String = "",
                         file: StaticString = #filePath, line: UInt = #line) {
    guard let a else { return XCTFail("nil point; expected \(b) \(message)", file: file, line: line) }
    XCTAssertLessThanOrEqual((a - b).length, accuracy, "\(a) vs \(b) \(message)", file: file, line: line)
}
