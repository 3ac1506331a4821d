import XCTest
import Geometry
import Motion
import Raster
@testable import Scene

/// Cached layers must not change a single byte. (The same check over every document
/// under timelines/ is in TimelinesTests/FrameCacheTests.swift.)
final class FrameCacheTests: XCTestCase {
    /// A scene with every kind of change the cache must see through: a group layer whose
    /// opacity animates, a shape that moves on a spring, an animated fill colour, geometry
    /// that changes over time, a counting number on a pill, keyframes, a trim offset, and
    /// a static card after them all.
    func variedScene() -> Scene {
        var card = ShapeNode(id: "card", path: .roundedRect(Rect(x: 20, y: 20, width: 360, height: 260), cornerRadius: 12),
                             fill: (.solid(Color(r: 0.95, g: 0.95, b: 0.97)), .nonZero))
        card.opacity = .constant(1)
        var dot = ShapeNode(id: "dot", path: .circle(center: Point(80, 80), radius: 20), fill: (.solid(.black), .nonZero))
        dot.motion.scaleX = .tween(Tween(from: 0, to: 1, animation: .spring(duration: 0.6, bounce: 0.3)))
        dot.motion.scaleY = dot.motion.scaleX
        dot.motion.anchor = Point(80, 80)
        dot.fillColor = AnimatedColor(from: Color(r: 1, g: 0.2, b: 0.3), to: Color(r: 0.35, g: 0.8, b: 0.98),
                                      animation: Animation(duration: 1.0, delay: 0.4))
        var wedge = ShapeNode(id: "wedge", path: .wedge(center: Point(200, 150), radius: 60, startAngle: 0, endAngle: 2, clockwise: true),
                              fill: (.solid(Color(r: 0.2, g: 0.6, b: 0.3)), .nonZero))
        wedge.dynamicPath = { t in .wedge(center: Point(200, 150), radius: 60, startAngle: 0, endAngle: 2 * min(1, max(0.01, t / 0.9)), clockwise: true) }
        wedge.dynamicPathEnd = 0.9
        var ring = ShapeNode(id: "ring", path: .circle(center: Point(320, 200), radius: 40),
                             stroke: (.solid(.black), StrokeStyle(width: 4, cap: .round, dash: [10, 6])))
        ring.trimEnd = .constant(0.3)
        ring.trimOffset = .keyframes(Keyframes([Keyframe(time: 0.1, value: 0), Keyframe(time: 0.7, value: 0.5),
                                                Keyframe(time: 1.2, value: 1)])!)
        var count = TextNode(id: "count", "0", font: dejaVu, size: 18, color: .white, position: Point(60, 240),
                             background: TextBackground(color: .black))
        count.counter = (tween(0, 120, duration: 1.1, delay: 0.2), { String(Int($0.rounded())) })
        let layer = GroupNode(id: "layer", children: [.shape(dot), .shape(wedge)], opacity: tween(0.2, 1, duration: 0.8))
        let title = TextNode(id: "title", "Late start", font: dejaVu, size: 14, position: Point(30, 290))
        return Scene(width: 400, height: 300, background: .white, fps: 30,
                     nodes: [.shape(card), .group(layer), .shape(ring), .text(count), .text(title)])
    }

    func testCachedAndUncachedFramesAreByteIdentical() {
        for (name, scene) in [("curved-line reveal", curvedLineReveal()), ("varied", variedScene())] {
            let renderer = FrameRenderer(scene: scene)
            let n = scene.frameCount(fps: 5)
            var hits = 0
            for i in 0..<n {
                let t = Scene.time(ofFrame: i, fps: 5)
                XCTAssertTrue(renderer.frame(at: t).data == scene.frame(at: t).data, "\(name) frame \(i) differs when cached")
                hits += renderer.spans.prefix { $0.state(at: t) != nil }.isEmpty ? 0 : 1
            }
            XCTAssertGreaterThan(hits, 0, "\(name) never reused a layer")
            // Out of order (as parallel workers ask) gives the same bytes too.
            for i in stride(from: n - 1, through: 0, by: -3) {
                let t = Scene.time(ofFrame: i, fps: 5)
                XCTAssertTrue(renderer.frame(at: t).data == scene.frame(at: t).data, "\(name) frame \(i) out of order")
            }
        }
    }

    /// Frames handed back are drawn into again (the same storage comes back), the pixels
    /// stay those of a fresh render, a held picture is never reused, and a copy the caller
    /// kept of a recycled frame keeps its pixels.
    func testRecycledFramesAreDrawnIntoAndStayByteIdentical() {
        for (name, scene) in [("curved-line reveal", curvedLineReveal()), ("varied", variedScene())] {
            let r = FrameRenderer(scene: scene)
            var reused = 0, held = 0
            // A frame handed back becomes a spare at the next hand-back (FrameRenderer.recycle),
            // so a frame is drawn into the storage of the one two before it.
            var previous: [UnsafeRawPointer?] = [nil, nil]
            var kept: (Pixmap, [UInt8])?
            for i in 0..<scene.frameCount(fps: 10) {
                let t = Scene.time(ofFrame: i, fps: 10)
                let f = r.frame(at: t)
                XCTAssertTrue(f.data == scene.frame(at: t).data, "\(name) frame \(i) differs when recycled")
                if f.mayRepeat {
                    held += 1
                    XCTAssertEqual(f.storageAddress, r.frame(at: t).storageAddress, "a hold is one shared picture")
                } else if f.storageAddress == previous[0] {
                    reused += 1
                }
                previous = [previous[1], f.mayRepeat ? nil : f.storageAddress]
                if i == 3 { kept = (f, f.data) }   // the caller keeps a copy of frame 3 and recycles it anyway
                r.recycle(f)
                if f.mayRepeat { XCTAssertTrue(r.spares.withLock { $0.isEmpty }, "a held picture is not a spare") }
            }
            XCTAssertGreaterThan(reused, 3, "\(name): recycled frames are drawn into")
            XCTAssertGreaterThan(held, 0, "\(name) ends on a hold")
            if let (copy, bytes) = kept { XCTAssertTrue(copy.data == bytes, "a kept copy is never drawn over") }
        }
        // Another size is not kept.
        let r = FrameRenderer(scene: curvedLineReveal())
        r.recycle(Pixmap(width: 3, height: 3))
        XCTAssertTrue(r.spares.withLock { $0.isEmpty })
    }

    /// A scene whose first node changes on every frame, so no picture is cached and every
    /// frame is drawn on the background: a bar growing and moving, a label riding it, a
    /// group clipped to a rectangle whose edges fall between pixels, a fading layer.
    func movingScene() -> Scene {
        var bar = ShapeNode(id: "bar", path: .rect(Rect(x: 10, y: 40, width: 20, height: 30)),
                            fill: (.solid(Color(r: 0.2, g: 0.5, b: 0.8)), .nonZero))
        bar.dynamicPath = { t in .roundedRect(Rect(x: 10 + 40 * t, y: 40 + 60 * sin(3 * t), width: 20 + 250 * t, height: 30),
                                              cornerRadius: 4) }
        bar.dynamicPathEnd = 1.2
        var label = TextNode(id: "value", "0", font: dejaVu, size: 15, color: .white, position: Point(60, 55),
                             anchor: TextAnchor(.trailing, .center))
        label.counter = (tween(0, 98765, duration: 1.2), { v in "\(Int(v) / 10).\(Int(v) % 10)" })
        label.motion.translateX = tween(0, 290, duration: 1.2)
        label.subpixelSteps = 4
        var dot = ShapeNode(id: "dot", path: .circle(center: Point(300, 200), radius: 30), fill: (.solid(.black), .nonZero))
        dot.motion.translateX = tween(-250, 60, duration: 1.2)
        var clipped = GroupNode(id: "clipped", children: [.shape(dot)])
        clipped.clip = Rect(x: 20.5, y: 150.25, width: 330, height: 100.5)
        let fading = GroupNode(id: "fading", children: [.shape(ShapeNode(id: "card", path: .rect(Rect(x: 200, y: 20, width: 150, height: 80)),
                                                                         fill: (.solid(Color(r: 0.9, g: 0.3, b: 0.2)), .nonZero)))],
                               opacity: tween(1, 0.1, duration: 1.2))
        return Scene(width: 400, height: 300, background: Color(r: 0.98, g: 0.97, b: 0.95), fps: 30,
                     nodes: [.shape(bar), .text(label), .group(clipped), .group(fading)])
    }

    /// Frames drawn on the background into recycled storage clear only the boxes the
    /// frame before drew into (`Pixmap.damage`) and give the bytes of a fresh render.
    func testRecycledFramesOnTheBackgroundClearOnlyWhatWasDrawn() {
        let scene = movingScene()
        let r = FrameRenderer(scene: scene)
        var reused = 0, damaged = 0
        var previous: [UnsafeRawPointer?] = [nil, nil]
        let frames = 36   // up to 1.17 s, before everything stops at 1.2 s
        for i in 0..<frames {
            let t = Scene.time(ofFrame: i, fps: 30)
            XCTAssertNil(r.spans.first?.state(at: t), "frame \(i) draws everything")
            let f = r.frame(at: t)
            XCTAssertTrue(f.data == scene.frame(at: t).data, "frame \(i) differs when drawn into recycled storage")
            if f.storageAddress == previous[0] { reused += 1 }
            if f.damage != nil { damaged += 1 }
            previous = [previous[1], f.storageAddress]
            r.recycle(f)
        }
        XCTAssertGreaterThan(reused, 20, "recycled frames are drawn into")
        XCTAssertEqual(damaged, frames, "every frame carries its boxes")
        // A frame written to after it was drawn is filled whole when it comes back.
        var f = r.frame(at: 0.5)
        f.setPixel(399, 299, PremultipliedRGBA8(r: 1, g: 2, b: 3, a: 255))
        XCTAssertNil(f.damage)
        r.recycle(f)
        r.recycle(r.frame(at: 0.6))
        XCTAssertTrue(r.frame(at: 0.7).data == scene.frame(at: 0.7).data)
    }

    /// A sink that writes a frame's own bytes hands back the bytes alone (`FrameSink.reclaim`
    /// wraps them in a new pixmap): the renderer keeps the frames it handed out, so one
    /// that comes back as its bytes gets its boxes back, and a converted copy (another
    /// storage) does not. Frames stay those of a fresh render either way.
    func testFramesThatComeBackAsBytesGetTheirBoxesBack() {
        let scene = movingScene()
        let r = FrameRenderer(scene: scene)
        var adopted = 0
        for i in 0..<30 {
            let t = Scene.time(ofFrame: i, fps: 30)
            let f = r.frame(at: t)
            XCTAssertTrue(f.data == scene.frame(at: t).data, "frame \(i)")
            let kept = r.outstanding.withLock { $0.frames.contains { $0.storageAddress == f.storageAddress } }
            XCTAssertEqual(kept, i > 0, "frame \(i) is kept once frames are handed back")
            // As RawRGBASink: the bytes out, a new pixmap around them back; every fourth
            // frame a converted copy instead (new storage), as for a translucent frame.
            let bytes = i % 4 == 3 ? f.data.withUnsafeBufferPointer { Array($0) } : f.data
            let address = f.storageAddress
            _ = consume f
            var back = Pixmap(width: scene.width, height: scene.height, premultipliedData: bytes)!
            XCTAssertNil(back.damage)
            if let k = r.outstanding.withLock({ $0.frames.first { $0.storageAddress == back.storageAddress } }) {
                back.adoptDamage(from: k)
                XCTAssertNotNil(back.damage)
                adopted += 1
            } else {
                XCTAssertTrue(i == 0 || i % 4 == 3 || back.storageAddress != address, "frame \(i) is found by its storage")
            }
            r.recycle(back)
            // Released when it comes back; a converted frame's original never does (it stays
            // until the bound drops it).
            let stillKept = r.outstanding.withLock { $0.frames.contains { $0.storageAddress == address } }
            XCTAssertEqual(stillKept, i > 0 && i % 4 == 3, "frame \(i)")
        }
        XCTAssertGreaterThan(adopted, 15)
        // Left: the originals of the seven converted frames, which never came back (bounded).
        XCTAssertEqual(r.outstanding.withLock { $0.frames.count }, 7)
    }

    /// A frame handed back becomes a spare only at the next hand-back: the caller may still
    /// hold a reference while `recycle` runs (a plain, not consumed, argument), and a worker
    /// taking the storage then would copy it whole before clearing it.
    func testAHandedBackFrameIsASpareFromTheNextHandBack() {
        let r = FrameRenderer(scene: variedScene())
        // As Export's OutputPlan.recycle hands frames on: without `consume`, so its own
        // reference lasts until the call returns.
        func handBack(_ f: consuming Pixmap) { r.recycle(f) }
        let a = r.frame(at: 0.3), b = r.frame(at: 0.6)
        XCTAssertFalse(a.mayRepeat || b.mayRepeat)
        let first = a.storageAddress
        handBack(consume a)
        XCTAssertTrue(r.spares.withLock { $0.isEmpty }, "not yet a spare")
        handBack(consume b)
        XCTAssertEqual(r.spares.withLock { $0.map(\.storageAddress) }, [first], "a spare once the next frame comes back")
        XCTAssertEqual(r.frame(at: 0.9).storageAddress, first, "and drawn into")
    }

    /// A frame handed back unshared (its caller consumed it and nothing else reads it) is a
    /// spare at once, and the next frame is drawn into it without a copy: at 4K the wait
    /// for the next hand-back parked a whole 33 MB frame. Shared and unshared hand-backs
    /// mixed keep every frame's bytes.
    func testAnUnsharedFrameIsASpareAtOnce() {
        let scene = variedScene()
        let r = FrameRenderer(scene: scene)
        let a = r.frame(at: 0.3)
        XCTAssertFalse(a.mayRepeat)
        let first = a.storageAddress
        r.recycle(consume a, unshared: true)
        XCTAssertEqual(r.spares.withLock { $0.map(\.storageAddress) }, [first], "a spare at once")
        XCTAssertTrue(r.handedBack.withLock { $0 == nil }, "nothing parked")
        let b = r.frame(at: 0.6)
        XCTAssertEqual(b.storageAddress, first, "drawn into, not copied")
        XCTAssertTrue(b.data == scene.frame(at: 0.6).data)
        var reused = 0
        var previous = b.storageAddress
        r.recycle(consume b, unshared: true)
        for (i, t) in stride(from: 0.0, through: 2.0, by: 0.1).enumerated() {
            let f = r.frame(at: t)
            XCTAssertTrue(f.data == scene.frame(at: t).data, "frame \(i) differs when drawn into a recycled frame")
            if f.storageAddress == previous { reused += 1 }
            previous = f.storageAddress
            r.recycle(consume f, unshared: i % 3 != 0)
        }
        XCTAssertGreaterThan(reused, 5, "unshared frames are drawn into at once")
    }

    func testTheHoldAtTheEndIsOnePicture() {
        let scene = curvedLineReveal()
        XCTAssertEqual(scene.effectiveDuration, 2.1, accuracy: 1e-12)
        let r = FrameRenderer(scene: scene)
        XCTAssertTrue(r.spans.allSatisfy { $0.state(at: 1.7) == .final })
        XCTAssertEqual(r.frame(at: 1.7).data, r.frame(at: 2.0).data)
        // Draw list: grid, fill, line, then the two axes.
        XCTAssertEqual(r.spans.count, 5)
        XCTAssertNil(r.spans[2].state(at: 0.5), "the line is drawing at 0.5 s")
        XCTAssertEqual(r.spans[1].state(at: 0.5), .initial, "the fill has not started at 0.5 s")
    }

    /// The cache is shared by the workers and bounded by bytes: an 800×600 video keeps
    /// its few pictures; above 1080p only the hold's whole picture is kept, and frames
    /// that are still changing are drawn from scratch (and still byte-identical).
    func testTheCacheIsBoundedByBytes() {
        let scene = curvedLineReveal()
        let r = FrameRenderer(scene: scene)
        for t in stride(from: 0.0, through: 2.0, by: 0.05) { _ = r.frame(at: t) }
        let small = r.cache.withLock { $0.map(\.pixels.data.count) }
        XCTAssertGreaterThan(small.count, 1)
        XCTAssertLessThanOrEqual(small.reduce(0, +), FrameRenderer.cacheBytes)

        let big = scene.scaled(by: 3)   // 2400×1800: 17 MB a picture
        let rb = FrameRenderer(scene: big)
        for t in [0.1, 0.5, 1.2] {
            XCTAssertEqual(rb.frame(at: t), big.frame(at: t))
            XCTAssertTrue(rb.cache.withLock { $0.isEmpty }, "a changing frame at \(t) s kept a big picture")
        }
        let hold = rb.frame(at: 1.8)
        XCTAssertEqual(rb.cache.withLock { $0.count }, 1)
        // The hold is that one picture, shared (no copy) by every frame of it.
        XCTAssertEqual(rb.frame(at: 2.0).data.withUnsafeBytes { $0.baseAddress }, hold.data.withUnsafeBytes { $0.baseAddress })
        _ = rb.frame(at: 0.5)
        XCTAssertTrue(rb.cache.withLock { $0.isEmpty }, "going back to a changing frame drops the big picture")
    }
}
