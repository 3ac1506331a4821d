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
    /// A linear domain taken from the data reaches zero (Swift Charts' and Vega-Lite's
    /// default); false fits it to the data (`.automatic(includesZero: false)`).
    public var includesZero = true
    /// For band scales: padding between and around the bands, in steps.
    public var paddingInner = 0.1, paddingOuter = 0.1
    /// Creates a channel reading `field`.
    public init(field: String) { self.field = field }
}

/// A tick of an axis: a data value and its label.
public struct AxisTick: Hashable, Sendable {
    public var value: Double
    public var label: String
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
