import Foundation
import Geometry
import Raster
import Text
import Scene
import Charts

/// Collects the charts of a scene, in layout order, with `if`, `if`/`else` and `for`.
@resultBuilder
public enum ChartSceneBuilder {
    /// One chart.
    public static func buildExpression(_ chart: Chart) -> [Chart] { [chart] }
    /// Charts in order.
    public static func buildBlock(_ parts: [Chart]...) -> [Chart] { parts.flatMap { $0 } }
    /// Charts under an `if` without `else`.
    public static func buildOptional(_ part: [Chart]?) -> [Chart] { part ?? [] }
    /// The `if` branch.
    public static func buildEither(first part: [Chart]) -> [Chart] { part }
    /// The `else` branch.
    public static func buildEither(second part: [Chart]) -> [Chart] { part }
    /// Charts made in a `for` loop.
    public static func buildArray(_ parts: [[Chart]]) -> [Chart] { parts.flatMap { $0 } }
    /// Charts under `if #available`.
    public static func buildLimitedAvailability(_ part: [Chart]) -> [Chart] { part }
}

/// An animated scene of charts: the Swift spelling of a timeline document.
///
/// It is named `ChartScene` rather than `Scene` because `Scene.Scene`, the node tree it
/// builds, is re-exported beside it, and both are worth naming in one file: a
/// `ChartScene` is what you write, `scene.scene` is what renders.
///
/// ```swift
/// let scene = try ChartScene(width: 800, height: 600, fps: 60) {
///     Chart(week) { … }.title("Caffeine (mg)")
/// }
/// try scene.render(to: URL(filePath: "caffeine.gif"))
/// let frame = scene.frame(at: 0.6)
/// ```
public struct ChartScene: Sendable {
    /// The built node tree, exactly what `TimelineDecoder` makes of the same document.
    public var scene: Scene

    /// Builds the charts on a `width` × `height` canvas at `fps`.
    ///
    /// - `height`: nil makes the canvas as tall as the layout's charts need (a document's
    ///   `"height": "auto"`; rows without a `frame(height:)` get 300 px).
    /// - `duration`: nil lasts until the last animation ends plus `hold` seconds.
    /// - `font`, `boldFont`: a family name or a font file; DejaVu Sans by default, and the
    ///   bold face of `font` unless `boldFont` names one.
    /// - `layout`: a grid of charts; nil gives every chart the whole canvas.
    ///
    /// Throws when the canvas or rate is not positive, a font cannot be loaded, or a chart
    /// cannot be built (`ChartReelError`).
    public init(width: Int = 800, height: Int? = 600, fps: Double = 60, background: Color = .white,
                duration: Double? = nil, hold: Double = 0.5, font: String? = nil, boldFont: String? = nil,
                layout: DashboardLayout? = nil, @ChartSceneBuilder charts: () -> [Chart]) throws {
        guard width >= 1, width <= ChartScene.maxCanvasSide else { throw ChartReelError.invalidScene("width \(width) is outside 1…\(ChartScene.maxCanvasSide)") }
        if let h = height, h < 1 || h > ChartScene.maxCanvasSide { throw ChartReelError.invalidScene("height \(h) is outside 1…\(ChartScene.maxCanvasSide)") }
        guard fps > 0, fps.isFinite else { throw ChartReelError.invalidScene("fps must be a positive number, not \(fps)") }
        if let d = duration, !(d > 0 && d.isFinite) { throw ChartReelError.invalidScene("duration must be a positive number of seconds, not \(d)") }
        guard hold >= 0, hold.isFinite else { throw ChartReelError.invalidScene("hold must be zero or more seconds, not \(hold)") }
        let list = charts()
        let regular = try FontCache.font(family: font)
        let bold = try FontCache.font(family: boldFont ?? font, bold: boldFont == nil)
        let style = ChartStyle(font: regular, boldFont: bold)
        // The assembly TimelineDecoder uses too, so both front doors give the same frames.
        let canvas = ChartCanvas(width: width, height: height, background: background, fps: fps, duration: duration,
                                 hold: hold, layout: layout, maxSide: ChartScene.maxCanvasSide)
        let placed = canvas.frames(chartHeights: list.map(\.height))
        var specs: [ChartSpec?] = []
        for (i, chart) in list.enumerated() {
            do {
                specs.append(try chart.spec(frame: placed.frames[i], style: style))
            } catch let e as ChartReelError {
                throw e.inChart(i)
            }
        }
        scene = canvas.scene(charts: specs, height: placed.height)
    }

    /// Wraps a scene built another way (`TimelineDecoder.load`, or nodes by hand).
    public init(_ scene: Scene) { self.scene = scene }

    /// The largest canvas side, as documents allow.
    public static let maxCanvasSide = 16_384

    /// Canvas width in pixels.
    public var width: Int { scene.width }
    /// Canvas height in pixels.
    public var height: Int { scene.height }
    /// Frames per second.
    public var fps: Double { scene.fps }
    /// The length of the video in seconds.
    public var duration: Double { scene.effectiveDuration }
    /// The number of frames at the scene's rate.
    public var frameCount: Int { scene.frameCount }

    /// The frame showing time `seconds`.
    public func frame(at seconds: Double) -> Pixmap { scene.frame(at: seconds) }

    /// Frame `index`, showing time index / fps.
    public func frame(index: Int) -> Pixmap { scene.frame(index: index) }

    /// The node with the given id (a mark's `id`, "chart0", "title", …).
    public func node(_ id: String) -> Node? { scene.node(id) }

    /// Renders every frame to `url`; see `Scene.render(to:format:fps:matte:threads:overwrite:progress:)`.
    public func render(to url: URL, format: OutputFormat? = nil, fps: Double? = nil, matte: Color = .white,
                       threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                       overwrite: Bool = true, progress: ((Int, Int) -> Void)? = nil) throws {
        try scene.render(to: url, format: format, fps: fps, matte: matte, threads: threads, overwrite: overwrite,
                         progress: progress)
    }
}

/// What can go wrong building or rendering a scene in Swift.
public enum ChartReelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The canvas, rate, duration or hold is out of range.
    case invalidScene(String)
    /// Marks of one chart plot different values on one channel; a chart has one x and one y.
    case conflictingChannel(channel: String, labels: [String], chart: Int? = nil)
    /// A mark's modifiers were given values it cannot use.
    case invalidMark(id: String?, problems: [String], chart: Int? = nil)
    /// The output's kind cannot be told from its name, or it cannot be written.
    case unsupportedOutput(path: String, reason: String)
    /// In `Chart(rows) { row in … }`, a row made other marks than the first row did.
    case inconsistentRows(row: Int, chart: Int? = nil)
    /// A data file does not hold what the chart asks of it.
    case invalidData(path: String, reason: String)
    /// The rows cannot move over time as the chart's `time` asks (a row without a time or
    /// a key, or a key twice at one time); `row` is the index in the chart's rows.
    case invalidTime(row: Int, reason: String, chart: Int? = nil)

    /// The same error, saying which chart it is about.
    func inChart(_ i: Int) -> ChartReelError {
        switch self {
        case .conflictingChannel(let c, let l, nil): return .conflictingChannel(channel: c, labels: l, chart: i)
        case .invalidMark(let id, let p, nil): return .invalidMark(id: id, problems: p, chart: i)
        case .inconsistentRows(let r, nil): return .inconsistentRows(row: r, chart: i)
        case .invalidTime(let r, let m, nil): return .invalidTime(row: r, reason: m, chart: i)
        default: return self
        }
    }

    /// What went wrong and where, in one sentence.
    public var description: String {
        func chart(_ i: Int?) -> String { i.map { "chart \($0): " } ?? "" }
        switch self {
        case .invalidScene(let m): return "scene: \(m)"
        case .conflictingChannel(let c, let l, let i):
            return chart(i) + "marks plot \(l.map { "\"\($0)\"" }.joined(separator: " and ")) on \(c); a chart has one \(c) channel, so give them one label"
        case .invalidMark(let id, let p, let i):
            return chart(i) + "mark\(id.map { " \"\($0)\"" } ?? ""): " + p.joined(separator: "; ")
        case .inconsistentRows(let r, let i):
            return chart(i) + "row \(r) makes other marks, or plots other labels, than row 0; in Chart(rows) { row in … } every row must make the same marks (leave rows out with .filter)"
        case .unsupportedOutput(let path, let reason), .invalidData(let path, let reason): return "\(path): \(reason)"
        case .invalidTime(let r, let m, let i): return chart(i) + "row \(r): \(m)"
        }
    }
}
