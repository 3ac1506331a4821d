// CSS `steps()`, after CSS Easing Functions Level 2, "Output of a step easing
// function". The spec's before flag is not an input here: Animation already
// shows progress 0 up to and including its start (the flag's purpose), and
// inside the active interval the flag is always clear.

/// Where the rises of a `steps` easing fall (CSS's `<step-position>`).
public enum StepPosition: String, CaseIterable, Hashable, Sendable {
    /// The first rise is at 0: steps(4, jump-start) gives 1/4, 2/4, 3/4, 1.
    case jumpStart = "jump-start"
    /// The last rise is at 1: steps(4, jump-end) gives 0, 1/4, 2/4, 3/4 (CSS's default).
    case jumpEnd = "jump-end"
    /// No rise at 0 or 1: steps(4, jump-none) gives 0, 1/3, 2/3, 1.
    case jumpNone = "jump-none"
    /// Rises at both 0 and 1: steps(4, jump-both) gives 1/5, 2/5, 3/5, 4/5.
    case jumpBoth = "jump-both"
}

extension Easing {
    /// CSS's step algorithm for x in 0...1 with the before flag clear.
    static func steps(_ x: Double, count: Int, position: StepPosition) -> Double {
        let minimum = position == .jumpNone ? 2 : 1
        let steps = Double(max(count, minimum))
        var current = (x * steps).rounded(.down)
        if position == .jumpStart || position == .jumpBoth { current += 1 }
        let jumps: Double
        switch position {
        case .jumpStart, .jumpEnd: jumps = steps
        case .jumpNone: jumps = steps - 1
        case .jumpBoth: jumps = steps + 1
        }
        // x ≤ 1 here, so the spec's clamp applies: jump-start at 1 would
        // otherwise step past the top.
        if current > jumps { current = jumps }
        return current / jumps
    }
}
