import Motion

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
