import XCTest
import Geometry
@testable import Raster

/// Layers narrowed to the clip box and to the caller's bounds draw what full-frame
/// layers draw.
final class BoundedLayerTests: XCTestCase {
    /// A scene of nested layers, clips and transforms; `bounded` passes each layer the
    /// box of what is drawn in it.
    func draw(bounded: Bool, paint: Paint) -> Pixmap {
        let c = Canvas(width: 90, height: 70, background: Color(r: 0.95, g: 0.9, b: 0.8))
        c.save()
        c.concatenate(.translation(5.5, 3.25))
        c.beginLayer(opacity: 0.6, bounds: bounded ? Rect(x: 8, y: 6, width: 50, height: 40) : nil)
        c.fill(.ellipse(in: Rect(x: 10, y: 8, width: 46, height: 36)), paint: paint)
        c.save()
        c.clip(to: .ellipse(in: Rect(x: 20, y: 10, width: 40, height: 30)))
        c.concatenate(.rotation(0.3))
        c.beginLayer(opacity: 0.5, blendMode: .multiply, bounds: bounded ? Rect(x: 15, y: 0, width: 30, height: 25) : nil)
        c.fill(.rect(Rect(x: 16, y: 2, width: 26, height: 20)), paint: .solid(Color(r: 0.1, g: 0.6, b: 0.9)))
        c.endLayer()
        c.restore()
        c.endLayer()
        c.restore()
        c.stroke(.ellipse(in: Rect(x: 60, y: 40, width: 20, height: 20)), style: StrokeStyle(width: 3), paint: .solid(.black))
        return c.takePixmap()
    }

    func testBoundedLayersDrawWhatFullLayersDraw() {
        XCTAssertEqual(draw(bounded: true, paint: .solid(Color(r: 0.8, g: 0.2, b: 0.3))),
                       draw(bounded: false, paint: .solid(Color(r: 0.8, g: 0.2, b: 0.3))))
        // A gradient is evaluated at shifted device positions: the same within a level.
        let g = Paint.linearGradient(LinearGradient(start: Point(10, 8), end: Point(56, 44),
                                            colors: [Color(r: 1, g: 0, b: 0), Color(r: 0, g: 0, b: 1)]))
        let a = draw(bounded: true, paint: g), b = draw(bounded: false, paint: g)
        XCTAssertLessThanOrEqual(zip(a.data, b.data).map { abs(Int($0) - Int($1)) }.max()!, 1)
    }

    func testInsideALayerTransformAndDeviceCoordinatesAreTheCanvas() {
        let c = Canvas(width: 40, height: 40, background: .white)
        c.concatenate(.translation(3, 4))
        let before = c.transform
        c.beginLayer(opacity: 1, bounds: Rect(x: 10, y: 10, width: 10, height: 10))
        XCTAssertEqual(c.transform, before, "the transform a caller sees does not move")
        XCTAssertEqual(c.width, 40)
        XCTAssertEqual(c.clipBounds.x0, 12, "the clip is reported in the canvas's pixels")
        // fillDevice takes the canvas's pixels, inside a layer too.
        c.fillDevice([Polyline(points: [Point(14, 15), Point(18, 15), Point(18, 19), Point(14, 19)], closed: true)],
                     paint: .solid(.black), rule: .nonZero, opacity: 1)
        c.save()
        c.concatenate(.scale(2, 2))
        c.endLayer()   // pops the save made inside the layer
        XCTAssertEqual(c.transform, before)
        c.restore()    // nothing left to pop inside; the outer state stays
        XCTAssertEqual(c.transform, before)
        let p = c.takePixmap()
        XCTAssertEqual(p.pixel(16, 17), PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
        XCTAssertEqual(p.pixel(12, 17), PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
    }

    /// Drawing outside the bounds given to a layer is cut off (the bounds promise it).
    func testInkOutsideTheBoundsIsCut() {
        let c = Canvas(width: 40, height: 20, background: .white)
        c.beginLayer(opacity: 1, bounds: Rect(x: 0, y: 0, width: 10, height: 20))
        c.fill(.rect(Rect(x: 0, y: 0, width: 40, height: 20)), paint: .solid(.black))
        c.endLayer()
        let p = c.takePixmap()
        XCTAssertEqual(p.pixel(5, 10).r, 0)
        XCTAssertEqual(p.pixel(30, 10).r, 255)
    }

    /// A layer over an empty clip or empty bounds draws nothing and does not crash.
    func testEmptyLayers() {
        let c = Canvas(width: 20, height: 20, background: .white)
        c.save()
        c.clip(to: Rect(x: 30, y: 30, width: 5, height: 5))
        c.beginLayer(opacity: 0.5)
        c.fill(.rect(Rect(x: 0, y: 0, width: 20, height: 20)), paint: .solid(.black))
        c.endLayer()
        c.restore()
        c.beginLayer(opacity: 0.5, bounds: Rect(x: 100, y: 100, width: 1, height: 1))
        c.fill(.rect(Rect(x: 0, y: 0, width: 20, height: 20)), paint: .solid(.black))
        c.endLayer()
        c.beginLayer(opacity: 0.5, bounds: Rect(x: .nan, y: 0, width: 1, height: 1))
        c.endLayer()
        XCTAssertTrue(c.takePixmap().data.allSatisfy { $0 == 255 })
    }
}
