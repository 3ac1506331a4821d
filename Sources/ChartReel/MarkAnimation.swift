import Raster
import Motion
import Charts

/// A property of a mark that animates (the keys of a document's `"animate"`).
public enum MarkProperty: String, Hashable, Sendable, CaseIterable {
    /// Start of the visible part of each path, a fraction of its length.
    case trimStart
    /// End of the visible part of each path (a line draws itself as it goes 0 → 1).
    case trimEnd
    /// Lottie's trim offset in turns: the visible window slides round the path.
    case trimOffset
    /// Opacity, 0…1.
    case opacity
    /// How far bars have grown from their baseline and sectors swept open, 0…1.
    case grow
    /// Scale of points (and shapes) about their centre.
    case scale
    /// Horizontal movement in pixels.
    case translateX
    /// Vertical movement in pixels (y down).
    case translateY
    /// Rotation in degrees, clockwise, about each element's centre.
    case rotation
    /// The fraction of each label's value shown, so numbers count up.
    case count
}

/// What an `animation(_:_:)` changes: one or more mark properties from one value to
/// another, or the mark's colour. The `from` values are where the mark starts; the `to`
/// values default to how it looks at rest.
public struct MarkAnimation: Sendable {
    /// One property moving from one value to another.
    struct Change: Sendable { var property: MarkProperty; var from: Double; var to: Double }
    var changes: [Change] = []
    var colors: (from: Color, to: Color)?

    init(_ property: MarkProperty, from: Double, to: Double) { changes = [Change(property: property, from: from, to: to)] }
    init(changes: [Change], colors: (from: Color, to: Color)? = nil) { self.changes = changes; self.colors = colors }

    /// The end of the visible path moves from `from` to `to` (SwiftUI's `trim(from:to:)`
    /// animating its end): `.trim(from: 0)` draws the line.
    public static func trim(from: Double = 0, to: Double = 1) -> MarkAnimation { MarkAnimation(.trimEnd, from: from, to: to) }

    /// The start of the visible path moves: `.trimStart(from: 0, to: 1)` erases the line.
    public static func trimStart(from: Double, to: Double) -> MarkAnimation { MarkAnimation(.trimStart, from: from, to: to) }

    /// The visible window slides round the path by `to − from` turns.
    public static func trimOffset(from: Double = 0, to: Double) -> MarkAnimation { MarkAnimation(.trimOffset, from: from, to: to) }

    /// Fades: `.opacity(from: 0)` fades in.
    public static func opacity(from: Double = 0, to: Double = 1) -> MarkAnimation { MarkAnimation(.opacity, from: from, to: to) }

    /// Bars grow from their baseline, sectors sweep open.
    public static func grow(from: Double = 0, to: Double = 1) -> MarkAnimation { MarkAnimation(.grow, from: from, to: to) }

    /// Points pop in: `.scale(from: 0)` with a spring.
    public static func scale(from: Double = 0, to: Double = 1) -> MarkAnimation { MarkAnimation(.scale, from: from, to: to) }

    /// The mark slides in from `x`, `y` pixels away to where it belongs.
    public static func offset(x: Double = 0, y: Double = 0) -> MarkAnimation {
        MarkAnimation(changes: [Change(property: .translateX, from: x, to: 0), Change(property: .translateY, from: y, to: 0)]
            .filter { $0.from != 0 })
    }

    /// Horizontal movement from `from` to `to` pixels.
    public static func translateX(from: Double, to: Double = 0) -> MarkAnimation { MarkAnimation(.translateX, from: from, to: to) }

    /// Vertical movement from `from` to `to` pixels (y down).
    public static func translateY(from: Double, to: Double = 0) -> MarkAnimation { MarkAnimation(.translateY, from: from, to: to) }

    /// Rotation from `from` to `to` degrees, clockwise.
    public static func rotation(from: Double, to: Double = 0) -> MarkAnimation { MarkAnimation(.rotation, from: from, to: to) }

    /// Labels count up: the fraction of each label's value shown goes from `from` to `to`.
    public static func count(from: Double = 0, to: Double = 1) -> MarkAnimation { MarkAnimation(.count, from: from, to: to) }

    /// The mark's colour moves from one colour to another, through OKLab.
    public static func color(from: Color, to: Color) -> MarkAnimation { MarkAnimation(changes: [], colors: (from, to)) }

    /// Several changes under one timing: `.opacity(from: 0).and(.offset(y: 20))`.
    public func and(_ other: MarkAnimation) -> MarkAnimation {
        MarkAnimation(changes: changes + other.changes, colors: other.colors ?? colors)
    }
}

extension MarkOptions {
    /// Sets the animated value of `property`.
    mutating func set(_ property: MarkProperty, _ value: AnimatedValue) {
        switch property {
        case .trimStart: trimStart = value
        case .trimEnd: trimEnd = value
        case .trimOffset: trimOffset = value
        case .opacity: opacity = value
        case .grow: grow = value
        case .scale: scale = value
        case .translateX: translateX = value
        case .translateY: translateY = value
        case .rotation: rotation = value
        case .count: count = value
        }
    }
}
