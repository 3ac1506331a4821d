import Scene

/// Earlier positions of moving data drawn behind a mark: a wake that follows each key
/// (gganimate's `shadow_wake`) and the trace of every past time step (`shadow_mark`).
///
/// Both are copies of the mark built from the timeline's rows at earlier moments on the
/// current frame's scales, so they sit where the data was in today's coordinates. Their
/// rows carry the timeline's hidden fade and grow factors (`DataTimeline.fadeField`,
/// `.growField`), which every mark already multiplies into its elements' opacity and
/// size, so a wake needs nothing of the marks themselves.
public struct TrailSpec: Sendable, Equatable {
    /// How far back the wake reaches, in video seconds.
    public var length: Double
    /// How many earlier copies make the wake.
    public var copies: Int
    /// The oldest copy's opacity; copies in between step evenly up to the mark's.
    public var opacity: Double
    /// The oldest copy's size factor (1: no shrinking).
    public var size: Double
    /// Creates a wake.
    public init(length: Double = 0.5, copies: Int = 6, opacity: Double = 0.1, size: Double = 0.5) {
        self.length = length; self.copies = copies; self.opacity = opacity; self.size = size
    }
}

/// Every past time step of a key left behind (gganimate's `shadow_mark`).
public struct TraceSpec: Sendable, Equatable {
    /// The opacity of the past steps' copies.
    public var opacity: Double
    /// Their size factor.
    public var size: Double
    /// Creates a trace.
    public init(opacity: Double = 0.25, size: Double = 1) { self.opacity = opacity; self.size = size }
}

/// The rows of one earlier copy of a mark.
struct GhostRows: Sendable {
    var rows: DataTable
}

extension ChartSpec {
    /// The ghosts of mark `index` at position p of the timeline (video time t): the past
    /// steps' rows of its trace, oldest first, then its wake's copies, oldest first.
    func ghosts(of m: any ChartMark, _ tl: DataTimeline, t: Double, position p: Double) -> [GhostRows] {
        var out: [GhostRows] = []
        if let trace = m.options.trace {
            var i = 0
            while Double(i) < p - 1e-9 && i < tl.steps.count {
                out.append(GhostRows(rows: Self.faded(tl.table(atPosition: Double(i)), opacity: trace.opacity, size: trace.size)))
                i += 1
            }
        }
        if let wake = m.options.trail, wake.copies > 0, wake.length > 0 {
            for k in stride(from: wake.copies, through: 1, by: -1) {
                let tk = t - wake.length * Double(k) / Double(wake.copies)
                let pk = tl.position(at: tk)
                guard abs(pk - p) > 1e-9 else { continue }   // nothing moved: no copy
                // The oldest copy (k = copies) at `wake.opacity`, the newest nearly the mark's.
                let f = Double(k) / Double(wake.copies + 1)
                let opacity = 1 - (1 - wake.opacity) * f * Double(wake.copies + 1) / Double(wake.copies)
                let size = 1 - (1 - wake.size) * f * Double(wake.copies + 1) / Double(wake.copies)
                out.append(GhostRows(rows: Self.faded(tl.table(atPosition: pk), opacity: opacity, size: size)))
            }
        }
        return out
    }

    /// Rows with their fade and grow factors multiplied by `opacity` and `size`.
    static func faded(_ rows: DataTable, opacity: Double, size: Double) -> DataTable {
        var rows = rows
        func scaled(_ field: String, by k: Double) {
            let old = rows.column(field)
            rows.setColumn(field, DataColumn(numbers: rows.indices.map { (old?.number(at: $0) ?? 1) * k }))
        }
        scaled(DataTimeline.fadeField, by: opacity)
        if size != 1 { scaled(DataTimeline.growField, by: size) }
        return rows
    }

    /// The nodes of a mark's ghosts on the current frame's scales.
    func ghostNodes(_ m: any ChartMark, _ ghosts: [GhostRows], _ l: ChartState) -> [Node] {
        var out: [Node] = []
        for g in ghosts where !g.rows.isEmpty {
            var spec = self
            spec.data = g.rows
            var gl = l
            gl.xResolved.values = spec.resolve(spec.x).values
            gl.yResolved.values = spec.resolve(spec.y).values
            var quiet = m
            quiet.options.stagger = nil
            out.append(spec.markNode(quiet, gl))
        }
        return out
    }
}
