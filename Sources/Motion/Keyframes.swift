/// One keyframe: a value at a time, and how the segment it starts moves on.
public struct Keyframe: Hashable, Sendable {
    /// Time in seconds on the timeline.
    public var time: Double
    /// The value at `time`.
    public var value: Double
    /// The easing of the segment from this keyframe to the next (Lottie puts
    /// it on the keyframe that starts the segment); unused on the last one.
    public var easing: Easing
    /// When true, the value stays at `value` until the next keyframe and
    /// then jumps (Lottie's hold keyframe); `easing` is then unused.
    public var hold: Bool

    /// Creates a keyframe; segments are linear unless an easing is given.
    public init(time: Double, value: Double, easing: Easing = .linear, hold: Bool = false) {
        self.time = time
        self.value = value
        self.easing = easing
        self.hold = hold
    }
}

/// A value animated through keyframes, as Lottie evaluates them: before the
/// first keyframe it holds the first value, after the last the last value,
/// and between keyframes i and i + 1 it is
/// `v_i + (v_{i+1} − v_i) · easing_i((t − t_i) / (t_{i+1} − t_i))`,
/// or `v_i` throughout when keyframe i holds.
///
/// Two keyframes at the same time make a jump: the later one's value shows
/// from that time on. Times are rounded to Motion's flicks (see Flicks.swift)
/// before the fraction is taken, so decimal times divide exactly.
public struct Keyframes: Hashable, Sendable {
    /// The keyframes in time order (stable for equal times); at least one.
    public let keyframes: [Keyframe]
    // Keyframe times in flicks, parallel to `keyframes`.
    private let flicks: [Double]

    /// Sorts the keyframes by time (keeping the given order among equal
    /// times). Nil when there are none or a time or value is not finite.
    public init?(_ keyframes: [Keyframe]) {
        guard !keyframes.isEmpty,
              keyframes.allSatisfy({ $0.time.isFinite && $0.value.isFinite }) else { return nil }
        let sorted = keyframes.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        self.keyframes = sorted
        self.flicks = sorted.map { Flicks.from($0.time) }
    }

    /// Time of the first keyframe, in seconds.
    public var startTime: Double { keyframes[0].time }

    /// Time of the last keyframe, from which the value no longer changes.
    public var endTime: Double { keyframes[keyframes.count - 1].time }

    /// Whether any keyframe's value differs from the first.
    public var isAnimated: Bool {
        let first = keyframes[0].value
        return keyframes.contains { $0.value != first }
    }

    /// A copy with every keyframe `seconds` later (so a track can start
    /// relative to another animation).
    public func shifted(by seconds: Double) -> Keyframes {
        Keyframes(keyframes.map {
            Keyframe(time: $0.time + seconds, value: $0.value, easing: $0.easing, hold: $0.hold)
        }) ?? self
    }

    /// The value at time `t` (seconds); NaN counts as before the first keyframe.
    public func value(at t: Double) -> Double {
        let now = Flicks.from(t)
        guard let i = segmentIndex(now) else { return keyframes[0].value }
        let a = keyframes[i]
        guard i + 1 < keyframes.count, !a.hold else { return a.value }
        let b = keyframes[i + 1]
        let p = a.easing((now - flicks[i]) / (flicks[i + 1] - flicks[i]))
        if p == 0 { return a.value }
        if p == 1 { return b.value }
        return a.value + (b.value - a.value) * p
    }

    /// Index of the last keyframe at or before `now` (flicks), or nil before
    /// the first. Binary search: keyframe tracks can be long.
    private func segmentIndex(_ now: Double) -> Int? {
        guard now >= flicks[0] else { return nil }
        var lo = 0, hi = flicks.count  // flicks[lo] ≤ now; flicks[hi...] > now
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if flicks[mid] <= now { lo = mid } else { hi = mid }
        }
        return lo
    }

    /// Whether `value(at:)` is the same at every time in [t0, t1]. True for
    /// t0 ≥ t1. Never true where the value changes; may be false where a
    /// step easing happens to hold still.
    public func isConstant(between t0: Double, and t1: Double) -> Bool {
        guard !(t0 >= t1) else { return true }
        let from = Flicks.from(t0), to = Flicks.from(t1)
        guard !from.isNaN, !to.isNaN else { return false }
        let first = segmentIndex(from), last = segmentIndex(to)
        // Before the first keyframe the value is the first keyframe's.
        let lo = first ?? 0
        guard let hi = last else { return true }
        let value = keyframes[lo].value
        for i in lo...hi {
            guard keyframes[i].value == value else { return false }
            // Segment i is visited over [max(from, t_i), min(to, t_{i+1})); if
            // that has length, a moving segment changes the value.
            guard i + 1 < keyframes.count, !keyframes[i].hold else { continue }
            let entered = max(from, flicks[i])
            let left = i == hi ? to : flicks[i + 1]
            if left > entered && keyframes[i + 1].value != value { return false }
        }
        return true
    }
}
