/// One drawing command of a `Path`.
public enum PathElement: Hashable, Sendable {
    /// Starts a new subpath at a point.
    case move(Point)
    /// A straight segment to a point.
    case line(Point)
    /// A quadratic Bézier segment with one control point.
    case quad(Point, Point)
    /// A cubic Bézier segment with two control points.
    case cubic(Point, Point, Point)
    /// Closes the current subpath with a straight segment back to its start.
    case close
}

/// A vector path made of subpaths of lines, quadratic and cubic Bézier curves.
///
/// A path is a value; building it never fails. Degenerate content (a lone move,
/// zero-length segments, non-finite coordinates) is kept as given and ignored
/// by the consumers that cannot draw it.
public struct Path: Hashable, Sendable {
    /// The commands in order.
    public private(set) var elements: [PathElement] = []
    private var subpathStart: Point = .zero
    /// The current point: the end of the last command.
    public private(set) var currentPoint: Point? = nil

    /// Creates an empty path.
    public init() {}

    /// Creates a path from a list of commands.
    public init(_ elements: [PathElement]) {
        for e in elements { append(e) }
    }

    /// True when the path has no commands.
    public var isEmpty: Bool { elements.isEmpty }

    /// Appends one command, inserting the implicit move a segment needs when none came before.
    public mutating func append(_ e: PathElement) {
        switch e {
        case .move(let p): move(to: p)
        case .line(let p): line(to: p)
        case .quad(let c, let p): quad(to: p, control: c)
        case .cubic(let c1, let c2, let p): cubic(to: p, control1: c1, control2: c2)
        case .close: close()
        }
    }

    /// Starts a new subpath.
    public mutating func move(to p: Point) {
        elements.append(.move(p)); subpathStart = p; currentPoint = p
    }
    /// Adds a straight segment.
    public mutating func line(to p: Point) {
        if currentPoint == nil { move(to: p); return }
        elements.append(.line(p)); currentPoint = p
    }
    /// Adds a quadratic Bézier segment.
    public mutating func quad(to p: Point, control c: Point) {
        if currentPoint == nil { move(to: c) }
        elements.append(.quad(c, p)); currentPoint = p
    }
    /// Adds a cubic Bézier segment.
    public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) {
        if currentPoint == nil { move(to: c1) }
        elements.append(.cubic(c1, c2, p)); currentPoint = p
    }
    /// Closes the current subpath; the next segment starts from the subpath's start.
    public mutating func close() {
        guard currentPoint != nil else { return }
        elements.append(.close); currentPoint = subpathStart
    }

    /// Appends all subpaths of another path.
    public mutating func append(contentsOf other: Path) {
        for e in other.elements { append(e) }
    }

    /// The path with every point mapped by `t`.
    public func applying(_ t: Transform) -> Path {
        if t.isIdentity { return self }
        var out = Path()
        out.elements.reserveCapacity(elements.count)
        for e in elements {
            switch e {
            case .move(let p): out.move(to: t.apply(p))
            case .line(let p): out.line(to: t.apply(p))
            case .quad(let c, let p): out.quad(to: t.apply(p), control: t.apply(c))
            case .cubic(let c1, let c2, let p): out.cubic(to: t.apply(p), control1: t.apply(c1), control2: t.apply(c2))
            case .close: out.close()
            }
        }
        return out
    }

    /// The bounding box of all points, control points included (empty `Rect.null` for an empty path).
    public var controlBounds: Rect {
        var r = Rect.null
        for e in elements {
            switch e {
            case .move(let p), .line(let p): r = r.union(p)
            case .quad(let c, let p): r = r.union(c).union(p)
            case .cubic(let c1, let c2, let p): r = r.union(c1).union(c2).union(p)
            case .close: break
            }
        }
        return r
    }
}
