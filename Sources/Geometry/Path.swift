// The Geometry module: the shapes ChartReel draws, as vector paths, before any pixel.
//
// It owns points, rectangles and affine transforms (Point, Rect, Transform), the Path
// value and its builder, SwiftUI's shapes as path constructors (Shapes.swift), SVG path
// data (SVGPath.swift), and the four operations that turn a path into what the
// rasterizer fills: flattening, stroking, dashing and trimming. It imports nothing but
// the C library and knows nothing of pixels, colours or time: Raster decides the
// tolerances, Scene decides what to trim when. docs/geometry.md gives the conventions
// (y down, clockwise on screen, angles from 3 o'clock) and every shape's start point.
//
// 1. Flattening (Flatten.swift). A curve is cut into equal parameter steps, their
//    count from Wang's formula, n = ⌈√(d(d−1)/8 · M / tolerance)⌉ with M the largest
//    second difference of the control points: a bound on the deviation for any
//    curve, with no recursion and the same points on every run. A solid stroke's
//    long curves are cut where they bend instead, each chord checked against the
//    outline's bound with the pen's share counted in (CurveFlattening.swift): 55 %
//    fewer chords on chart curves. Each polyline also records the curves its chords
//    came from, so a cap or a dash end takes the curve's own tangent instead of its
//    last chord's: against Cairo (RasterTests/CairoReferenceTests) that took dashes on
//    a circle from 19 to 11 levels at worst.
// 2. Stroking (Stroker.swift). Each side is offset by half the width, with the join
//    on the outside of a turn; on the inside the outline takes the crossing of the
//    two offset lines where it lies within both segments, and pivots through the
//    vertex (as Skia and Cairo do) only where it does not. Pivoting everywhere
//    leaves a loop of winding 2 along the inner edge, which exact-area coverage
//    counts twice: it darkened thick curved strokes by up to 117 levels against
//    Cairo; the crossing brought that to 28. The outline is filled non-zero, so no
//    intersection tests are needed. `StrokeStyle.reach` bounds how far it strays
//    from the path.
// 3. Dashing (Dasher.swift). SVG's stroke-dasharray rules, the pattern restarting on
//    each subpath; every dash is stroked as an open polyline with its caps. The work
//    is counted before any dash is made, and a pattern that would give more than
//    `Dasher.maxPieces` dashes (or too many cap vertices) is stroked solid, so the
//    output stays proportional to the input whatever the pattern.
// 4. Measuring and trimming (PathMeasure.swift). Curves are sampled into a table of
//    (parameter, cumulative length) with chords within 0.01 units, so lengths are
//    within 1e-4 relative for the curves charts draw. A trim finds its parameters by
//    binary search in the table and cuts curves with de Casteljau's construction, so
//    a trimmed path is exact curves again and flattens and strokes like any other:
//    SwiftUI's trim(from:to:), and Lottie's trim with an offset that wraps round
//    closed paths (PathMeasure+Lottie.swift). Scene builds a node's table once, so a
//    frame's trim is a lookup and a cut.
//
// Circles and arcs are cubic pieces of at most 90° with arms of 4/3·tan(θ/4)·r, within
// 0.027 % of the radius. Degenerate input (NaN, infinities, 1e308, empty paths, zero
// widths, any dash pattern) gives an empty path or is dropped: never a trap, a hang
// or an allocation out of proportion (GeometryTests/RobustnessTests; the raster
// fuzzer drives all of it). Arcs, rotations and round joins take sin, cos, tan and
// atan2 from libm: unlike Motion's and OKLab's maths, their last bits could differ
// between C libraries.

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
