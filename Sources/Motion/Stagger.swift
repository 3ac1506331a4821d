/// Per-element delays for a mark with many elements (bars, points, sectors),
/// as GSAP's `stagger` computes them.
///
/// Each element gets a distance d from the order's origin: its index from
/// the start, n − 1 − index from the end, |index − (n − 1)/2| from the
/// centre, (n − 1)/2 − |index − (n − 1)/2| from the edges, or its rank when
/// sorted by value. The element nearest the origin starts first; with
/// `each(step)` the offset is (d − d_min) × step, with `amount(total)` it is
/// (d − d_min) / (d_max − d_min) × total, so the last element starts `total`
/// after the first. Elements at equal distance start together (the two middle
/// bars of an even count, from the centre).
public struct Stagger: Hashable, Sendable {
    /// How far apart starts are.
    public enum Spacing: Hashable, Sendable {
        /// This many seconds between one element and the next in the order.
        case each(Double)
        /// This many seconds between the first and the last start, spread evenly.
        case amount(Double)
    }

    /// Which element starts first, and which follow.
    public enum Order: Hashable, Sendable {
        /// From the first element to the last.
        case start
        /// From the last element to the first.
        case end
        /// From the middle outwards.
        case center
        /// From both ends inwards.
        case edges
        /// By the given values, smallest first; equal values by index, and
        /// missing or NaN values after all others.
        case ascending([Double])
        /// By the given values, largest first; equal values by index, and
        /// missing or NaN values after all others.
        case descending([Double])
    }

    /// How far apart starts are.
    public var spacing: Spacing
    /// Which element starts first.
    public var order: Order

    /// Creates a stagger.
    public init(_ spacing: Spacing, from order: Order = .start) {
        self.spacing = spacing
        self.order = order
    }

    /// The delay of each of `count` elements, in seconds, in index order;
    /// the first to start has 0. Empty for a count below 1. A non-finite
    /// spacing counts as 0.
    public func offsets(count: Int) -> [Double] {
        guard count > 0 else { return [] }
        // Twice the distance, so that centre distances (multiples of ½) stay integral.
        let distances = doubledDistances(count)
        let least = distances.min()!, most = distances.max()!
        let stepFlicks: Double
        switch spacing {
        case let .each(step):
            stepFlicks = Flicks.from(step) / 2
        case let .amount(total):
            stepFlicks = most > least ? Flicks.from(total) / Double(most - least) : 0
        }
        guard stepFlicks.isFinite else { return [Double](repeating: 0, count: count) }
        return distances.map { Flicks.seconds(Double($0 - least) * stepFlicks) }
    }

    private func doubledDistances(_ n: Int) -> [Int] {
        switch order {
        case .start: return (0..<n).map { 2 * $0 }
        case .end: return (0..<n).map { 2 * (n - 1 - $0) }
        case .center: return (0..<n).map { abs(2 * $0 - (n - 1)) }
        case .edges: return (0..<n).map { (n - 1) - abs(2 * $0 - (n - 1)) }
        case let .ascending(values): return ranks(n, values, descending: false)
        case let .descending(values): return ranks(n, values, descending: true)
        }
    }

    private func ranks(_ n: Int, _ values: [Double], descending: Bool) -> [Int] {
        let sorted = (0..<n).sorted { i, j in
            let a = i < values.count ? values[i] : .nan, b = j < values.count ? values[j] : .nan
            if a.isNaN != b.isNaN { return b.isNaN }
            if a.isNaN || a == b { return i < j }
            return descending ? a > b : a < b
        }
        var ranks = [Int](repeating: 0, count: n)
        for (rank, index) in sorted.enumerated() { ranks[index] = 2 * rank }
        return ranks
    }
}
