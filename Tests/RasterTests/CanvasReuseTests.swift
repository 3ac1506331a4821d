import XCTest
import Geometry
@testable import Raster

/// A canvas reused frame after frame (`reset(to:)`, spare layers) must draw exactly what
/// a fresh canvas draws.
final class CanvasReuseTests: XCTestCase {
    /// Draws a frame with nested layers, one at opacity 0 (drawn but never composited)
    /// and one cleared to a colour, so every way a layer is left dirty is exercised.
    static func draw(_ c: Canvas, frame f: Int) {
        let d = Double(f)
        c.beginLayer(opacity: 0.6)
        c.fill(.ellipse(in: Rect(x: 4 + d, y: 6, width: 30, height: 20)), paint: .solid(Color(r: 0.9, g: 0.2, b: 0.1)))
        c.beginLayer(opacity: 0.5, blendMode: .multiply)
        c.fill(.rect(Rect(x: 10, y: 3 + d, width: 25.5, height: 14)), paint: .solid(Color(r: 0.1, g: 0.4, b: 0.9)))
        c.endLayer()
        c.endLayer()
        c.beginLayer(opacity: 0)
        c.fill(.rect(Rect(x: 0, y: 0, width: 48, height: 32)), paint: .solid(.black))
        c.endLayer()
        if f % 2 == 1 {
            c.beginLayer(opacity: 0.25)
            c.clear(Color(r: 0, g: 1, b: 0))
            c.endLayer()
        }
        c.stroke(.ellipse(in: Rect(x: 20, y: 10, width: 12 + d, height: 12)), style: StrokeStyle(width: 2), paint: .solid(.black))
    }

    func testReusedCanvasDrawsWhatAFreshCanvasDraws() {
        let reused = Canvas(width: 1, height: 1)
        for f in 0..<6 {
            let fresh = Canvas(width: 48, height: 32, background: .white)
            Self.draw(fresh, frame: f)
            reused.reset(to: Pixmap(width: 48, height: 32, fill: Color.white.premultiplied))
            Self.draw(reused, frame: f)
            XCTAssertEqual(reused.takePixmap(), fresh.pixmap, "frame \(f)")
        }
        // Each frame's layers came back cleared: the spare ones are transparent.
        XCTAssertFalse(reused.spareLayers.isEmpty)
        for l in reused.spareLayers { XCTAssertTrue(l.data.allSatisfy { $0 == 0 }) }
    }

    func testLayersAreReusedNotReallocated() {
        let c = Canvas(width: 32, height: 32, background: .white)
        c.beginLayer(opacity: 0.5)
        c.fill(.rect(Rect(x: 2, y: 2, width: 8, height: 8)), paint: .solid(.black))
        c.endLayer()
        let spare = c.spareLayers.first.map { l in l.data.withUnsafeBytes { $0.baseAddress } }
        c.beginLayer(opacity: 0.5)
        let inUse = c.pixmap.data.withUnsafeBytes { $0.baseAddress }
        c.endLayer()
        XCTAssertNotNil(spare)
        XCTAssertEqual(spare, inUse)
    }

    /// A spare of another shape is reshaped, not reallocated, when it has room: after a
    /// reset to another size the layer has the new size, in the old spare's storage, and
    /// is transparent; a bigger layer gets new storage with room to grow; at most four
    /// spares are kept.
    func testSpareLayersAreReshapedWhenTheyHaveRoom() {
        let c = Canvas(width: 16, height: 16)
        c.beginLayer(opacity: 0.5)
        c.fill(.rect(Rect(x: 0, y: 0, width: 16, height: 16)), paint: .solid(.black))
        c.endLayer()
        XCTAssertEqual(c.spareLayers.map(\.width), [16])
        let spare = c.spareLayers[0].storageAddress
        c.reset(to: Pixmap(width: 20, height: 10))
        c.beginLayer(opacity: 1)
        XCTAssertEqual(c.pixmap.width, 20)
        XCTAssertEqual(c.pixmap.height, 10)
        XCTAssertEqual(c.pixmap.storageAddress, spare, "reshaped in place")
        XCTAssertTrue(c.pixmap.data.allSatisfy { $0 == 0 }, "a reshaped layer is transparent")
        c.fill(.rect(Rect(x: 3, y: 2, width: 9, height: 5)), paint: .solid(.white))
        c.endLayer()
        XCTAssertEqual(c.pixmap.pixel(4, 3), Color.white.premultiplied)
        c.reset(to: Pixmap(width: 40, height: 40))
        c.beginLayer(opacity: 1)
        XCTAssertNotEqual(c.pixmap.storageAddress, spare, "no spare had room for 40x40")
        XCTAssertGreaterThanOrEqual(c.pixmap.data.capacity, 40 * 40 * 5)
        c.endLayer()
        for _ in 1...6 { c.beginLayer(opacity: 0.5) }
        for _ in 1...6 { c.endLayer() }
        XCTAssertEqual(c.spareLayers.count, 4)
        for l in c.spareLayers { XCTAssertTrue(l.data.allSatisfy { $0 == 0 }) }
    }

    /// `takePixmap` hands over the storage without a copy.
    func testTakePixmapDoesNotCopy() {
        let c = Canvas(width: 8, height: 8, background: .white)
        c.fill(.rect(Rect(x: 0, y: 0, width: 4, height: 4)), paint: .solid(.black))
        let before = c.pixmap.data.withUnsafeBytes { $0.baseAddress }
        let p = c.takePixmap()
        XCTAssertEqual(p.data.withUnsafeBytes { $0.baseAddress }, before)
        XCTAssertEqual(p.pixel(1, 1), PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
        XCTAssertEqual(c.width, 1)
    }

    /// Every pixel's alpha, looked at (not the flag).
    static func scannedOpaque(_ p: Pixmap) -> Bool { stride(from: 3, to: p.data.count, by: 4).allSatisfy { p.data[$0] == 255 } }

    /// A canvas that starts opaque hands out pixmaps known to be opaque, and they are:
    /// every blend mode, partial coverage, clips and layers keep opaque pixels opaque.
    func testDrawingOnAnOpaqueCanvasIsKnownToStayOpaque() {
        for mode in BlendMode.allCases {
            let c = Canvas(width: 40, height: 30, background: Color(r: 0.2, g: 0.7, b: 0.4))
            c.fill(.ellipse(in: Rect(x: 3.3, y: 2.7, width: 30, height: 21)), paint: .solid(Color(r: 0.9, g: 0.1, b: 0.5, a: 0.6)), blendMode: mode)
            c.save()
            c.clip(to: .ellipse(in: Rect(x: 10, y: 5, width: 20, height: 20)))
            c.beginLayer(opacity: 0.7, blendMode: mode)
            c.fill(.rect(Rect(x: 0, y: 0, width: 40, height: 30)), paint: .solid(Color(r: 0.1, g: 0.2, b: 0.9, a: 0.5)))
            c.endLayer()
            c.restore()
            let p = c.takePixmap()
            XCTAssertTrue(p.isKnownOpaque, "\(mode)")
            XCTAssertTrue(Self.scannedOpaque(p), "\(mode) made a pixel translucent")
        }
    }

    func testTranslucentStartsAndDirectWritesAreNotKnownOpaque() {
        let t = Canvas(width: 8, height: 8)
        t.fill(.rect(Rect(x: 0, y: 0, width: 8, height: 8)), paint: .solid(.black))
        XCTAssertFalse(t.takePixmap().isKnownOpaque, "a transparent start is not assumed opaque")
        let c = Canvas(width: 8, height: 8, background: .white)
        c.clear(Color(r: 1, g: 1, b: 1, a: 0.5))
        let cleared = c.takePixmap()
        XCTAssertFalse(cleared.isKnownOpaque)
        XCTAssertFalse(cleared.isOpaque)
        var p = Pixmap(width: 4, height: 4, fill: Color.white.premultiplied)
        XCTAssertTrue(p.isKnownOpaque)
        p.data[3] = 10
        XCTAssertFalse(p.isKnownOpaque)
        XCTAssertFalse(p.isOpaque)
        p.fill(Color.black.premultiplied)
        XCTAssertTrue(p.isKnownOpaque)
        // The flag is not part of equality.
        var q = p
        q.data[0] = q.data[0]
        XCTAssertEqual(p, q)
        XCTAssertNotEqual(p.isKnownOpaque, q.isKnownOpaque)
    }

    /// A canvas keeps the gradient tables it built lately: the same gradient drawn again
    /// reuses its table and paints the same bytes; a different one gets its own.
    func testGradientTablesAreReusedByEqualGradients() {
        let g = LinearGradient(start: Point(0, 0), end: Point(20, 0), colors: [Color(r: 1, g: 0, b: 0), Color(r: 0, g: 0, b: 1)])
        let h = LinearGradient(start: Point(0, 0), end: Point(20, 0), colors: [Color(r: 0, g: 1, b: 0), Color(r: 0, g: 0, b: 1)])
        let c = Canvas(width: 20, height: 4, background: .white)
        c.fill(.rect(Rect(x: 0, y: 0, width: 20, height: 2)), paint: .linearGradient(g))
        c.fill(.rect(Rect(x: 0, y: 2, width: 20, height: 2)), paint: .linearGradient(g))
        XCTAssertEqual(c.gradientTables.count, 1)
        for x in 0..<20 { XCTAssertEqual(c.pixmap.pixel(x, 0), c.pixmap.pixel(x, 3)) }
        c.fill(.rect(Rect(x: 0, y: 0, width: 20, height: 4)), paint: .linearGradient(h))
        XCTAssertEqual(c.gradientTables.count, 2)
        XCTAssertGreaterThan(c.pixmap.pixel(0, 0).g, 240, "the second gradient starts green")
        XCTAssertLessThan(c.pixmap.pixel(0, 0).r, 10)
    }

    /// More gradients than the cache holds: it stays at its capacity, drops the least
    /// recently used table first, and a gradient drawn again after its table was dropped
    /// paints the same bytes as the first time.
    func testGradientTableCacheDropsTheLeastRecentlyUsed() {
        func gradient(_ i: Int) -> Paint {
            .linearGradient(LinearGradient(start: Point(0, 0), end: Point(10, 0),
                                           colors: [Color(r: Double(i % 16) / 15, g: Double(i / 16) / 20, b: 0.5),
                                                    Color(r: 0, g: 0, b: 1)]))
        }
        let cap = Canvas.gradientTableCapacity
        let c = Canvas(width: 10, height: 2, background: .white)
        c.fill(.rect(Rect(x: 0, y: 0, width: 10, height: 1)), paint: gradient(0))
        let first = (0..<10).map { c.pixmap.pixel($0, 0) }
        for i in 1..<cap { c.fill(.rect(Rect(x: 0, y: 1, width: 10, height: 1)), paint: gradient(i)) }
        XCTAssertEqual(c.gradientTables.count, cap)
        // Gradient 0 used again, then one more new gradient: gradient 1, not 0, goes.
        c.fill(.rect(Rect(x: 0, y: 1, width: 10, height: 1)), paint: gradient(0))
        c.fill(.rect(Rect(x: 0, y: 1, width: 10, height: 1)), paint: gradient(cap))
        XCTAssertEqual(c.gradientTables.count, cap)
        let keys = Set(c.gradientTables.keys.map { $0.stops[0].color.r * 15 + $0.stops[0].color.g * 20 * 16 }.map { Int($0.rounded()) })
        XCTAssertTrue(keys.contains(0))
        XCTAssertFalse(keys.contains(1))
        // Gradient 1 rebuilt paints what it painted before it was dropped.
        let d = Canvas(width: 10, height: 1, background: .white)
        d.fill(.rect(Rect(x: 0, y: 0, width: 10, height: 1)), paint: gradient(1))
        c.fill(.rect(Rect(x: 0, y: 0, width: 10, height: 1)), paint: gradient(1))
        XCTAssertEqual((0..<10).map { c.pixmap.pixel($0, 0) }, (0..<10).map { d.pixmap.pixel($0, 0) })
        XCTAssertNotEqual(first, (0..<10).map { c.pixmap.pixel($0, 0) })
    }

    /// A fill with white, black or transparent (one byte repeated) is a memset; any
    /// other colour the word loop. Both give every pixel the colour.
    func testFillWithUniformAndMixedBytes() {
        for p in [PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255), PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 0),
                  PremultipliedRGBA8(r: 10, g: 20, b: 30, a: 255)] {
            var m = Pixmap(width: 7, height: 3, fill: p)
            XCTAssertTrue((0..<21).allSatisfy { m.pixel($0 % 7, $0 / 7) == p })
            m.fill(PremultipliedRGBA8(r: 1, g: 1, b: 1, a: 1))
            XCTAssertTrue((0..<21).allSatisfy { m.pixel($0 % 7, $0 / 7) == PremultipliedRGBA8(r: 1, g: 1, b: 1, a: 1) })
            m.fill(p)
            XCTAssertTrue((0..<21).allSatisfy { m.pixel($0 % 7, $0 / 7) == p })
        }
    }
}
