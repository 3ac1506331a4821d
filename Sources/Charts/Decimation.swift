// M4 decimation of lines and areas with more points than the plot has pixel columns.
//
// A line of 1,000,000 rows across a 1,200-pixel plot puts ~830 points in every pixel
// column; drawing them all costs the stroker, the trim's arc-length table and the
// rasterizer a million segments per frame, and draws nothing more than the few points
// that bound each column. M4 (Jugel et al., "M4: A Visualization-Oriented Time Series
// Data Aggregation", VLDB 2014) keeps, per column, the first and last point (where the
// line enters and leaves) and the points of lowest and highest value (how far it
// reaches), in their original order: the polyline through them covers the same pixels
// as the full one. Columns here are a quarter of a pixel wide, so the joins and
// anti-aliased edges of a stroke of any width, and a `--scale` up to 4, match the full
// line to within one level of a channel (ChartsTests.DecimationTests measures it); a
// series needs more than 4 points per pixel on average to be decimated at all, so every
// chart of ordinary size is drawn from all its points, exactly as before.
import Geometry
import Scene

enum M4 {
    /// Columns per pixel of the key axis.
    static let columnsPerPixel = 4.0

    /// The indices of `points` to keep, in order, or nil when nothing would be gained (no
    /// more points than columns) or M4 does not apply (the points go back along the key
    /// axis, so a column is not one stretch of the line).
    ///
    /// - Parameters:
    ///   - horizontal: the key axis is y (a horizontal chart) rather than x.
    ///   - span: the key axis's extent in pixels (the plot's width or height).
    static func keptIndices(_ points: [Point], horizontal: Bool, span: Double) -> [Int]? {
        let columns = max(1, span * columnsPerPixel)
        guard Double(points.count) > columns, points.count > 4 else { return nil }
        @inline(__always) func key(_ p: Point) -> Double { horizontal ? p.y : p.x }
        @inline(__always) func value(_ p: Point) -> Double { horizontal ? p.x : p.y }
        // Monotone along the key axis (either direction), and finite.
        let ascending = key(points[points.count - 1]) >= key(points[0])
        for i in 1..<points.count {
            let d = key(points[i]) - key(points[i - 1])
            guard d.isFinite, ascending ? d >= 0 : d <= 0, value(points[i]).isFinite else { return nil }
        }
        let origin = key(points[0])
        let width = 1 / columnsPerPixel
        var kept: [Int] = []
        kept.reserveCapacity(Int(min(Double(points.count), columns * 4 + 8)))
        var start = 0
        while start < points.count {
            let column = ((key(points[start]) - origin) / width).rounded(.down)
            var end = start + 1
            var lo = start, hi = start
            while end < points.count && ((key(points[end]) - origin) / width).rounded(.down) == column {
                if value(points[end]) < value(points[lo]) { lo = end }
                if value(points[end]) > value(points[hi]) { hi = end }
                end += 1
            }
            let last = end - 1
            // First, the extremes in the order the line reaches them, last; each once.
            for i in [start, min(lo, hi), max(lo, hi), last] where kept.last != i { kept.append(i) }
            start = end
        }
        return kept.count < points.count ? kept : nil
    }

    /// The trim remap of a line through `points` drawn through `kept` of them only: the
    /// fraction of each kept point along the full line and along the decimated one.
    static func trimRemap(_ points: [Point], kept: [Int]) -> TrimRemap? {
        var full = [Double](repeating: 0, count: points.count)
        for i in 1..<points.count { full[i] = full[i - 1] + points[i - 1].distance(to: points[i]) }
        var from: [Double] = [], to: [Double] = []
        from.reserveCapacity(kept.count); to.reserveCapacity(kept.count)
        var drawn = 0.0
        for (k, i) in kept.enumerated() {
            if k > 0 { drawn += points[kept[k - 1]].distance(to: points[i]) }
            from.append(full[i]); to.append(drawn)
        }
        guard let total = full.last, total > 0, drawn > 0 else { return nil }
        return TrimRemap(from: from.map { $0 / total }, to: to.map { $0 / drawn })
    }
}
