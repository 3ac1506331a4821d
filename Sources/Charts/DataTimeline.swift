import Motion
import Scene

/// Data that changes over time: rows carrying a time field (numbers, or ISO 8601 dates
/// read as seconds) and a key field, shown as the data at each moment of the video.
///
/// Rows are matched across time steps by their key (object constancy, as D3's keyed
/// joins): at a data time between two of a key's steps, each numeric field is
/// interpolated between the two rows, and every other field takes the earlier row's
/// value (the later one's from the step on). A key is shown from its first step to its
/// last; a step where it has no row is bridged from its neighbouring steps. The video's
/// clock maps onto the data's time in one of gganimate's two ways:
///
/// - `continuous` (`transition_time`): the data time moves steadily from the first step to
///   the last over `duration` seconds, uneven gaps between steps taking proportional time;
/// - `states` (`transition_states`): each step holds for `hold` seconds, then the data
///   eases (with `easing`) to the next step over `transition` seconds.
public struct DataTimeline: Sendable {
    /// How the video's clock maps onto the data's time.
    public enum Mode: Sendable, Equatable {
        /// Steadily from the first time value to the last over `duration` seconds.
        case continuous(duration: Double)
        /// Each step holds `hold` seconds, then moves to the next over `transition` seconds.
        case states(transition: Double, hold: Double)
    }

    /// The field that holds each row's time.
    public let timeField: String
    /// The field that names each row's object (a country, a series).
    public let keyField: String
    /// How the clock maps onto the data.
    public var mode: Mode
    /// The easing between steps in `states` mode (and of the whole clock in `continuous`).
    public var easing: Easing
    /// Video seconds before the data starts moving; the first step shows until then.
    public var delay: Double

    /// Whether the time field holds dates (ISO 8601 text, read as seconds).
    public let timeIsDate: Bool
    /// Ranks written into the rows: at each time step the keys ranked by a field.
    public struct Ranking: Sendable, Equatable {
        /// The field ranked, largest first.
        public var field: String
        /// The field the rank is written to: 0 for the largest at a step, then 1, 2, …;
        /// between steps it moves like any number, so a bar slides between slots.
        public var output: String
        /// Only keys whose rank is above `top` are shown (`top` − 1 is the last slot; a
        /// key moving from slot `top` − 1 to `top` slides out past the last slot).
        public var top: Int?
        /// Creates a ranking.
        public init(field: String, output: String = "rank", top: Int? = nil) { self.field = field; self.output = output; self.top = top }
    }

    /// The ranking written into the rows, if any.
    public let ranking: Ranking?
    /// Keys fade in over the step before their first (instead of appearing at it).
    public var fadesIn = false
    /// Keys fade out over the step after their last (instead of vanishing after it).
    public var fadesOut = false
    /// The hidden field a fading key's rows carry: its opacity factor, 0…1. Marks
    /// multiply their elements' opacity by it.
    public static let fadeField = "\u{1}fade"
    /// The distinct time values, ascending.
    public let steps: [Double]
    /// The keys, in order of first appearance: the order of the rows at every moment.
    public let keys: [String]
    /// Each key's rows: their step indices (ascending) and the rows.
    let samples: [[(step: Int, row: DataRow)]]

    /// What is wrong with the rows for a timeline.
    public enum Problem: Error, Equatable, Sendable {
        /// Row `row` has no time value, or one that is not a number or an ISO date.
        case badTime(row: Int)
        /// Row `row` has no key.
        case missingKey(row: Int)
        /// Rows `first` and `second` have the same key at the same time.
        case duplicate(first: Int, second: Int, key: String)
    }

    /// The timeline of `rows`; throws the first row that has no usable time or key, or
    /// repeats a key within one time step.
    public init(rows: [DataRow], timeField: String, keyField: String, mode: Mode, easing: Easing = .linear, delay: Double = 0,
                ranking: Ranking? = nil) throws(Problem) {
        self.timeField = timeField; self.keyField = keyField; self.mode = mode; self.easing = easing; self.delay = delay
        self.ranking = ranking
        var times: [Double] = []
        times.reserveCapacity(rows.count)
        for (i, r) in rows.enumerated() {
            guard let t = Self.time(r[timeField]) else { throw .badTime(row: i) }
            times.append(t)
        }
        let steps = Array(Set(times)).sorted()
        var stepIndex: [Double: Int] = [:]
        for (i, s) in steps.enumerated() { stepIndex[s] = i }
        var keyIndex: [String: Int] = [:], keys: [String] = []
        var samples: [[(step: Int, row: DataRow)]] = []
        var seen: [String: Int] = [:]
        for (i, r) in rows.enumerated() {
            guard let k = r[keyField]?.keyText else { throw .missingKey(row: i) }
            let step = stepIndex[times[i]]!
            let id = "\(step)\u{0}\(k)"
            if let first = seen[id] { throw .duplicate(first: first, second: i, key: k) }
            seen[id] = i
            if keyIndex[k] == nil { keyIndex[k] = keys.count; keys.append(k); samples.append([]) }
            samples[keyIndex[k]!].append((step, r))
        }
        for j in samples.indices { samples[j].sort { $0.step < $1.step } }
        if let r = ranking {
            // At each step, the keys with a row there ranked by the field, largest first;
            // ties keep key order, so ranks are a permutation at every step.
            var atStep: [[(key: Int, sample: Int, value: Double)]] = Array(repeating: [], count: steps.count)
            for (k, list) in samples.enumerated() {
                for (j, smp) in list.enumerated() {
                    atStep[smp.step].append((k, j, smp.row[r.field]?.number ?? -Double.infinity))
                }
            }
            for entries in atStep {
                let ordered = entries.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                for (rank, e) in ordered.enumerated() { samples[e.key][e.sample].row[r.output] = .number(Double(rank)) }
            }
        }
        self.steps = steps; self.keys = keys; self.samples = samples
        if case .string? = rows.first?[timeField] { timeIsDate = true } else { timeIsDate = false }
    }

    /// A time cell as a number: the number, or an ISO 8601 date in seconds.
    static func time(_ v: DataValue?) -> Double? {
        switch v {
        case .number(let x)? where x.isFinite: return x
        case .string(let s)?: return CivilDate.parseISO(s)
        default: return nil
        }
    }


    /// Video seconds the data takes to move from its first step to its last (holds included).
    public var length: Double {
        switch mode {
        case .continuous(let d): return steps.count > 1 ? d : 0
        case .states(let transition, let hold): return Double(max(0, steps.count - 1)) * (transition + hold)
        }
    }

    /// When the rows shown can change.
    public var changeSpan: ChangeSpan {
        steps.count > 1 && length > 0 ? ChangeSpan(start: delay, end: delay + length) : .never
    }

    /// The position in the steps at video time `t`: step i at `i`, a fraction between.
    public func position(at t: Double) -> Double {
        let n = steps.count
        guard n > 1 else { return 0 }
        let local = t - delay
        switch mode {
        case .continuous(let d):
            guard d > 0 else { return Double(n - 1) }
            let p = easing(min(1, max(0, local / d)))
            let time = steps[0] + (steps[n - 1] - steps[0]) * p
            return fractionalStep(of: time)
        case .states(let transition, let hold):
            let period = transition + hold
            guard period > 0 else { return Double(n - 1) }
            if local <= 0 { return 0 }
            let i = Int((local / period).rounded(.down))
            if i >= n - 1 { return Double(n - 1) }
            let into = local - Double(i) * period
            if into <= hold || transition <= 0 { return Double(i) }
            return Double(i) + easing(min(1, (into - hold) / transition))
        }
    }

    /// The moment shown at video time `t`, for text that names it.
    public func moment(at t: Double) -> Moment { Moment(time: dataTime(at: t), isDate: timeIsDate) }

    /// The data time at video time `t` (a year label shows its floor).
    public func dataTime(at t: Double) -> Double { dataTime(atPosition: position(at: t)) }

    /// The data time at a fractional step position (i ↦ steps[i]); the inverse of
    /// `fractionalStep(of:)`.
    func dataTime(atPosition p: Double) -> Double {
        guard !steps.isEmpty else { return 0 }
        let i = min(steps.count - 1, Int(p.rounded(.down)))
        let f = p - Double(i)
        return i + 1 < steps.count ? steps[i] + (steps[i + 1] - steps[i]) * f : steps[i]
    }

    /// A data time as a fractional step position (steps[i] ↦ i).
    func fractionalStep(of time: Double) -> Double {
        var lo = 0, hi = steps.count - 1
        if time <= steps[0] { return 0 }
        if time >= steps[hi] { return Double(hi) }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if steps[mid] <= time { lo = mid } else { hi = mid }
        }
        return Double(lo) + (time - steps[lo]) / (steps[hi] - steps[lo])
    }

    /// The rows shown at video time `t`, one per key whose steps span that moment, in
    /// key order.
    public func rows(at t: Double) -> [DataRow] { rows(atPosition: position(at: t)) }

    /// The rows at a fractional step position.
    public func rows(atPosition p: Double) -> [DataRow] {
        var out: [DataRow] = []
        out.reserveCapacity(keys.count)
        for s in samples {
            guard let first = s.first, let last = s.last else { continue }
            // Entering and exiting keys fade over the step before their first and after their last.
            if fadesIn, Double(first.step) > p + 1e-12, Double(first.step) - p < 1 {
                var row = first.row
                row[Self.fadeField] = .number(1 - (Double(first.step) - p))
                out.append(row)
                continue
            }
            if fadesOut, p > Double(last.step) + 1e-12, p - Double(last.step) < 1 {
                var row = last.row
                row[Self.fadeField] = .number(1 - (p - Double(last.step)))
                out.append(row)
                continue
            }
            guard Double(first.step) <= p + 1e-12, p <= Double(last.step) + 1e-12 else { continue }
            // The last sample at or before p, and the next one (bridging missing steps).
            var lo = 0, hi = s.count - 1   // binary search: the last sample at or before p
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if Double(s[mid].step) <= p + 1e-12 { lo = mid } else { hi = mid - 1 }
            }
            let j = lo
            let a = s[j]
            guard j + 1 < s.count else { out.append(a.row); continue }
            let b = s[j + 1]
            let f = (p - Double(a.step)) / Double(b.step - a.step)
            if f <= 0 { out.append(a.row); continue }
            var row = f >= 1 ? b.row : a.row
            for (field, va) in a.row {
                guard field != timeField, case .number(let x) = va, case .number(let y)? = b.row[field] else { continue }
                row[field] = .number(x + (y - x) * f)
            }
            // The time field reads the moment shown, in the field's own kind.
            if case .number? = a.row[timeField] { row[timeField] = .number(dataTime(atPosition: p)) }
            out.append(row)
        }
        if let top = ranking?.top {
            // Keys wholly below the last slot draw nothing: drop them, so a frame costs
            // what is on screen, not the number of keys.
            let output = ranking!.output
            out.removeAll { ($0[output]?.number ?? 0) >= Double(top) }
        }
        return out
    }
}
