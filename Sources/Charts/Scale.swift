/// Maps a continuous data interval linearly onto a pixel interval.
public struct LinearScale: Hashable, Sendable {
    /// The data values at the two ends.
    public var domain: (Double, Double) { (d0, d1) }
    /// The pixel positions of the two ends.
    public var range: (Double, Double) { (r0, r1) }
    let d0: Double, d1: Double, r0: Double, r1: Double

    /// Creates a scale from `domain` onto `range`; the range may run backwards (y up).
    public init(domain: (Double, Double), range: (Double, Double)) {
        d0 = domain.0; d1 = domain.1; r0 = range.0; r1 = range.1
    }

    /// The pixel position of data value `v`. A zero-width domain maps everything to the range's middle.
    public func callAsFunction(_ v: Double) -> Double {
        let span = d1 - d0
        if span == 0 || !span.isFinite { return (r0 + r1) / 2 }
        return r0 + (v - d0) / span * (r1 - r0)
    }
}
