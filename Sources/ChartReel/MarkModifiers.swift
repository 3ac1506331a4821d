import Geometry
import Raster
import Motion
import Scene
import Charts

extension ChartContent {
    /// A copy with `edit` applied to the mark.
    func with(_ edit: (inout AnyMark<Row>) -> Void) -> Self {
        var copy = self
        copy.editMarks(edit)
        return copy
    }

    // MARK: Identity

    /// Names the mark: its scene node gets this id (tests find it with `scene.node(_:)`),
    /// as a document's `"id"` does.
    public func id(_ id: String) -> Self { with { $0.spec.options.id = id } }

    /// The mark's entry in the legend.
    public func legendName(_ name: String) -> Self { with { $0.spec.options.name = name } }

    /// Edits the options every mark has (`MarkOptions`) directly, for the fields no
    /// modifier covers.
    public func options(_ edit: (inout MarkOptions) -> Void) -> Self { with { edit(&$0.spec.options) } }

    // MARK: Paint

    /// The mark's paint, as Swift Charts' `foregroundStyle`: the stroke of lines and rules,
    /// the text colour of labels (a gradient's last colour), the fill of everything else.
    public func foregroundStyle(_ paint: NodePaint) -> Self {
        with { m in
            switch m.spec.kind {
            case .line, .rule: m.strokePaint = paint
            case .text: m.edit(TextMarkSpec.self) { $0.color = paint.representativeColor }
            default: m.setFill(paint)
            }
        }
    }

    /// One colour for the mark (see `foregroundStyle(_: NodePaint)`).
    public func foregroundStyle(_ color: Color) -> Self { foregroundStyle(NodePaint.solid(color)) }

    /// Splits the mark into series by `value` (a line, an area, a rule or a label per
    /// series; slices named by it) and colours them from `colors` in the order of
    /// `domain` (order of first appearance when nil), or from the palette.
    ///
    /// Unlike Swift Charts this does not stack areas and bars: say `stacking(_:)`, as a
    /// document says `"stack"`.
    public func foregroundStyle(by value: PlottableValue<Row>, colors: [Color]? = nil, domain: [String]? = nil) -> Self {
        with { m in
            if m.spec.kind == .sector {
                m.x = value
                if colors != nil || domain != nil { m.spec.options.color = .category(field: m.read(value), colors: colors, domain: domain) }
            } else {
                m.spec.options.series = m.read(value)
                if colors != nil || domain != nil { m.spec.options.color = .category(field: nil, colors: colors, domain: domain) }
            }
        }
    }

    /// Splits the mark into series by `value`, coloured evenly along a gradient through
    /// `ramp` (for many series; Swift Charts' `chartForegroundStyleScale(range: Gradient(…))`).
    public func foregroundStyle(by value: PlottableValue<Row>, ramp: [Color]) -> Self {
        with { m in
            if m.spec.kind == .sector {
                m.x = value
                m.spec.options.color = .ramp(field: m.read(value), stops: ramp)
            } else {
                m.spec.options.series = m.read(value)
                m.spec.options.color = .ramp(field: nil, stops: ramp)
            }
        }
    }

    /// Colours each element by thresholds on `value` (its own height when nil): the first
    /// step whose `upTo` the value does not exceed, else `otherwise`.
    public func foregroundStyle(thresholds: [(upTo: Double, color: Color)], otherwise: Color,
                                of value: PlottableValue<Row>? = nil) -> Self {
        with { m in
            let field = value.map { m.read($0) }
            m.spec.options.color = .thresholds(field: field, steps: thresholds.sorted { $0.upTo < $1.upTo }, otherwise: otherwise)
        }
    }

    /// Paints along the value axis with a gradient whose stops sit at data values (0 green,
    /// 15 yellow, 60 red): each bar shows the stretch of it that it covers.
    public func foregroundStyle(valueGradient stops: [(value: Double, color: Color)]) -> Self {
        with { $0.spec.options.color = .valueGradient(stops: stops.sorted { $0.value < $1.value }) }
    }

    /// Gives elements whose `value` is one of `colors`' keys that colour (cancelled
    /// flights in dark red), before the mark's other colouring.
    public func foregroundStyle(overriding colors: [String: Color], by value: PlottableValue<Row>) -> Self {
        with { m in
            let inner = m.spec.options.color ?? .category(field: nil, colors: nil, domain: nil)
            m.spec.options.color = .overrides(field: m.read(value), values: colors, otherwise: inner)
        }
    }

    /// The fill of areas, bars, points, sectors and shapes.
    public func fill(_ paint: NodePaint) -> Self { with { $0.setFill(paint) } }

    /// One fill colour.
    public func fill(_ color: Color) -> Self { fill(NodePaint.solid(color)) }

    /// Strokes the mark with `paint`. Caps and joins left nil are the mark's defaults:
    /// round for lines, butt caps and miter joins for the rest (as in documents).
    public func stroke(_ paint: NodePaint, lineWidth: Double = 1, lineCap: LineCap? = nil, lineJoin: LineJoin? = nil,
                       dash: [Double] = []) -> Self {
        with { m in
            let line = m.spec.kind == .line
            m.strokePaint = paint
            m.strokeStyle = StrokeStyle(width: lineWidth, cap: lineCap ?? (line ? .round : .butt),
                                        join: lineJoin ?? (line ? .round : .miter), dash: dash)
        }
    }

    /// Strokes the mark in one colour.
    public func stroke(_ color: Color, lineWidth: Double = 1, lineCap: LineCap? = nil, lineJoin: LineJoin? = nil,
                       dash: [Double] = []) -> Self {
        stroke(NodePaint.solid(color), lineWidth: lineWidth, lineCap: lineCap, lineJoin: lineJoin, dash: dash)
    }

    /// The stroke's geometry (Swift Charts' `lineStyle`); the paint stays as it is.
    public func lineStyle(_ style: StrokeStyle) -> Self { with { $0.strokeStyle = style } }

    /// A fixed opacity in 0…1 (an opacity animation replaces it).
    public func opacity(_ value: Double) -> Self { with { $0.spec.options.opacity = .constant(value) } }

    /// How the mark's pixels combine with what is under them (darken rulers over a streamgraph).
    public func blendMode(_ mode: MarkBlendMode) -> Self { with { $0.spec.options.blendMode = mode.rawValue } }

    // MARK: Data

    /// Splits the mark into series by `value` without choosing colours (the palette's).
    public func series(_ value: PlottableValue<Row>) -> Self { with { $0.spec.options.series = $0.read(value) } }

    /// How the values of several series at one position stack.
    public func stacking(_ mode: StackMode) -> Self { with { $0.spec.options.stack = mode; $0.stackingSet = true } }

    /// Draws only the rows for which `isIncluded` is true; scales still span every row.
    public func filter(_ isIncluded: @escaping (Row) -> Bool) -> Self { with { $0.filter = isIncluded } }

    /// Moves the mark's values to those of `rows` (Swift Charts' data-change animation):
    /// lines and areas morph, points slide, under `animation`.
    public func transition(to rows: [Row], _ animation: Animation = Animation()) -> Self {
        with { $0.transition = (rows, animation) }
    }

    // MARK: Animation

    /// Animates a property of the mark, as a document's `"animate"` does:
    /// `.animation(.trim(from: 0), .easeInOut(duration: 0.8).delay(0.2))` draws a line.
    /// The default timing is SwiftUI's `.easeInOut` (0.35 s).
    public func animation(_ change: MarkAnimation, _ animation: Animation = Animation()) -> Self {
        with { m in
            for c in change.changes {
                m.spec.options.set(c.property, .tween(Tween(from: c.from, to: c.to, animation: animation)))
            }
            if let colors = change.colors {
                m.spec.options.colorAnimation = AnimatedColor(from: colors.from, to: colors.to, animation: animation)
            }
        }
    }

    /// Animates a property through keyframes (times in seconds on the scene's clock).
    public func keyframes(_ property: MarkProperty, _ frames: [Keyframe]) -> Self {
        with { m in
            if let k = Keyframes(frames) { m.spec.options.set(property, .keyframes(k)) }
            else { m.problems.append("keyframes of \(property) need at least one keyframe and finite times and values") }
        }
    }

    /// Starts each element's animations `seconds` after the previous one's, in `order`
    /// (bars growing one after another; series of lines and areas count as elements).
    public func stagger(each seconds: Double, from order: StaggerSpec.Order = .start) -> Self {
        with { $0.spec.options.stagger = StaggerSpec(step: seconds, order: order) }
    }

    /// Spreads the elements' starts evenly over `seconds`, in `order`.
    public func stagger(amount seconds: Double, from order: StaggerSpec.Order = .start) -> Self {
        with { $0.spec.options.stagger = StaggerSpec(step: 0, amount: seconds, order: order) }
    }
}

// MARK: Kind-specific modifiers

extension InterpolatedMark {
    /// How the points are connected: `.bezier(0.5)`, `.catmullRom`, `.monotone`, `.step(.center)`.
    @available(*, deprecated, renamed: "interpolationMethod", message: "Swift Charts' name; the same methods")
    public func interpolation(_ method: Interpolation) -> Self { with { $0.editConnected { $0.interpolation = method } } }

    /// Starts the curve at the plot's bottom-leading corner (the SwiftUI tutorial's line chart).
    public func startAtOrigin(_ enabled: Bool = true) -> Self { with { $0.editConnected { $0.startAtOrigin = enabled } } }
}

extension PeakMark {
    /// One element per series, where the series is thickest (the baby-names rulers and labels).
    public func atPeak(_ enabled: Bool = true) -> Self { with { $0.edit(RuleMarkSpec.self) { $0.atPeak = enabled }; $0.edit(TextMarkSpec.self) { $0.atPeak = enabled } } }
}

/// How a mark's pixels combine with the pixels under them: Raster's W3C blend modes,
/// under the name the mark modifiers use.
public typealias MarkBlendMode = BlendMode

extension NodePaint {
    /// The colour that stands for the paint where one colour is needed: a solid's colour,
    /// a gradient's last stop.
    var representativeColor: Color {
        if case .solid(let c) = self { return c }
        if case .linear(let stops, _, _) = self, let last = stops.last { return last.color }
        return .black
    }
}

extension AnyMark {
    /// Sets the fill of a mark that has one (areas, bars, points, sectors, shapes).
    mutating func setFill(_ paint: NodePaint) {
        guard var f = spec as? any FilledMark else { return }
        f.fill = paint
        spec = f
    }

    /// Edits a line's or an area's connection.
    mutating func editConnected(_ change: (inout any ConnectedMark) -> Void) {
        guard var c = spec as? any ConnectedMark else { return }
        change(&c)
        spec = c
    }
}
