/// An axis-aligned rectangle in pixel space.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Horizontal extent (never negative for a standardized rectangle).
    public var width: Double
    /// Vertical extent.
    public var height: Double

    /// Creates a rectangle from its origin and size.
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The smallest rectangle containing two corner points.
    @inlinable public init(corner a: Point, _ b: Point) {
        x = min(a.x, b.x); y = min(a.y, b.y)
        width = abs(a.x - b.x); height = abs(a.y - b.y)
    }

    /// The empty rectangle used as the identity of `union`.
    public static let null = Rect(x: .infinity, y: .infinity, width: -.infinity, height: -.infinity)

    @inlinable public var minX: Double { x }
    @inlinable public var minY: Double { y }
    @inlinable public var maxX: Double { x + width }
    @inlinable public var maxY: Double { y + height }
    @inlinable public var midX: Double { x + width / 2 }
    @inlinable public var midY: Double { y + height / 2 }
    /// True when the rectangle encloses no area.
    @inlinable public var isEmpty: Bool { !(width > 0 && height > 0) }
    /// All four components are finite (neither NaN nor infinite).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }
    /// The same area with a non-negative width and height (a negative size extends
    /// left or up from the origin, as CGRect's `standardized`).
    @inlinable public var standardized: Rect {
        Rect(x: width < 0 ? x + width : x, y: height < 0 ? y + height : y, width: abs(width), height: abs(height))
    }

    /// The rectangle shrunk by `d` on every side.
    @inlinable public func insetBy(_ d: Double) -> Rect {
        Rect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d)
    }

    /// The rectangle grown to contain `p`.
    @inlinable public func union(_ p: Point) -> Rect {
        if width < 0 { return Rect(x: p.x, y: p.y, width: 0, height: 0) }
        let nx = min(x, p.x), ny = min(y, p.y)
        return Rect(x: nx, y: ny, width: max(maxX, p.x) - nx, height: max(maxY, p.y) - ny)
    }

    /// The overlap of two rectangles (empty when they do not overlap).
    @inlinable public func intersection(_ r: Rect) -> Rect {
        let nx = max(x, r.x), ny = max(y, r.y)
        let mx = min(maxX, r.maxX), my = min(maxY, r.maxY)
        return Rect(x: nx, y: ny, width: max(0, mx - nx), height: max(0, my - ny))
    }

    /// The four corners: top-left, top-right, bottom-right, bottom-left.
    @inlinable public var corners: [Point] {
        [Point(minX, minY), Point(maxX, minY), Point(maxX, maxY), Point(minX, maxY)]
    }

    /// The smallest rectangle containing the corners mapped by `t`; nil when one of them
    /// is not finite.
    /// (No arrays: this runs for every draw call's bounds, and the corners mapped through
    /// `map` took six allocations, 1.8 % of the dashboard's frame by perf. The extremes
    /// are taken as `min()`/`max()` take them, the first of equal values kept.)
    public func applying(_ t: Transform) -> Rect? {
        let a = t.apply(Point(minX, minY)), b = t.apply(Point(maxX, minY))
        let c = t.apply(Point(maxX, maxY)), d = t.apply(Point(minX, maxY))
        guard a.isFinite, b.isFinite, c.isFinite, d.isFinite else { return nil }
        @inline(__always) func least(_ p: Double, _ q: Double, _ r: Double, _ s: Double) -> Double {
            var m = p
            if q < m { m = q }
            if r < m { m = r }
            if s < m { m = s }
            return m
        }
        @inline(__always) func most(_ p: Double, _ q: Double, _ r: Double, _ s: Double) -> Double {
            var m = p
            if q > m { m = q }
            if r > m { m = r }
            if s > m { m = s }
            return m
        }
        return Rect(corner: Point(least(a.x, b.x, c.x, d.x), least(a.y, b.y, c.y, d.y)),
                    Point(most(a.x, b.x, c.x, d.x), most(a.y, b.y, c.y, d.y)))
    }

    public var description: String { "Rect(\(x), \(y), \(width)×\(height))" }
}
