// Time quantization.
//
// Frame i is at t = i / fps, and documents write delays and durations as
// decimals, but neither 0.2 nor 0.6 is a Double: (0.6 − 0.2) / 0.8 evaluates
// to 0.49999999999999994, so the middle frame of a 0.8 s animation delayed by
// 0.2 s at 60 fps would not show easeInOut(0.5) = 0.5. Motion therefore
// rounds every time to a whole number of flicks (a flick is 1/705,600,000 s)
// before subtracting or dividing; flicks, not ticks, so they cannot be
// confused with the ticks on a chart's axis. The flick divides the frame
// durations of 24, 25, 30, 48, 50, 60, 90, 100, 120 and 144 fps and every
// decimal time with up to five places, so those land on integers, and
// integers below 2^53 (about 148 days of flicks) are exact in Double: the
// differences and ratios computed from them are the correctly rounded
// values of the decimal times the document meant, and 0.4 s / 0.8 s is
// exactly 0.5. Rounding moves a time by at most 0.7 ns.

/// Conversion between seconds and flicks, Motion's integral unit of time.
enum Flicks {
    /// Flicks per second.
    static let perSecond = 705_600_000.0

    /// `seconds` as a whole number of flicks, kept in a Double. NaN and
    /// infinities pass through.
    @inline(__always)
    static func from(_ seconds: Double) -> Double {
        (seconds * perSecond).rounded()
    }

    /// Flicks back to seconds; for whole flicks the nearest Double to the exact quotient.
    @inline(__always)
    static func seconds(_ flicks: Double) -> Double {
        flicks / perSecond
    }
}
