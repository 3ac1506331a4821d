import Foundation
import Geometry
import Raster
import Scene
import Charts

// Swift Charts' chart modifiers: axes (`chartXAxis { AxisMarks … }`, `.hidden`), axis
// labels, legend visibility, the foreground style scale, scale domains, and the plot
// style, with the automatic axes and legend Swift Charts draws.

/// What the Swift Charts guide modifiers asked for, resolved onto the spec when it is made.
struct SwiftChartsGuides {
    var xVisibility = Visibility.automatic, yVisibility = Visibility.automatic
    var legendVisibility = Visibility.automatic
    var xMarks: [AxisMarks]?, yMarks: [AxisMarks]?
    var xLabel: String?, yLabel: String?
    var colorScale: ColorEncoding?

    /// The grid lines' colour, a light grey as Swift Charts draws them (#DBDBDE).
    static let gridColor = Color(r8: 219, g8: 219, b8: 222)

    /// Adds the axes, grid lines, legend and colours these modifiers ask for; with
    /// `automatic`, also what Swift Charts draws unasked: an axis with grid lines for x
    /// (bottom) and y (trailing) when the chart plots them, and a legend when marks are
    /// split into series.
    func apply(to spec: inout ChartSpec, automatic: Bool) {
        if let enc = colorScale {
            for i in spec.marks.indices where spec.marks[i].options.color == nil
                && (spec.marks[i].options.series != nil || spec.marks[i].kind == .sector) {
                spec.marks[i].options.color = enc
            }
        }
        let cartesian = spec.marks.contains { $0.kind != .sector && $0.kind != .shape }
        for isX in [true, false] {
            let visibility = isX ? xVisibility : yVisibility
            let sides: Set<Side> = isX ? [.top, .bottom] : [.leading, .trailing]
            let field = isX ? spec.x.field : spec.y.field
            let plotted = spec.data.contains { $0[field] != nil }
            var axis: AxisSpec?, gridWidth: Double?
            if visibility == .hidden {
                spec.axes.removeAll { sides.contains($0.side) }
                if isX { spec.grid?.xAtTicks = false; spec.grid?.xStep = nil } else { spec.grid?.yAtTicks = false; spec.grid?.yStep = nil }
            } else if let marks = isX ? xMarks : yMarks, let made = marks.axis(isX: isX) {
                spec.axes.removeAll { sides.contains($0.side) }
                axis = made.axis; gridWidth = made.grid
            } else if (automatic || visibility == .visible) && cartesian && plotted && !spec.axes.contains(where: { sides.contains($0.side) }) {
                // Swift Charts' default marks: grid lines, ticks and labels; a band axis
                // has labels only.
                let band = spec.resolve(isX ? spec.x : spec.y).type == .band
                var a = AxisSpec(side: isX ? .bottom : .trailing)
                a.showLine = false
                a.tickLength = band ? 0 : 4
                axis = a
                gridWidth = band ? nil : 1
            }
            if let a = axis { spec.axes.append(a) }
            if let w = gridWidth {
                var g = spec.grid ?? {
                    // Swift Charts' light grey, which follows a dark backdrop as a grid
                    // left unset does (ChartSpec.onBackdrop).
                    var unset = GridSpec(width: w)
                    unset.setUnsetColor(SwiftChartsGuides.gridColor)
                    return unset
                }()
                if isX { g.xAtTicks = true } else { g.yAtTicks = true }
                spec.grid = g
            }
            if let title = isX ? xLabel : yLabel, let i = spec.axes.firstIndex(where: { sides.contains($0.side) }) {
                spec.axes[i].title = title
            }
        }
        switch legendVisibility {
        case .hidden: spec.legend = nil
        case .visible: if spec.legend == nil { spec.legend = LegendSpec(side: .bottom) }
        case .automatic:
            let split = spec.marks.contains { $0.options.series != nil || $0.kind == .sector || ($0 as? PointMarkSpec)?.symbolField != nil }
            if automatic && spec.legend == nil && split { spec.legend = LegendSpec(side: .bottom) }
        }
    }
}

/// The plot area as `chartPlotStyle`'s closure sees it: its background and border.
public struct PlotArea: Sendable {
    var spec = PlotAreaSpec()
    /// A colour behind the plot.
    public func background(_ color: Color) -> PlotArea { var p = self; p.spec.background = color; return p }
    /// A border round the plot.
    public func border(_ color: Color, width: Double = 1) -> PlotArea { var p = self; p.spec.border = color; p.spec.borderWidth = width; return p }
    /// Accepted for Swift Charts code; the plot's size comes from the chart's layout.
    public func frame(width: Double? = nil, height: Double? = nil) -> PlotArea { self }
}

/// Where a scale's domain comes from (Swift Charts' `.automatic(includesZero:)`).
public struct AutomaticScaleDomain: Sendable {
    var includesZero: Bool
    /// From the data, reaching zero unless `includesZero` is false.
    public static func automatic(includesZero: Bool = true) -> AutomaticScaleDomain { AutomaticScaleDomain(includesZero: includesZero) }
    /// From the data, reaching zero.
    public static var automatic: AutomaticScaleDomain { AutomaticScaleDomain(includesZero: true) }
}

extension ScaleType {
    /// Swift Charts' name for a time scale.
    public static var date: ScaleType { .time }
    /// Swift Charts' name for a band scale.
    public static var category: ScaleType { .band }
}

extension Chart {
    func guide(_ edit: (inout SwiftChartsGuides) -> Void) -> Chart {
        var copy = self
        edit(&copy.guides)
        return copy
    }

    /// Shows or hides the x axis and its grid lines (`.hidden`), or shows Swift Charts'
    /// automatic one on a chart that has none (`.visible`).
    public func chartXAxis(_ visibility: Visibility) -> Chart { guide { $0.xVisibility = visibility } }

    /// Shows or hides the y axis and its grid lines.
    public func chartYAxis(_ visibility: Visibility) -> Chart { guide { $0.yVisibility = visibility } }

    /// The x axis as `AxisMarks` describe it: `.chartXAxis { AxisMarks(values: .stride(by: .month)) }`.
    public func chartXAxis(@AxisContentBuilder content: () -> [AxisMarks]) -> Chart {
        let marks = content()
        return guide { $0.xMarks = marks; $0.xVisibility = marks.isEmpty ? .hidden : .automatic }
    }

    /// The y axis as `AxisMarks` describe it: `.chartYAxis { AxisMarks(position: .leading) }`.
    public func chartYAxis(@AxisContentBuilder content: () -> [AxisMarks]) -> Chart {
        let marks = content()
        return guide { $0.yMarks = marks; $0.yVisibility = marks.isEmpty ? .hidden : .automatic }
    }

    /// A title along the x axis. `position`, `alignment` and `spacing` are accepted; the
    /// title is centred beyond the axis' labels.
    public func chartXAxisLabel(_ label: String, position: AnnotationPosition = .automatic, alignment: Alignment = .center,
                                spacing: Double? = nil) -> Chart { guide { $0.xLabel = label } }

    /// A title along the y axis (see `chartXAxisLabel`).
    public func chartYAxisLabel(_ label: String, position: AnnotationPosition = .automatic, alignment: Alignment = .center,
                                spacing: Double? = nil) -> Chart { guide { $0.yLabel = label } }

    /// Shows or hides the legend (`.visible` adds one at the bottom).
    public func chartLegend(_ visibility: Visibility) -> Chart { guide { $0.legendVisibility = visibility } }

    /// The colour of each series value named in `mapping`, in its order
    /// (`.chartForegroundStyleScale(["Cups": .brown, "Tea": .green])`).
    public func chartForegroundStyleScale(_ mapping: KeyValuePairs<String, Color>) -> Chart {
        guide { $0.colorScale = .category(field: nil, colors: mapping.map(\.value), domain: mapping.map(\.key)) }
    }

    /// The colours of the series values in `domain`, in order.
    public func chartForegroundStyleScale(domain: [String], range: [Color]) -> Chart {
        guide { $0.colorScale = .category(field: nil, colors: range, domain: domain) }
    }

    /// The colours series take in the order they appear.
    public func chartForegroundStyleScale(range: [Color]) -> Chart {
        guide { $0.colorScale = .category(field: nil, colors: range, domain: nil) }
    }

    /// Series coloured evenly along a gradient, in the order they appear.
    public func chartForegroundStyleScale(range: Gradient) -> Chart {
        guide { $0.colorScale = .ramp(field: nil, stops: range.colors) }
    }

    /// The plot's background and border: `.chartPlotStyle { $0.background(.gray.opacity(0.1)) }`.
    public func chartPlotStyle(_ content: (PlotArea) -> PlotArea) -> Chart {
        let area = content(PlotArea()).spec
        return with { $0.plotArea = area }
    }

    /// The categories of a band x axis, in order (`.chartXScale(domain: ["Mon", "Tue"])`).
    public func chartXScale(domain: [String], type: ScaleType? = nil) -> Chart {
        with { $0.x.configure(domain: nil, type: type ?? .band, categories: domain) }
    }

    /// The categories of a band y axis, in order.
    public func chartYScale(domain: [String], type: ScaleType? = nil) -> Chart {
        with { $0.y.configure(domain: nil, type: type ?? .band, categories: domain) }
    }

    /// An x domain from the data, with or without zero (`.automatic(includesZero: false)`).
    public func chartXScale(domain: AutomaticScaleDomain, type: ScaleType? = nil) -> Chart {
        with { $0.x.includesZero = domain.includesZero; $0.x.configure(domain: nil, type: type) }
    }

    /// A y domain from the data, with or without zero.
    public func chartYScale(domain: AutomaticScaleDomain, type: ScaleType? = nil) -> Chart {
        with { $0.y.includesZero = domain.includesZero; $0.y.configure(domain: nil, type: type) }
    }
}
