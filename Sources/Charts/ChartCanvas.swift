import Geometry
import Raster
import Scene

/// A canvas of charts: its size, background, clock and layout, and the one assembly that
/// turns chart specs into a scene.
///
/// Both front doors end here: `TimelineDecoder` (a document's `"canvas"`, `"fps"`,
/// `"duration"`, `"hold"`, `"layout"` and `"charts"`) and ChartReel's `ChartScene` (its
/// initializer's arguments and `Chart`s). Each door decodes or builds its charts' specs
/// in the frames `frames(chartHeights:)` gives, then `scene(charts:)` builds them, so the
/// same charts give byte-identical frames through either door.
public struct ChartCanvas: Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels; nil makes the canvas as tall as the layout's charts need
    /// (`"height": "auto"`; rows without a height get `defaultChartHeight`).
    public var height: Int?
    /// Painted under everything.
    public var background: Color
    /// Frames per second.
    public var fps: Double
    /// Length in seconds; nil lasts until the last animation ends plus `hold`.
    public var duration: Double?
    /// Seconds the final state stays on screen when `duration` is nil.
    public var hold: Double
    /// A grid of charts; nil gives every chart the whole canvas.
    public var layout: DashboardLayout?
    /// The largest canvas side an automatic height may reach.
    public var maxSide: Int
    /// The height of a chart row that gives none, for an automatic canvas height.
    public static let defaultChartHeight = 300.0

    /// Creates a canvas.
    public init(width: Int, height: Int?, background: Color = .white, fps: Double = 60, duration: Double? = nil,
                hold: Double = 0.5, layout: DashboardLayout? = nil, maxSide: Int = 16_384) {
        self.width = width; self.height = height; self.background = background; self.fps = fps
        self.duration = duration; self.hold = hold; self.layout = layout; self.maxSide = maxSide
    }

    /// The canvas height and the frame of each chart, given the heights charts ask for
    /// (nil: share what is left).
    public func frames(chartHeights heights: [Double?]) -> (height: Int, frames: [Rect]) {
        let grid = layout ?? DashboardLayout()
        let h = height ?? min(maxSide, max(1, Int(grid.contentHeight(rowHeights: heights, defaultHeight: Self.defaultChartHeight).rounded(.up))))
        let frames = grid.frames(count: heights.count, canvas: Rect(x: 0, y: 0, width: Double(width), height: Double(h)),
                                 heights: heights, single: layout == nil)
        return (h, frames)
    }

    /// The scene of `charts`, in order, each built into a group with the id `chart<i>`
    /// (its index); a nil chart (one a document got wrong, reported already) is left out
    /// and the others keep their indices.
    public func scene(charts: [ChartSpec?], height: Int) -> Scene {
        var nodes: [Node] = []
        for (i, chart) in charts.enumerated() {
            if let chart { nodes.append(chart.onBackdrop(background).build(id: "chart\(i)")) }
        }
        return Scene(width: width, height: height, background: background, fps: fps, duration: duration, hold: hold, nodes: nodes)
    }
}
