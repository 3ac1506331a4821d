import Synchronization
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

    /// Whether the time field holds dates (ISO 8601 text, read as seconds; or seconds
    /// when the timeline is told so, as the Swift API does for `Date` values).
    public internal(set) var timeIsDate: Bool
    /// The steps' names when the time field holds text that is neither numbers nor dates
    /// ("2020-Q1", "Season 3", "FY24"): the distinct values in order of first appearance,
    /// step i named `stepNames[i]` (its time is i). nil for number and date times.
    public internal(set) var stepNames: [String]?
    /// Each step name's step (its index in `stepNames`), for the per-frame step positions.
    var stepOfName: [String: Int] = [:]
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

    /// How a key enters (over the step before its first) or exits (over the step after
    /// its last): gganimate's `enter_fade`, `enter_grow`, `enter_fly` and their exits.
    /// Effects combine; with none a key appears at its first step and goes after its last.
    public struct KeyTransition: Sendable, Equatable {
        /// Opacity from 0 to 1.
        public var fade: Bool
        /// Grow from the baseline (bars, lines and areas) or from a point (dots).
        public var grow: Bool
        /// Slide in from (or out to) an edge of the plot.
        public var fly: Side?
        /// Creates a transition.
        public init(fade: Bool = false, grow: Bool = false, fly: Side? = nil) { self.fade = fade; self.grow = grow; self.fly = fly }
        /// No effect.
        public var isNone: Bool { !fade && !grow && fly == nil }
    }
    /// How keys enter.
    public var enter = KeyTransition()
    /// How keys exit.
    public var exit = KeyTransition()
    /// Keys fade in over the step before their first (instead of appearing at it).
    public var fadesIn: Bool { get { enter.fade } set { enter.fade = newValue } }
    /// Keys fade out over the step after their last (instead of vanishing after it).
    public var fadesOut: Bool { get { exit.fade } set { exit.fade = newValue } }

    /// Reveal the data up to the moment (gganimate's `transition_reveal`): every row of a
    /// key up to the time shown, and its head, interpolated at that time, so lines and
    /// areas draw themselves as the clock moves, all cut at the same time value.
    public var reveals = false

    /// The hidden field an entering or exiting key's rows carry when it fades: its
    /// opacity factor, 0…1. Marks multiply their elements' opacity by it.
    public static let fadeField = "\u{1}fade"
    /// The hidden field of a growing or shrinking key: its size factor, 0…1.
    public static let growField = "\u{1}grow"
    /// The hidden field of a key flying in or out: how far it is from its place, 0…1 of
    /// the plot's size, towards the edge named by `flySideField`.
    public static let flyField = "\u{1}fly"
    /// The edge a flying key comes from or goes to (a `Side`'s name).
    public static let flySideField = "\u{1}flySide"
    /// The hidden field marking the head of each key in a revealed timeline (its row at
    /// the moment shown): marks with `MarkOptions.headsOnly` draw these rows only.
    public static let headField = "\u{1}head"
    /// Each shown row's step position when the steps are named (`stepNames`): its step's
    /// index, fractional while it moves between steps, so a line over named quarters
    /// glides along its axis as it would over years.
    public static let stepField = "\u{1}step"
    /// The distinct time values, ascending.
    public let steps: [Double]
    /// The keys, in order of first appearance: the order of the rows at every moment.
    public let keys: [String]
    /// Each key's position in `keys`: what a colour encoding over the key field looks up
    /// for every element of every frame (built once here, not from the 1,000 keys of a
    /// big race at each frame).
    let keyIndex: [String: Int]
    /// Every row of every key, in key order (each key's in step order), by column, with
    /// the race's rank field written in.
    let table: DataTable
    /// Each key's rows: their step indices (ascending) and their rows in `table`.
    let samples: [[(step: Int, row: Int)]]
    /// In a race with a top: for each interval between steps k and k + 1, the keys (in
    /// key order) that may be in a shown slot somewhere in it, so a frame walks the keys
    /// on screen and not all of them. Empty with fewer than two steps.
    let onScreenIndex: [[Int32]]?
    /// In a race: each key's ranked field at its samples, for ranking at sub-steps.
    let rankValues: [[(step: Int, value: Double)]]
    /// Ranks at sub-steps recently asked for, shared by the rendering threads.
    let rankCache = SubstepRankCache()

    /// How many times per step a race is ranked again from the interpolated values: every
    /// tenth of a second of video (`rankInterval`), at most ten times a step, at least once.
    /// A key's rank moves on a line between two sub-steps, so at every sub-step the ranks
    /// are a permutation (each shown slot holds one bar), and a key overtaking another
    /// swaps with it over one sub-step, when the values cross, as in D3's bar chart race
    /// (keyframes between the data's steps). Ranking only at the steps left a bar jumping
    /// two places sharing a slot halfway and the slot it left empty; ranking more often
    /// than every tenth of a second would make a swap a jump of a frame or two.
    public var rankSubsteps: Int {
        let seconds: Double
        switch mode {
        case .continuous(let duration): seconds = duration / Double(max(1, steps.count - 1))
        case .states(let transition, _): seconds = transition
        }
        guard seconds.isFinite, seconds > 0 else { return 1 }
        return max(1, min(10, Int((seconds / Self.rankInterval).rounded())))
    }
    /// The video time between two rankings of a race, in seconds.
    public static let rankInterval = 0.1

    /// The on-screen index of a race: a key is listed for an interval when its rank is
    /// inside the top at one of its samples around the interval (between two samples
    /// its rank moves on a line, so it is inside the top somewhere between them only if
    /// it is at one of them), and for the intervals next to a sample inside the top,
    /// which its entry and exit use.
    static func onScreen(_ samples: [[(step: Int, row: Int)]], _ table: DataTable, steps: Int, top: Int, output: String) -> [[Int32]] {
        guard steps > 1 else { return [] }
        var index: [[Int32]] = Array(repeating: [], count: steps - 1)
        let ranks = table.column(output)
        for (k, s) in samples.enumerated() {
            var mark = [Bool](repeating: false, count: steps - 1)
            func inTop(_ j: Int) -> Bool { (ranks?.number(at: s[j].row) ?? .infinity) < Double(top) }
            for j in s.indices where inTop(j) {
                let st = s[j].step
                if st - 1 >= 0 { mark[st - 1] = true }
                if st < steps - 1 { mark[st] = true }
                if j + 1 < s.count { for i in st..<s[j + 1].step { mark[i] = true } }
                if j > 0 { for i in s[j - 1].step..<st { mark[i] = true } }
            }
            for i in mark.indices where mark[i] { index[i].append(Int32(k)) }
        }
        return index
    }

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
                ranking: Ranking? = nil, timeIsDate: Bool? = nil) throws(Problem) {
        try self.init(table: DataTable(rows: rows), timeField: timeField, keyField: keyField, mode: mode, easing: easing,
                      delay: delay, ranking: ranking, timeIsDate: timeIsDate)
    }

    /// The timeline of a table's rows (`init(rows:…)` on rows stored by column).
    public init(table rows: DataTable, timeField: String, keyField: String, mode: Mode, easing: Easing = .linear, delay: Double = 0,
                ranking: Ranking? = nil, timeIsDate: Bool? = nil) throws(Problem) {
        self.timeField = timeField; self.keyField = keyField; self.mode = mode; self.easing = easing; self.delay = delay
        self.ranking = ranking
        var times: [Double] = []
        times.reserveCapacity(rows.count)
        let timeColumn = rows.column(timeField), keyColumn = rows.column(keyField)
        let names = Self.stepNames(timeColumn, count: rows.count)
        if let names {
            for (i, n) in names.enumerated() { stepOfName[n] = i }
            for i in rows.indices {
                guard let n = timeColumn?[i]?.keyText, let t = stepOfName[n] else { throw .badTime(row: i) }
                times.append(Double(t))
            }
        } else {
            for i in rows.indices {
                guard let t = Self.time(timeColumn?[i]) else { throw .badTime(row: i) }
                times.append(t)
            }
        }
        let steps = Array(Set(times)).sorted()
        var stepIndex: [Double: Int] = [:]
        for (i, s) in steps.enumerated() { stepIndex[s] = i }
        var keyIndex: [String: Int] = [:], keys: [String] = []
        var samples: [[(step: Int, row: Int)]] = []
        // Keys in order of first appearance, up to the first row without one. A text
        // column's codes name its distinct values, so its keys are found without hashing.
        var missingKey: Int? = nil
        var textKeys: [Int] = [], codes: [UInt32] = [], values: [String] = [], isText = false
        if case .texts(let c, let v)? = keyColumn?.storage { codes = c; values = v; textKeys = [Int](repeating: -1, count: v.count); isText = true }
        for i in rows.indices {
            let key: Int
            if isText {
                let c = codes[i]
                if c == DataColumn.missingCode { missingKey = i; break }
                if textKeys[Int(c)] < 0 { textKeys[Int(c)] = keys.count; keys.append(values[Int(c)]); samples.append([]) }
                key = textKeys[Int(c)]
            } else {
                guard let k = keyColumn?[i]?.keyText else { missingKey = i; break }
                if keyIndex[k] == nil { keyIndex[k] = keys.count; keys.append(k); samples.append([]) }
                key = keyIndex[k]!
            }
            samples[key].append((stepIndex[times[i]]!, i))
        }
        // A key's rows in step order (rows in order within a step, so a repeated step's
        // first two rows are next to each other). The repeat reported is the one whose
        // second row comes first, as reading the rows in order finds it; it comes before
        // a missing key further down.
        var duplicate: (first: Int, second: Int, key: String)? = nil
        for j in samples.indices {
            samples[j].sort { $0.step != $1.step ? $0.step < $1.step : $0.row < $1.row }
            for s in samples[j].indices.dropFirst() where samples[j][s].step == samples[j][s - 1].step {
                let pair = (first: samples[j][s - 1].row, second: samples[j][s].row, key: keys[j])
                if s >= 2 && samples[j][s - 2].step == samples[j][s].step { continue }
                if duplicate.map({ pair.second < $0.second }) ?? true { duplicate = pair }
            }
        }
        if let d = duplicate { throw .duplicate(first: d.first, second: d.second, key: d.key) }
        if let m = missingKey { throw .missingKey(row: m) }
        // The rows in key order, each key's in step order; samples point at their place.
        // A step missing inside a key's range gets a row of its own, bridged: a copy of the
        // step before's (its text) whose numbers are filled in below, so a revealed stack
        // or line has every key at every step it spans, and a race ranks it there.
        var order: [Int] = []
        var bridged: [(row: Int, step: Int)] = []
        order.reserveCapacity(rows.count)
        for j in samples.indices {
            var list: [(step: Int, row: Int)] = []
            list.reserveCapacity(samples[j].count)
            for (n, smp) in samples[j].enumerated() {
                if n > 0, case let before = samples[j][n - 1], smp.step > before.step + 1 {
                    for s in (before.step + 1)..<smp.step {
                        list.append((s, order.count)); bridged.append((order.count, s)); order.append(before.row)
                    }
                }
                list.append((smp.step, order.count)); order.append(smp.row)
            }
            samples[j] = list
        }
        var table = rows.gathering(order)
        if !bridged.isEmpty {
            for (field, column) in zip(table.fields, table.columns) where field != keyField {
                if field == timeField {
                    // The step's own time, in the column's kind (numbers, or ISO 8601 text).
                    var cells = (0..<table.count).map { column[$0] }
                    for b in bridged {
                        if let names { cells[b.row] = .string(names[b.step]) }
                        else if case .string? = cells[b.row] { cells[b.row] = .string(CivilDate.isoText(steps[b.step])) }
                        else { cells[b.row] = .number(steps[b.step]) }
                    }
                    table.setColumn(field, DataColumn(cells))
                } else if var numbers = column.numbers {
                    for b in bridged { numbers[b.row] = DataColumn.missingNumber }
                    table.setColumn(field, DataColumn(numbers: numbers))
                }
            }
        }
        Self.bridgeMissingNumbers(in: &table, samples: samples, except: [timeField, keyField])
        if let r = ranking {
            // At each step, the keys with a row there ranked by the field, largest first;
            // ties keep key order, so ranks are a permutation at every step.
            let ranked = table.column(r.field)
            var atStep: [[(key: Int, row: Int, value: Double)]] = Array(repeating: [], count: steps.count)
            for (k, list) in samples.enumerated() {
                for smp in list { atStep[smp.step].append((k, smp.row, ranked?.number(at: smp.row) ?? -Double.infinity)) }
            }
            // Every row is a sample at its step, so every row gets its rank.
            var ranks = [Double](repeating: 0, count: table.count)
            for entries in atStep {
                let ordered = entries.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                for (rank, e) in ordered.enumerated() { ranks[e.row] = Double(rank) }
            }
            table.setColumn(r.output, DataColumn(numbers: ranks))
        }
        self.steps = steps; self.keys = keys; self.samples = samples; self.table = table
        var index: [String: Int] = [:]
        index.reserveCapacity(keys.count)
        for (i, k) in keys.enumerated() { index[k] = i }
        self.keyIndex = index
        rankValues = ranking.map { r in
            let ranked = table.column(r.field)
            return samples.map { list in list.map { ($0.step, ranked?.number(at: $0.row) ?? -Double.infinity) } }
        } ?? []
        onScreenIndex = ranking?.top.map { Self.onScreen(samples, table, steps: steps.count, top: $0, output: ranking!.output) }
        self.stepNames = names
        if let given = timeIsDate { self.timeIsDate = given && names == nil }
        else if names == nil, !rows.isEmpty, case .string? = timeColumn?[0] { self.timeIsDate = true } else { self.timeIsDate = false }
    }

    /// Names for the steps when every cell of the time column is text that reads as
    /// neither a number nor an ISO 8601 date: its distinct values in order of first
    /// appearance. nil when any cell is a number or a date (a column of dates with one
    /// typo stays an error naming the typo) or none has text; an empty cell is left to
    /// the caller, which reports its row.
    static func stepNames(_ column: DataColumn?, count: Int) -> [String]? {
        guard let column, count > 0 else { return nil }
        var names: [String] = [], seen: Set<String> = []
        if case .texts(let codes, let values) = column.storage {
            var named = [Bool](repeating: false, count: values.count)
            for c in codes {
                if c == DataColumn.missingCode || named[Int(c)] { continue }
                named[Int(c)] = true
                let v = values[Int(c)]
                if time(.string(v)) != nil || Double(v) != nil { return nil }
                names.append(v)
            }
            return names.isEmpty ? nil : names
        }
        for i in 0..<count {
            guard let cell = column[i] else { continue }
            guard case .string(let v) = cell, time(.string(v)) == nil, Double(v) == nil else { return nil }
            if seen.insert(v).inserted { names.append(v) }
        }
        return names.isEmpty ? nil : names
    }

    /// The name of the step a data time lies in (floored), for named steps.
    func stepName(at time: Double) -> String? {
        guard let names = stepNames, !names.isEmpty else { return nil }
        return names[max(0, min(names.count - 1, Int(time.rounded(.down))))]
    }

    /// Fills each empty cell of a number column that lies between two of a key's steps
    /// with a value (a bubble's population missing one year) on the line between them, by
    /// step, as a missing step is bridged; cells before a key's first value or after its
    /// last stay empty. `samples` point into `table`, each key's in step order.
    static func bridgeMissingNumbers(in table: inout DataTable, samples: [[(step: Int, row: Int)]], except: Set<String>) {
        for (field, column) in zip(table.fields, table.columns) where !except.contains(field) {
            guard var numbers = column.numbers, numbers.contains(where: DataColumn.isMissing) else { continue }
            for list in samples {
                var known: Int? = nil
                for (j, smp) in list.enumerated() where !DataColumn.isMissing(numbers[smp.row]) {
                    if let k = known, k < j - 1 {
                        let a = list[k], va = numbers[a.row], vb = numbers[smp.row]
                        for m in (k + 1)..<j {
                            let f = Double(list[m].step - a.step) / Double(smp.step - a.step)
                            numbers[list[m].row] = va + (vb - va) * f
                        }
                    }
                    known = j
                }
            }
            table.setColumn(field, DataColumn(numbers: numbers))
        }
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

    /// Every row of every key, in key order (each key's in step order).
    public var allRows: [DataRow] { table.rows }

    /// Every row of every key, by column (`allRows` as a table).
    public var allTable: DataTable { table }

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
    public func moment(at t: Double) -> Moment { moment(atPosition: position(at: t)) }

    /// The moment shown at a fractional step position.
    func moment(atPosition p: Double) -> Moment {
        let time = dataTime(atPosition: p)
        return Moment(time: time, isDate: timeIsDate, name: stepName(at: time))
    }

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
    public func rows(atPosition p: Double) -> [DataRow] { table(atPosition: p).rows }

    /// One row shown at a moment, before its cells are written: a row of `table`, or the
    /// interpolation between two (`a` and `b` at fraction `f`), with the hidden fields of
    /// an entry, exit or head and a race's rank between sub-steps.
    struct ShownRow {
        var a: Int
        var b = -1
        var f = 0.0
        var fade: Double? = nil
        var grow: Double? = nil
        var fly: (amount: Double, side: String)? = nil
        var head = false
        var rank: Double? = nil
        var interpolates: Bool { b >= 0 }
    }

    /// The rows at a fractional step position, by column.
    public func table(atPosition p: Double) -> DataTable {
        var out: [ShownRow] = []
        if reveals {
            for s in samples { revealedRows(s, p, into: &out) }
            return cells(out, atPosition: p)
        }
        if let r = ranking {
            // A race: ranked again at the sub-steps around p; a key present at both moves
            // between its two ranks. Only the keys that reach the shown slots are built:
            // those ranked inside the top at either sub-step, and those entering or
            // exiting next to a step where they are inside it (the on-screen index).
            let substeps = rankSubsteps
            let n = Double(substeps), last = (steps.count - 1) * substeps
            let n0 = max(0, min(last, Int((p * n).rounded(.down))))
            let n1 = min(last, n0 + 1)
            let f = n1 == n0 ? 0 : min(1, max(0, p * n - Double(n0)))
            let r0 = substepRanks(n0, of: substeps), r1 = substepRanks(n1, of: substeps)
            var wanted: [Bool]
            if let onScreen = onScreenIndex, let top = r.top {
                wanted = [Bool](repeating: false, count: keys.count)
                let k = max(0, min(steps.count - 2, Int(p.rounded(.down))))
                if !onScreen.isEmpty { for key in onScreen[k] { wanted[Int(key)] = true } }
                for key in keys.indices where (0..<Int32(top)).contains(r0[key]) || (0..<Int32(top)).contains(r1[key]) {
                    wanted[key] = true
                }
            } else {
                wanted = [Bool](repeating: true, count: keys.count)
            }
            for key in keys.indices where wanted[key] {
                guard var row = row(samples[key], p) else { continue }
                if r0[key] >= 0 && r1[key] >= 0 {
                    row.rank = Double(r0[key]) + Double(r1[key] - r0[key]) * f
                } else if r0[key] >= 0 && f == 0 {
                    row.rank = Double(r0[key])
                }
                out.append(row)
            }
            if let top = r.top {
                // Keys wholly below the last slot draw nothing: drop them.
                let shown = cells(out, atPosition: p), ranks = shown.column(r.output)
                return shown.gathering(shown.indices.filter { (ranks?.number(at: $0) ?? 0) < Double(top) })
            }
        } else {
            out.reserveCapacity(keys.count)
            for s in samples { if let row = row(s, p) { out.append(row) } }
        }
        return cells(out, atPosition: p)
    }

    /// The table of the rows shown: each field's column gathered from `table` (a number
    /// interpolated where a row interpolates; the time field reading the moment shown, in
    /// its own kind), then the rank and the hidden fields.
    private func cells(_ shown: [ShownRow], atPosition p: Double) -> DataTable {
        let time = dataTime(atPosition: p)
        let anyInterpolates = shown.contains { $0.interpolates }
        var columns: [(field: String, column: DataColumn)] = []
        for (field, column) in zip(table.fields, table.columns) {
            if !anyInterpolates || (field != timeField && column.isText) {
                // Text (or rows none of which interpolates): each row's own cell, from b
                // once the interpolation reaches it.
                columns.append((field, column.gathering(shown.map { $0.interpolates && $0.f >= 1 ? $0.b : $0.a })))
                continue
            }
            if field != timeField, let numbers = column.numbers {
                columns.append((field, DataColumn(numbers: shown.map { r -> Double in
                    guard r.interpolates else { return numbers[r.a] }
                    let x = numbers[r.a], y = numbers[r.b]
                    if DataColumn.isMissing(x) || DataColumn.isMissing(y) { return r.f >= 1 ? y : x }
                    return x + (y - x) * r.f
                })))
                continue
            }
            columns.append((field, DataColumn(shown.lazy.map { r -> DataValue? in
                guard r.interpolates else { return column[r.a] }
                let va = column[r.a], vb = column[r.b]
                if field == self.timeField {
                    if let name = stepName(at: time) { return .string(name) }
                    switch va {
                    case .number?: return .number(time)
                    case .string?: return .string(CivilDate.isoText(time))
                    case nil: return r.f >= 1 ? vb : va
                    }
                }
                if case .number(let x)? = va, case .number(let y)? = vb { return .number(x + (y - x) * r.f) }
                return r.f >= 1 ? vb : va
            })))
        }
        var out = DataTable(count: shown.count, columns: columns)
        if let r = ranking, shown.contains(where: { $0.rank != nil }) {
            let ranks = out.column(r.output)
            out.setColumn(r.output, DataColumn(shown.indices.lazy.map { i in shown[i].rank.map(DataValue.number) ?? ranks?[i] }))
        }
        if shown.contains(where: { $0.fade != nil }) { out.setColumn(Self.fadeField, DataColumn(numbers: shown.map(\.fade))) }
        if shown.contains(where: { $0.grow != nil }) { out.setColumn(Self.growField, DataColumn(numbers: shown.map(\.grow))) }
        if shown.contains(where: { $0.fly != nil }) {
            out.setColumn(Self.flyField, DataColumn(numbers: shown.map { $0.fly?.amount }))
            out.setColumn(Self.flySideField, DataColumn(shown.lazy.map { $0.fly.map { DataValue.string($0.side) } }))
        }
        if shown.contains(where: \.head) { out.setColumn(Self.headField, DataColumn(numbers: shown.map { $0.head ? 1 : nil })) }
        if stepNames != nil, let column = table.column(timeField) {
            func step(_ r: Int) -> Double? { (column[r]?.keyText).flatMap { stepOfName[$0] }.map(Double.init) }
            out.setColumn(Self.stepField, DataColumn(numbers: shown.map { r -> Double? in
                guard let a = step(r.a) else { return nil }
                guard r.interpolates, let b = step(r.b) else { return a }
                return a + (b - a) * r.f
            }))
        }
        return out
    }

    /// The rank of each key at sub-step `n` of `substeps` a step (position n / substeps),
    /// from its ranked field interpolated there, largest first, ties in key order; -1 for a
    /// key outside its range of steps.
    func substepRanks(_ n: Int, of substeps: Int) -> [Int32] {
        let key = n * 16 + substeps
        if let hit = rankCache.ranks(key) { return hit }
        let q = Double(n) / Double(substeps)
        var present: [(key: Int, value: Double)] = []
        present.reserveCapacity(rankValues.count)
        for (k, vs) in rankValues.enumerated() {
            guard let first = vs.first, let last = vs.last,
                  Double(first.step) <= q + 1e-12, q <= Double(last.step) + 1e-12 else { continue }
            let lo = Self.lastSample(vs.count, atOrBefore: q) { vs[$0].step }
            let a = vs[lo]
            var v = a.value
            if lo + 1 < vs.count, Double(a.step) < q {
                let b = vs[lo + 1]
                let t = (q - Double(a.step)) / Double(b.step - a.step)
                if a.value.isFinite && b.value.isFinite { v = a.value + (b.value - a.value) * t }
                else if t >= 1 { v = b.value }
            }
            present.append((k, v))
        }
        present.sort { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        var ranks = [Int32](repeating: -1, count: rankValues.count)
        for (i, e) in present.enumerated() { ranks[e.key] = Int32(i) }
        rankCache.store(key, ranks)
        return ranks
    }

    /// A key's row at position p: interpolated between its samples around p, entering or
    /// exiting with the timeline's effects next to its first and last, nil outside.
    private func row(_ s: [(step: Int, row: Int)], _ p: Double) -> ShownRow? {
        guard let first = s.first, let last = s.last else { return nil }
        if !enter.isNone, Double(first.step) > p + 1e-12, Double(first.step) - p < 1 {
            return transitioning(first.row, progress: 1 - (Double(first.step) - p), enter)
        }
        if !exit.isNone, p > Double(last.step) + 1e-12, p - Double(last.step) < 1 {
            return transitioning(last.row, progress: 1 - (p - Double(last.step)), exit)
        }
        guard Double(first.step) <= p + 1e-12, p <= Double(last.step) + 1e-12 else { return nil }
        return interpolated(s, p)
    }

    /// The index of a key's last sample at or before position p (the first when none is),
    /// by binary search over the `count` samples' ascending steps.
    static func lastSample(_ count: Int, atOrBefore p: Double, step: (Int) -> Int) -> Int {
        var lo = 0, hi = count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if Double(step(mid)) <= p + 1e-12 { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The row of a key at p inside its range: its sample there, or the interpolation
    /// between the last sample at or before p and the next (bridging missing steps).
    private func interpolated(_ s: [(step: Int, row: Int)], _ p: Double) -> ShownRow {
        let j = Self.lastSample(s.count, atOrBefore: p) { s[$0].step }
        let a = s[j]
        guard j + 1 < s.count else { return ShownRow(a: a.row) }
        let b = s[j + 1]
        let f = (p - Double(a.step)) / Double(b.step - a.step)
        if f <= 0 { return ShownRow(a: a.row) }
        return ShownRow(a: a.row, b: b.row, f: f)
    }

    /// A key's row with the hidden fields of an entering or exiting transition at
    /// `progress` (0 away, 1 in place).
    private func transitioning(_ row: Int, progress: Double, _ tr: KeyTransition) -> ShownRow {
        var r = ShownRow(a: row)
        if tr.fade { r.fade = progress }
        if tr.grow { r.grow = progress }
        if let side = tr.fly { r.fly = (1 - progress, side.rawValue) }
        return r
    }

    /// A key's rows up to p, the last (its head) interpolated at p and marked.
    private func revealedRows(_ s: [(step: Int, row: Int)], _ p: Double, into out: inout [ShownRow]) {
        guard let first = s.first, Double(first.step) <= p + 1e-12 else { return }
        var n = 0
        while n < s.count && Double(s[n].step) <= p + 1e-12 { out.append(ShownRow(a: s[n].row)); n += 1 }
        if n < s.count && Double(s[n - 1].step) < p - 1e-12 {
            out.append(interpolated(s, p))
        }
        out[out.count - 1].head = true
    }
}

/// The ranks of a race at the last few sub-steps asked for (consecutive frames share
/// them), safe to use from the rendering threads.
final class SubstepRankCache: Sendable {
    private let entries = Mutex<[(n: Int, ranks: [Int32])]>([])

    func ranks(_ n: Int) -> [Int32]? { entries.withLock { list in list.last { $0.n == n }?.ranks } }

    func store(_ n: Int, _ ranks: [Int32]) {
        entries.withLock { list in
            if list.contains(where: { $0.n == n }) { return }
            list.append((n, ranks))
            if list.count > 8 { list.removeFirst() }
        }
    }
}
