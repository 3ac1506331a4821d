/// CSS's `linear(…)` easing: straight lines through a list of points, after
/// CSS Easing Functions Level 2 ("create a linear easing function" and
/// "calculate linear easing output progress").
///
/// Stops give an output and up to two input positions (fractions: 0.75 for
/// CSS's 75%). Positions are made non-decreasing (a position below an earlier
/// one is raised to it); a first stop without a position is at 0, a last one
/// at 1 (or the largest position before it, if larger); runs of stops without
/// positions between two that have them are spread evenly. Inputs before the
/// first point or after the last continue the line through the nearest two
/// points, and where two points share an input the later one wins.
public struct PiecewiseLinear: Hashable, Sendable {
    /// One `<linear-stop>`: an output value and its optional input positions.
    public struct Stop: Hashable, Sendable {
        /// The progress this stop outputs.
        public var output: Double
        /// Input position as a fraction (CSS's percentage / 100), or nil to place it automatically.
        public var input: Double?
        /// A second input position, which adds a second point with the same output (a flat run).
        public var secondInput: Double?

        /// Creates a stop; `secondInput` needs `input`.
        public init(_ output: Double, at input: Double? = nil, through secondInput: Double? = nil) {
            self.output = output
            self.input = input
            self.secondInput = secondInput
        }
    }

    /// A resolved point of the curve.
    public struct Point: Hashable, Sendable {
        /// Input fraction.
        public var input: Double
        /// Output progress at that input.
        public var output: Double
    }

    /// The resolved points, with non-decreasing inputs; at least two.
    public let points: [Point]

    /// Resolves stops as CSS does. Nil when there are fewer than two stops
    /// (as the spec requires), a value is not finite, or a stop has a second
    /// position without a first.
    public init?(_ stops: [Stop]) {
        guard stops.count >= 2 else { return nil }
        var inputs: [Double?] = []
        var outputs: [Double] = []
        var largest = -Double.infinity
        for (index, stop) in stops.enumerated() {
            guard stop.output.isFinite else { return nil }
            if let first = stop.input {
                guard first.isFinite else { return nil }
                largest = max(first, largest)
                inputs.append(largest)
                outputs.append(stop.output)
                if let second = stop.secondInput {
                    guard second.isFinite else { return nil }
                    largest = max(second, largest)
                    inputs.append(largest)
                    outputs.append(stop.output)
                }
            } else {
                guard stop.secondInput == nil else { return nil }
                if index == 0 {
                    largest = 0
                    inputs.append(0)
                } else if index == stops.count - 1 {
                    inputs.append(max(1, largest))
                } else {
                    inputs.append(nil)
                }
                outputs.append(stop.output)
            }
        }
        // Spread each run of missing inputs evenly between its known neighbours
        // (the first and last points always have one).
        var index = 0
        while index < inputs.count {
            guard inputs[index] == nil else { index += 1; continue }
            let before = index - 1
            var after = index
            while inputs[after] == nil { after += 1 }
            let a = inputs[before]!, b = inputs[after]!
            let span = Double(after - before)
            for k in index..<after {
                inputs[k] = a + (b - a) * Double(k - before) / span
            }
            index = after
        }
        points = zip(inputs, outputs).map { Point(input: $0!, output: $1) }
    }

    /// Evenly spaced outputs: `linear(0, 0.25, 1)`.
    public init?(outputs: [Double]) {
        self.init(outputs.map { Stop($0) })
    }

    /// The output at input `x` (any finite value; Easing passes 0...1).
    public func callAsFunction(_ x: Double) -> Double {
        // The last point whose input is ≤ x, or the first if none is.
        var a = 0
        for (index, point) in points.enumerated() where point.input <= x { a = index }
        if a == points.count - 1 { a -= 1 }
        let pa = points[a], pb = points[a + 1]
        if pa.input == pb.input { return pb.output }
        let fraction = (x - pa.input) / (pb.input - pa.input)
        return pa.output + fraction * (pb.output - pa.output)
    }
}
