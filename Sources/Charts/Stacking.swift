/// How values of several series at the same position are stacked.
public enum StackMode: String, Hashable, Sendable, CaseIterable {
    /// Each series from zero (overlapping).
    case none
    /// Positive values stack upwards from zero, negative ones downwards (Swift Charts' `.standard`).
    case standard
    /// Stacked and scaled so every position sums to 1 (100 %).
    case normalized
    /// Stacked and centred on zero: the streamgraph (d3's silhouette offset).
    case center
}

/// Stacks values: for each element (row) its lower and upper value.
public enum Stacker {
    /// `keys[i]` is the position of element i (its x), `values[i]` its value; elements are
    /// stacked in index order within each position, so the series order is the row order.
    public static func stack(keys: [Double], values: [Double], mode: StackMode) -> [(low: Double, high: Double)] {
        var out = [(low: Double, high: Double)](repeating: (0, 0), count: values.count)
        if mode == .none {
            for i in values.indices { out[i] = (0, values[i]) }
            return out
        }
        var groups: [Double: [Int]] = [:]
        var order: [Double] = []
        for (i, k) in keys.enumerated() {
            if groups[k] == nil { order.append(k) }
            groups[k, default: []].append(i)
        }
        for k in order {
            let idx = groups[k]!
            var pos = 0.0, neg = 0.0
            for i in idx {
                let v = values[i]
                if mode == .standard && v < 0 { out[i] = (neg + v, neg); neg += v }
                else { let a = mode == .standard ? v : abs(v); out[i] = (pos, pos + a); pos += a }
            }
            switch mode {
            case .normalized:
                let total = pos
                if total > 0 { for i in idx { out[i] = (out[i].low / total, out[i].high / total) } }
            case .center:
                let shift = pos / 2
                for i in idx { out[i] = (out[i].low - shift, out[i].high - shift) }
            default: break
            }
        }
        return out
    }
}
