import Foundation
import Geometry
import Motion
import Charts

/// How a chart's rows move over time: the Swift spelling of a document's `"time"`
/// (docs/timeline-format.md, "Data that changes over time").
///
/// ```swift
/// Chart(populations, time: .value("Year", \.year), key: .value("City", \.city),
///       motion: ChartTime(perStep: 0.4, rank: .init(by: "Population", top: 10))) {
///     BarMark(x: .value("Population", \.millions), y: .value("Rank", field: "rank"))
/// }
/// ```
public struct ChartTime: Sendable {
    /// Continuous time (the clock moves steadily through the time values) or states
    /// (each step holds, then eases to the next).
    public enum Mode: Sendable {
        /// From the first time value to the last over `duration` seconds, or `perStep`
        /// seconds a step when no duration is given.
        case continuous(duration: Double?, perStep: Double)
        /// Each step holds `hold` seconds, then moves to the next over `transition`.
        case states(transition: Double, hold: Double)
    }
    /// How the clock maps onto the data.
    public var mode: Mode
    /// The easing of the clock (continuous) or of each move (states); nil: linear for
    /// continuous time, ease-in-out for states.
    public var curve: Easing?
    /// Seconds before the data starts moving.
    public var delay: Double
    /// A race: keys ranked at each step by the column with this label, written to `rank.output`.
    public var rank: DataTimeline.Ranking?
    /// How keys enter and exit.
    public var enter: DataTimeline.KeyTransition, exit: DataTimeline.KeyTransition
    /// Each key's history up to the moment and its head (a line race).
    public var reveal: Bool

    /// Continuous time, `perStep` seconds a step (or `duration` for the whole).
    public init(perStep: Double = 1, duration: Double? = nil, curve: Easing? = nil, delay: Double = 0,
                rank: DataTimeline.Ranking? = nil, enter: DataTimeline.KeyTransition = .init(),
                exit: DataTimeline.KeyTransition = .init(), reveal: Bool = false) {
        mode = .continuous(duration: duration, perStep: perStep)
        self.curve = curve; self.delay = delay; self.rank = rank; self.enter = enter; self.exit = exit; self.reveal = reveal
    }

    /// States: each step holds `hold` seconds, then eases to the next over `transition`.
    public static func states(transition: Double = 0.5, hold: Double = 0.5, curve: Easing? = nil, delay: Double = 0,
                              rank: DataTimeline.Ranking? = nil, enter: DataTimeline.KeyTransition = .init(),
                              exit: DataTimeline.KeyTransition = .init()) -> ChartTime {
        var t = ChartTime(curve: curve, delay: delay, rank: rank, enter: enter, exit: exit)
        t.mode = .states(transition: transition, hold: hold)
        return t
    }

    /// The model's timeline of `rows`, reading time and key from the columns labelled so.
    func timeline(rows: DataTable, time: String, key: String, timeIsDate: Bool) throws -> DataTimeline {
        let states: Bool
        if case .states = mode { states = true } else { states = false }
        let easing = curve ?? (states ? .easeInOut : .linear)
        var tl: DataTimeline
        do throws(DataTimeline.Problem) {
            switch mode {
            case .continuous:
                tl = try DataTimeline(table: rows, timeField: time, keyField: key, mode: .continuous(duration: 0), easing: easing,
                                      delay: delay, ranking: rank, timeIsDate: timeIsDate)
            case .states(let transition, let hold):
                tl = try DataTimeline(table: rows, timeField: time, keyField: key, mode: .states(transition: transition, hold: hold),
                                      easing: easing, delay: delay, ranking: rank, timeIsDate: timeIsDate)
            }
        } catch {
            switch error {
            case .badTime(let r): throw ChartReelError.invalidTime(row: r, reason: "no \"\(time)\" value that is a number or a date")
            case .missingKey(let r): throw ChartReelError.invalidTime(row: r, reason: "no \"\(key)\" value, the key naming each object")
            case .duplicate(let first, let r, let k):
                throw ChartReelError.invalidTime(row: r, reason: "\"\(k)\" appears twice at one \"\(time)\" (first in row \(first)); each key has one row per time step")
            }
        }
        if case .continuous(let duration, let perStep) = mode {
            tl.mode = .continuous(duration: duration ?? perStep * Double(max(0, tl.steps.count - 1)))
        }
        tl.enter = enter; tl.exit = exit; tl.reveals = reveal
        return tl
    }
}

extension Chart {
    /// A chart of rows that change over time (a race, a line race, bubbles walking
    /// through the years): `time` reads each row's time (numbers, or dates), `key` names
    /// the object a row belongs to, and `motion` says how the video's clock moves through
    /// the data. At every frame the marks draw the rows at that moment, keyed and
    /// interpolated between the time steps, as a document's `"time"` does.
    public init<Row>(_ rows: [Row], time: PlottableValue<Row>, key: PlottableValue<Row>, motion: ChartTime = ChartTime(),
                     @ChartContentBuilder<Row> content: () -> [AnyMark<Row>]) {
        let marks = content()
        make = { frame, style in
            var spec = try ChartAssembly.spec(rows: rows, marks: marks, extra: [time, key], frame: frame, style: style)
            spec.timeline = try motion.timeline(rows: spec.data, time: time.label, key: key.label, timeIsDate: time.preferredScale == .time)
            return spec
        }
    }

    /// The x domain follows the moving data (`DomainFollow`: both ends, the high end, or
    /// fixed at the whole timeline's extent), with room beyond its moving ends.
    public func chartXScale(follow ends: DomainFollow.Ends, padding: Double = 0, minSpan: Double = 0) -> Chart {
        with { $0.x.follow = DomainFollow(ends, padding: padding, minSpan: minSpan) }
    }

    /// The y domain follows the moving data (see `chartXScale(follow:padding:minSpan:)`).
    public func chartYScale(follow ends: DomainFollow.Ends, padding: Double = 0, minSpan: Double = 0) -> Chart {
        with { $0.y.follow = DomainFollow(ends, padding: padding, minSpan: minSpan) }
    }

    /// A large label naming the moment shown (`"{time}"`, `"{time:yyyy}"`), behind the marks.
    public func periodLabel(_ text: String = "{time}", size: Double = 64, color: Color? = nil,
                            position: PeriodLabelSpec.Corner = .bottomTrailing) -> Chart {
        with {
            var p = PeriodLabelSpec()
            p.text = text; p.size = size; p.color = color; p.corner = position
            $0.periodLabel = p
        }
    }
}

extension ChartContent {
    /// Draw only each key's head (its row at the moment) in a chart whose time reveals:
    /// the dot and label riding a line race.
    public func heads() -> Self { with { $0.spec.options.headsOnly = true } }

    /// A wake of earlier positions behind each moving key (gganimate's `shadow_wake`).
    public func trail(_ trail: TrailSpec = TrailSpec()) -> Self { with { $0.spec.options.trail = trail } }

    /// Every past time step left behind, faint (gganimate's `shadow_mark`).
    public func trace(_ trace: TraceSpec = TraceSpec()) -> Self { with { $0.spec.options.trace = trace } }
}

extension PointMark {
    /// Dot diameters from a column, by area (bubbles): `range` in pixels at the ends of
    /// `domain` (nil: 0 to the largest value over the whole data, every time step included).
    public func symbolSize(by value: PlottableValue<Row>, range: ClosedRange<Double>, domain: ClosedRange<Double>? = nil) -> Self {
        with { m in
            let field = m.read(value)
            m.edit(PointMarkSpec.self) {
                $0.sizeEncoding = SizeEncoding(field: field, range: (range.lowerBound, range.upperBound),
                                               domain: domain.map { ($0.lowerBound, $0.upperBound) })
            }
        }
    }

    /// Draw larger dots first, so smaller ones stay visible on top.
    public func largestFirst(_ enabled: Bool = true) -> Self { with { $0.edit(PointMarkSpec.self) { $0.largestFirst = enabled } } }
}

extension TextMark {
    /// Labels that would overlap are pushed apart vertically, keeping leader lines to
    /// their points, at least `minimumGap` pixels apart (labels at line heads and ends).
    public func separated(minimumGap: Double = 2) -> Self {
        with { $0.edit(TextMarkSpec.self) { $0.separate = true; $0.separation = minimumGap } }
    }
}
