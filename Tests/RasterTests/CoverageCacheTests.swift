import CRasterKernels
import Geometry
import XCTest
@testable import Raster

/// Fills through a `CoverageCache`: the first records, later ones replay (as a dense
/// block for solid and image paints on the fast path, as spans otherwise), and every
/// replay gives the bytes of a fresh fill.
final class CoverageCacheTests: XCTestCase {
    // Labels' paths (coverage cache, pieces, snapped pieces) take the Double walk; the
    // fresh fills they are compared with do too (plain fills take the fixed-point grid).
    private var savedGrid = Rasterizer.fixedGrid
    override func setUp() { super.setUp(); savedGrid = Rasterizer.fixedGrid; Rasterizer.fixedGrid = false }
    override func tearDown() { Rasterizer.fixedGrid = savedGrid; crk_reset_wide(); super.tearDown() }

    /// A text-like path: many small shapes, curved edges at fractional positions.
    static let letters: Path = {
        var b = Path()
        for i in 0..<14 {
            let x = 3.3 + Double(i) * 9.7, y = 6.4 + Double(i % 3) * 1.3
            if i % 2 == 0 {
                b.append(contentsOf: .ellipse(in: Rect(x: x, y: y, width: 6.2, height: 9.1)))
            } else {
                b.append(contentsOf: .roundedRect(Rect(x: x, y: y - 2.2, width: 2.4, height: 14.6), cornerRadius: 0.9))
            }
        }
        return b
    }()

    /// A 3×2 image with transparent, translucent and opaque texels.
    static let image: ImagePaint = {
        let px: [UInt8] = [255, 0, 0, 255, 0, 0, 0, 0, 0, 60, 0, 120,
                           10, 20, 30, 40, 0, 200, 100, 255, 90, 90, 0, 128]
        return ImagePaint(pixmap: Pixmap(width: 3, height: 2, premultipliedData: px)!, rect: Rect(x: 20.4, y: 3.6, width: 31, height: 17.5))
    }()

    /// Frames of (paint, opacity, dx, rotation): repeats replay, the others are new keys.
    static let frames: [(Paint, Double, Double, Double)] = [
        (.solid(Color(r: 0.1, g: 0.1, b: 0.12)), 1, 0, 0),
        (.solid(Color(r: 0.1, g: 0.1, b: 0.12)), 1, 0, 0),
        (.solid(Color(r: 0.8, g: 0.2, b: 0.1, a: 0.7)), 1, 0, 0),   // another colour, same coverage
        (.solid(Color(r: 0.1, g: 0.1, b: 0.12)), 0.45, 0, 0),
        (.solid(Color(r: 0.1, g: 0.1, b: 0.12)), 0.45, 0, 0),
        (.solid(Color(r: 0.1, g: 0.1, b: 0.12)), 1, 2.75, 0.3),
        (.solid(Color(r: 0.1, g: 0.1, b: 0.12)), 1, 2.75, 0.3),
        (.linearGradient(LinearGradient(start: Point(0, 0), end: Point(140, 0), colors: [.black, Color(r: 0, g: 0, b: 1)])), 1, 0, 0),
        (.solid(Color(r: 0.1, g: 0.1, b: 0.12)), 1, 0, 0),
    ]

    func draw(_ path: Path, _ paint: Paint, _ opacity: Double, _ dx: Double, _ rotation: Double, cache: CoverageCache?,
              clip: Path? = nil) -> Pixmap {
        let c = Canvas(width: 150, height: 40, background: Color(r: 0.9, g: 0.8, b: 0.7))
        c.concatenate(Transform.rotation(rotation).concatenating(.translation(dx, 0)))
        if let clip { c.clip(to: clip) }
        if let cache { c.fill(path, paint: paint, opacity: opacity, cache: cache) } else { c.fill(path, paint: paint, opacity: opacity) }
        return c.takePixmap()
    }

    func testReplaysGiveTheBytesOfFreshFills() {
        for level in Array(0...crk_cpu_level()) {
            crk_set_wide(level)
            let solidCache = CoverageCache(), imageCache = CoverageCache()
            for (i, (paint, opacity, dx, rot)) in Self.frames.enumerated() {
                let a = draw(Self.letters, paint, opacity, dx, rot, cache: solidCache)
                let b = draw(Self.letters, paint, opacity, dx, rot, cache: nil)
                XCTAssertTrue(a == b, "level \(level) frame \(i): solid replay differs")
                let img = Paint.image(Self.image)
                let c = draw(.rect(Self.image.rect), img, opacity, dx, rot, cache: imageCache)
                let d = draw(.rect(Self.image.rect), img, opacity, dx, rot, cache: nil)
                XCTAssertTrue(c == d, "level \(level) frame \(i): image replay differs")
                XCTAssertFalse(a == Canvas(width: 150, height: 40, background: Color(r: 0.9, g: 0.8, b: 0.7)).takePixmap(), "drew something")
            }
        }
    }

    func testSolidAndImageFillsAreKeptDenseSparseOnesAsSpans() {
        func entries(_ cache: CoverageCache) -> [CoverageEntry] {
            var out: [CoverageEntry] = []
            // The cache keeps at most `capacity` keys; look each up under the key it was drawn with.
            let c = Canvas(width: 150, height: 40)
            let key = { (o: Double) in
                CoverageCache.Key(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0, clipX0: 0, clipY0: 0, clipX1: 150, clipY1: 40,
                                  originX: 0, originY: 0, evenOdd: false, opacity: o, tolerance: c.tolerance, image: 0)
            }
            if let e = cache.entry(for: key(1)) { out.append(e) }
            return out
        }
        // Recorded as spans on the first fill, made a block on the first replay.
        let solid = CoverageCache()
        _ = draw(Self.letters, .solid(.black), 1, 0, 0, cache: solid)
        guard case .runs(_, dense: true)? = entries(solid).first else { return XCTFail("a first fill keeps spans") }
        _ = draw(Self.letters, .solid(.black), 1, 0, 0, cache: solid)
        guard case .dense(let d)? = entries(solid).first else { return XCTFail("a solid text-like fill is kept dense") }
        XCTAssertTrue(d.colors.isEmpty && d.alpha.count == d.width * d.height)
        // A hairline diagonal across a 600×300 canvas covers few pixels of its box: spans.
        var b = Path()
        b.move(to: Point(0, 0)); b.line(to: Point(600, 300)); b.line(to: Point(600, 300.4)); b.line(to: Point(0, 0.4)); b.close()
        let sparse = CoverageCache(), big = Canvas(width: 600, height: 300)
        big.fill(b, paint: .solid(.black), cache: sparse)
        big.fill(b, paint: .solid(.black), cache: sparse)
        let bigKey = CoverageCache.Key(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0, clipX0: 0, clipY0: 0, clipX1: 600, clipY1: 300,
                                       originX: 0, originY: 0, evenOdd: false, opacity: 1, tolerance: big.tolerance, image: 0)
        guard case .runs(let runs, dense: false)? = sparse.entry(for: bigKey) else { return XCTFail("a sparse fill keeps its spans") }
        XCTAssertFalse(runs.isEmpty)
    }

    func testADenseEntryUnderAClipMaskDrawsAfresh() {
        // An ellipse clip over the whole canvas leaves the clip box (and so the key) as it
        // was but adds a coverage mask, which the block cannot apply: the fill rasterizes.
        let cache = CoverageCache(), paint = Paint.solid(Color(r: 0.2, g: 0.3, b: 0.9))
        let clip = Path.ellipse(in: Rect(x: 0, y: 0, width: 150, height: 40))
        _ = draw(Self.letters, paint, 1, 0, 0, cache: cache)
        _ = draw(Self.letters, paint, 1, 0, 0, cache: cache)
        let a = draw(Self.letters, paint, 1, 0, 0, cache: cache, clip: clip)
        let b = draw(Self.letters, paint, 1, 0, 0, cache: nil, clip: clip)
        XCTAssertTrue(a == b)
        XCTAssertFalse(a == draw(Self.letters, paint, 1, 0, 0, cache: nil), "the clip changed something")
    }

    // MARK: Moving fills (subpixelSteps)

    func drawMoving(_ at: Point, steps: Int, cache: CoverageCache?, width: Int = 150, opacity: Double = 1) -> Pixmap {
        let c = Canvas(width: width, height: 40, background: Color(r: 0.95, g: 0.9, b: 0.8))
        c.concatenate(.translation(at.x, at.y))
        let paint = Paint.solid(Color(r: 0.1, g: 0.2, b: 0.5))
        if let cache { c.fill(Self.letters, paint: paint, opacity: opacity, cache: cache, subpixelSteps: steps) }
        else { c.fill(Self.letters, paint: paint, opacity: opacity) }
        return c.takePixmap()
    }

    func testAMovingFillDoesNotDependOnWhereItWasDrawnFirst() {
        // The same place drawn through a cache that has seen other places (same fraction,
        // other whole pixels; other fractions) and through a new cache: the same bytes.
        let places = [Point(0.3, 5.6), Point(3.3, 1.6), Point(-1.7, 9.6), Point(0.55, 4.1), Point(2.31, 7.62), Point(0.3, 5.6)]
        let shared = CoverageCache()
        for p in places {
            let a = drawMoving(p, steps: 4, cache: shared)
            let b = drawMoving(p, steps: 4, cache: CoverageCache())
            XCTAssertTrue(a == b, "at \(p)")
        }
        // At most steps² fractions are kept for one transform and opacity.
        XCTAssertGreaterThan(CoverageCache.totalBytes.load(ordering: .relaxed), 0)
    }

    func testAMovingFillIsTheExactFillAtTheRoundedPlace() {
        // (2.3, 5.6) rounds to (2.25, 5.5) at quarter pixels: within one level of the exact
        // fill there (the block is rasterized at another whole-pixel place, so its floating
        // point can round a coverage the other way), and drawn afresh where it crosses the
        // clip box (the canvas's right edge), where it is the exact fill there byte for byte.
        for opacity in [1.0, 0.6] {
            let snapped = drawMoving(Point(2.3, 5.6), steps: 4, cache: CoverageCache(), opacity: opacity)
            let exact = drawMoving(Point(2.25, 5.5), steps: 0, cache: nil, opacity: opacity)
            XCTAssertLessThanOrEqual(maxDifference(snapped, exact), 1, "opacity \(opacity)")
            XCTAssertGreaterThan(maxDifference(snapped, drawMoving(Point(2.3, 5.6), steps: 0, cache: nil, opacity: opacity)), 2,
                                 "the rounding moved the fill")
            let crossing = drawMoving(Point(12.3, 5.6), steps: 4, cache: CoverageCache(), width: 120, opacity: opacity)
            XCTAssertTrue(crossing == drawMoving(Point(12.25, 5.5), steps: 0, cache: nil, width: 120, opacity: opacity))
        }
    }

    func maxDifference(_ a: Pixmap, _ b: Pixmap) -> Int {
        zip(a.data, b.data).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }
}
