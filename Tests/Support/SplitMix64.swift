#if canImport(Glibc)
import Glibc
#endif

/// A seeded generator (SplitMix64), so sampled inputs are the same on every run and a
/// failure reproduces. One for every test target (`TestSupport`).
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64

    /// A generator starting from `state`.
    public init(state: UInt64) { self.state = state }
    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1 from the next 53 bits.
    public mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A standard normal number (Box–Muller).
    public mutating func nextGaussian() -> Double {
        let u = max(uniform(), 1e-300), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
