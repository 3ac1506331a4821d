import Geometry
import Raster
import Motion
import Text

/// Which side of the plot an axis or a legend sits on.
public enum Side: String, Hashable, Sendable, CaseIterable { case top, bottom, leading, trailing }

/// How tick labels are written.
public enum LabelFormat: Hashable, Sendable {
    /// Numbers; nil fraction digits means "as many as the tick step needs".
    case number(NumberFormat?)
    /// Dates with a pattern; nil means "as the tick interval suits".
    case date(DateFormat?)
}

/// The typography every guide of a chart uses.
public struct ChartStyle: @unchecked Sendable {
    /// Regular text.
    public var font: Font
    /// Titles.
    public var boldFont: Font
    /// AxisTick label size in pixels.
    public var labelSize: Double = 11
    /// Axis title size.
    public var axisTitleSize: Double = 12
    /// Chart title size.
    public var titleSize: Double = 18
    /// Subtitle size.
    public var subtitleSize: Double = 13
    /// Caption size.
    public var captionSize: Double = 11
    /// Label and title colour. Left unset, it follows the backdrop (`onBackdrop(_:)`).
    public var textColor = ChartStyle.defaultTextColor { didSet { given.insert(.text) } }
    /// Secondary text (subtitles, captions, tick labels). Left unset, it follows the backdrop.
    public var secondaryTextColor = Color(r: 0.45, g: 0.45, b: 0.45) { didSet { given.insert(.secondaryText) } }
    /// Axis line and tick colour. Left unset, it follows the backdrop.
    public var axisColor = Color(r: 0.55, g: 0.55, b: 0.55) { didSet { given.insert(.axis) } }
    /// The colours set since the style was made (by a document's `"style"`, or a Swift
    /// caller): those are kept on any backdrop.
    private var given: Set<GivenColor> = []
    private enum GivenColor { case text, secondaryText, axis }
    /// Creates a style with the given fonts.
    public init(font: Font, boldFont: Font) { self.font = font; self.boldFont = boldFont }

    /// `textColor` when none is given, on a light backdrop.
    public static let defaultTextColor = Color(r: 0.2, g: 0.2, b: 0.2)

    /// The default colours' counterparts for a dark backdrop, about as far from it as the
    /// defaults are from white: text, secondary text, axis lines, grid lines.
    public static let onDark = (text: Color(r: 0.9, g: 0.9, b: 0.9), secondaryText: Color(r: 0.65, g: 0.65, b: 0.65),
                                axis: Color(r: 0.45, g: 0.45, b: 0.45), grid: Color(r: 0.26, g: 0.26, b: 0.26))

    /// Whether text drawn on `backdrop` reads better light than dark (the higher WCAG
    /// contrast of the two text colours). A translucent backdrop is taken over white, as
    /// a viewer most likely shows a transparent PNG.
    public static func wantsLightText(on backdrop: Color) -> Bool {
        Palette.readable(on: Palette.seen(backdrop), light: onDark.text, dark: defaultTextColor) == onDark.text
    }

    /// This style for text on `backdrop`: on a dark one, each colour left unset takes its
    /// counterpart in `onDark` (a title in the default dark grey on a near-black canvas
    /// could not be read); colours that were set stay.
    public func onBackdrop(_ backdrop: Color) -> ChartStyle {
        guard Self.wantsLightText(on: backdrop) else { return self }
        var s = self
        if !given.contains(.text) { s.textColor = Self.onDark.text }
        if !given.contains(.secondaryText) { s.secondaryTextColor = Self.onDark.secondaryText }
        if !given.contains(.axis) { s.axisColor = Self.onDark.axis }
        s.given = given
        return s
    }
}

/// An axis: a line along one side of the plot, tick marks and labels, and a title.
public struct AxisSpec: Sendable {
    /// The side it is drawn on.
    public var side: Side
    /// Title text beside the labels.
    public var title: String?
    /// About how many ticks.
    public var tickCount: Int = 5
    /// Explicit tick values (data units); overrides `tickCount`.
    public var values: [Double]?
    /// Ticks at every multiple of a step, or on every calendar boundary of an interval
    /// (Swift Charts' `AxisMarks(values: .stride(by: .month))`); overrides `tickCount`,
    /// not `values`.
    public var stride: TickStride?
    /// Draw the tick labels (an axis of only grid lines or tick marks has none).
    public var showLabels = true
    /// AxisTick mark length in pixels (0 for none).
    public var tickLength: Double = 4
    /// Draw the domain line along the plot edge.
    public var showLine = true
    /// Label format; automatic when nil.
    public var format: LabelFormat?
    /// Label rotation in degrees (−90 reads bottom to top).
    public var labelAngle: Double = 0
    /// Opacity (animatable: axes fade in).
    public var opacity: AnimatedValue = .constant(1)
    /// Creates an axis.
    public init(side: Side, title: String? = nil) { self.side = side; self.title = title }
}

/// A regular spacing of ticks: a step in data units, or a calendar interval on a time axis.
public enum TickStride: Hashable, Sendable {
    /// Every multiple of the step (numbers; seconds on a time axis).
    case step(Double)
    /// Every boundary of a calendar interval (1 month: the 1st of each month, UTC).
    case calendar(TimeTicks.Interval)
}

/// Grid lines across the plot: at fixed data steps, or at the axes' ticks.
public struct GridSpec: Hashable, Sendable {
    /// Distance in data units between vertical lines; nil: at the x axis ticks (if `xAtTicks`).
    public var xStep: Double?
    /// Distance in data units between horizontal lines; nil: at the y axis ticks (if `yAtTicks`).
    public var yStep: Double?
    /// Vertical lines at the x ticks when no step is given.
    public var xAtTicks = false
    /// Horizontal lines at the y ticks when no step is given.
    public var yAtTicks = false
    /// Line colour. Left unset, light grey, or dark grey on a dark backdrop
    /// (`onBackdrop(_:)`).
    public var color: Color { didSet { colorIsGiven = true } }
    /// Whether `color` was given (at creation or since), so kept on any backdrop.
    public private(set) var colorIsGiven: Bool
    /// Line width in pixels.
    public var width: Double
    /// The line at zero, drawn over the grid when zero is inside the domain; nil for none.
    public var zeroColor: Color?
    /// Opacity (animatable).
    public var opacity: AnimatedValue = .constant(1)
    /// The line colour when none is given, on a light backdrop.
    public static let defaultColor = Color(r: 0.8, g: 0.8, b: 0.8)
    /// Creates a grid; without a colour, its lines follow the backdrop.
    public init(xStep: Double? = nil, yStep: Double? = nil, color: Color? = nil, width: Double = 1, zeroColor: Color? = nil) {
        self.xStep = xStep; self.yStep = yStep; self.color = color ?? Self.defaultColor; self.colorIsGiven = color != nil
        self.width = width; self.zeroColor = zeroColor
    }

    /// Sets the colour the lines have while none is given (a look's own light grey),
    /// which, like `defaultColor`, gives way to `ChartStyle.onDark.grid` on a dark backdrop.
    public mutating func setUnsetColor(_ c: Color) {
        color = c
        colorIsGiven = false
    }

    /// This grid on `backdrop`: a colour left unset is `ChartStyle.onDark.grid` where text
    /// on the backdrop reads better light.
    public func onBackdrop(_ backdrop: Color) -> GridSpec {
        guard !colorIsGiven, ChartStyle.wantsLightText(on: backdrop) else { return self }
        var g = self
        g.setUnsetColor(ChartStyle.onDark.grid)
        return g
    }
    public static func == (a: GridSpec, b: GridSpec) -> Bool {
        a.xStep == b.xStep && a.yStep == b.yStep && a.color == b.color && a.width == b.width && a.zeroColor == b.zeroColor && a.xAtTicks == b.xAtTicks && a.yAtTicks == b.yAtTicks
    }
    public func hash(into h: inout Hasher) { h.combine(xStep); h.combine(yStep); h.combine(color) }
}

/// A legend: a colour swatch and a name per series, wrapped into rows.
public struct LegendSpec: Sendable {
    /// The side of the plot it sits on.
    public var side: Side = .bottom
    /// Swatch shape.
    public enum Swatch: String, Sendable { case circle, square, line }
    /// Swatch shape.
    public var swatch: Swatch = .circle
    /// Explicit entries (name, colour); when nil, one per named mark.
    public var entries: [(name: String, color: Color)]?
    /// Opacity (animatable).
    public var opacity: AnimatedValue = .constant(1)
    /// Creates a legend.
    public init(side: Side = .bottom) { self.side = side }
}

/// A chart's title and subtitle, above everything else, aligned leading.
public struct TitleSpec: Sendable {
    public var title: String
    public var subtitle: String?
    /// Opacity (animatable).
    public var opacity: AnimatedValue = .constant(1)
    /// How the title and the subtitle are set: wrapping or truncation at a maximum width
    /// (the chart's content width when the style gives none), line height, alignment.
    /// Nil: one line each.
    public var textStyle: TextBlockStyle?
    /// Shaping of the title and subtitle: features, language, direction.
    public var shaping: ShapingOptions = .default
    /// Creates a title.
    public init(_ title: String, subtitle: String? = nil) { self.title = title; self.subtitle = subtitle }
}

/// A note under everything else, aligned leading: a source line ("Source: World Bank")
/// or a remark, as ggplot2's `labs(caption:)`. It takes the subtitle's options.
public struct CaptionSpec: Sendable {
    /// The text.
    public var text: String
    /// Opacity (animatable).
    public var opacity: AnimatedValue = .constant(1)
    /// How the caption is set: wrapping or truncation at a maximum width (the chart's
    /// content width when the style gives none), line height, alignment. Nil: one line.
    public var textStyle: TextBlockStyle?
    /// Shaping: features, language, direction.
    public var shaping: ShapingOptions = .default
    /// Creates a caption.
    public init(_ text: String) { self.text = text }
}

/// A large label naming the moment a chart of moving data shows — the year of a bar
/// chart race or a Gapminder chart — in a corner of the plot, behind the marks.
public struct PeriodLabelSpec: Sendable {
    /// The corner it sits in.
    public enum Corner: String, Sendable, CaseIterable { case topLeading, topTrailing, bottomLeading, bottomTrailing }
    /// The text: a `MomentTemplate` (`"{time}"`, `"{time:MMM yyyy}"`).
    public var text: String = "{time}"
    /// Size in pixels.
    public var size: Double = 64
    /// Colour; the chart's secondary text colour at 40 % when nil.
    public var color: Color?
    /// The corner.
    public var corner: Corner = .bottomTrailing
    /// Creates a period label.
    public init(text: String = "{time}") { self.text = text }
}

/// The plot rectangle's own background and border (Swift Charts' `chartPlotStyle`),
/// drawn under the grid.
public struct PlotAreaSpec: Hashable, Sendable {
    /// The fill behind the plot; none when nil.
    public var background: Color?
    /// The border's colour; none when nil.
    public var border: Color?
    /// The border's width in pixels.
    public var borderWidth: Double = 1
    /// Creates a plot style.
    public init(background: Color? = nil, border: Color? = nil, borderWidth: Double = 1) {
        self.background = background; self.border = border; self.borderWidth = borderWidth
    }
}

/// A rounded-rectangle card behind a chart, with padding around its content.
public struct CardSpec: Hashable, Sendable {
    public var color: Color
    public var cornerRadius: Double
    public var padding: Double
    /// Creates a card.
    public init(color: Color = Color(r: 0.96, g: 0.96, b: 0.97), cornerRadius: Double = 12, padding: Double = 16) {
        self.color = color; self.cornerRadius = cornerRadius; self.padding = padding
    }
}

/// The Coffee Book charts' labels: the highest value above the plot and zero below it.
public struct ExtremesSpec: Sendable {
    /// How the values are written ("140 mg").
    public var format: NumberFormat
    /// Opacity (animatable).
    public var opacity: AnimatedValue = .constant(1)
    /// Creates the labels.
    public init(format: NumberFormat = NumberFormat()) { self.format = format }
}
