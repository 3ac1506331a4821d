import Motion

/// When something can change: before `start` it shows its first state, after `end` its
/// last; empty (start = +∞) for something that never changes.
public struct ChangeSpan: Hashable, Sendable {
    public var start: Double
    public var end: Double
    /// Never changes.
    public static let never = ChangeSpan(start: .infinity, end: -.infinity)

    /// Creates a span.
    public init(start: Double, end: Double) { self.start = start; self.end = end }

    /// The smallest span covering both.
    public func union(_ o: ChangeSpan) -> ChangeSpan { ChangeSpan(start: min(start, o.start), end: max(end, o.end)) }

    /// Whether the state at `t` is the first state (`.initial`), the last (`.final`), or
    /// changing (nil). Something that never changes is always `.final`.
    public func state(at t: Double) -> StaticState? {
        if start > end { return .final }
        if t >= end { return .final }
        if t <= start { return .initial }
        return nil
    }
}

/// Which unchanging state a node is in at some time.
public enum StaticState: UInt8, Hashable, Sendable { case initial, final }

extension AnimatedValue {
    /// When the value can change. A tween holds its from-value up to its start and its
    /// to-value from its end (its real end: infinite for an endless repeat).
    public var changeSpan: ChangeSpan {
        switch self {
        case .constant: return .never
        case .tween(let tw):
            // from + (to − from)·p is exactly `from` for every p when the two are equal.
            if tw.from == tw.to { return .never }
            return ChangeSpan(start: tw.animation.start, end: tw.animation.end)
        case .keyframes(let k):
            let values = k.keyframes.map(\.value)
            if values.allSatisfy({ $0 == values[0] }) { return .never }
            return ChangeSpan(start: k.startTime, end: k.endTime)
        }
    }
}
