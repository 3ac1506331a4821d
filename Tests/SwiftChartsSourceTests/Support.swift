import XCTest
import Foundation
import ChartReel

/// A chart rendered as a scene of its own, with the state its spec is laid out in, so
/// tests can ask where a value lands (`state.x(v)`) and look at the pixel there.
struct Rendered {
    let frame: Pixmap
    let spec: ChartSpec
    let state: ChartState
    let scene: ChartScene

    init(_ chart: Chart, width: Int = 480, height: Int = 320, at time: Double? = nil, name: String = #function) throws {
        scene = try ChartScene(width: width, height: height, fps: 10) { chart }
        let style = ChartStyle(font: try FontCache.font(family: nil), boldFont: try FontCache.font(family: nil, bold: true))
        spec = try chart.spec(frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), style: style)
        state = spec.state(at: time ?? scene.duration)
        frame = scene.frame(at: time ?? scene.duration)
        // SWIFTCHARTS_TEST_FRAMES=dir writes each test's frame there, to look at.
        if let dir = ProcessInfo.processInfo.environment["SWIFTCHARTS_TEST_FRAMES"] {
            try frame.writePNG(toFile: dir + "/" + name.prefix { $0 != "(" } + ".png")
        }
    }

    var plot: Rect { state.plot }

    /// The pixel's colour at a point given in pixels (rounded down).
    func color(_ x: Double, _ y: Double) -> Color? { frame.color(x: Int(x.rounded(.down)), y: Int(y.rounded(.down))) }

    /// Whether the pixel at (x, y) is `c` within `tolerance` (per channel, 0…1).
    func isColor(_ x: Double, _ y: Double, _ c: Color, tolerance: Double = 0.04) -> Bool {
        guard let p = color(x, y) else { return false }
        return abs(p.r - c.r) <= tolerance && abs(p.g - c.g) <= tolerance && abs(p.b - c.b) <= tolerance
    }

    /// The box of the pixels of colour `c` in `region` (the plot by default).
    func box(of c: Color, in region: Rect? = nil, tolerance: Double = 0.04) -> Rect? {
        let r = region ?? plot
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for y in max(0, Int(r.minY))..<min(frame.height, Int(r.maxY.rounded(.up))) {
            for x in max(0, Int(r.minX))..<min(frame.width, Int(r.maxX.rounded(.up))) where isColor(Double(x), Double(y), c, tolerance: tolerance) {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard minX <= maxX else { return nil }
        return Rect(x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
    }

    /// How many pixels in `region` pass `test`.
    func count(in region: Rect, where test: (Color) -> Bool) -> Int {
        var n = 0
        for y in max(0, Int(region.minY))..<min(frame.height, Int(region.maxY.rounded(.up))) {
            for x in max(0, Int(region.minX))..<min(frame.width, Int(region.maxX.rounded(.up))) {
                if let c = frame.color(x: x, y: y), test(c) { n += 1 }
            }
        }
        return n
    }

    /// How many pixels in `region` are not the background (white).
    func ink(in region: Rect) -> Int { frame.inkPixelCount(background: .white, in: region, tolerance: 24) }

    /// The pixel x of the middle of band `index` of a band x axis.
    func bandX(_ index: Int) -> Double { state.x(Double(index)) }
}

/// UTC dates, as ChartReel's time scales read them.
func date(_ year: Int, _ month: Int, _ day: Int = 1) -> Date {
    var c = Calendar(identifier: .gregorian)
    c.timeZone = TimeZone(identifier: "UTC")!
    return c.date(from: DateComponents(year: year, month: month, day: day))!
}
