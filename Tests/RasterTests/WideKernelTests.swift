import CRasterKernels
import Foundation
import Geometry
import XCTest
import TestSupport
@testable import Raster

/// The wide kernels (CRasterKernels, AVX2 and AVX-512) against their scalar references in Raster, on
/// millions of random inputs: a frame must not depend on the CPU it was drawn on. Each
/// test runs the kernels at every level this CPU has (the wide path, and the C scalar
/// fallback), and the canvas test draws whole scenes both ways.
final class WideKernelTests: XCTestCase {
    override func tearDown() { crk_reset_wide(); super.tearDown() }

    /// The target's seeded generator (SplitMix64.swift), with the draws these tests need
    /// (below).
    typealias RNG = SplitMix64

    /// The levels to test: the scalar C fallback and whatever the CPU has of AVX2 and AVX-512.
    var levels: [Int32] { Array(0...crk_cpu_level()) }

    func testCPUDetectionMatchesTheKernel() throws {
        // cpuid's answer agrees with what the kernel reports in /proc/cpuinfo.
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let flags = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else {
            XCTAssertEqual(crk_cpu_level() >= 0, true); return
        }
        let f = Set(flags.split(separator: " "))
        let avx512 = ["avx512f", "avx512dq", "avx512bw", "avx512vl"].allSatisfy { f.contains(Substring($0)) }
        XCTAssertEqual(crk_cpu_level(), f.contains("avx2") ? (avx512 ? 2 : 1) : 0)
        crk_set_wide(0)
        XCTAssertEqual(crk_wide(), 0)
        crk_set_wide(7)
        XCTAssertEqual(crk_wide(), crk_cpu_level())
    }

    func testSimdOffInTheEnvironmentForcesTheScalarPath() throws {
        // A child process of this test binary would need a new test runner; the decision
        // is a pure function of the variable and the CPU level instead.
        XCTAssertEqual(crk_choose_level("off", 1), 0)
        XCTAssertEqual(crk_choose_level("0", 1), 0)
        XCTAssertEqual(crk_choose_level("scalar", 1), 0)
        XCTAssertEqual(crk_choose_level(nil, 1), 1)
        XCTAssertEqual(crk_choose_level("on", 1), 1)
        XCTAssertEqual(crk_choose_level(nil, 0), 0)
        XCTAssertEqual(crk_choose_level("avx2", 2), 1)
        XCTAssertEqual(crk_choose_level("avx2", 0), 0)
        XCTAssertEqual(crk_choose_level(nil, 2), 2)
        // And the decision this process makes from its own environment (run the tests
        // with CHARTREEL_SIMD=off and =avx2 as well to check those sides).
        crk_reset_wide()
        let simd = ProcessInfo.processInfo.environment["CHARTREEL_SIMD"]
        let expected: Int32 = simd == "off" ? 0 : simd == "avx2" ? min(1, crk_cpu_level()) : crk_cpu_level()
        XCTAssertEqual(crk_wide(), expected)
    }

    func testOverSpanMatchesReference() {
        var rng = RNG(state: 1)
        var src = [UInt32](repeating: 0, count: 64), dst = src, ref = src
        for level in levels {
            crk_set_wide(level)
            for _ in 0..<15_000 {
                let len = rng.below(41), cov = rng.coverage()
                for i in 0..<len { src[i] = rng.pixel(); dst[i] = rng.pixel() }
                ref = dst
                ref.withUnsafeMutableBufferPointer { r in src.withUnsafeBufferPointer { overSpan(r.baseAddress!, $0.baseAddress!, len, cov) } }
                dst.withUnsafeMutableBufferPointer { d in src.withUnsafeBufferPointer { crk_over_span(d.baseAddress!, $0.baseAddress!, len, cov) } }
                if dst != ref { XCTFail("level \(level) length \(len) coverage \(cov): \(dst) != \(ref)"); return }
            }
        }
    }

    func testEveryChannelTimesEveryFactorMatchesReference() {
        // The kernels scale a channel x by a factor k (0…255) with one 16-bit multiply's
        // high half, (t·257) >> 16 with t = x·k + 128, where the reference computes
        // (t + (t >> 8)) >> 8 (kernels.c, scale16). Every pair of x and k, at every level,
        // through the three kernels that scale: the source by its coverage (over_span), and
        // the destination by 255 − α of the source (over_span and solid_span). Rows of 256
        // pixels, pixel i holding i in all four channels, take the wide loops end to end.
        var row = [UInt32](repeating: 0, count: 256), src = row
        for i in 0..<256 { row[i] = UInt32(i) * 0x0101_0101 }
        for level in levels {
            crk_set_wide(level)
            for f in 0..<256 {
                let k = UInt32(f)
                // Source channels i, coverage k; destination the reversed row.
                var dst = Array(row.reversed()), ref = dst
                ref.withUnsafeMutableBufferPointer { r in row.withUnsafeBufferPointer { overSpan(r.baseAddress!, $0.baseAddress!, 256, k) } }
                dst.withUnsafeMutableBufferPointer { d in row.withUnsafeBufferPointer { crk_over_span(d.baseAddress!, $0.baseAddress!, 256, k) } }
                if dst != ref { XCTFail("level \(level): source scaled by coverage \(k) differs"); return }
                // Destination channels i under a source of alpha k: factor 255 − k.
                for i in 0..<256 { src[i] = k * 0x0101_0101 }
                dst = row; ref = row
                ref.withUnsafeMutableBufferPointer { r in src.withUnsafeBufferPointer { overSpan(r.baseAddress!, $0.baseAddress!, 256, 255) } }
                dst.withUnsafeMutableBufferPointer { d in src.withUnsafeBufferPointer { crk_over_span(d.baseAddress!, $0.baseAddress!, 256, 255) } }
                if dst != ref { XCTFail("level \(level): destination under alpha \(k) differs"); return }
                dst = row; ref = row
                ref.withUnsafeMutableBufferPointer { blitSolid($0.baseAddress!, 0, 256, 255, k * 0x0101_0101) }
                dst.withUnsafeMutableBufferPointer { crk_solid_span($0.baseAddress!, 256, 255, k * 0x0101_0101) }
                if dst != ref { XCTFail("level \(level): solid span of alpha \(k) differs"); return }
            }
        }
    }

    func testSolidSpanMatchesReference() {
        var rng = RNG(state: 2)
        var dst = [UInt32](repeating: 0, count: 64), ref = dst
        for level in levels {
            crk_set_wide(level)
            for _ in 0..<15_000 {
                let len = rng.below(41), cov = rng.coverage(), color = rng.pixel()
                for i in 0..<len { dst[i] = rng.pixel() }
                ref = dst
                ref.withUnsafeMutableBufferPointer { blitSolid($0.baseAddress!, 0, len, cov, color) }
                dst.withUnsafeMutableBufferPointer { blitSolidWide($0.baseAddress!, 0, len, cov, color) }
                if dst != ref { XCTFail("level \(level) length \(len) coverage \(cov) colour \(color)"); return }
            }
        }
    }

    func testOpaqueSpansMatchReference() {
        // Opaque colour at full coverage: wmemset from length `wideFillMinimum` up, Swift's
        // loop below it, through both blitters. Every length to 300 at every start within
        // a cache line against the colour's word written pixel by pixel, and the words on
        // either side untouched.
        var rng = RNG(state: 5)
        var dst = [UInt32](repeating: 0, count: 340), wide = dst, ref = dst
        for level in levels {
            crk_set_wide(level)
            for len in 0...300 {
                for x in 0..<16 {
                    let color = rng.pixel() | 0xFF00_0000
                    for i in dst.indices { dst[i] = rng.pixel() }
                    ref = dst; wide = dst
                    for i in x..<(x + len) { ref[i] = color }
                    dst.withUnsafeMutableBufferPointer { blitSolid($0.baseAddress!, x, len, 255, color) }
                    wide.withUnsafeMutableBufferPointer { blitSolidWide($0.baseAddress!, x, len, 255, color) }
                    if dst != ref || wide != ref { XCTFail("level \(level) length \(len) start \(x)"); return }
                }
            }
        }
        // And the fill alone, against the plain loop.
        for len in [0, 1, 7, 31, 32, 33, 1000, 4096 + 3] {
            var a = [UInt32](repeating: 7, count: len + 2), b = a
            for i in 0..<len { b[1 + i] = 0xFF11_2233 }
            a.withUnsafeMutableBufferPointer { crk_fill_span($0.baseAddress! + 1, len, 0xFF11_2233) }
            XCTAssertEqual(a, b, "length \(len)")
        }
    }

    func testMaskSolidMatchesReferenceAndTheSpanBlitter() {
        // crk_mask_solid against maskSolidSpan, and maskSolidSpan against blitSolid run on
        // each pixel with that pixel's coverage: a mask built from spans gives their bytes.
        var rng = RNG(state: 7)
        var mask = [UInt8](repeating: 0, count: 64), dst = [UInt32](repeating: 0, count: 64), ref = dst, span = dst
        for level in levels {
            crk_set_wide(level)
            for _ in 0..<15_000 {
                let len = rng.below(41), color = rng.pixel()
                let zeros = rng.below(3) == 0   // long zero stretches, as between letters
                for i in 0..<len { mask[i] = zeros && rng.below(3) != 0 ? 0 : UInt8(rng.coverage()); dst[i] = rng.pixel() }
                ref = dst; span = dst
                ref.withUnsafeMutableBufferPointer { r in mask.withUnsafeBufferPointer { maskSolidSpan(r.baseAddress!, $0.baseAddress!, len, color) } }
                dst.withUnsafeMutableBufferPointer { d in mask.withUnsafeBufferPointer { crk_mask_solid(d.baseAddress!, $0.baseAddress!, len, color) } }
                span.withUnsafeMutableBufferPointer { p in for i in 0..<len { blitSolid(p.baseAddress!, i, 1, UInt32(mask[i]), color) } }
                if dst != ref { XCTFail("level \(level) length \(len) colour \(color): kernel differs"); return }
                if span != ref { XCTFail("length \(len) colour \(color): reference differs from blitSolid"); return }
            }
        }
    }

    func testBlockRowKernelsMatchTheRowLoops() {
        // crk_mask_solid_rows and crk_over_rows against the per-row loops they replace,
        // on blocks with empty rows and ranges that touch either edge.
        var rng = RNG(state: 8)
        let stride = 53, bw = 40
        for level in levels {
            crk_set_wide(level)
            for _ in 0..<2_000 {
                let rows = 1 + rng.below(12), color = rng.pixel()
                var ranges = [Int32](repeating: 0, count: 2 * rows)
                for r in 0..<rows where rng.below(5) != 0 {
                    let lo = rng.below(bw), hi = lo + rng.below(bw - lo + 1)
                    ranges[2 * r] = Int32(lo); ranges[2 * r + 1] = Int32(hi)
                }
                let mask = (0..<(rows * bw)).map { _ in UInt8(rng.coverage()) }
                let sprite = (0..<(rows * bw)).map { _ in rng.pixel() }
                var dst = (0..<(rows * stride)).map { _ in rng.pixel() }
                let start = dst
                var ref = dst
                ref.withUnsafeMutableBufferPointer { d in
                    mask.withUnsafeBufferPointer { m in
                        for r in 0..<rows {
                            let lo = Int(ranges[2 * r]), hi = Int(ranges[2 * r + 1])
                            if lo < hi { maskSolidSpan(d.baseAddress! + r * stride + lo, m.baseAddress! + r * bw + lo, hi - lo, color) }
                        }
                    }
                }
                dst.withUnsafeMutableBufferPointer { d in
                    mask.withUnsafeBufferPointer { crk_mask_solid_rows(d.baseAddress!, stride, $0.baseAddress!, bw, ranges, rows, color) }
                }
                if dst != ref { XCTFail("level \(level): mask rows differ"); return }
                dst = start; ref = start
                ref.withUnsafeMutableBufferPointer { d in
                    sprite.withUnsafeBufferPointer { s in
                        for r in 0..<rows {
                            let lo = Int(ranges[2 * r]), hi = Int(ranges[2 * r + 1])
                            if lo < hi { overSpan(d.baseAddress! + r * stride + lo, s.baseAddress! + r * bw + lo, hi - lo, 255) }
                        }
                    }
                }
                dst.withUnsafeMutableBufferPointer { d in
                    sprite.withUnsafeBufferPointer { crk_over_rows(d.baseAddress!, stride, $0.baseAddress!, bw, ranges, rows) }
                }
                if dst != ref { XCTFail("level \(level): sprite rows differ"); return }
            }
        }
    }

    /// Positions for the gradient kernels: ordinary ones, ones near table and period
    /// boundaries, huge, infinite and NaN.
    static func position(_ rng: inout RNG, _ n: Int) -> Double {
        switch rng.below(10) {
        case 0: return [Double.nan, .infinity, -.infinity, 0, -0.0, Double(n), 0x1p40, -0x1p40, 0x1p41, 1e300][rng.below(10)]
        case 1: return Double(rng.below(4 * n) - 2 * n) + [0, 1e-12, -1e-12, 0.5][rng.below(4)]
        case 2: return (rng.unit() - 0.5) * 0x1p44
        default: return (rng.unit() - 0.5) * Double(6 * n)
        }
    }

    /// Random spans of a 64-pixel window of a row starting at column `base`: sorted,
    /// disjoint, of lengths 1–40 (the edge pixels and interiors the sweep gives), at
    /// random coverage. Half the time short spans follow each other without gaps (an
    /// edge running along the row), which the kernels take 8 pixels at a time.
    static func spans(_ rng: inout RNG, base: Int) -> [Span] {
        var out: [Span] = [], x = rng.below(4)
        let tight = rng.below(2) == 0
        while x < 64 && out.count < 24 {
            let len = min(64 - x, rng.below(tight ? 8 : 3) == 0 ? 1 + rng.below(40) : 1 + rng.below(3))
            out.append(Span(x: Int32(base + x), length: Int32(len), alpha: UInt8(rng.coverage())))
            x += len + (tight ? 0 : rng.below(3))
        }
        return out
    }

    /// Runs `kernel` on the spans rebound to crk_span, with the row pointer moved so that
    /// column `base` is the window's first pixel.
    static func withKernelSpans(_ spans: [Span], _ window: inout [UInt32], base: Int,
                                _ kernel: (UnsafeMutablePointer<UInt32>, UnsafePointer<crk_span>, Int) -> Void) {
        spans.withUnsafeBufferPointer { sb in
            sb.withMemoryRebound(to: crk_span.self) { cs in
                window.withUnsafeMutableBufferPointer { kernel($0.baseAddress! - base, cs.baseAddress!, cs.count) }
            }
        }
    }

    /// Row `y`'s `spans` (inside the 64 pixels from `base`, which hold `pixels`) of the
    /// concentric radial gradient `s`: composited by the kernel at the level set
    /// (`crk_radial_spans`) and by the scalar reference (`shadeSpan`, `overSpan`).
    static func concentricRow(_ s: RadialShader, n: Int, spread: SpreadMode, lut: [UInt32], y: Int, spans: [Span],
                              base: Int, on pixels: [UInt32]) -> (kernel: [UInt32], reference: [UInt32]) {
        var sp = Shader.Params(kind: .radial, n: n, spread: spread)
        sp.radial = s
        var kernel = pixels, reference = pixels, scratch = pixels
        lut.withUnsafeBufferPointer { l in
            reference.withUnsafeMutableBufferPointer { r in
                scratch.withUnsafeMutableBufferPointer { sb in
                    for span in spans {
                        shadeSpan(sp, l.baseAddress!, sb.baseAddress!, Int(span.x), y, Int(span.length))
                        overSpan(r.baseAddress! - base + Int(span.x), sb.baseAddress!, Int(span.length), UInt32(span.alpha))
                    }
                }
            }
            let c = ConcentricRow(s, n, y)
            withKernelSpans(spans, &kernel, base: base) {
                crk_radial_spans($0, $1, $2, l.baseAddress!, Int32(n), spread.kernelCode, c.dx0, c.dy0, c.ux, c.uy, c.k, c.q0)
            }
        }
        return (kernel, reference)
    }

    func testLinearKernelMatchesReference() {
        var rng = RNG(state: 3)
        var dst = [UInt32](repeating: 0, count: 64), ref = dst, scratch = dst
        for level in levels {
            crk_set_wide(level)
            for n in [256, 1024, 4096] {
                let lut = (0..<(n + 2)).map { _ in rng.pixel() }
                for spread in SpreadMode.allCases {
                    for _ in 0..<3_000 {
                        let base = rng.below(4) == 0 ? 0 : rng.below(8000)
                        let spans = Self.spans(&rng, base: base)
                        var q0 = Float(Self.position(&rng, n) + 1)
                        // Float positions one step either side of a whole number: table and
                        // period boundaries, where truncation and flooring differ by one.
                        if rng.below(8) == 0 { q0 = Float(rng.below(4 * n) - 2 * n); q0 = rng.below(2) == 0 ? q0.nextUp : q0.nextDown }
                        // Slopes under two entries a pixel (a third of the time) keep each vector's indices
                        // within the kernels' permute window; steeper ones take the gather.
                        let a = Float(rng.below(6) == 0 ? Self.position(&rng, n)
                                      : rng.below(3) == 0 ? (rng.unit() - 0.5) * 4 : (rng.unit() - 0.5) * Double(n) / 50)
                        for i in 0..<64 { dst[i] = rng.pixel() }
                        ref = dst
                        lut.withUnsafeBufferPointer { l in
                            ref.withUnsafeMutableBufferPointer { r in
                                scratch.withUnsafeMutableBufferPointer { s in
                                    for sp in spans {
                                        blitLinear(r.baseAddress! - base, Int(sp.x), Int(sp.length), UInt32(sp.alpha), l.baseAddress!, n,
                                                   spread, q0, a, s.baseAddress!)
                                    }
                                }
                            }
                            Self.withKernelSpans(spans, &dst, base: base) {
                                crk_linear_spans($0, $1, $2, l.baseAddress!, Int32(n), spread.kernelCode, q0, a)
                            }
                        }
                        if dst != ref {
                            XCTFail("level \(level) n \(n) \(spread) spans \(spans) q0 \(q0) a \(a)"); return
                        }
                    }
                }
            }
        }
    }

    func testConcentricRadialKernelMatchesReference() {
        var rng = RNG(state: 4)
        for level in levels {
            crk_set_wide(level)
            for n in [256, 2048] {
                let lut = (0..<(n + 2)).map { _ in rng.pixel() }
                for spread in SpreadMode.allCases {
                    for _ in 0..<3_000 {
                        let base = rng.below(4000), y = rng.below(3000) - 100
                        let spans = Self.spans(&rng, base: base)
                        // A transform's inverse: scales, rotations, sometimes degenerate or huge.
                        let sc = rng.below(10) == 0 ? 1e200 : (rng.unit() * 4 + 0.01)
                        let th = rng.unit() * 6.3
                        var s = RadialShader()
                        s.ux = cos(th) / sc; s.uy = sin(th) / sc; s.vx = -sin(th) / sc; s.vy = cos(th) / sc
                        s.ox = (rng.unit() - 0.5) * 4000; s.oy = (rng.unit() - 0.5) * 4000
                        s.r0 = rng.below(3) == 0 ? 0 : rng.unit() * 300
                        s.dr = (rng.unit() - 0.3) * 900
                        if rng.below(20) == 0 { s.dr = [1e-300, -1e-300, .nan][rng.below(3)] }
                        if rng.below(4) == 0 {
                            // Whole-pixel geometry, so that many distances, and positions, are
                            // exact integers: positions on table boundaries.
                            s.ux = 1; s.uy = 0; s.vx = 0; s.vy = 1
                            s.ox = Double(rng.below(400) - 200) - 0.5; s.oy = Double(rng.below(400) - 200) - 0.5
                            s.r0 = Double(rng.below(20)); s.dr = Double(n) / Double(1 << rng.below(4))
                        } else if rng.below(3) == 0 {
                            // No rotation or scale, any origin: the kernels' shortcut for
                            // ux = 1, uy = ±0 (dy·dy once per row), with −0, NaN and
                            // infinite offsets now and then.
                            s.ux = 1; s.uy = rng.below(2) == 0 ? 0 : -0.0; s.vx = 0; s.vy = 1
                            if rng.below(10) == 0 { s.oy = [-0.0, 0, .nan, .infinity, -.infinity, 1e300][rng.below(6)] - (Double(y) + 0.5) }
                            if rng.below(20) == 0 { s.ox = [.nan, .infinity, -1e300][rng.below(3)] }
                        }
                        s.concentric = true
                        let pixels = (0..<64).map { _ in rng.pixel() }
                        let row = Self.concentricRow(s, n: n, spread: spread, lut: lut, y: y, spans: spans, base: base, on: pixels)
                        if row.kernel != row.reference { XCTFail("level \(level) n \(n) \(spread) spans \(spans) row \(y) \(s)"); return }
                    }
                }
            }
        }
    }

    /// Rows of a concentric radial gradient through its centre, the centre at every lane
    /// of two sixteen-pixel blocks: in that block the smallest table index lies inside,
    /// not at an end lane (the wide lookup's second try), and beside it positions run one
    /// way; a table step near a pixel keeps the block inside one window, one of a few
    /// pixels sends it to the gather. Every level gives the scalar bytes.
    func testRadialRowsThroughTheirCentreMatchReference() {
        var rng = RNG(state: 9)
        let n = 256, base = 96
        let lut = (0..<(n + 2)).map { _ in rng.pixel() }
        let spans = [Span(x: Int32(base), length: 40, alpha: 255), Span(x: Int32(base + 40), length: 24, alpha: 77)]
        var blocks = 0
        for level in levels {
            crk_set_wide(level)
            for spread in SpreadMode.allCases {
                for dr in [256.0, 300.0, 37.0] {
                    for centre in stride(from: Double(base), to: Double(base + 32), by: 0.37) {
                        var s = RadialShader()
                        s.ux = 1; s.uy = 0; s.vx = 0; s.vy = 1
                        s.ox = -centre; s.oy = -40.25
                        s.r0 = 0; s.dr = dr; s.concentric = true
                        let pixels = (0..<64).map { _ in rng.pixel() }
                        let row = Self.concentricRow(s, n: n, spread: spread, lut: lut, y: 40, spans: spans, base: base, on: pixels)
                        blocks += 1
                        if row.kernel != row.reference { XCTFail("level \(level) \(spread) Δr \(dr) centre \(centre)"); return }
                    }
                }
            }
        }
        XCTAssertEqual(blocks, levels.count * 3 * 3 * 87)
    }

    /// Whole scenes — solid, linear, radial and sweep fills at partial coverage and
    /// opacity, translucent layers, a masked clip and a blend mode — give the same bytes
    /// with the wide kernels and without.
    func testCanvasDrawsTheSameBytesWithAndWithoutWideKernels() {
        func draw() -> Pixmap {
            let c = Canvas(width: 301, height: 203, background: Color(r: 0.9, g: 0.95, b: 1, a: 1))
            var rng = RNG(state: 5)
            func color() -> Color { Color(r: rng.unit(), g: rng.unit(), b: rng.unit(), a: 0.2 + 0.8 * rng.unit()) }
            func stops(_ k: Int) -> [GradientStop] { (0..<k).map { GradientStop(offset: Double($0) / Double(k - 1), color: color()) } }
            for i in 0..<60 {
                let r = Rect(x: rng.unit() * 300 - 40, y: rng.unit() * 200 - 30, width: 10 + rng.unit() * 180,
                             height: 10 + rng.unit() * 120)
                let path: Path = i % 3 == 0 ? .ellipse(in: r) : (i % 3 == 1 ? .roundedRect(r, cornerRadius: 9) : .rect(r))
                let paint: Paint
                switch i % 5 {
                case 0: paint = .solid(color())
                case 1: paint = .linearGradient(LinearGradient(start: Point(r.minX, r.minY), end: Point(r.maxX, r.maxY),
                                                               colors: [color(), color()]))
                case 2: paint = .radialGradient(RadialGradient(center: Point(r.midX, r.midY), endRadius: r.width / 2,
                                                               stops: stops(3), spread: i % 2 == 0 ? .pad : .reflect))
                case 3: paint = .linearGradient(LinearGradient(start: Point(r.minX, r.minY), end: Point(r.midX, r.minY),
                                                               colors: [color(), color()], spread: i % 2 == 0 ? .reflect : .repeat))
                default: paint = .sweepGradient(SweepGradient(center: Point(r.midX, r.midY), stops: stops(2)))
                }
                if i % 7 == 3 { c.beginLayer(opacity: 0.6) }
                if i % 11 == 5 { c.save(); c.clip(to: .ellipse(in: Rect(x: 20, y: 10, width: 250, height: 170))) }
                c.fill(path, paint: paint, opacity: i % 4 == 0 ? 0.7 : 1, blendMode: i % 13 == 6 ? .multiply : .sourceOver)
                if i % 11 == 5 { c.restore() }
                if i % 7 == 3 { c.endLayer() }
            }
            return c.takePixmap()
        }
        crk_set_wide(0)
        let scalar = draw()
        for level in 1...max(1, crk_cpu_level()) {
            crk_set_wide(level)
            let wide = draw()
            XCTAssertTrue(scalar == wide, "the wide kernels (level \(crk_wide())) changed pixels")
        }
        XCTAssertNotEqual(scalar.data.count, 0)
    }
}

extension SplitMix64 {
    mutating func u32() -> UInt32 { UInt32(truncatingIfNeeded: next()) }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    /// A coverage, often 255 or 0 (the special cases), else any.
    mutating func coverage() -> UInt32 {
        switch below(8) { case 0: return 255; case 1: return 0; default: return u32() & 255 }
    }
    /// A pixel: valid premultiplied most of the time, any 32 bits sometimes (the
    /// kernels must agree on malformed pixels too: the reference adds with carry).
    mutating func pixel() -> UInt32 {
        if below(8) == 0 { return u32() }
        let a = below(4) == 0 ? (below(2) == 0 ? 0 : 255) : u32() & 255
        let r = UInt32(below(Int(a) + 1)), g = UInt32(below(Int(a) + 1)), b = UInt32(below(Int(a) + 1))
        return a << 24 | b << 16 | g << 8 | r
    }
}
