import Geometry

/// Several charts on one canvas: a grid of `columns`, rows stacked top to bottom (a
/// dashboard, like a LazyVStack of chart cards), with padding around and spacing between.
public struct DashboardLayout: Hashable, Sendable {
    /// Charts per row.
    public var columns = 1
    /// Space between neighbouring charts.
    public var spacing = 16.0
    /// Space between the canvas edge and the charts.
    public var padding = 16.0
    /// Creates a layout.
    public init(columns: Int = 1, spacing: Double = 16, padding: Double = 16) {
        self.columns = columns; self.spacing = spacing; self.padding = padding
    }

    /// The height the charts need: each row as tall as its tallest given height (or `defaultHeight`).
    public func contentHeight(rowHeights heights: [Double?], defaultHeight: Double) -> Double {
        let rows = rowHeights(heights, defaultHeight: defaultHeight)
        return 2 * padding + rows.reduce(0, +) + spacing * Double(max(0, rows.count - 1))
    }

    func rowHeights(_ heights: [Double?], defaultHeight: Double?) -> [Double] {
        let cols = max(1, columns)
        return stride(from: 0, to: heights.count, by: cols).map { start in
            let row = heights[start..<min(heights.count, start + cols)]
            return row.compactMap { $0 }.max() ?? defaultHeight ?? 0
        }
    }

    /// The frame of each of `count` charts on `canvas`. With `single`, every chart gets the
    /// whole canvas (a document without a layout). Rows without a given height share the
    /// height left over equally.
    public func frames(count: Int, canvas: Rect, heights: [Double?], single: Bool) -> [Rect] {
        if single { return Array(repeating: canvas, count: count) }
        let cols = max(1, columns)
        let rows = (count + cols - 1) / cols
        let given = rowHeights(heights, defaultHeight: nil)
        let fixed = given.reduce(0, +)
        let free = given.filter { $0 == 0 }.count
        let avail = canvas.height - 2 * padding - spacing * Double(max(0, rows - 1))
        let share = free > 0 ? max(1, (avail - fixed) / Double(free)) : 0
        let colWidth = (canvas.width - 2 * padding - spacing * Double(cols - 1)) / Double(cols)
        var out: [Rect] = []
        var y = canvas.minY + padding
        for r in 0..<rows {
            let h = given[r] > 0 ? given[r] : share
            for c in 0..<cols where r * cols + c < count {
                out.append(Rect(x: canvas.minX + padding + Double(c) * (colWidth + spacing), y: y, width: max(1, colWidth), height: max(1, h)))
            }
            y += h + spacing
        }
        return out
    }
}
