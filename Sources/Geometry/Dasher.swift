/// A dash pattern that has been checked once, so the dasher can rely on it.
///
/// The rules are SVG's `stroke-dasharray` / `stroke-dashoffset`, which SwiftUI's
/// `StrokeStyle(dash:dashPhase:)` and Core Graphics share:
/// - entries alternate on (drawn) and off lengths, starting with on;
/// - an odd number of entries is repeated once to make it even (`[5]` is `[5, 5]`,
///   `[4, 2, 1]` is `[4, 2, 1, 4, 2, 1]`);
/// - a pattern that is empty, sums to zero, or has a negative, NaN or infinite entry
///   is no pattern at all: the stroke is solid (`init?` returns nil), so no input can
///   make the dasher spin on zero-length steps;
/// - the phase is where in the pattern the start of each subpath falls; it is reduced
///   modulo the pattern's period, so a negative phase shifts the other way.
public struct DashPattern: Hashable, Sendable {
    /// On and off lengths alternately, starting with on: an even count of finite,
    /// non-negative lengths with a positive sum.
    public let intervals: [Double]
    /// The phase reduced into `0 ..< period`.
    public let phase: Double
    /// The sum of `intervals`: the length after which the pattern repeats.
    public let period: Double

    /// Validates a pattern; nil when it means a solid stroke (see the type's rules).
    public init?(_ dash: [Double], phase: Double = 0) {
        guard !dash.isEmpty else { return nil }
        var sum = 0.0
        for d in dash {
            guard d.isFinite, d >= 0 else { return nil }
            sum += d
        }
        let ivs = dash.count % 2 == 1 ? dash + dash : dash
        let period = dash.count % 2 == 1 ? 2 * sum : sum
        guard period > 0, period.isFinite else { return nil }
        var ph = phase.isFinite ? phase.truncatingRemainder(dividingBy: period) : 0
        if ph < 0 { ph += period }
        if !(ph < period) { ph = 0 }          // a tiny negative remainder plus period can round up to it
        intervals = ivs; self.phase = ph; self.period = period
    }
}

extension StrokeStyle {
    /// The validated form of `dash` and `dashPhase`; nil when the stroke is solid.
    public var dashPattern: DashPattern? { DashPattern(dash, phase: dashPhase) }
}

/// Cuts polylines into the open pieces a dash pattern draws.
///
/// The pattern starts afresh, at its phase, at the start of every polyline (as in SVG
/// and Core Graphics). Each dash becomes an open polyline, so the stroker gives it a
/// cap at both ends; a dash of length zero is a single-point polyline, which round and
/// square caps draw as a dot and butt caps do not draw. On a closed polyline, a dash
/// that runs through the closing point is one piece (the last dash continues into the
/// first), and a closed polyline that the pattern covers entirely stays closed, so
/// neither shows caps where the polyline starts.
///
/// The work is bounded: `pieceBound` counts the dashes a pattern could produce before
/// any is made, and a pattern that would give more than `maxPieces` (dashes far
/// shorter than the path, say a 0.001-unit pattern along a 1e6-unit line, or any
/// pattern on 1e30-long segments) is drawn solid instead. The stroker tightens the
/// bound further when each piece's caps cost many vertices.
public enum Dasher {
    /// The most pieces a dashed stroke may produce before it is drawn solid.
    public static let maxPieces = 1_000_000

    /// The pieces of `polylines` that `pattern` draws, or `polylines` unchanged (solid)
    /// when that would be more than `maxPieces` pieces.
    public static func dash(_ polylines: [Polyline], pattern: DashPattern, maxPieces: Int = Dasher.maxPieces) -> [Polyline] {
        guard pieceBound(polylines, pattern) <= Double(maxPieces) else { return polylines }
        var out: [Polyline] = []
        var budget = maxPieces
        for line in polylines {
            walk(line, pattern, budget: &budget) { pts, closed, _ in
                out.append(Polyline(points: pts, closed: closed))
            }
        }
        return out
    }

    /// An upper bound on the number of pieces `dash` makes; infinite when a length overflows.
    public static func pieceBound(_ polylines: [Polyline], _ pattern: DashPattern) -> Double {
        let dashesPerPeriod = Double(pattern.intervals.count / 2)
        var total = 0.0
        for line in polylines {
            var len = 0.0
            var prev: Point? = nil
            for p in line.points where p.isFinite {
                if let q = prev { len += (p - q).length }
                prev = p
            }
            if line.closed, let q = prev, let f = line.points.first(where: \.isFinite) { len += (f - q).length }
            // One more period for the phase, one more piece for a closed polyline's split dash.
            total += (len / pattern.period + 1) * dashesPerPeriod + 1
        }
        return total.isNaN ? .infinity : total
    }

    /// The directions of the path where a piece starts and ends: the curve's tangent
    /// where the piece ends on a flattened curve (see `Polyline.Curve`), nil on a
    /// straight segment (the stroker takes the chord's direction); `dot` orients a
    /// zero-length piece's square.
    struct Ends {
        var start: Point?
        var end: Point?
        var dot: Point
    }

    /// Walks one polyline through the pattern and hands each piece to `emit` with its
    /// points, whether it is closed, and its end directions. `budget` counts pattern
    /// boundaries crossed; the walk stops when it runs out, a second guard behind
    /// `pieceBound` against rounding.
    static func walk(_ line: Polyline, _ pattern: DashPattern, budget: inout Int,
                     _ emit: (_ points: [Point], _ closed: Bool, _ ends: Ends) -> Void) {
        var pts: [Point] = []
        pts.reserveCapacity(line.points.count + 1)
        for p in line.points where p.isFinite { pts.append(p) }
        guard let first = pts.first else { return }
        // Curve tangents need the chord indices of `line`; dropped points would shift them.
        let curved = !line.curves.isEmpty && pts.count == line.points.count
        var cursor = 0
        @inline(__always) func tangent(_ chord: Int, _ f: Double) -> Point? {
            curved ? line.curveTangent(chord: chord, fraction: f, cursor: &cursor) : nil
        }
        let iv = pattern.intervals, n = iv.count

        // Find the interval the phase falls in; a boundary exactly at the phase starts
        // the next interval, except that a zero-length dash at phase 0 is drawn.
        var i = 0, into = pattern.phase, steps = 0
        while into > 0 && into >= iv[i] && steps < n {
            into -= iv[i]; i = i + 1 == n ? 0 : i + 1; steps += 1
        }
        var rem = max(0, iv[i] - into)
        var on = i % 2 == 0

        if pts.count == 1 {
            // A zero-length subpath: a dot when the pattern is on where it starts.
            if on { emit([first], false, Ends(start: nil, end: nil, dot: Point(1, 0))) }
            return
        }
        let closed = line.closed
        if closed && pts[pts.count - 1] != first { pts.append(first) }

        var current: [Point] = on ? [first] : []
        var currentStart: Point? = on ? tangent(0, 0) : nil
        // On a closed polyline, the dash that starts at the closing point is held back
        // to be joined with the dash that arrives there at the end.
        var holdFirst = closed && on
        var held: [Point]? = nil
        var heldEnds = Ends(start: nil, end: nil, dot: Point(1, 0))
        var lastDir = Point(1, 0), lastChord = 0

        for k in 1..<pts.count {
            let a = pts[k - 1], b = pts[k]
            let d = b - a
            let len = d.length
            guard len > 0, len.isFinite else { continue }
            let dir = Point(d.x / len, d.y / len)
            lastDir = dir; lastChord = k - 1
            var pos = 0.0
            while len - pos > rem {
                guard budget > 0 else { return }
                budget -= 1
                pos += rem
                let f = pos / len
                let q = pos >= len ? b : a + d * f
                let t = tangent(k - 1, f)
                if on {
                    if current.last != q { current.append(q) }
                    let ends = Ends(start: currentStart, end: t, dot: t ?? dir)
                    if holdFirst {
                        held = current; heldEnds = ends; holdFirst = false
                    } else {
                        emit(current, false, ends)
                    }
                    current = []
                } else {
                    current = [q]
                    currentStart = t
                }
                i = i + 1 == n ? 0 : i + 1
                rem = iv[i]
                on = !on
            }
            rem -= len - pos
            if on && current.last != b { current.append(b) }
        }

        // Where the last chord is the straight closing segment added above, nil.
        let endTangent = tangent(lastChord, 1)
        if on && !current.isEmpty {
            if holdFirst {
                // Never switched off: the whole closed polyline is one dash.
                pts.removeLast()
                emit(pts, true, Ends(start: nil, end: nil, dot: lastDir))
                return
            }
            var end = Ends(start: currentStart, end: endTangent, dot: endTangent ?? lastDir)
            if let h = held {
                current.append(contentsOf: h.dropFirst())
                end.end = heldEnds.end; end.dot = heldEnds.dot
                held = nil
            }
            emit(current, false, end)
        } else if !closed && rem == 0 && iv[i + 1 == n ? 0 : i + 1] == 0 {
            // A zero-length dash falling exactly on the end of an open polyline is on it.
            emit([pts[pts.count - 1]], false, Ends(start: endTangent, end: endTangent, dot: endTangent ?? lastDir))
        }
        if let h = held { emit(h, false, heldEnds) }
    }
}
