import Geometry
import Raster

// The draw list: every frame of a benchmark scene as a flat list of drawing operations,
// written as text so that `scripts/bench-cairo/replay.c` draws exactly the same
// geometry with Cairo that this executable draws with ChartReel's Canvas. Both sides
// parse the same file before the clock starts; the timed loop only draws.
//
// Format, one item per line, numbers in shortest round-trip form:
//   canvas W H R G B A            background as straight 8-bit RGBA
//   frame                         starts a frame (the canvas is cleared to the background)
//   transform a b c d tx ty       the user-to-device matrix for what follows
//   fill RULE OPACITY BLEND       RULE: nonzero | evenodd; BLEND: a BlendMode raw value
//   stroke WIDTH CAP JOIN MITER OPACITY BLEND NDASH PHASE d1 … dn
//   paint solid R G B A | linear X0 Y0 X1 Y1 SPREAD N | radial X0 Y0 R0 X1 Y1 R1 SPREAD N
//   stop OFFSET R G B A           N of these after a gradient paint (straight, 0…1)
//   path N                        then N lines: M x y | L x y | C x1 y1 x2 y2 x y | Z
//   layer OPACITY                 begins an opacity group; `endlayer` composites it
// A fill or stroke line is followed by its paint, its stops and its path.

/// One drawing operation of a frame.
enum DrawOp {
    case transform(Transform)
    case fill(Path, Paint, FillRule, opacity: Double)
    case stroke(Path, Paint, StrokeStyle, opacity: Double)
    case beginLayer(opacity: Double)
    case endLayer
}

/// A benchmark scene: its canvas and every frame's operations.
struct DrawList {
    var width: Int
    var height: Int
    var background: Color
    var frames: [[DrawOp]]
    /// Cubic control points of quadratic segments are written as cubics (Cairo has no
    /// quadratic), so the parsed list draws curves Cairo and ChartReel both see as cubics.
}

extension DrawList {
    /// The list as text in the format above.
    func text() -> String {
        var out = ""
        out.reserveCapacity(1 << 20)
        func n(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)" }
        func c8(_ v: Double) -> String { String(Int((v * 255).rounded())) }
        out += "canvas \(width) \(height) \(c8(background.r)) \(c8(background.g)) \(c8(background.b)) \(c8(background.a))\n"
        func color(_ c: Color) -> String { "\(n(c.r)) \(n(c.g)) \(n(c.b)) \(n(c.a))" }
        func paint(_ p: Paint) {
            func stops(_ s: [GradientStop]) { for st in s { out += "stop \(n(st.offset)) \(color(st.color))\n" } }
            switch p {
            case .solid(let c): out += "paint solid \(color(c))\n"
            case .linearGradient(let g):
                out += "paint linear \(n(g.start.x)) \(n(g.start.y)) \(n(g.end.x)) \(n(g.end.y)) \(g.spread.rawValue) \(g.stops.count)\n"
                stops(g.stops)
            case .radialGradient(let g):
                out += "paint radial \(n(g.startCenter.x)) \(n(g.startCenter.y)) \(n(g.startRadius)) \(n(g.endCenter.x)) \(n(g.endCenter.y)) \(n(g.endRadius)) \(g.spread.rawValue) \(g.stops.count)\n"
                stops(g.stops)
            case .sweepGradient:
                fatalError("Cairo has no sweep gradient: benchmark scenes do not use it")
            case .image:
                fatalError("benchmark scenes draw no images")
            }
        }
        func path(_ p: Path) {
            out += "path \(p.elements.count)\n"
            var cur = Point.zero, start = Point.zero
            for e in p.elements {
                switch e {
                case .move(let q): out += "M \(n(q.x)) \(n(q.y))\n"; cur = q; start = q
                case .line(let q): out += "L \(n(q.x)) \(n(q.y))\n"; cur = q
                case .quad(let c, let q):
                    let c1 = cur + (c - cur) * (2.0 / 3.0), c2 = q + (c - q) * (2.0 / 3.0)
                    out += "C \(n(c1.x)) \(n(c1.y)) \(n(c2.x)) \(n(c2.y)) \(n(q.x)) \(n(q.y))\n"; cur = q
                case .cubic(let a, let b, let q):
                    out += "C \(n(a.x)) \(n(a.y)) \(n(b.x)) \(n(b.y)) \(n(q.x)) \(n(q.y))\n"; cur = q
                case .close: out += "Z\n"; cur = start
                }
            }
        }
        for ops in frames {
            out += "frame\n"
            for op in ops {
                switch op {
                case .transform(let t): out += "transform \(n(t.a)) \(n(t.b)) \(n(t.c)) \(n(t.d)) \(n(t.tx)) \(n(t.ty))\n"
                case .fill(let p, let pt, let rule, let o):
                    out += "fill \(rule == .evenOdd ? "evenodd" : "nonzero") \(n(o)) sourceOver\n"
                    paint(pt); path(p)
                case .stroke(let p, let pt, let s, let o):
                    out += "stroke \(n(s.width)) \(s.cap.rawValue) \(s.join.rawValue) \(n(s.miterLimit)) \(n(o)) sourceOver \(s.dash.count) \(n(s.dashPhase))"
                    for d in s.dash { out += " \(n(d))" }
                    out += "\n"
                    paint(pt); path(p)
                case .beginLayer(let o): out += "layer \(n(o))\n"
                case .endLayer: out += "endlayer\n"
                }
            }
        }
        return out
    }

    struct ParseError: Error, CustomStringConvertible { var description: String }

    /// Parses the text format (what both this executable and the C program time).
    init(text: String) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).makeIterator()
        func next() throws -> [Substring] {
            guard let l = lines.next() else { throw ParseError(description: "unexpected end of draw list") }
            return l.split(separator: " ")
        }
        func d(_ s: Substring) throws -> Double {
            guard let v = Double(s) else { throw ParseError(description: "bad number \(s)") }
            return v
        }
        let head = try next()
        guard head.first == "canvas", head.count == 7 else { throw ParseError(description: "expected canvas") }
        width = Int(head[1])!; height = Int(head[2])!
        background = Color(r8: UInt8(head[3])!, g8: UInt8(head[4])!, b8: UInt8(head[5])!, a8: UInt8(head[6])!)
        frames = []
        func paint() throws -> Paint {
            let f = try next()
            guard f.first == "paint" else { throw ParseError(description: "expected paint") }
            func stops(_ count: Int) throws -> [GradientStop] {
                try (0..<count).map { _ in
                    let s = try next()
                    return GradientStop(offset: try d(s[1]), color: Color(r: try d(s[2]), g: try d(s[3]), b: try d(s[4]), a: try d(s[5])))
                }
            }
            switch f[1] {
            case "solid": return .solid(Color(r: try d(f[2]), g: try d(f[3]), b: try d(f[4]), a: try d(f[5])))
            case "linear":
                let sp = SpreadMode(rawValue: String(f[6]))!
                return .linearGradient(LinearGradient(start: Point(try d(f[2]), try d(f[3])), end: Point(try d(f[4]), try d(f[5])),
                                                      stops: try stops(Int(f[7])!), spread: sp))
            case "radial":
                let sp = SpreadMode(rawValue: String(f[8]))!
                return .radialGradient(RadialGradient(startCenter: Point(try d(f[2]), try d(f[3])), startRadius: try d(f[4]),
                                                      endCenter: Point(try d(f[5]), try d(f[6])), endRadius: try d(f[7]),
                                                      stops: try stops(Int(f[9])!), spread: sp))
            default: throw ParseError(description: "unknown paint \(f[1])")
            }
        }
        func path() throws -> Path {
            let h = try next()
            guard h.first == "path" else { throw ParseError(description: "expected path") }
            var p = Path()
            for _ in 0..<Int(h[1])! {
                let e = try next()
                switch e[0] {
                case "M": p.move(to: Point(try d(e[1]), try d(e[2])))
                case "L": p.line(to: Point(try d(e[1]), try d(e[2])))
                case "C": p.cubic(to: Point(try d(e[5]), try d(e[6])), control1: Point(try d(e[1]), try d(e[2])),
                                  control2: Point(try d(e[3]), try d(e[4])))
                case "Z": p.close()
                default: throw ParseError(description: "unknown path command \(e[0])")
                }
            }
            return p
        }
        while let l = lines.next() {
            let f = l.split(separator: " ")
            switch f[0] {
            case "frame": frames.append([])
            case "transform":
                frames[frames.count - 1].append(.transform(Transform(a: try d(f[1]), b: try d(f[2]), c: try d(f[3]), d: try d(f[4]),
                                                                     tx: try d(f[5]), ty: try d(f[6]))))
            case "fill":
                let rule: FillRule = f[1] == "evenodd" ? .evenOdd : .nonZero
                let o = try d(f[2])
                let pt = try paint()
                frames[frames.count - 1].append(.fill(try path(), pt, rule, opacity: o))
            case "stroke":
                let nd = Int(f[7])!
                let style = StrokeStyle(width: try d(f[1]), cap: LineCap(rawValue: String(f[2]))!, join: LineJoin(rawValue: String(f[3]))!,
                                        miterLimit: try d(f[4]), dash: try (0..<nd).map { try d(f[9 + $0]) }, dashPhase: try d(f[8]))
                let o = try d(f[5])
                let pt = try paint()
                frames[frames.count - 1].append(.stroke(try path(), pt, style, opacity: o))
            case "layer": frames[frames.count - 1].append(.beginLayer(opacity: try d(f[1])))
            case "endlayer": frames[frames.count - 1].append(.endLayer)
            default: throw ParseError(description: "unknown line \(l)")
            }
        }
    }

    /// Draws frame `i` onto `canvas` (cleared to the background first).
    func draw(frame i: Int, on canvas: Canvas) {
        canvas.clear(background)
        canvas.transform = .identity
        for op in frames[i] {
            switch op {
            case .transform(let t): canvas.transform = t
            case .fill(let p, let paint, let rule, let o): canvas.fill(p, paint: paint, rule: rule, opacity: o)
            case .stroke(let p, let paint, let s, let o): canvas.stroke(p, style: s, paint: paint, opacity: o)
            case .beginLayer(let o): canvas.beginLayer(opacity: o)
            case .endLayer: canvas.endLayer()
            }
        }
    }
}
