#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Motion
import Scene
import Text

extension ChartSpec {
    // MARK: Resolving data to numbers

    /// What the data says about one channel, before any pixels.
    public struct Resolved: Sendable {
        public var type: ScaleType
        public var values: [Double?]
        public var domain: (Double, Double)
        public var categories: [String]
    }

    /// Each row's value on `c`, the scale kind and the domain at time `t` (which only an
    /// animated domain depends on).
    public func resolve(_ c: Channel, at t: Double = 0) -> Resolved {
        // A column of numbers on a number or time scale: its values and their extent in
        // one pass, without a cell per row (a line of ten million rows).
        if let numbers = data.column(c.field)?.numbers, c.scale != .band {
            var values = [Double?]()
            values.reserveCapacity(numbers.count)
            var lo = 0.0, hi = 1.0, any = false, positive: Double? = nil
            for v in numbers {
                guard !DataColumn.isMissing(v) else { values.append(nil); continue }
                values.append(v)
                guard v.isFinite else { continue }
                if !any { lo = v; hi = v; any = true } else { if v < lo { lo = v }; if hi < v { hi = v } }
                if v > 0 && (positive.map { v < $0 } ?? true) { positive = v }
            }
            return finish(c, at: t, type: c.scale ?? .linear, values: values, lo: lo, hi: hi, smallestPositive: positive, categories: [])
        }
        // Named time steps ("2020-Q1") on the time field's axis: a band per step, all
        // steps in order from the start, and a moving row between two bands.
        let named = timeline.flatMap { tl in tl.stepNames.map { (tl.timeField, $0) } }
            ?? namedStepField.flatMap { f in fieldOrders[f].map { (f, $0) } }
        if let (field, names) = named, c.field == field, c.categories == nil, c.scale == nil || c.scale == .band {
            let values: [Double?]
            if let steps = data.column(DataTimeline.stepField)?.numbers {
                values = steps.map { DataColumn.isMissing($0) ? nil : $0 }
            } else {
                var index: [String: Double] = [:]
                for (i, n) in names.enumerated() { index[n] = Double(i) }
                let column = data.column(c.field)
                values = (0..<data.count).map { i in (column?[i]?.keyText).flatMap { index[$0] } }
            }
            return Resolved(type: .band, values: values, domain: (0, Double(max(1, names.count)) - 1), categories: names)
        }
        let cells = data.map { $0[c.field] }
        var type = c.scale
        if type == nil {
            if cells.allSatisfy({ $0?.number != nil || $0 == nil }) { type = .linear }
            else if cells.allSatisfy({ $0 == nil || $0!.string.flatMap(CivilDate.parseISO) != nil }) { type = .time }
            else { type = .band }
        }
        let given = c.categories ?? fieldOrders[c.field]
        var categories: [String] = given ?? []
        var values: [Double?] = []
        switch type! {
        case .band:
            var seen = Set(categories)
            for cell in cells {
                guard let cell else { values.append(nil); continue }
                let key: String
                switch cell { case .string(let s): key = s; case .number(let v): key = NumberFormat(maxFractionDigits: 6).format(v) }
                if !seen.contains(key) { if given == nil { categories.append(key); seen.insert(key) } }
                values.append(categories.firstIndex(of: key).map(Double.init))
            }
            return Resolved(type: .band, values: values, domain: (0, Double(max(1, categories.count)) - 1), categories: categories)
        case .time:
            values = cells.map { cell in
                switch cell { case .string(let s)?: return CivilDate.parseISO(s); case .number(let v)?: return v; case nil: return nil }
            }
        case .linear, .log:
            values = cells.map { $0?.number }
        }
        let finite = values.compactMap { $0 }.filter(\.isFinite)
        return finish(c, at: t, type: type!, values: values, lo: finite.min() ?? 0, hi: finite.max() ?? 1,
                      smallestPositive: finite.filter { $0 > 0 }.min(), categories: categories)
    }

    /// The domain of resolved values: from their finite extent (`lo`, `hi`; 0 and 1 when
    /// none), widened to zero, fixed by the document, or made nice, as the channel says.
    private func finish(_ c: Channel, at t: Double, type: ScaleType, values: [Double?], lo: Double, hi: Double,
                        smallestPositive: Double?, categories: [String]) -> Resolved {
        var lo = lo, hi = hi
        // A linear domain includes zero on both sides, so bars of all-negative data hang
        // from a zero inside the plot (as Swift Charts and Vega-Lite do).
        if type == .linear && c.includesZero != false { lo = min(0, lo); hi = max(0, hi) }
        if type == .log { lo = smallestPositive ?? 1; hi = max(hi, lo) }
        if let d = c.animatedDomain?.value(at: t) ?? c.domain { lo = d.0; hi = d.1 }
        if lo == hi { if type == .log { hi = lo * 10 } else if lo == 0 || c.includesZero == false { hi = lo + 1 } else { lo = min(0, lo); hi = max(0, hi); if lo == hi { hi = lo + 1 } } }
        if c.nice && c.domain == nil && c.animatedDomain == nil && type == .linear { (lo, hi) = NiceTicks.nice(lo, hi, count: 5) }
        return Resolved(type: type, values: values, domain: (lo, hi), categories: categories)
    }

    /// Whether `v` lies in the domain `d` (either end first), allowing a billionth of its
    /// width for rounding.
    static func domain(_ d: (Double, Double), contains v: Double) -> Bool {
        let lo = min(d.0, d.1), hi = max(d.0, d.1), eps = (hi - lo) * 1e-9
        return v >= lo - eps && v <= hi + eps
    }

    /// The ticks of an axis on a resolved channel whose domain follows moving data: the
    /// ticks of the domains at the two steps around the moment, inside the moment's
    /// domain. A tick of both steps is opaque; one of a single step fades with the
    /// distance to that step, so ticks never jump when the step between them changes.
    func ticks(_ r: Resolved, axis: AxisSpec?, blending b: TickBlend?) -> [AxisTick] {
        guard let b, r.type != .band, axis?.values == nil else { return ticks(r, axis: axis) }
        var ra = r, rb = r
        ra.domain = b.from; rb.domain = b.to
        let ta = ticks(ra, axis: axis)
        guard b.fraction > 0 else { return ta }
        let tb = ticks(rb, axis: axis)
        let f = b.fraction
        var out: [AxisTick] = []
        for t in ta {
            let shared = tb.contains { $0.value == t.value }
            var u = t
            if shared { if f >= 0.5, let o = tb.first(where: { $0.value == t.value }) { u.label = o.label } } else { u.opacity = 1 - f }
            out.append(u)
        }
        for t in tb where !ta.contains(where: { $0.value == t.value }) {
            var u = t
            u.opacity = f
            out.append(u)
        }
        return out.filter { Self.domain(r.domain, contains: $0.value) && $0.opacity > 0 }.sorted { $0.value < $1.value }
    }

    /// The ticks of an axis on a resolved channel.
    public func ticks(_ r: Resolved, axis: AxisSpec?) -> [AxisTick] {
        let count = axis?.tickCount ?? 5
        if axis?.values == nil, let stride = axis?.stride, r.type != .band {
            var a = axis!
            a.stride = nil
            a.values = strideValues(stride, r)
            // Labels suit the stride's interval ("Jan" for months) unless a format is given.
            if case .calendar(let iv) = stride, r.type == .time, a.format == nil || a.format == .date(nil) {
                a.format = .date(DateFormat(iv.labelPattern))
            }
            return ticks(r, axis: a)
        }
        switch r.type {
        case .band:
            return r.categories.enumerated().map { AxisTick(value: Double($0.offset), label: $0.element) }
        case .linear:
            let values = axis?.values ?? NiceTicks.ticks(r.domain.0, r.domain.1, count: count)
            let digits = values.count > 1 ? NiceTicks.fractionDigits(forStep: NiceTicks.step(r.domain.0, r.domain.1, count: count)) : 2
            let fmt: NumberFormat
            if case .number(let f?)? = axis?.format { fmt = f } else { fmt = NumberFormat(minFractionDigits: digits, maxFractionDigits: digits) }
            return values.map { AxisTick(value: $0, label: fmt.format($0)) }
        case .log:
            let values = axis?.values ?? NiceTicks.logTicks(r.domain.0, r.domain.1, count: count)
            let fmt: NumberFormat
            if case .number(let f?)? = axis?.format { fmt = f } else { fmt = NumberFormat(maxFractionDigits: 6) }
            // With many ticks (2…9 × 10ⁿ over several decades) only those whose leading
            // digit is small enough are labelled, as d3's log tick format does; the others
            // keep their tick marks and grid lines.
            let limit = axis?.values == nil && values.count > count ? max(1, 10 * Double(count) / Double(values.count)) : 10
            return values.map { v in
                let mantissa = (v / pow(10, log10(v).rounded(.down))).rounded()
                return AxisTick(value: v, label: mantissa <= limit ? fmt.format(v) : "")
            }
        case .time:
            var iv = TimeTicks.interval(r.domain.0, r.domain.1, count: count)
            // A given pattern that writes nothing finer than months or years ("yyyy") takes
            // ticks no finer than that, so no two ticks read the same.
            if case .date(let f?)? = axis?.format, let unit = f.finestUnit, unit != .week,
               iv.seconds < TimeTicks.Interval(unit: unit).seconds {
                iv = TimeTicks.Interval(unit: unit)
            }
            let values = axis?.values ?? TimeTicks.ticks(r.domain.0, r.domain.1, interval: iv)
            let fmt: DateFormat
            if case .date(let f?)? = axis?.format { fmt = f }
            else { fmt = DateFormat(iv.labelPattern(from: values.first ?? r.domain.0, to: values.last ?? r.domain.1)) }
            return values.map { AxisTick(value: $0, label: fmt.format($0)) }
        }
    }

    /// The tick values of a stride over a channel's domain.
    func strideValues(_ stride: TickStride, _ r: Resolved) -> [Double] {
        let lo = min(r.domain.0, r.domain.1), hi = max(r.domain.0, r.domain.1)
        switch stride {
        case .step(let step):
            if r.type == .log { return NiceTicks.logTicks(lo, hi, count: 5) }
            return steps(lo, hi, step)
        case .calendar(let interval):
            guard interval.step > 0 else { return [] }
            return TimeTicks.ticks(lo, hi, interval: interval)
        }
    }

    /// A position scale for a resolved channel onto a pixel range.
    public func scale(_ r: Resolved, _ c: Channel, range: (Double, Double)) -> PositionScale {
        switch r.type {
        case .linear: return .linear(LinearScale(domain: r.domain, range: range))
        case .log: return .log(LogScale(domain: r.domain, range: range))
        case .time: return .time(TimeScale(domain: r.domain, range: range))
        case .band: return .band(BandScale(domain: r.categories, range: range, paddingInner: c.paddingInner, paddingOuter: c.paddingOuter))
        }
    }
}
