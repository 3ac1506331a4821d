/// A point or vector in pixel space: origin top-left, y down (DESIGN.md, Coordinates).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal coordinate, growing to the right.
    public var x: Double
    /// Vertical coordinate, growing downwards.
    public var y: Double

    /// Creates a point from its coordinates.
    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    /// Creates a point from its labelled coordinates.
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// The origin.
    public static let zero = Point(0, 0)

    /// Euclidean length of the point taken as a vector.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
    /// Both coordinates are finite (neither NaN nor infinite).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    /// The vector rotated a quarter turn clockwise on screen (y down): (x, y) -> (-y, x).
    @inlinable public var perpendicular: Point { Point(-y, x) }

    /// The vector scaled to unit length, or nil when it has no direction.
    @inlinable public var normalized: Point? {
        let l = length
        guard l > 0, l.isFinite else { return nil }
        return Point(x / l, y / l)
    }

    /// Distance to another point.
    @inlinable public func distance(to p: Point) -> Double { (self - p).length }
    /// Dot product.
    @inlinable public func dot(_ p: Point) -> Double { x * p.x + y * p.y }
    /// Z component of the cross product.
    @inlinable public func cross(_ p: Point) -> Double { x * p.y - y * p.x }
    /// Linear interpolation towards `p` by `t`.
    @inlinable public func lerp(_ p: Point, _ t: Double) -> Point { Point(x + (p.x - x) * t, y + (p.y - y) * t) }

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    @inlinable public static func * (s: Double, a: Point) -> Point { Point(a.x * s, a.y * s) }
    @inlinable public static prefix func - (a: Point) -> Point { Point(-a.x, -a.y) }

    public var description: String { "(\(x), \(y))" }
}
