import XCTest
import Geometry
import Raster
@testable import Scene

/// A grid stroked as one path of straight lines is drawn line by line when no device pixel
/// is shared by two of them (each line is then a rectangle the rasterizer sweeps without
/// cells), and only then: the bytes are those of the one stroke.
final class SeparateLinesTests: XCTestCase {
    /// A small deterministic generator (no shared support target here).
    struct Numbers {
        var state: UInt64
        mutating func unit() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    func grid(_ positions: [Double], vertical: Bool, from a: Double, to b: Double) -> Path {
        var p = Path()
        for x in positions {
            p.move(to: vertical ? Point(x, a) : Point(a, x))
            p.line(to: vertical ? Point(x, b) : Point(b, x))
        }
        return p
    }

    func testLinesDrawnOneByOneGiveTheBytesOfTheOneStroke() {
        var rng = Numbers(state: 3)
        var separated = 0, whole = 0
        for trial in 0..<400 {
            let vertical = trial % 2 == 0
            let width = [1, 0.5, 1.5, 2, 3.25][trial % 5]
            var positions: [Double] = []
            var x = 3 + rng.unit() * 4
            for _ in 0..<(2 + trial % 7) {
                positions.append(trial % 3 == 0 ? x.rounded() + 0.5 : x)
                x += (trial % 4 == 0 ? 0.6 : 2.5) + rng.unit() * 12   // sometimes close enough to share pixels
            }
            let path = grid(positions, vertical: vertical, from: 2.3 + rng.unit(), to: 40.7 + rng.unit() * 10)
            let transform: Transform = trial % 8 == 1 ? Transform(a: 0.73, b: 0, c: 0, d: 1.31, tx: 0.4, ty: -0.15)
                : trial % 8 == 5 ? .rotation(0.3) : .identity
            let style = StrokeStyle(width: width, cap: trial % 16 == 7 ? .square : .butt)
            let color = Color(r: 0.2, g: 0.4, b: 0.9, a: trial % 3 == 0 ? 1 : 0.7)
            let node = ShapeNode(id: "grid", path: path, stroke: (.solid(color), style))
            let viaNode = Canvas(width: 120, height: 120, background: .white)
            viaNode.concatenate(transform)
            node.render(at: 0, on: viaNode)
            let direct = Canvas(width: 120, height: 120, background: .white)
            direct.concatenate(transform)
            direct.stroke(path, style: style, paint: .solid(color))
            XCTAssertEqual(viaNode.pixmap.data, direct.pixmap.data, "trial \(trial): \(positions), width \(width)")
            if ShapeNode.separateLines(path, style, transform) != nil { separated += 1 } else { whole += 1 }
        }
        XCTAssertGreaterThan(separated, 100, "most grids are drawn line by line")
        XCTAssertGreaterThan(whole, 50, "lines sharing pixels, square caps and rotations are not")
    }

    func testOnlyLinesThatShareNoPixelAreSeparated() {
        let butt = StrokeStyle(width: 1, cap: .butt)
        // Centred on pixel columns 10, 20 and 30: separate.
        XCTAssertEqual(ShapeNode.separateLines(grid([10.5, 20.5, 30.5], vertical: true, from: 0, to: 50), butt, .identity)?.count, 3)
        // Lines 10 … 11 and 11 … 12 touch without sharing a pixel column; 10.5 … 11.5 and
        // 11.5 … 12.5 share column 11.
        XCTAssertEqual(ShapeNode.separateLines(grid([10.5, 11.5], vertical: true, from: 0, to: 50), butt, .identity)?.count, 2)
        XCTAssertNil(ShapeNode.separateLines(grid([11, 12], vertical: true, from: 0, to: 50), butt, .identity))
        // 10.7 … 11.7 and 11.9 … 12.9 both touch column 11.
        XCTAssertNil(ShapeNode.separateLines(grid([11.2, 12.4], vertical: true, from: 0, to: 50), butt, .identity))
        // Apart in user space, together in device space under a shrinking transform.
        XCTAssertNil(ShapeNode.separateLines(grid([10.5, 11.5], vertical: true, from: 0, to: 50), butt, .scale(0.25, 1)))
        // Mixed directions, a curve, a dash: as one stroke.
        var mixed = grid([10.5], vertical: true, from: 0, to: 50)
        mixed.move(to: Point(0, 20.5)); mixed.line(to: Point(50, 20.5))
        XCTAssertNil(ShapeNode.separateLines(mixed, butt, .identity))
        XCTAssertNil(ShapeNode.separateLines(grid([10.5, 20.5], vertical: true, from: 0, to: 50),
                                             { var s = StrokeStyle(width: 1, cap: .butt); s.dash = [2, 2]; return s }(), .identity))
        XCTAssertNil(ShapeNode.separateLines(grid([10.5], vertical: true, from: 0, to: 50), butt, .identity), "one line: nothing to separate")
    }
}
