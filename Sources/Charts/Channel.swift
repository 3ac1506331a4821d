import Motion
import Scene

/// One position channel of a chart: which field it reads and how it scales.
public struct Channel: Sendable {
    /// The field of each row.
    public var field: String
    /// The scale kind; chosen from the data when nil (numbers: linear, ISO dates: time, text: band).
    public var scale: ScaleType?
    /// The data interval shown; from the data when nil (numbers: min(0, min)…max).
    public var domain: (Double, Double)?
    /// Band order; the order of first appearance when nil.
    public var categories: [String]?
    /// The data interval animated over time (a zoom), overriding `domain`; the chart's
    /// scales, ticks and layout are then recomputed at every frame (`ChartSpec.state(at:)`).
    public var animatedDomain: AnimatedDomain?
    /// Widen the domain to nice round ticks.
    public var nice = false
    /// For band scales: padding between and around the bands, in steps.
    public var paddingInner = 0.1, paddingOuter = 0.1
    /// Whether a linear domain taken from the data reaches zero (Swift Charts' and
    /// Vega-Lite's default; false fits it to the data, `.automatic(includesZero: false)`);
    /// nil: yes, except on the channel that carries a timeline's time field (a year axis
    /// does not start at 0).
    public var includesZero: Bool?
    /// How a domain the document does not fix follows moving data (`ChartSpec.timeline`).
    public var follow = DomainFollow()
    /// The domain's extent over the whole timeline (for `DomainFollow.Ends.max` and
    /// `.fixed`), worked out once by `ChartSpec.build`; computed per frame when nil.
    var timelineExtent: (Double, Double)?
    /// In a snapshot of moving data: the domains at the two time steps around the moment
    /// and how far the moment is between them; the axis shows both steps' ticks, those
    /// of one step only fading with the distance (`ChartSpec.ticks(_:axis:blending:)`).
    var tickBlend: TickBlend?
    /// In a snapshot of moving data: `domain` is the one following the data at that
    /// moment, not one the document fixed.
    var domainFollows = false
    /// Creates a channel reading `field`.
    public init(field: String) { self.field = field }
}

/// A tick of an axis: a data value, its label and its opacity (below 1 while a tick
/// fades in or out as a following domain changes its tick step).
public struct AxisTick: Hashable, Sendable {
    public var value: Double
    public var label: String
    public var opacity: Double = 1
    /// Creates a tick.
    public init(value: Double, label: String, opacity: Double = 1) { self.value = value; self.label = label; self.opacity = opacity }
}

/// How a domain follows data that changes over time (gganimate's `view_follow`).
///
/// At each time step the domain is the one a still chart of that step's rows would have
/// (stacks included), padded at the ends that follow and rounded to nice ticks when the
/// channel asks; between steps it moves linearly with the data, so it never jumps, and
/// data between steps never leaves it (a key's value between two steps is on the line
/// between its values there, so the largest value is at most the line between the
/// steps' largest values).
public struct DomainFollow: Sendable, Equatable {
    /// Which ends of the domain move.
    public enum Ends: String, Sendable, CaseIterable {
        /// Both ends follow the data shown.
        case both
        /// The upper end follows the data shown; the lower end is the lowest over the
        /// whole timeline.
        case max
        /// Neither moves: the extent of all the data over the whole timeline.
        case fixed
    }
    /// Which ends move.
    public var ends: Ends
    /// Room added beyond the data at each moving end, as a fraction of the domain's span.
    public var padding: Double
    /// The smallest span the domain has, in data units (a line race's time axis showing
    /// at least ten years while the first are drawn); 0 for none.
    public var minSpan: Double
    /// Creates a follow rule.
    public init(_ ends: Ends = .both, padding: Double = 0, minSpan: Double = 0) { self.ends = ends; self.padding = padding; self.minSpan = minSpan }
}

/// The tick sources of a following domain between two time steps.
struct TickBlend: Sendable {
    var from: (Double, Double)
    var to: (Double, Double)
    /// 0 at the earlier step, 1 at the later.
    var fraction: Double
}

/// A domain whose ends animate: a chart zooming into a range, or following its data.
public struct AnimatedDomain: Sendable {
    /// The lower end, in data units.
    public var lower: AnimatedValue
    /// The upper end, in data units.
    public var upper: AnimatedValue
    /// Creates an animated domain.
    public init(lower: AnimatedValue, upper: AnimatedValue) { self.lower = lower; self.upper = upper }

    /// The domain at time `t`.
    public func value(at t: Double) -> (Double, Double) { (lower.value(at: t), upper.value(at: t)) }

    /// When the domain changes.
    public var changeSpan: ChangeSpan { lower.changeSpan.union(upper.changeSpan) }
}
