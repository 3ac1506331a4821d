import Geometry
import Raster
import Motion
import Scene

/// What every mark has, whatever its kind: its identity, the data encodings that turn
/// rows into elements, how its pixels combine, and its animations.
///
/// A kind reads the animations it can show: trim on paths, `grow` on bars and sectors,
/// `scale` on points, labels and shapes, `count` on labels; the rest apply to every
/// element of every kind (`ChartSpec.markNode`).
public struct MarkOptions: Sendable {
    /// The mark's id, used to find its node and to chain animations.
    public var id: String?
    /// The name shown in the legend.
    public var name: String?

    // MARK: Encodings

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
    /// Only rows where `filter.field` equals `filter.value` (e.g. rulers at one year).
    public var filter: (field: String, value: DataValue)?
    /// Only the head of each key in a revealed timeline (`DataTimeline.reveals`): the dot
    /// and the label riding a line race's heads.
    public var headsOnly = false
    /// A wake of earlier positions behind each moving key (gganimate's `shadow_wake`).
    public var trail: TrailSpec?
    /// Every past time step left behind, faint (gganimate's `shadow_mark`).
    public var trace: TraceSpec?
    /// A second data set the mark's values move to (Swift Charts' data-change animation).
    public var transition: (rows: DataTable, animation: Animation)?

    // MARK: Compositing

    /// Blend mode name for the mark's pixels ("darken" for rulers over a streamgraph).
    public var blendMode: String?

    // MARK: Animations

    /// Opacity.
    public var opacity: AnimatedValue = .constant(1)
    /// Trim start, fraction of the path's length.
    public var trimStart: AnimatedValue = .constant(0)
    /// Trim end, fraction of the path's length.
    public var trimEnd: AnimatedValue = .constant(1)
    /// Lottie's trim offset in turns: the visible window slides round the path (wrapping on closed paths).
    public var trimOffset: AnimatedValue?
    /// Bars grow from their baseline and sectors sweep open: 0 … 1 of their extent.
    public var grow: AnimatedValue?
    /// Points, labels and shapes pop in: their scale.
    public var scale: AnimatedValue?
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

    /// Creates options with an id.
    public init(id: String? = nil) { self.id = id }

    /// The blend mode the mark's pixels use.
    var blend: BlendMode { blendMode.flatMap(BlendMode.init(rawValue:)) ?? .sourceOver }
}
