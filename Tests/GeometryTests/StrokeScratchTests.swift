import XCTest
@testable import Geometry

/// A scratch reused from stroke to stroke gives exactly the outline of a fresh stroke,
/// whatever it held before, and actually reuses storage.
final class StrokeScratchTests: XCTestCase {
    /// Deterministic pseudo-random polylines of varied kinds: long and short, open and
    /// closed, with repeated points, a single point and non-finite points.
    func shapes() -> [(Polyline, StrokeStyle)] {
        var seed: UInt64 = 0x5eed
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var out: [(Polyline, StrokeStyle)] = []
        let caps: [LineCap] = [.butt, .round, .square], joins: [LineJoin] = [.miter, .round, .bevel]
        for k in 0..<40 {
            let n = [1, 2, 3, 7, 50, 3000][k % 6]
            var pts: [Point] = []
            for i in 0..<n {
                pts.append(Point(Double(i) * 0.7 + next() * 3, 100 * next()))
                if i % 17 == 5 { pts.append(pts[pts.count - 1]) }   // a repeated point
            }
            if k % 9 == 4 { pts.insert(Point(.nan, 1), at: pts.count / 2) }
            let dashes: [Double]? = k % 5 == 3 ? [4 + 10 * next(), 2 + 5 * next()] : nil
            let style = StrokeStyle(width: 0.5 + 8 * next(), cap: caps[k % 3], join: joins[(k / 3) % 3],
                                    dash: dashes ?? [])
            out.append((Polyline(points: pts, closed: k % 4 == 1), style))
        }
        return out
    }

    func testReusedScratchGivesTheFreshOutline() {
        let scratch = StrokeScratch()
        var reusedArrays = 0
        for round in 0..<2 {
            for (k, (line, style)) in shapes().enumerated() {
                let fresh = Stroker.stroke([line], style: style, tolerance: 0.05)
                let spare = Set(scratch.outlines.map { $0.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } })
                var reused = Stroker.stroke([line], style: style, tolerance: 0.05, scratch: scratch)
                XCTAssertTrue(reused == fresh, "shape \(k), round \(round)")
                for p in reused where spare.contains(p.points.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }) {
                    reusedArrays += 1
                }
                scratch.recycle(&reused)
                XCTAssertTrue(reused.isEmpty)
                XCTAssertLessThanOrEqual(scratch.outlines.count, 4)
                XCTAssertTrue(scratch.outlines.allSatisfy { $0.capacity >= 1024 })
            }
        }
        // The 3,000-point strokes' outlines come back and are filled again in place.
        XCTAssertGreaterThan(reusedArrays, 5)
    }

    /// An outline the caller still holds elsewhere is not written over by a later stroke.
    func testRecycledOutlineStillSharedIsLeftAlone() {
        let scratch = StrokeScratch()
        let line = Polyline(points: (0..<2000).map { Point(Double($0), Double($0 % 7)) }, closed: false)
        var first = Stroker.stroke([line], style: StrokeStyle(width: 3), scratch: scratch)
        let kept = first
        scratch.recycle(&first)
        let other = Polyline(points: (0..<2000).map { Point(Double($0 % 13), Double($0)) }, closed: false)
        var second = Stroker.stroke([other], style: StrokeStyle(width: 5), scratch: scratch)
        XCTAssertTrue(kept == Stroker.stroke([line], style: StrokeStyle(width: 3)))
        XCTAssertTrue(second == Stroker.stroke([other], style: StrokeStyle(width: 5)))
        scratch.recycle(&second)
    }

    func testScratchKeepingNothingKeepsNothing() {
        let scratch = StrokeScratch(keeping: 0)
        let line = Polyline(points: (0..<2000).map { Point(Double($0), 0) }, closed: false)
        var o = Stroker.stroke([line], style: StrokeStyle(width: 2), scratch: scratch)
        scratch.recycle(&o)
        XCTAssertTrue(scratch.outlines.isEmpty)
    }
}
