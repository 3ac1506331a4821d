import Geometry
import Raster
import Motion
import Scene

/// One row of a mark, resolved to numbers: its position, value range, series and colour.
struct MarkElement {
    var row: Int
    /// Position on the category/position axis (x for vertical marks) in data units.
    var key: Double
    /// Value range on the value axis in data units (low = baseline or stacked bottom).
    var low: Double
    var high: Double
    /// The series name ("" when the mark has no series).
    var series: String
    var color: Color
}

/// What colouring the elements of one mark needs that depends only on the data, kept
/// between elements (see `ChartSpec.color(of:_:seriesNames:cache:)`).
struct ColorCache {
    /// Where a colour encoding's categories come from.
    enum Domain: Hashable {
        /// The mark's series names, in the order given.
        case series
        /// The distinct values of a field over all rows.
        case field(String)
        /// A domain listed in the document.
        case explicit([String])
    }

    struct RampKey: Hashable {
        var stops: [Color]
        var count: Int
    }

    var domains: [Domain: (index: [String: Int], count: Int)] = [:]
    var ramps: [RampKey: [Color]] = [:]
}

extension ChartSpec {
    /// True when the mark's values run along x (horizontal bars over a band y axis).
    func isHorizontal(_ m: any ChartMark, _ l: ChartState) -> Bool {
        if let bar = m as? BarMarkSpec, let o = bar.orientation { return o == .horizontal }
        return l.yResolved.type == .band && l.xResolved.type != .band && type(of: m).followsBandAxis
    }

    /// The rows a mark draws, by index.
    func rowIndices(_ m: any ChartMark) -> [Int] {
        let heads = m.options.headsOnly
        guard let f = m.options.filter else {
            return heads ? data.indices.filter { data[$0][DataTimeline.headField] != nil } : Array(data.indices)
        }
        return data.indices.filter { data[$0][f.field] == f.value && (!heads || data[$0][DataTimeline.headField] != nil) }
    }

    /// Text of a cell, for series and category keys.
    public func key(_ v: DataValue?) -> String { v?.keyText ?? "" }

    /// The series names of a mark in order of first appearance.
    public func seriesNames(_ m: any ChartMark) -> [String] {
        guard let f = m.options.series else { return [""] }
        if let order = fieldOrders[f] { return order }
        var seen = Set<String>(), out: [String] = []
        for i in rowIndices(m) { let k = key(data[i][f]); if seen.insert(k).inserted { out.append(k) } }
        return out
    }

    /// The first row of each series that makes an element (finite position and value), in
    /// row order: what a legend's colours come from.
    func firstRowOfEachSeries(_ m: any ChartMark, _ l: ChartState) -> [Int] {
        let horizontal = isHorizontal(m, l)
        let keyValues = horizontal ? l.yResolved.values : l.xResolved.values
        let valValues = horizontal ? l.xResolved.values : l.yResolved.values
        var seen = Set<String>(), out: [Int] = []
        for i in rowIndices(m) {
            guard let k = keyValues[i], let v = valValues[i], k.isFinite, v.isFinite else { continue }
            if seen.insert(m.options.series.map { key(data[i][$0]) } ?? "").inserted { out.append(i) }
        }
        return out
    }

    /// Resolves a mark's rows against the laid-out scales, stacking when asked.
    func elements(_ m: any ChartMark, _ l: ChartState, rows given: [Int]? = nil) -> [MarkElement] {
        let o = m.options
        let horizontal = isHorizontal(m, l)
        let keyValues = horizontal ? l.yResolved.values : l.xResolved.values
        let valValues = horizontal ? l.xResolved.values : l.yResolved.values
        let second = horizontal ? o.x2 : o.y2
        let names = seriesNames(m)
        let rows = given ?? rowIndices(m)
        var out: [MarkElement] = []
        out.reserveCapacity(rows.count)
        for i in rows {
            guard let k = keyValues[i], let value = valValues[i], k.isFinite, value.isFinite else { continue }
            var low = 0.0, v = value
            if let f = second, let v2 = data[i][f]?.number { low = v2 }
            // A key entering or leaving with "grow" grows from its baseline.
            if m.growsFromBaseline, case .number(let g)? = data[i][DataTimeline.growField] { v = low + (v - low) * min(1, max(0, g)) }
            let s = o.series.map { key(data[i][$0]) } ?? ""
            out.append(MarkElement(row: i, key: k, low: low, high: v, series: s, color: .black))
        }
        if o.stack != .none && second == nil {
            let stacked = Stacker.stack(keys: out.map(\.key), values: out.map(\.high), mode: o.stack)
            for j in out.indices { out[j].low = stacked[j].low; out[j].high = stacked[j].high }
        }
        var cache = ColorCache()
        for j in out.indices { out[j].color = color(of: out[j], m, seriesNames: names, cache: &cache) }
        return out
    }

    /// The colour of one element under the mark's encoding. `cache` keeps what depends
    /// only on the data (category domains, ramps) between the elements of one mark:
    /// recomputing them per element made colouring quadratic — 200 series of 100 rows
    /// spent 70 % of a render mixing OKLab ramps, and a category field rescanned every row.
    func color(of e: MarkElement, _ m: any ChartMark, seriesNames: [String], cache: inout ColorCache) -> Color {
        /// The first position of each key in a domain, and the domain's length.
        func domain(_ d: ColorCache.Domain) -> (index: [String: Int], count: Int) {
            if let hit = cache.domains[d] { return hit }
            var index: [String: Int] = [:], count = 0
            func add(_ k: String) { if index[k] == nil { index[k] = count }; count += 1 }
            switch d {
            case .series: seriesNames.forEach(add)
            case .explicit(let list): list.forEach(add)
            case .field(let f) where fieldOrders[f] != nil:
                let order = fieldOrders[f]!
                if let known = fieldOrderIndex[f], known.order.withUnsafeBufferPointer({ a in order.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress && a.count == $0.count } }) {
                    // A timeline's keys (unique): their positions were found once.
                    cache.domains[d] = (known.index, order.count)
                    return (known.index, order.count)
                }
                order.forEach(add)
            case .field(let f):
                // Distinct values in order of first appearance over all rows.
                for r in data { let k = key(r[f]); if index[k] == nil { index[k] = count; count += 1 } }
            }
            cache.domains[d] = (index, count)
            return (index, count)
        }
        func resolve(_ enc: ColorEncoding) -> Color {
            switch enc {
            case .category(let field, let colors, let explicit):
                let k = field.map { key(data[e.row][$0]) } ?? e.series
                let dom = domain(explicit.map { .explicit($0) } ?? field.map { .field($0) } ?? .series)
                let idx = dom.index[k] ?? 0
                if let c = colors, !c.isEmpty { return c[idx % c.count] }
                return Palette.color(idx)
            case .thresholds(let field, let steps, let otherwise):
                let v = field.flatMap { data[e.row][$0]?.number } ?? (e.high - e.low)
                for s in steps where v <= s.upTo { return s.color }
                return otherwise
            case .valueGradient(let stops):
                let v = e.high
                guard let first = stops.first else { return .black }
                if v <= first.value { return first.color }
                for k in 1..<stops.count where v <= stops[k].value {
                    let a = stops[k - 1], b = stops[k]
                    return OKLab.mix(a.color, b.color, (v - a.value) / max(1e-12, b.value - a.value))
                }
                return stops.last!.color
            case .ramp(let field, let stops):
                let k = field.map { key(data[e.row][$0]) } ?? e.series
                let dom = domain(field.map { .field($0) } ?? .series)
                let rampKey = ColorCache.RampKey(stops: stops, count: dom.count)
                let colors = cache.ramps[rampKey] ?? Palette.ramp(stops, count: dom.count)
                cache.ramps[rampKey] = colors
                // A ramp without stops (a document whose ramp colours were all invalid is
                // still built, to report every error at once) colours like a category.
                guard !colors.isEmpty else { return Palette.color(dom.index[k] ?? 0) }
                return colors[dom.index[k] ?? 0]
            case .overrides(let field, let values, let otherwise):
                if let c = values[key(data[e.row][field])] { return c }
                return resolve(otherwise)
            }
        }
        if let enc = m.options.color { return resolve(enc) }
        if m.options.series != nil && seriesNames.count > 1 { return Palette.color(domain(.series).index[e.series] ?? 0) }
        return m.legendColor
    }

    /// The value extent of the marks after stacking, to widen a data-derived domain.
    func stackedExtent(_ axisIsX: Bool, _ l: ChartState) -> (Double, Double)? {
        var lo = Double.infinity, hi = -Double.infinity
        for m in marks where m.options.stack != .none || m.options.y2 != nil || m.options.x2 != nil {
            guard isHorizontal(m, l) == axisIsX else { continue }
            for e in elements(m, l) { lo = min(lo, e.low, e.high); hi = max(hi, e.low, e.high) }
        }
        return lo <= hi ? (lo, hi) : nil
    }
}
