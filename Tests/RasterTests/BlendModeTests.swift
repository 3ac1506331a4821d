import XCTest
import Geometry
@testable import Raster
import TestSupport

/// Blend modes against the W3C Compositing and Blending Level 1 formulas, evaluated in
/// Double from the same premultiplied 8-bit inputs.
final class BlendModeTests: XCTestCase {
    /// B(Cb, Cs) for a separable mode, straight colours in 0…1.
    static func w3c(_ mode: BlendMode, _ cb: Double, _ cs: Double) -> Double {
        switch mode {
        case .sourceOver: return cs
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return w3c(.hardLight, cs, cb)
        case .darken: return min(cb, cs)
        case .lighten: return max(cb, cs)
        case .colorDodge:
            if cb == 0 { return 0 }
            if cs == 1 { return 1 }
            return min(1, cb / (1 - cs))
        case .colorBurn:
            if cb == 1 { return 1 }
            if cs == 0 { return 0 }
            return 1 - min(1, (1 - cb) / cs)
        case .hardLight:
            return cs <= 0.5 ? w3c(.multiply, cb, 2 * cs) : w3c(.screen, cb, 2 * cs - 1)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        case .difference: return abs(cb - cs)
        case .exclusion: return cb + cs - 2 * cb * cs
        }
    }

    /// The composite of premultiplied 8-bit `s` over `d`, in 8-bit units, unrounded:
    /// co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs), αo = αs + αb − αs·αb.
    static func reference(_ mode: BlendMode, _ s: PremultipliedRGBA8, _ d: PremultipliedRGBA8) -> [Double] {
        let sa = Double(s.a) / 255, da = Double(d.a) / 255
        let sc = [s.r, s.g, s.b].map { Double($0) / 255 }, dc = [d.r, d.g, d.b].map { Double($0) / 255 }
        var out: [Double] = []
        for k in 0..<3 {
            let cs = sa > 0 ? sc[k] / sa : 0, cb = da > 0 ? dc[k] / da : 0
            out.append(255 * (sc[k] * (1 - da) + dc[k] * (1 - sa) + sa * da * w3c(mode, cb, cs)))
        }
        out.append(255 * (sa + da - sa * da))
        return out
    }

    /// Premultiplied pixels over a grid of straight colours and alphas, including 0 and 255.
    static let grid: [PremultipliedRGBA8] = {
        var out: [PremultipliedRGBA8] = []
        let levels: [Double] = [0, 0.07, 0.25, 0.5, 0.62, 0.8, 1]
        let alphas: [Double] = [0, 0.02, 0.3, 0.5, 0.77, 1]
        for a in alphas {
            for (i, r) in levels.enumerated() {
                let g = levels[(i + 2) % levels.count], b = levels[(i + 5) % levels.count]
                out.append(Color(r: r, g: g, b: b, a: a).premultiplied)
            }
        }
        return out
    }()

    func testEveryModeMatchesTheW3CFormulaOnAGrid() {
        for mode in BlendMode.allCases {
            var worst = 0.0
            for s in Self.grid {
                for d in Self.grid {
                    let got = PremultipliedRGBA8(packed: blend(mode, s.packed, d.packed))
                    let e = Self.reference(mode, s, d)
                    let g = [got.r, got.g, got.b, got.a].map(Double.init)
                    for k in 0..<4 { worst = max(worst, abs(g[k] - e[k])) }
                    XCTAssert(got.r <= got.a && got.g <= got.a && got.b <= got.a, "\(mode) not premultiplied")
                }
            }
            XCTAssertLessThanOrEqual(worst, 1.0, "\(mode)")
        }
    }

    func testEveryModeMatchesTheFormulaForAllChannelValuesAtSomeAlphas() {
        // Every colour level against every other, at a few alpha pairs.
        for mode in BlendMode.allCases {
            var worst = 0.0
            for (sa, da) in [(255, 255), (128, 255), (255, 77), (200, 31)] as [(UInt8, UInt8)] {
                for sc in stride(from: 0, through: Int(sa), by: 3) {
                    for dc in stride(from: 0, through: Int(da), by: 5) {
                        let s = PremultipliedRGBA8(r: UInt8(sc), g: UInt8(sc / 2), b: sa, a: sa)
                        let d = PremultipliedRGBA8(r: UInt8(dc), g: da, b: UInt8(dc / 3), a: da)
                        let got = PremultipliedRGBA8(packed: blend(mode, s.packed, d.packed))
                        let e = Self.reference(mode, s, d)
                        let g = [got.r, got.g, got.b, got.a].map(Double.init)
                        for k in 0..<4 { worst = max(worst, abs(g[k] - e[k])) }
                    }
                }
            }
            XCTAssertLessThanOrEqual(worst, 1.0, "\(mode)")
        }
    }

    func testCanvasFillAppliesTheModeWithCoverageAndOpacity() {
        // Backdrops laid out one per column; the source fills columns with partial coverage
        // in the middle row band, through opacity.
        let backdrops = Self.grid.filter { $0.a > 0 }
        let w = backdrops.count
        for mode in BlendMode.allCases {
            var pm = Pixmap(width: w, height: 3)
            for (x, d) in backdrops.enumerated() { for y in 0..<3 { pm.setPixel(x, y, d) } }
            let c = Canvas(pixmap: pm)
            let src = Color(r: 0.8, g: 0.3, b: 0.55, a: 0.9)
            // Row 0 fully covered, row 1 covered a quarter (the rectangle ends at y = 1.25).
            c.fill(.rect(Rect(x: 0, y: 0, width: Double(w), height: 1.25)), paint: .solid(src), opacity: 0.5,
                   blendMode: mode)
            let s8 = src.premultiplied
            for (x, d) in backdrops.enumerated() {
                // Opacity scales the source (rounded to 8 bits, as the rasterizer rounds
                // coverage); partial coverage interpolates towards the backdrop.
                let cov0 = 128.0, cov1 = 32.0
                for (y, cov) in [(0, cov0), (1, cov1)] {
                    let full = Self.reference(mode == .sourceOver ? .sourceOver : mode,
                                              mode == .sourceOver ? scaled(s8, cov) : s8, d)
                    let dd = [d.r, d.g, d.b, d.a].map(Double.init)
                    let e = mode == .sourceOver ? full : (0..<4).map { dd[$0] + (full[$0] - dd[$0]) * cov / 255 }
                    let p = c.pixmap.pixel(x, y)
                    let g = [p.r, p.g, p.b, p.a].map(Double.init)
                    for k in 0..<4 {
                        XCTAssertEqual(g[k], e[k], accuracy: 1.5, "\(mode) backdrop \(d) row \(y) channel \(k)")
                    }
                }
                XCTAssertEqual(c.pixmap.pixel(x, 2), d, "\(mode): an uncovered pixel keeps its backdrop")
            }
        }
    }

    func scaled(_ p: PremultipliedRGBA8, _ k: Double) -> PremultipliedRGBA8 {
        func s(_ v: UInt8) -> UInt8 { UInt8((Double(v) * k / 255).rounded()) }
        return PremultipliedRGBA8(r: s(p.r), g: s(p.g), b: s(p.b), a: s(p.a))
    }

    func testMultiplyAndScreenOnKnownColours() {
        let c = Canvas(width: 2, height: 1, background: Color(r: 0.5, g: 1, b: 0))
        c.fill(.rect(Rect(x: 0, y: 0, width: 1, height: 1)), paint: .solid(Color(r: 0.5, g: 0.5, b: 1)), blendMode: .multiply)
        c.fill(.rect(Rect(x: 1, y: 0, width: 1, height: 1)), paint: .solid(Color(r: 0.5, g: 0.5, b: 1)), blendMode: .screen)
        // 128·128/255 = 64.25; screen: 128 + 128 − 64.25.
        XCTAssertEqual(c.pixmap.pixel(0, 0), PremultipliedRGBA8(r: 64, g: 128, b: 0, a: 255))
        XCTAssertEqual(c.pixmap.pixel(1, 0), PremultipliedRGBA8(r: 192, g: 255, b: 255, a: 255))
    }

    func testGradientsAndLayersCompositeWithBlendModes() {
        // A gradient through the two-pass path equals the formula at each pixel.
        let c = Canvas(width: 32, height: 1, background: Color(r: 0.2, g: 0.6, b: 0.9))
        let g = LinearGradient(start: Point(0, 0), end: Point(32, 0), colors: [.black, .white])
        c.fill(.rect(Rect(x: 0, y: 0, width: 32, height: 1)), paint: .linearGradient(g), blendMode: .difference)
        let bg = Color(r: 0.2, g: 0.6, b: 0.9).premultiplied
        for x in [0, 7, 16, 31] {
            let v = 255 * (Double(x) + 0.5) / 32
            XCTAssertEqual(Double(c.pixmap.pixel(x, 0).r), abs(v - Double(bg.r)), accuracy: 1.5)
            XCTAssertEqual(Double(c.pixmap.pixel(x, 0).b), abs(v - Double(bg.b)), accuracy: 1.5)
        }
        // A layer composited with multiply at half opacity: the group first, then the mode.
        let l = Canvas(width: 4, height: 1, background: Color(r: 1, g: 0.5, b: 0.2))
        l.beginLayer(opacity: 0.5, blendMode: .multiply)
        l.fill(.rect(Rect(x: 0, y: 0, width: 4, height: 1)), paint: .solid(Color(r: 0, g: 0, b: 1)))
        l.fill(.rect(Rect(x: 0, y: 0, width: 2, height: 1)), paint: .solid(Color(r: 0.5, g: 1, b: 1)))
        l.endLayer()
        let bd = Color(r: 1, g: 0.5, b: 0.2).premultiplied
        // Multiply by (0.5, 1, 1), halfway back to the backdrop.
        let left = l.pixmap.pixel(0, 0), right = l.pixmap.pixel(3, 0)
        XCTAssertEqual(Double(left.r), (255 + 255 * 128 / 255.0) / 2, accuracy: 1)
        XCTAssertEqual(left.g, bd.g)
        XCTAssertEqual(Double(right.r), Double(bd.r) / 2, accuracy: 1)
        XCTAssertEqual(Double(right.g), Double(bd.g) / 2, accuracy: 1)
        XCTAssertEqual(right.b, bd.b)
        XCTAssertEqual(right.a, 255)
    }

    /// The 16-bit-lane scaling of the solid blitter gives `scalePacked`'s bytes for every
    /// channel value and factor.
    func testScaleBytesMatchesScalePackedEverywhere() {
        for k in 0...255 {
            let kv = SIMD8<UInt16>(repeating: UInt16(k))
            for c in stride(from: 0, through: 255, by: 4) {
                let bytes = SIMD16<UInt8>((0..<16).map { UInt8((c + $0 % 4) % 256) })
                let out = unsafeBitCast(scaleBytes(bytes, kv), to: SIMD4<UInt32>.self)
                let inp = unsafeBitCast(bytes, to: SIMD4<UInt32>.self)
                for lane in 0..<4 { XCTAssertEqual(out[lane], scalePacked(inp[lane], UInt32(k))) }
            }
        }
        // And a whole span: blitSolid against the scalar formula, with a ragged tail.
        var row = (0..<23).map { UInt32(truncatingIfNeeded: $0 &* 0x9E37_79B9) | 0xFF00_0000 }
        let expected = row.map { sourceOver(scalePacked(0x80_40_20_60, 200), $0) }
        row.withUnsafeMutableBufferPointer { blitSolid($0.baseAddress!, 0, 23, 200, 0x80_40_20_60) }
        XCTAssertEqual(row, expected)
    }

    /// The vectorised source-over of a row of varying pixels equals `sourceOver` pixel
    /// by pixel, at full and partial coverage, tails included.
    func testOverSpanMatchesSourceOver() {
        var rng: UInt32 = 12345
        func next() -> UInt32 { rng = rng &* 1_664_525 &+ 1_013_904_223; return rng }
        // Valid premultiplied sources (each channel at most alpha), including 0 and 255 alphas.
        let src: [UInt32] = (0..<37).map { i in
            let a = i % 9 == 0 ? 0 : (i % 7 == 0 ? 255 : next() >> 24)
            let r = a == 0 ? 0 : next() % (a + 1), g = a == 0 ? 0 : next() % (a + 1), b = a == 0 ? 0 : next() % (a + 1)
            return a << 24 | b << 16 | g << 8 | r
        }
        let dst0: [UInt32] = (0..<37).map { _ in next() | 0xFF00_0000 }
        for cov: UInt32 in [255, 254, 128, 1, 0] {
            var dst = dst0
            dst.withUnsafeMutableBufferPointer { d in src.withUnsafeBufferPointer { overSpan(d.baseAddress!, $0.baseAddress!, 37, cov) } }
            let expected = zip(src, dst0).map { sourceOver(scalePacked($0, cov), $1) }
            XCTAssertEqual(dst, expected, "coverage \(cov)")
        }
    }

    /// A span's column at once (`blitSolidColumn`, a vertical hairline's rows) gives the
    /// bytes of `blitSolid` on each row: spans of 1–3 pixels, 1–40 rows, coverage 0–255,
    /// opaque and translucent colours, on random pixels; the pixels beside the column and
    /// between the rows stay as they were.
    func testAColumnOfShortSpansGivesTheBytesOfItsRows() {
        var rng = SplitMix64(seed: 0x1234_5678)
        func next() -> UInt32 { rng.u32() }
        for round in 0..<3000 {
            let stride = 7, rows = 1 + Int(next() % 40), len = 1 + Int(next() % 3), x = Int(next() % 4)
            let a = round % 3 == 0 ? 255 : next() % 256
            let color = a << 24 | (next() % (a + 1)) << 16 | (next() % (a + 1)) << 8 | next() % (a + 1)
            let cov = round % 4 == 0 ? 255 : next() % 256
            let pixels = (0..<(stride * rows)).map { _ in next() }
            var byRows = pixels, byColumn = pixels
            byRows.withUnsafeMutableBufferPointer { p in
                for r in 0..<rows { blitSolid(p.baseAddress! + r * stride, x, len, cov, color) }
            }
            byColumn.withUnsafeMutableBufferPointer { p in blitSolidColumn(p.baseAddress! + x, stride, rows, len, cov, color) }
            XCTAssertEqual(byColumn, byRows, "round \(round): \(rows) rows of \(len) at coverage \(cov), colour \(color)")
            if byColumn != byRows { break }
        }
    }
}
