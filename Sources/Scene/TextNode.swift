import Geometry
import Raster
import Text
import Motion
import Synchronization

/// Where a text's anchor point lies on the text's box.
public struct TextAnchor: Hashable, Sendable {
    /// Horizontal placement of the anchor on the line.
    public enum Horizontal: String, Hashable, Sendable { case leading, center, trailing }
    /// Vertical placement of the anchor on the line.
    public enum Vertical: String, Hashable, Sendable { case top, center, baseline, bottom }
    public var horizontal: Horizontal
    public var vertical: Vertical
    /// Creates an anchor.
    public init(_ horizontal: Horizontal = .leading, _ vertical: Vertical = .baseline) {
        self.horizontal = horizontal; self.vertical = vertical
    }
}

/// A rounded-rectangle background behind a text (Swift Charts' annotation pill).
public struct TextBackground: Hashable, Sendable {
    /// Fill colour.
    public var color: Color
    /// Corner radius; a value of at least half the height gives a capsule.
    public var cornerRadius: Double
    /// Space between the text's box and the background's edge, horizontally and vertically.
    public var padding: (x: Double, y: Double)
    /// Creates a background.
    public init(color: Color, cornerRadius: Double = 4, padding: (x: Double, y: Double) = (6, 3)) {
        self.color = color; self.cornerRadius = cornerRadius; self.padding = padding
    }
    public static func == (a: TextBackground, b: TextBackground) -> Bool {
        a.color == b.color && a.cornerRadius == b.cornerRadius && a.padding == b.padding
    }
    public func hash(into h: inout Hasher) { h.combine(color); h.combine(cornerRadius); h.combine(padding.x); h.combine(padding.y) }
}

/// Text drawn through the rasterizer as glyph outlines, so it shares the shapes'
/// anti-aliasing; colour emoji are drawn as images. Shaped (HarfBuzz, with font
/// fallback and bidi) and set in lines once, when the node is made: one line per
/// paragraph unless `style` gives a maximum width to wrap or truncate at.
public struct TextNode: Sendable {
    /// A name for finding the node again.
    public var id: String?
    /// The text.
    public let string: String
    /// Font size in pixels per em.
    public let size: Double
    /// The ink colour.
    public var color: Color
    /// The anchor point, in the parent's coordinates.
    public var position: Point
    /// Which point of the text sits at `position`.
    public var anchor: TextAnchor
    /// Rotation about `position`, in radians, clockwise on screen (−π/2 reads bottom to top).
    public var rotation: Double
    /// An optional background.
    public var background: TextBackground?
    /// Opacity in 0…1.
    public var opacity: AnimatedValue = .constant(1)
    /// Moves, scales and rotates the text over time.
    public var motion = AnimatedTransform()
    /// A number shown as text that changes over time (a counter ticking up with its
    /// easing), formatted at every frame; replaces `string` when set.
    public var counter: (value: AnimatedValue, format: @Sendable (Double) -> String)?
    /// 0 draws the text at its exact position. n > 0 rounds its device position to 1/n
    /// of a pixel and keeps its coverage per fraction, so a label that moves every frame
    /// (riding a bar's head) is rasterized once per fraction and then replayed wherever it
    /// goes, as the glyph caches of Cairo and Skia do with glyph positions; with 4 the text
    /// sits at most 1/8 px from where it would be.
    public var subpixelSteps: Int = 0
    /// The node's layout, built once and shared by copies of the node (one reference to
    /// retain when a scene copies the node, instead of one per array: measured on 300
    /// labels, copying the node cost more than replaying its coverage).
    let laidOut: LaidOutText
    var font: Font { laidOut.font }
    /// OpenType features, language and direction the text is shaped with.
    public var options: ShapingOptions { laidOut.options }
    /// Maximum width, wrapping or truncation, line height and alignment.
    public var style: TextBlockStyle { laidOut.style }
    /// Block metrics: advance width of the widest line, the first line's ascent, the
    /// descent from the first baseline to the bottom of the last line, ink bounds
    /// (first baseline's left end at the origin).
    public var metrics: TextMetrics { laidOut.metrics }
    /// The glyph outlines with the first baseline's left end at the origin.
    public var glyphs: Path { laidOut.glyphs }
    /// Colour glyphs (emoji), each an image over its rectangle in the text's own frame.
    public var colorGlyphs: [ImagePaint] { laidOut.colorGlyphs }
    /// The text of each line as set (wrapped, with an ellipsis where truncated).
    public var lineStrings: [String] { laidOut.lineStrings }
    /// The glyphs' coverage, recorded on the first frame and replayed on the frames that
    /// draw the text under the same transform and opacity (shared by copies of the node,
    /// which all have the same glyphs).
    var coverage: CoverageCache { laidOut.coverage }

    /// Lays out `string` in `font` at `size`, shaped with `options` and set in lines by `style`.
    public init(id: String? = nil, _ string: String, font: Font, size: Double, color: Color = .black,
                position: Point, anchor: TextAnchor = TextAnchor(), rotation: Double = 0, background: TextBackground? = nil,
                options: ShapingOptions = .default, style: TextBlockStyle = .singleLine) {
        self.init(id: id, string, font: font, size: size, color: color, position: position, anchor: anchor, rotation: rotation,
                  background: background, options: options, style: style, counting: false)
    }

    /// `counting`: the layout of one frame of a counter, from a small table of its own (not
    /// the shared one: a counter's numbers rarely repeat, and would push the labels that do
    /// out of it) and drawn glyph by glyph (`LaidOutText.pieces`).
    init(id: String?, _ string: String, font: Font, size: Double, color: Color, position: Point, anchor: TextAnchor,
         rotation: Double, background: TextBackground?, options: ShapingOptions, style: TextBlockStyle, counting: Bool) {
        self.id = id; self.string = string; self.size = size; self.color = color
        self.position = position; self.anchor = anchor; self.rotation = rotation; self.background = background
        laidOut = counting ? LaidOutText.counting(string, font: font, size: size, options: options, style: style)
            : LaidOutText.shared(string, font: font, size: size, options: options, style: style)
    }

    /// A node drawing `laidOut` (a counter's value at one frame).
    private init(id: String?, _ string: String, size: Double, color: Color, position: Point, anchor: TextAnchor,
                 rotation: Double, background: TextBackground?, laidOut: LaidOutText) {
        self.id = id; self.string = string; self.size = size; self.color = color
        self.position = position; self.anchor = anchor; self.rotation = rotation; self.background = background
        self.laidOut = laidOut
    }

    /// The features a counter without features of its own is shaped with (one array, not one a frame).
    private static let tabularFeatures = ["tnum"]

    /// The offset from the anchor to the baseline-left origin, in the text's own frame.
    public var originOffset: Point {
        let x: Double
        switch anchor.horizontal {
        case .leading: x = 0
        case .center: x = -metrics.width / 2
        case .trailing: x = -metrics.width
        }
        let y: Double
        switch anchor.vertical {
        case .top: y = metrics.ascent
        case .center: y = (metrics.ascent - metrics.descent) / 2
        case .baseline: y = 0
        case .bottom: y = -metrics.descent
        }
        return Point(x, y)
    }

    /// Maps the text's own frame (baseline-left origin) to the parent's coordinates.
    public var transform: Transform {
        let o = originOffset
        return Transform.translation(o.x, o.y)
            .concatenating(.rotation(rotation))
            .concatenating(.translation(position.x, position.y))
    }

    /// The line box (advance width × ascent + descent) in the text's own frame.
    public var box: Rect { Rect(x: 0, y: -metrics.ascent, width: metrics.width, height: metrics.ascent + metrics.descent) }

    /// The line box grown by the background's padding (the pill), or the line box without one.
    public var paddedBox: Rect {
        let b = box
        guard let bg = background else { return b }
        return Rect(x: b.minX - bg.padding.x, y: b.minY - bg.padding.y, width: b.width + 2 * bg.padding.x, height: b.height + 2 * bg.padding.y)
    }

    /// The corners of the line box (with the background's padding) in the parent's coordinates.
    public var corners: [Point] { paddedBox.corners.map(transform.apply) }

    /// When the node's appearance can change.
    public var changeSpan: ChangeSpan {
        opacity.changeSpan.union(motion.changeSpan).union(counter?.value.changeSpan ?? .never)
    }

    /// The latest time at which the node changes.
    public var endTime: Double { max(opacity.displayEnd, motion.endTime, counter?.value.displayEnd ?? 0) }

    /// Draws the text as it is at time `t`.
    public func render(at t: Double, on canvas: Canvas) {
        let o = min(1, max(0, opacity.value(at: t)))
        guard o > 0 else { return }
        if let c = counter {
            // Lay the current number out and draw it as a plain text node, with tabular
            // figures so its digits keep their places from frame to frame.
            var tabular = options
            if tabular.features.isEmpty {
                tabular.features = TextNode.tabularFeatures
            } else if !tabular.features.contains(where: { $0.hasSuffix("tnum") || $0.hasPrefix("tnum") }) {
                tabular.features.append("tnum")
            }
            let string = c.format(c.value.value(at: t))
            // Digits and other printable ASCII in the label's font on one line (a counter's
            // usual value): laid out by the lean path, the same layout (LaidOutText.line).
            let layout = LaidOutText.line(string, font: font, size: size, options: tabular, style: style)
                ?? LaidOutText.counting(string, font: font, size: size, options: tabular, style: style)
            var now = TextNode(id: id, string, size: size, color: color, position: position, anchor: anchor, rotation: rotation,
                               background: background, laidOut: layout)
            now.opacity = opacity; now.motion = motion; now.subpixelSteps = subpixelSteps
            now.render(at: t, on: canvas)
            return
        }
        canvas.save()
        if !motion.isIdentity { canvas.concatenate(motion.value(at: t)) }
        canvas.concatenate(transform)
        let layered = background != nil && o < 1
        if layered { canvas.beginLayer(opacity: o, bounds: inkBoxInOwnFrame) }
        let drawOpacity = layered ? 1 : o
        if let bg = background {
            canvas.fill(Path.roundedRect(paddedBox, cornerRadius: bg.cornerRadius), paint: .solid(bg.color), opacity: drawOpacity)
        }
        let layout = laidOut
        if subpixelSteps > 0 {
            // A label whose string is new on most frames (a race's counting value) finds
            // its glyphs' cells at its fraction of a pixel (Canvas+SnappedPieces.swift).
            let size = layout.size, placed = layout.placed
            canvas.fill(pieces: { placed.map { ShapePiece(source: $0.font, index: $0.glyph, scale: size, origin: $0.origin) } },
                        paint: .solid(color), opacity: drawOpacity, cache: layout.coverage, subpixelSteps: subpixelSteps,
                        path: { i in placed[i].font.glyphPath(glyph: placed[i].glyph, size: size, origin: placed[i].origin) },
                        whole: { layout.glyphs })
            for i in layout.colorGlyphs.indices {
                canvas.fill(Path.rect(layout.colorGlyphs[i].rect), paint: .image(layout.colorGlyphs[i]), rule: .nonZero,
                            opacity: drawOpacity, cache: layout.colorCoverage[i], subpixelSteps: subpixelSteps)
            }
        } else {
            if let pieces = layout.pieces {
                // A counter's string is new on most frames, its glyphs are not: their cells
                // are kept per glyph and place (Canvas+PieceCells.swift), same bytes.
                let size = layout.size
                canvas.fill(pieces: pieces.map { ShapePiece(source: $0.font, index: $0.glyph, scale: size, origin: $0.origin) },
                            paint: .solid(color), opacity: drawOpacity) { i in
                    pieces[i].font.glyphPath(glyph: pieces[i].glyph, size: size, origin: pieces[i].origin)
                }
            } else {
                canvas.fill(layout.glyphs, paint: .solid(color), rule: .nonZero, opacity: drawOpacity, cache: layout.coverage)
            }
            for i in layout.colorGlyphs.indices {
                canvas.fill(Path.rect(layout.colorGlyphs[i].rect), paint: .image(layout.colorGlyphs[i]), rule: .nonZero,
                            opacity: drawOpacity, cache: layout.colorCoverage[i])
            }
        }
        if layered { canvas.endLayer() }
        canvas.restore()
    }
}

/// What a `TextNode` lays out once: the shaped, set text at its size, its outlines and
/// colour glyphs, and the coverage caches that go with them. Immutable apart from the
/// caches (which lock), so copies of a node share it across threads.
final class LaidOutText: Sendable {
    let font: Font
    let options: ShapingOptions
    let style: TextBlockStyle
    let metrics: TextMetrics
    let size: Double
    /// The outline glyphs with their pen positions (`TextBlock.outlineGlyphs(at: .zero)`):
    /// `glyphs` is their paths one after another.
    let placed: [PlacedOutline]
    /// The outlines as one path, built when first needed: a label drawn from its glyphs'
    /// kept cells (a counter's, a moving label's) may never need it.
    private let outlines = Mutex<Path?>(nil)
    /// A counter's outline glyphs with their pen positions, drawn glyph by glyph so that
    /// each glyph's cells are kept across frames (`Canvas.fill(pieces:)`); nil for other text.
    let pieces: [PlacedOutline]?
    /// The glyph outlines with the first baseline's left end at the origin: the glyphs'
    /// paths one after another, which is `TextBlock.path(at: .zero)`.
    var glyphs: Path {
        if let made = outlines.withLock({ $0 }) { return made }
        var out = Path()
        for p in placed { out.append(contentsOf: p.font.glyphPath(glyph: p.glyph, size: size, origin: p.origin)) }
        outlines.withLock { if $0 == nil { $0 = out } }
        return out
    }
    let colorGlyphs: [ImagePaint]
    let lineStrings: [String]
    let coverage = CoverageCache()
    let colorCoverage: [CoverageCache]

    /// Layouts by what they are made from, so a node made anew for every frame (a chart
    /// rebuilds its labels at every frame while its state changes) finds the layout and
    /// the recorded coverage of the frame before instead of setting and rasterizing the
    /// text again. Cleared when full; a layout is a pure function of its key, so what the
    /// table holds never changes a frame's bytes.
    private struct Key: Hashable {
        let string: String, font: ObjectIdentifier, size: Double, options: ShapingOptions, style: TextBlockStyle
    }
    private static let table = Mutex<[Key: LaidOutText]>([:])
    /// How many layouts are kept (each holds its outlines and up to a few recorded coverages).
    static let capacity = 1024

    /// Counters' layouts: a few, for a counter that holds a value (at its end) or counts
    /// slowly, so its string repeats; cleared when full. They hold no outlines (`pieces`).
    private static let counterTable = Mutex<[Key: LaidOutText]>([:])
    static let counterCapacity = 256

    /// A counter's layout of `string`: the one made before, or a new one drawn glyph by
    /// glyph, whose shaping is not kept in the process's shaping table either.
    static func counting(_ string: String, font: Font, size: Double, options: ShapingOptions, style: TextBlockStyle) -> LaidOutText {
        let key = Key(string: string, font: ObjectIdentifier(font), size: size, options: options, style: style)
        if let hit = counterTable.withLock({ $0[key] }) { return hit }
        let made = LaidOutText(string, font: font, size: size, options: options, style: style, pieces: true)
        counterTable.withLock { t in
            if t.count >= counterCapacity { t.removeAll(keepingCapacity: true) }
            t[key] = made   // holds its font, so the identifier is not reused while kept
        }
        return made
    }

    /// A counter's layout of `string` through `TextBlock.printableASCIILine` (printable
    /// ASCII in `font`, no maximum width): the metrics and glyphs `counting` gives, bit for
    /// bit, made anew without a table (cheaper than looking the string up). Nil outside
    /// that case.
    static func line(_ string: String, font: Font, size: Double, options: ShapingOptions, style: TextBlockStyle) -> LaidOutText? {
        guard let (metrics, outlines) = TextBlock.printableASCIILine(string, font: font, size: size, options: options, style: style)
        else { return nil }
        return LaidOutText(string, font: font, size: size, options: options, style: style, metrics: metrics, pieces: outlines,
                           counting: true)
    }

    /// A layout from its parts (`line`, `shared`): one line, no colour glyphs; `counting`
    /// draws it glyph by glyph.
    private init(_ string: String, font: Font, size: Double, options: ShapingOptions, style: TextBlockStyle,
                 metrics: TextMetrics, pieces: [PlacedOutline], counting: Bool) {
        self.font = font; self.options = options; self.style = style; self.size = size
        self.metrics = metrics
        placed = pieces
        self.pieces = counting ? pieces : nil
        colorGlyphs = []
        lineStrings = [string]
        colorCoverage = []
    }

    /// The layout of `string` with these settings: the one made before, or a new one.
    static func shared(_ string: String, font: Font, size: Double, options: ShapingOptions, style: TextBlockStyle) -> LaidOutText {
        let key = Key(string: string, font: ObjectIdentifier(font), size: size, options: options, style: style)
        if let hit = table.withLock({ $0[key] }) { return hit }
        // Printable ASCII in the font on one line (a race's labels, new strings on most
        // frames): the lean layout, the same metrics and glyphs bit for bit (CounterLineTests).
        let made: LaidOutText
        if let (metrics, outlines) = TextBlock.printableASCIILine(string, font: font, size: size, options: options, style: style) {
            made = LaidOutText(string, font: font, size: size, options: options, style: style, metrics: metrics, pieces: outlines,
                               counting: false)
        } else {
            made = LaidOutText(string, font: font, size: size, options: options, style: style)
        }
        return table.withLock { t in
            if let raced = t[key] { return raced }
            if t.count >= capacity { t.removeAll(keepingCapacity: true) }
            t[key] = made   // the layout holds its font, so the identifier is not reused while kept
            return made
        }
    }

    /// `pieces`: keep the glyphs and their places instead of building the outlines (a counter's).
    init(_ string: String, font: Font, size: Double, options: ShapingOptions, style: TextBlockStyle, pieces: Bool = false) {
        self.font = font; self.options = options; self.style = style; self.size = size
        let block = TextBlock(string, font: font, size: size, options: options, style: style, keepShaping: !pieces)
        metrics = block.metrics
        placed = block.outlineGlyphs(at: .zero)
        self.pieces = pieces ? placed : nil
        colorGlyphs = block.colorGlyphs.compactMap { g in
            Pixmap(width: g.image.width, height: g.image.height, premultipliedData: g.image.pixels)
                .map { ImagePaint(pixmap: $0, rect: g.rect) }
        }
        lineStrings = block.strings
        colorCoverage = colorGlyphs.map { _ in CoverageCache() }
    }
}
