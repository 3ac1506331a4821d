import CRasterKernels
import Geometry
import XCTest
import TestSupport
@testable import Raster

/// The yuv420p conversion (Pixmap+YUV.swift): the reference against the BT.709 definition
/// and known colours, and the fast kernels (AVX-512, AVX2 and the scalar C fallback)
/// against the reference, byte for byte: on every RGB triple for luma, on random frames of
/// every size parity for chroma.
final class YUVTests: XCTestCase {
    override func tearDown() { crk_reset_wide(); super.tearDown() }

    /// The kernel levels this CPU can run: the scalar C loop, and the AVX2 and AVX-512
    /// paths when present.
    var levels: [Int32] { Array(0...crk_cpu_level()) }

    /// Converts `frame` at each of `levels` (all by default) and fails at the first byte
    /// that is not `want`'s, naming the frame (`what`), the level and the byte; false then.
    @discardableResult
    func convertsTo(_ want: [UInt8], _ frame: Pixmap, at levels: [Int32]? = nil, _ what: @autoclosure () -> String) -> Bool {
        for level in levels ?? self.levels {
            crk_set_wide(level)
            let got = frame.yuv420p()
            guard got != want else { continue }
            let i = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
            XCTFail("\(what()) level \(level): byte \(i) of \(got.count) is \(i < got.count ? String(got[i]) : "missing"), expected \(i < want.count ? String(want[i]) : "nothing")")
            return false
        }
        return true
    }

    func opaque(_ w: Int, _ h: Int, _ pixel: (Int) -> UInt32) -> Pixmap {
        let words = [UInt32](unsafeUninitializedCapacity: w * h) { buf, n in
            for i in 0..<(w * h) { buf[i] = pixel(i) | 0xFF00_0000 }
            n = w * h
        }
        return Pixmap(width: w, height: h, premultipliedData: words.withUnsafeBytes { Array($0) })!
    }

    func testKnownColours() {
        // BT.709 limited range: the values every conversion table lists.
        let cases: [(UInt32, [UInt8])] = [(0xFFFFFF, [235, 128, 128]), (0x000000, [16, 128, 128]),
                                           (0x0000FF, [63, 102, 240]), (0x00FF00, [173, 42, 26]),
                                           (0xFF0000, [32, 240, 118]), (0x808080, [126, 128, 128])]
        for (rgb, yuv) in cases {
            let p = opaque(2, 2) { _ in rgb }
            let ref = p.yuv420pReference()
            XCTAssertEqual(ref, [yuv[0], yuv[0], yuv[0], yuv[0], yuv[1], yuv[2]], String(rgb, radix: 16))
            for level in levels {
                crk_set_wide(level)
                XCTAssertEqual(p.yuv420p(), ref, "level \(level)")
            }
        }
    }

    func testReferenceRoundsTheExactValueToNearest() {
        // The integer formulas against the definition in Double, where the exact value is
        // not within 1e-6 of a rounding boundary (Double is then certainly on the right side).
        var rng = SplitMix64(state: 709)
        let (kr, kb) = (0.2126, 0.0722), kg = 1 - kr - kb
        var checked = 0
        for _ in 0..<200_000 {
            let (r, g, b) = (Double(rng.next() % 256), Double(rng.next() % 256), Double(rng.next() % 256))
            let y = 16 + 219.0 / 255 * (kr * r + kg * g + kb * b)
            if abs(y - y.rounded(.down) - 0.5) > 1e-6 {
                XCTAssertEqual(Int(Pixmap.bt709Luma(r: Int(r), g: Int(g), b: Int(b))), Int((y + 0.5).rounded(.down)))
                checked += 1
            }
            // Chroma of weighted sums (weights 8 in all): the mean colour's Cb and Cr.
            let (sr, sg, sb) = (Int(rng.next() % 2041), Int(rng.next() % 2041), Int(rng.next() % 2041))
            let (mr, mg, mb) = (Double(sr) / 8, Double(sg) / 8, Double(sb) / 8)
            let yp = kr * mr + kg * mg + kb * mb
            let cb = 128 + 224.0 / 255 * (mb - yp) / (2 * (1 - kb)), cr = 128 + 224.0 / 255 * (mr - yp) / (2 * (1 - kr))
            let (icb, icr) = Pixmap.bt709Chroma(sumR: sr, sumG: sg, sumB: sb)
            if abs(cb - cb.rounded(.down) - 0.5) > 1e-6 { XCTAssertEqual(Int(icb), Int((cb + 0.5).rounded(.down))) }
            if abs(cr - cr.rounded(.down) - 0.5) > 1e-6 { XCTAssertEqual(Int(icr), Int((cr + 0.5).rounded(.down))) }
        }
        XCTAssertGreaterThan(checked, 199_000)
    }

    func testLumaOfEveryRGBTripleMatchesTheReference() {
        // All 2^24 colours in one 4096×4096 frame, pixel i = (R, G, B) of i.
        let p = opaque(4096, 4096) { UInt32($0) }
        let expected = [UInt8](unsafeUninitializedCapacity: 1 << 24) { buf, n in
            for i in 0..<(1 << 24) { buf[i] = Pixmap.bt709Luma(r: i & 255, g: (i >> 8) & 255, b: i >> 16) }
            n = 1 << 24
        }
        for level in levels {
            crk_set_wide(level)
            let luma = Array(p.yuv420p()[0..<(1 << 24)])
            guard luma != expected else { continue }
            let i = (0..<(1 << 24)).first { luma[$0] != expected[$0] }!
            XCTFail("level \(level): RGB \(String(i, radix: 16)) gives Y \(luma[i]), expected \(expected[i])")
        }
    }

    func testRandomFramesOfEverySizeParityMatchTheReference() {
        // Noise, a few flat colours with extremes (the largest weighted sums), and
        // translucent frames (converted from straight colour), at sizes around the vector
        // widths (AVX2: 16 pixels per 8 chroma samples, 8 luma; AVX-512: 32 per 16 chroma
        // samples after the first, 16 luma) and odd in either direction.
        var rng = SplitMix64(state: 2020)
        let sizes = [(1, 1), (1, 2), (2, 1), (2, 2), (3, 3), (5, 2), (15, 3), (16, 2), (17, 4), (18, 5), (31, 7),
                     (32, 2), (33, 9), (34, 3), (35, 2), (47, 1), (63, 3), (64, 64), (65, 5), (66, 2), (67, 3),
                     (97, 4), (98, 1), (100, 37), (130, 3), (257, 11), (801, 601), (1921, 7)]
        let palette: [UInt32] = [0x000000, 0xFFFFFF, 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0x00FFFF, 0xFF00FF, 0x6A5ACD]
        for (w, h) in sizes {
            let noise = opaque(w, h) { _ in UInt32(truncatingIfNeeded: rng.next()) }
            let flat = opaque(w, h) { _ in palette[Int(rng.next() % UInt64(palette.count))] }
            var translucent = Pixmap(width: w, height: h)
            for y in 0..<h {
                for x in 0..<w {
                    let a = UInt8(rng.next() % 256)
                    func c() -> UInt8 { a == 0 ? 0 : UInt8(rng.next() % (UInt64(a) + 1)) }
                    translucent.setPixel(x, y, PremultipliedRGBA8(r: c(), g: c(), b: c(), a: a))
                }
            }
            for frame in [noise, flat, translucent] {
                let ref = frame.yuv420pReference()
                XCTAssertEqual(ref.count, w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2))
                convertsTo(ref, frame, "\(w)x\(h)")
            }
        }
    }

    func testWideConstantsAreExactOverTheirWholeRange() {
        // The AVX-512 path divides by multiply-add constants found by search (yuv.c); the
        // C side checks them against the exact division on every input value.
        XCTAssertEqual(crk_yuv_check_constants(), 0)
    }

    func testWideKernelsMatchTheScalarKernelOnRandomFrames() {
        // Many random frames at random sizes, every level against the scalar C loop (the
        // reference is slower; the scalar loop is checked against it above): noise, and
        // frames of four random colours (long runs, where a lane mix-up cannot hide).
        var rng = SplitMix64(state: 5120)
        for round in 0..<400 {
            let w = 1 + Int(rng.next() % (round % 40 == 0 ? 2000 : 200)), h = 1 + Int(rng.next() % 6)
            let palette = (0..<4).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
            let frame = round % 2 == 0 ? opaque(w, h) { _ in UInt32(truncatingIfNeeded: rng.next()) }
                                       : opaque(w, h) { _ in palette[Int(rng.next() % 4)] }
            crk_set_wide(0)
            let scalar = frame.yuv420p()
            guard convertsTo(scalar, frame, at: Array(levels.dropFirst()), "\(w)x\(h) against the scalar loop") else { return }
        }
    }

    /// A frame of `background` with random opaque pixels inside random boxes (some off the
    /// frame, some empty, overlapping, one pixel wide), carrying those boxes as its damage.
    func damagedFrame(_ w: Int, _ h: Int, background: UInt32, boxes n: Int, _ rng: inout SplitMix64) -> Pixmap {
        var boxes: [Int32] = []
        for _ in 0..<n {
            let x0 = Int(rng.next() % UInt64(w + 8)) - 4, y0 = Int(rng.next() % UInt64(h + 8)) - 4
            let bw = Int(rng.next() % UInt64(rng.next() % 3 == 0 ? 3 : w / 2 + 2)), bh = Int(rng.next() % UInt64(h / 2 + 2))
            boxes += [Int32(x0), Int32(y0), Int32(x0 + bw), Int32(y0 + bh)]
        }
        var frame = opaque(w, h) { i in
            let x = i % w, y = i / w
            var k = 0
            while k < boxes.count {
                if x >= boxes[k] && x < boxes[k + 2] && y >= boxes[k + 1] && y < boxes[k + 3] { return UInt32(truncatingIfNeeded: rng.next()) }
                k += 4
            }
            return background
        }
        frame.damage = Pixmap.Damage(background: background | 0xFF00_0000, boxes: boxes)
        return frame
    }

    func testFramesConvertedInPartsMatchTheReference() {
        // A frame that knows where it differs from its background is converted only there
        // (crk_yuv420p_parts); the rest is the background's samples, written without
        // reading. Every level, sizes of both parities, boxes anywhere.
        var rng = SplitMix64(state: 4_202)
        for round in 0..<300 {
            let w = 1 + Int(rng.next() % (round % 25 == 0 ? 700 : 90)), h = 1 + Int(rng.next() % 40)
            let background = UInt32(truncatingIfNeeded: rng.next()) & 0xFFFFFF
            let frame = damagedFrame(w, h, background: background, boxes: Int(rng.next() % 9), &rng)
            guard convertsTo(frame.yuv420pReference(), frame, "round \(round), \(w)x\(h), boxes \(frame.damage!.boxes)") else { return }
        }
    }

    func testPartsAreTakenAndSkipWhatTheDamageLeavesOut() {
        // The parts path is the one taken: a pixel changed outside the damage boxes does not
        // reach the output (the frame broke the damage contract), while a whole conversion
        // sees it. And the parts for one box cover its samples and no others.
        var frame = opaque(40, 10) { _ in 0x336699 }
        frame.setPixel(30, 7, PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
        frame.setPixel(5, 2, PremultipliedRGBA8(r: 0, g: 255, b: 0, a: 255))
        frame.damage = Pixmap.Damage(background: 0xFF33_6699, boxes: [5, 2, 6, 3])
        let whole = frame.yuv420pReference()
        for level in levels {
            crk_set_wide(level)
            let parts = frame.yuv420p()
            XCTAssertEqual(parts[2 * 40 + 5], whole[2 * 40 + 5], "the damaged pixel's luma, level \(level)")
            XCTAssertNotEqual(parts[7 * 40 + 30], whole[7 * 40 + 30], "outside the damage: the background's luma, level \(level)")
            XCTAssertEqual(parts[7 * 40 + 30], Pixmap.bt709Luma(r: 0x99, g: 0x66, b: 0x33))
        }
        // Box columns 5 ..< 6, rows 2 ..< 3: samples 2 … 3 of row pair 1 only.
        let p = Pixmap.yuvParts(of: frame.damage!, width: 40, height: 10)!
        XCTAssertEqual(p.parts, [2, 4])
        XCTAssertEqual(p.rows, [0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
        // A box over columns 6 ..< 8 reaches samples 3 (columns 5–7) and 4 (7–9).
        let q = Pixmap.yuvParts(of: Pixmap.Damage(background: 0xFF00_0000, boxes: [6, 0, 8, 1, 0, 9, 1, 10]), width: 40, height: 10)!
        XCTAssertEqual(q.parts, [3, 5, 0, 1])
        XCTAssertEqual(q.rows, [0, 1, 1, 1, 1, 1, 1, 1, 1, 2])
    }

    func testCanvasFramesConvertedInPartsMatchTheReference() {
        // Frames drawn by a canvas on a background carry its damage boxes (strokes, layers,
        // gradients, clipped fills): converted in parts, they give the whole conversion.
        var rng = SplitMix64(state: 77)
        let canvas = Canvas(width: 1, height: 1)
        let background = PremultipliedRGBA8(r: 250, g: 248, b: 240, a: 255)
        var used = 0
        for round in 0..<60 {
            canvas.reset(to: Pixmap(width: 161, height: 91, fill: background), background: background)
            for _ in 0..<(1 + round % 5) {
                let x = Double(rng.next() % 170) - 5, y = Double(rng.next() % 100) - 5
                let rect = Rect(x: x + 0.3, y: y + 0.7, width: Double(rng.next() % 40) + 0.5, height: Double(rng.next() % 30) + 0.5)
                let color = Color(r: Double(rng.next() % 256) / 255, g: 0.4, b: 0.7, a: Double(1 + rng.next() % 255) / 255)
                if rng.next() % 2 == 0 {
                    canvas.fill(.roundedRect(rect, cornerRadius: 3), paint: .solid(color))
                } else {
                    canvas.stroke(.circle(center: Point(x, y), radius: 3 + Double(rng.next() % 20)), style: StrokeStyle(width: 1.5),
                                  paint: .solid(color))
                }
            }
            let frame = canvas.takePixmap()
            guard frame.damage != nil else { continue }
            used += 1
            convertsTo(frame.yuv420pReference(), frame, "round \(round)")
        }
        XCTAssertEqual(used, 60)
    }

    func testChromaIsSitedOnTheLeftColumn() {
        // A red column 0 on black, 4×2: sample 0 weighs column 0 three quarters (its own
        // weight 2, and the clamped column −1), sample 1 (columns 1–3) sees no red.
        let p = opaque(4, 2) { $0 % 4 == 0 ? 0x0000FF : 0 }
        let yuv = p.yuv420pReference()
        let (cb0, cr0) = Pixmap.bt709Chroma(sumR: 6 * 255, sumG: 0, sumB: 0)
        XCTAssertEqual(Array(yuv[8...11]), [cb0, 128, cr0, 128])
        XCTAssertEqual(cr0, 212)   // 128 + 112·3/4
        // A red column 1: sample 0 weighs it a quarter, sample 1 a quarter (its column 2i−1).
        let q = opaque(4, 2) { $0 % 4 == 1 ? 0x0000FF : 0 }.yuv420pReference()
        XCTAssertEqual(q[10], 156)   // 128 + 112/4
        XCTAssertEqual(q[11], 156)
    }
}
