import Geometry
import Raster
import Motion
import Scene
import Text

/// The kinds of mark a chart draws.
public enum MarkKind: String, Hashable, Sendable, CaseIterable {
    /// A stroked line through the points (one per series).
    case line
    /// The region between the points and the baseline (or a second value), filled.
    case area
    /// A rectangle per row from the baseline to the value; vertical over a band x,
    /// horizontal over a band y.
    case bar
    /// A dot per row.
    case point
    /// A line across the plot at each row's x (or y), optionally between two values.
    case rule
    /// A label per row anchored to its data point.
    case text
    /// Pie and donut sectors, clockwise from 12 o'clock.
    case sector
    /// A SwiftUI shape or an SVG path, in data or pixel coordinates.
    case shape
}

/// Dots drawn at a line's points (the "adding points" chart).
public struct PointStyle: Sendable {
    /// Diameter in pixels.
    public var size: Double = 8
    /// Fill; the line's colour when nil.
    public var fill: Color?
    /// An outline, e.g. white to separate dots from the line.
    public var stroke: (color: Color, width: Double)?
    /// Creates a point style.
    public init(size: Double = 8) { self.size = size }
}

/// Where a text mark sits relative to its data point.
public enum TextPosition: String, Hashable, Sendable, CaseIterable { case center, top, bottom, leading, trailing }

/// A per-element stagger: element i's animations start `i × step` later (or an `amount`
/// spread over all), counted in the chosen order.
public struct StaggerSpec: Hashable, Sendable {
    /// The order elements start in.
    public enum Order: String, Hashable, Sendable, CaseIterable {
        case start, end, center, edges, ascending, descending
    }
    /// Seconds between successive elements.
    public var step: Double
    /// When set, the whole stagger lasts this long (step = amount / (n − 1)).
    public var amount: Double?
    /// Order.
    public var order: Order = .start
    /// Creates a stagger.
    public init(step: Double, amount: Double? = nil, order: Order = .start) { self.step = step; self.amount = amount; self.order = order }

    /// The delay of each of `n` elements; `values` are needed for the value orders.
    public func offsets(count n: Int, values: [Double] = []) -> [Double] {
        guard n > 0 else { return [] }
        let v = values.count == n ? values : (0..<n).map(Double.init)
        let from: Stagger.Order
        switch order {
        case .start: from = .start
        case .end: from = .end
        case .center: from = .center
        case .edges: from = .edges
        case .ascending: from = .ascending(v)
        case .descending: from = .descending(v)
        }
        return Stagger(amount.map { .amount($0) } ?? .each(step), from: from).offsets(count: n)
    }
}

/// One mark of a chart: its geometry kind, encodings, style and animated properties.
public struct MarkSpec: Sendable {
    /// The mark's id, used to find its node and to chain animations.
    public var id: String?
    /// The name shown in the legend.
    public var name: String?
    /// What is drawn.
    public var kind: MarkKind
    /// Field that splits rows into series (lines, areas, stacked bars).
    public var series: String?
    /// Field of a second value: area and bar ranges, rules between two values.
    public var y2: String?
    /// Field of a second x value (horizontal ranges).
    public var x2: String?
    /// Stacking of series (areas, bars).
    public var stack: StackMode = .none
    /// How element colours are chosen; the stroke/fill paint when nil.
    public var color: ColorEncoding?
    /// How points are connected.
    public var interpolation: Interpolation = .linear
    /// Start the curve at the plot's bottom-left corner (the SwiftUI tutorial's custom line chart).
    public var startAtOrigin = false
    /// The stroke (lines, rules; also allowed on areas, bars, points).
    public var stroke: (paint: NodePaint, style: StrokeStyle)?
    /// The fill (areas, bars, points, sectors, shapes).
    public var fill: NodePaint?
    /// Dots at a line's points.
    public var points: PointStyle?
    /// Bar corner radius in pixels.
    public var cornerRadius: Double = 0
    /// Bars with fully rounded ends.
    public var capsule = false
    /// Bar thickness as a fraction of the band (0…1).
    public var barWidth: Double = 1
    /// Point diameter in pixels (point marks).
    public var size: Double = 8
    /// Sector hole as a fraction of the radius (donut).
    public var innerRadius: Double = 0
    /// Gap between sectors in degrees.
    public var angularGap: Double = 0
    /// Rule orientation: vertical rules at x (true) or horizontal at y.
    public var vertical = true
    /// Blend mode name for the mark's pixels ("darken" for rulers over a streamgraph).
    public var blendMode: String?
    /// Text: the field whose value is shown, or a literal with `textLiteral`.
    public var textField: String?
    /// Text: fixed text.
    public var textLiteral: String?
    /// Text: how numbers are written.
    public var textFormat = NumberFormat()
    /// Text: size in pixels.
    public var fontSize: Double = 12
    /// Text: colour.
    public var textColor: Color?
    /// Text: where the label sits relative to its point.
    public var textPosition: TextPosition = .top
    /// Text: offset in pixels from the point, away from it.
    public var textOffset: Double = 6
    /// Text: rotation in degrees.
    public var textAngle: Double = 0
    /// Text: a pill background.
    public var textBackground: TextBackground?
    /// Text: OpenType features, language and direction. Number labels get tabular
    /// figures unless the features say otherwise (`"-tnum"`).
    public var textShaping: ShapingOptions = .default
    /// Text: maximum width, wrapping or truncation, line height and alignment.
    public var textBlock: TextBlockStyle = .singleLine
    /// Text: place each label at its series' peak (the baby-names labels), centred in its band.
    public var atPeak = false
    /// Shape mark: the path (in data coordinates when `shapeInData`, else pixels).
    public var shapePath: Path?
    /// Shape mark: coordinates are data values mapped by the scales.
    public var shapeInData = false
    /// Only rows where `filterField` equals `filterValue` (e.g. rulers at one year).
    public var filter: (field: String, value: DataValue)?
    /// A second data set the mark's values move to (Swift Charts' data-change animation).
    public var transition: (rows: [DataRow], animation: Animation)?
    /// Trim start, fraction of the path's length.
    public var trimStart: AnimatedValue = .constant(0)
    /// Trim end, fraction of the path's length.
    public var trimEnd: AnimatedValue = .constant(1)
    /// Opacity.
    public var opacity: AnimatedValue = .constant(1)
    /// Bars grow from their baseline and sectors sweep open: 0 … 1 of their extent.
    public var grow: AnimatedValue?
    /// Points pop in: their scale.
    public var scale: AnimatedValue?
    /// Lottie's trim offset in turns: the visible window slides round the path (wrapping on closed paths).
    public var trimOffset: AnimatedValue?
    /// Horizontal movement in pixels.
    public var translateX: AnimatedValue?
    /// Vertical movement in pixels (y down).
    public var translateY: AnimatedValue?
    /// Rotation in degrees, clockwise, about each element's centre.
    public var rotation: AnimatedValue?
    /// An animated solid colour for the mark's elements (interpolated in OKLab).
    public var colorAnimation: AnimatedColor?
    /// Text marks: the fraction of each label's value shown, so numbers count up with the easing.
    public var count: AnimatedValue?
    /// Per-element delays for `grow`, `scale`, `opacity` (and a line's `trim`).
    public var stagger: StaggerSpec?

    /// Creates a mark.
    public init(id: String? = nil, kind: MarkKind) { self.id = id; self.kind = kind }

    /// The colour that stands for the mark in a legend: its stroke's or fill's last colour.
    public var legendColor: Color {
        func first(_ p: NodePaint?) -> Color? {
            switch p {
            case .solid(let c)?: return c
            case .linear(let stops, _, _)?: return stops.last?.color
            default: return nil
            }
        }
        return first(stroke?.paint) ?? first(fill) ?? .black
    }
}

extension AnimatedValue {
    /// The same animation with every value multiplied by `k` (degrees to radians, a
    /// fraction to a label's value).
    public func scaled(by k: Double) -> AnimatedValue {
        switch self {
        case .constant(let v): return .constant(v * k)
        case .tween(var tw): tw.from *= k; tw.to *= k; return .tween(tw)
        case .keyframes(let kf):
            return Keyframes(kf.keyframes.map { Keyframe(time: $0.time, value: $0.value * k, easing: $0.easing, hold: $0.hold) }).map { .keyframes($0) } ?? self
        }
    }

    /// The same animation starting `d` seconds later.
    public func delayed(by d: Double) -> AnimatedValue {
        guard d != 0 else { return self }
        switch self {
        case .tween(var tw): tw.animation.delay += d; return .tween(tw)
        case .keyframes(let k): return .keyframes(k.shifted(by: d))
        case .constant: return self
        }
    }
}
