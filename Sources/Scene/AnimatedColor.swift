import Motion
import Raster

/// A colour that animates from one value to another, interpolated in OKLab (a perceptual
/// space: a red → green fade passes through yellow-brown rather than muddy grey) with
/// alpha interpolated linearly.
public struct AnimatedColor: Sendable {
    /// Colour before and at the start.
    public var from: Color
    /// Colour at and after the end.
    public var to: Color
    /// Timing.
    public var animation: Animation

    /// Creates an animated colour.
    public init(from: Color, to: Color, animation: Animation) { self.from = from; self.to = to; self.animation = animation }

    /// The colour at time `t`.
    public func value(at t: Double) -> Color {
        let p = animation.progress(at: t)
        if p <= 0 { return from }
        if p >= 1 { return to }
        return OKLab.mix(from, to, p)
    }
}
