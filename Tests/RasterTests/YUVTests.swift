import CRasterKernels
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
                for level in levels {
                    crk_set_wide(level)
                    let got = frame.yuv420p()
                    if got != ref {
                        let i = zip(got, ref).enumerated().first { $0.element.0 != $0.element.1 }!.offset
                        XCTFail("\(w)x\(h) level \(level): byte \(i) is \(got[i]), reference \(ref[i])")
                    }
                }
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
            for level in levels.dropFirst() {
                crk_set_wide(level)
                let got = frame.yuv420p()
                if got != scalar {
                    let i = zip(got, scalar).enumerated().first { $0.element.0 != $0.element.1 }!.offset
                    XCTFail("\(w)x\(h) level \(level): byte \(i) is \(got[i]), scalar \(scalar[i])")
                    return
                }
            }
        }
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
