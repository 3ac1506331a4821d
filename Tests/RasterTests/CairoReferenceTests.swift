import XCTest
import Foundation
import Geometry
@testable import Raster

/// ChartReel against Cairo, pixel by pixel.
///
/// `Tests/Fixtures/cairo/scenes.json` describes small scenes, one feature each (strokes
/// of curves, every cap and join, the miter limit, dashes, each gradient kind and spread,
/// fill rules, transforms, clips, opacity layers, every blend mode, hairlines at
/// fractional offsets, the SwiftUI shapes). `scripts/cairo-reference` draws each with
/// Cairo (pycairo, ARGB32 image surface, default antialiasing and tolerance) into
/// `<name>.png`; this test draws the same description with `Canvas` and compares:
/// every channel's mean absolute difference at most 0.5/255, and at most 0.1 % of the
/// pixels differing by more than 16/255 in any channel. A failing scene leaves
/// expected | actual | difference in `Tests/Fixtures/cairo/_failures/<name>.png`.
///
/// A scene about exact geometry where Cairo's own flattening at its default 0.1 px is
/// further from the exact answer than these thresholds (dash ends on curves, which Cairo
/// cuts on the chords of that flattening; a pen under a 2.2 × 0.8 scale) gives a finer
/// `"tolerance"` for its reference, with a note; `scripts/cairo-reference` says what was
/// measured.
///
/// Where ChartReel deliberately differs from Cairo the scene says so (`"reference":
/// "analytic"`, with a note) and its reference is the analytic answer instead. One
/// kind: Cairo has no sweep (angular) gradient, so for those scenes the script takes
/// the exact gradient colour at each pixel centre and only the coverage from Cairo.
///
/// A scene with a `knownDeviation` is one where ChartReel is measurably less exact than
/// Cairo and the cause is understood but not yet fixed; the entry says why, and the test
/// holds it to the numbers measured when it was recorded, so it cannot get worse
/// unnoticed, and prints it on every run. None is recorded now: the last, a {7/3} star
/// under even-odd, was closed by sampling the pixels where separate edges meet
/// (`EvenOddTests`).
final class CairoReferenceTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/cairo")
    /// Beside the fixtures rather than in this target's directory, where SwiftPM would
    /// warn about unhandled files; gitignored (`/Tests/**/_failures/`).
    static let failures = fixtures.appendingPathComponent("_failures")

    /// Most a channel's mean absolute difference may be, in 8-bit levels.
    static let maxMeanError = 0.5
    /// A pixel differing by more than this in any channel counts as different…
    static let pixelThreshold = 16
    /// …and at most this fraction of the pixels may.
    static let maxDifferingFraction = 0.001

    struct Result {
        var name: String
        var mean: [Double]
        var differing: Int
        var pixels: Int
        var maxError: Int
        var known = false
        var passed: Bool { mean.allSatisfy { $0 <= CairoReferenceTests.maxMeanError } && Double(differing) <= CairoReferenceTests.maxDifferingFraction * Double(pixels) }
    }

    func loadScenes() throws -> [[String: Any]] {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("scenes.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    func testTheSuiteCoversAtLeastFortyScenesWithAFixtureEach() throws {
        let scenes = try loadScenes()
        XCTAssertGreaterThanOrEqual(scenes.count, 40)
        var names = Set<String>()
        for s in scenes {
            let name = try XCTUnwrap(s["name"] as? String)
            XCTAssertTrue(names.insert(name).inserted, "duplicate scene \(name)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.fixtures.appendingPathComponent(name + ".png").path),
                          "no reference image for \(name): run scripts/cairo-reference")
        }
        // Every blend mode and spread mode has a scene.
        for m in BlendMode.allCases where m != .sourceOver {
            XCTAssertTrue(scenes.contains { "\($0["ops"] ?? "")".contains("\"\(m.rawValue)\"") || "\($0["ops"] ?? "")".contains("= \(m.rawValue);") },
                          "no scene for \(m)")
        }
    }

    func testEverySceneMatchesCairo() throws {
        let scenes = try loadScenes()
        var results: [Result] = []
        var knownNotes: [String] = []
        for s in scenes {
            let name = s["name"] as! String
            let expected = try Pixmap(pngFile: Self.fixtures.appendingPathComponent(name + ".png").path)
            let actual = try Self.render(s)
            XCTAssertEqual(actual.width, expected.width, name)
            XCTAssertEqual(actual.height, expected.height, name)
            guard actual.width == expected.width, actual.height == expected.height else { continue }
            var r = Self.compare(name, expected, actual)
            r.known = s["knownDeviation"] != nil
            results.append(r)
            if let known = s["knownDeviation"] as? [String: Any] {
                let px = (known["maxDifferingPixels"] as! NSNumber).intValue, mean = (known["maxMean"] as! NSNumber).doubleValue
                knownNotes.append("\(name): \(known["why"] as! String)")
                XCTAssertLessThanOrEqual(r.differing, px, "\(name) got worse than its recorded deviation")
                XCTAssertLessThanOrEqual(r.mean.max()!, mean, "\(name) got worse than its recorded deviation")
                if r.passed { XCTFail("\(name) now passes the Cairo thresholds: remove its knownDeviation") }
                continue
            }
            if !r.passed {
                let path = try Self.writeFailure(name, expected, actual)
                XCTFail(String(format: "%@: mean |Δ| R %.3f G %.3f B %.3f A %.3f levels, %d of %d pixels off by > %d (max %d); expected | actual | diff in %@",
                               name, r.mean[0], r.mean[1], r.mean[2], r.mean[3], r.differing, r.pixels, Self.pixelThreshold, r.maxError, path))
            }
        }
        // A table of every scene, so a run shows how close each is, not only pass or fail.
        var table = "Cairo reference suite: \(results.filter(\.passed).count) of \(results.count) scenes within the thresholds, \(results.filter(\.known).count) known deviations\n"
        for r in results {
            table += String(format: "  %-28@ mean %.3f %.3f %.3f  >%d: %3d  max %3d  %@\n", r.name as NSString,
                            r.mean[0], r.mean[1], r.mean[2], Self.pixelThreshold, r.differing, r.maxError, r.passed ? "ok" : r.known ? "known" : "FAIL")
        }
        for n in knownNotes { table += "  known deviation, \(n)\n" }
        print(table, terminator: "")
    }

    /// Per-channel mean absolute difference and the count of pixels off by more than the threshold.
    static func compare(_ name: String, _ e: Pixmap, _ a: Pixmap) -> Result {
        var sums = [0, 0, 0, 0], differing = 0, worst = 0
        let n = e.width * e.height
        for i in 0..<n {
            var pixelWorst = 0
            for k in 0..<4 {
                let d = abs(Int(e.data[4 * i + k]) - Int(a.data[4 * i + k]))
                sums[k] += d
                pixelWorst = max(pixelWorst, d)
            }
            if pixelWorst > pixelThreshold { differing += 1 }
            worst = max(worst, pixelWorst)
        }
        return Result(name: name, mean: sums.map { Double($0) / Double(n) }, differing: differing, pixels: n, maxError: worst)
    }

    /// Writes expected | actual | difference side by side (the difference is white where
    /// equal and darkens 8 levels per level of the worst channel) and returns the path.
    static func writeFailure(_ name: String, _ e: Pixmap, _ a: Pixmap) throws -> String {
        try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
        let w = e.width, h = e.height
        var out = Pixmap(width: 3 * w + 4, height: h, fill: PremultipliedRGBA8(r: 255, g: 0, b: 255, a: 255))
        for y in 0..<h {
            for x in 0..<w {
                let pe = e.pixel(x, y), pa = a.pixel(x, y)
                out.setPixel(x, y, pe)
                out.setPixel(w + 2 + x, y, pa)
                let d = max(abs(Int(pe.r) - Int(pa.r)), abs(Int(pe.g) - Int(pa.g)), abs(Int(pe.b) - Int(pa.b)), abs(Int(pe.a) - Int(pa.a)))
                let v = UInt8(max(0, 255 - 8 * d))
                out.setPixel(2 * w + 4 + x, y, d > pixelThreshold ? PremultipliedRGBA8(r: 255, g: v, b: v, a: 255)
                                                                   : PremultipliedRGBA8(r: v, g: v, b: v, a: 255))
            }
        }
        let path = failures.appendingPathComponent(name + ".png").path
        try out.writePNG(toFile: path)
        return path
    }

    // MARK: - The scene description, drawn with Canvas

    struct SceneError: Error, CustomStringConvertible { var description: String }

    static func render(_ s: [String: Any]) throws -> Pixmap {
        let w = s["width"] as! Int, h = s["height"] as! Int
        let c = Canvas(width: w, height: h, background: try color(s["background"]))
        for op in s["ops"] as! [[String: Any]] {
            let kind = op["op"] as! String
            func num(_ k: String, _ d: Double? = nil) throws -> Double {
                if let v = op[k] as? NSNumber { return v.doubleValue }
                if let d { return d }
                throw SceneError(description: "\(s["name"]!): \(kind) needs \(k)")
            }
            let blend = try (op["blend"] as? String).map { b -> BlendMode in
                guard let m = BlendMode(rawValue: b) else { throw SceneError(description: "unknown blend \(b)") }
                return m
            } ?? .sourceOver
            let rule: FillRule = (op["rule"] as? String) == "evenOdd" ? .evenOdd : .nonZero
            switch kind {
            case "fill":
                c.fill(try path(op["path"]), paint: try paint(op["paint"]), rule: rule, opacity: try num("opacity", 1), blendMode: blend)
            case "stroke":
                let style = StrokeStyle(width: try num("width"), cap: LineCap(rawValue: op["cap"] as? String ?? "butt")!,
                                        join: LineJoin(rawValue: op["join"] as? String ?? "miter")!,
                                        miterLimit: try num("miterLimit", 10),
                                        dash: (op["dash"] as? [NSNumber])?.map(\.doubleValue) ?? [], dashPhase: try num("dashPhase", 0))
                c.stroke(try path(op["path"]), style: style, paint: try paint(op["paint"]), opacity: try num("opacity", 1), blendMode: blend)
            case "save": c.save()
            case "restore": c.restore()
            case "translate": c.concatenate(.translation(try num("x"), try num("y")))
            case "rotate": c.concatenate(.rotation(try num("angle")))
            case "scale": c.concatenate(.scale(try num("x"), try num("y")))
            case "clipRect":
                let r = (op["rect"] as! [NSNumber]).map(\.doubleValue)
                c.clip(to: Rect(x: r[0], y: r[1], width: r[2], height: r[3]))
            case "clipPath": c.clip(to: try path(op["path"]), rule: rule)
            case "beginLayer": c.beginLayer(opacity: try num("opacity", 1), blendMode: blend)
            case "endLayer": c.endLayer()
            default: throw SceneError(description: "\(s["name"]!): unknown op \(kind)")
            }
        }
        return c.pixmap
    }

    static func color(_ v: Any?) throws -> Color {
        guard let s = v as? String, let c = Color(hex: s) else { throw SceneError(description: "bad colour \(String(describing: v))") }
        return c
    }

    static func point(_ v: Any?) -> Point {
        let a = (v as! [NSNumber]).map(\.doubleValue)
        return Point(a[0], a[1])
    }

    static func stops(_ v: Any?) throws -> [GradientStop] {
        try (v as! [[Any]]).map { GradientStop(offset: ($0[0] as! NSNumber).doubleValue, color: try color($0[1])) }
    }

    static func paint(_ v: Any?) throws -> Paint {
        if v is String { return .solid(try color(v)) }
        let d = v as! [String: [String: Any]]
        let (kind, g) = d.first!
        let spread = SpreadMode(rawValue: g["spread"] as? String ?? "pad")!
        func n(_ k: String) -> Double { (g[k] as! NSNumber).doubleValue }
        switch kind {
        case "linear":
            return .linearGradient(LinearGradient(start: point(g["start"]), end: point(g["end"]), stops: try stops(g["stops"]), spread: spread))
        case "radial":
            return .radialGradient(RadialGradient(startCenter: point(g["c0"]), startRadius: n("r0"), endCenter: point(g["c1"]),
                                                  endRadius: n("r1"), stops: try stops(g["stops"]), spread: spread))
        case "sweep":
            return .sweepGradient(SweepGradient(center: point(g["center"]), startAngle: n("start"), endAngle: n("end"),
                                                stops: try stops(g["stops"]), spread: spread))
        default:
            throw SceneError(description: "unknown paint \(kind)")
        }
    }

    /// The JSON path: SVG-like commands and the SwiftUI shape constructors.
    static func path(_ v: Any?) throws -> Path {
        var p = Path()
        for cmd in v as! [[Any]] {
            let op = cmd[0] as! String
            let a = cmd.dropFirst().map { ($0 as? NSNumber)?.doubleValue ?? 0 }
            let flag = cmd.last as? Bool ?? false
            switch op {
            case "M": p.move(to: Point(a[0], a[1]))
            case "L": p.line(to: Point(a[0], a[1]))
            case "Q": p.quad(to: Point(a[2], a[3]), control: Point(a[0], a[1]))
            case "C": p.cubic(to: Point(a[4], a[5]), control1: Point(a[0], a[1]), control2: Point(a[2], a[3]))
            case "Z": p.close()
            case "rect": p.append(contentsOf: .rect(Rect(x: a[0], y: a[1], width: a[2], height: a[3])))
            case "circle": p.append(contentsOf: .circle(center: Point(a[0], a[1]), radius: a[2]))
            case "roundedRect": p.append(contentsOf: .roundedRect(Rect(x: a[0], y: a[1], width: a[2], height: a[3]), cornerRadius: a[4]))
            case "capsule": p.append(contentsOf: .capsule(in: Rect(x: a[0], y: a[1], width: a[2], height: a[3])))
            case "arc":
                p.append(contentsOf: .arc(center: Point(a[0], a[1]), radius: a[2], startAngle: a[3], endAngle: a[4], clockwise: flag))
            case "wedge":
                p.append(contentsOf: .wedge(center: Point(a[0], a[1]), radius: a[2], innerRadius: a[3],
                                            startAngle: a[4], endAngle: a[5], clockwise: flag))
            default: throw SceneError(description: "unknown path command \(op)")
            }
        }
        return p
    }
}
