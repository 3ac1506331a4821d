import Geometry
import Raster
import Scene
import Timelines

#if canImport(Glibc)
import Glibc
#endif

/// A small deterministic generator (SplitMix64), so every run draws the same scenes.
struct SplitMix {
    var state: UInt64
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
    mutating func range(_ a: Double, _ b: Double) -> Double { a + (b - a) * next() }
}

enum Scenes {
    static let names = ["curved-line", "dashboard", "line-4k", "fill-heavy"]

    static func make(_ name: String, root: String) throws -> DrawList {
        switch name {
        case "curved-line": return try timeline(root + "/timelines/curved-line-reveal.json")
        case "dashboard": return dashboard()
        case "line-4k": return line4K()
        case "fill-heavy": return fillHeavy()
        default: throw DrawList.ParseError(description: "unknown scene \(name); scenes: \(names.joined(separator: ", "))")
        }
    }

    // MARK: The curved-line scene of issue #2, every frame, as ChartReel's Scene draws it

    /// Every frame of a timeline as the operations `Scene.render` performs (the same
    /// trims, paints, opacities, layers and transforms), so Cairo draws exactly what
    /// ChartReel draws. Only what that timeline uses is supported.
    static func timeline(_ path: String) throws -> DrawList {
        let scene = try TimelineDecoder.load(path: path)
        var frames: [[DrawOp]] = []
        for i in 0..<scene.frameCount {
            var ops: [DrawOp] = []
            let t = Scene.time(ofFrame: i, fps: scene.fps)
            for n in scene.nodes { emit(n, at: t, transform: .identity, into: &ops) }
            frames.append(ops)
        }
        return DrawList(width: scene.width, height: scene.height, background: scene.background, frames: frames)
    }

    static func emit(_ node: Node, at t: Double, transform: Transform, into ops: inout [DrawOp]) {
        switch node {
        case .group(let g):
            let o = min(1, max(0, g.opacity.value(at: t)))
            guard o > 0 else { return }
            var m = g.transform.concatenating(transform)
            if !g.motion.isIdentity { m = g.motion.value(at: t).concatenating(m) }
            if o < 1 { ops.append(.beginLayer(opacity: o)) }
            for c in g.children { emit(c, at: t, transform: m, into: &ops) }
            if o < 1 { ops.append(.endLayer) }
        case .shape(let s):
            let o = min(1, max(0, s.opacity.value(at: t)))
            guard o > 0 else { return }
            precondition(s.trimOffset == nil && s.dynamicPath == nil && s.fillColor == nil && s.strokeColor == nil
                         && s.blendMode == .sourceOver, "not used by the benchmark timeline")
            let a = s.trimStart.value(at: t), b = s.trimEnd.value(at: t)
            let visible: Path
            if a <= 0 && b >= 1 { visible = s.path } else {
                guard a < b else { return }
                visible = s.measure.trimmed(from: a, to: b)
                if visible.isEmpty { return }
            }
            let box = s.frame ?? s.path.controlBounds
            let m = s.motion.isIdentity ? transform : s.motion.value(at: t).concatenating(transform)
            let both = s.fill != nil && s.stroke != nil && o < 1
            ops.append(.transform(m))
            if both { ops.append(.beginLayer(opacity: o)) }
            if let f = s.fill { ops.append(.fill(visible, f.paint.resolve(in: box), f.rule, opacity: both ? 1 : o)) }
            if let st = s.stroke { ops.append(.stroke(visible, st.paint.resolve(in: box), st.style, opacity: both ? 1 : o)) }
            if both { ops.append(.endLayer) }
        case .text(let x):
            let o = min(1, max(0, x.opacity.value(at: t)))
            guard o > 0 else { return }
            precondition(x.counter == nil && x.background == nil, "not used by the benchmark timeline")
            var m = transform
            if !x.motion.isIdentity { m = x.motion.value(at: t).concatenating(m) }
            m = x.transform.concatenating(m)
            ops.append(.transform(m))
            ops.append(.fill(x.glyphs, .solid(x.color), .nonZero, opacity: o))
        }
    }

    // MARK: A dashboard: 12 small text-free charts at 1920×1080

    static func stops(_ c: [Color]) -> [GradientStop] {
        c.enumerated().map { GradientStop(offset: c.count > 1 ? Double($0.offset) / Double(c.count - 1) : 0, color: $0.element) }
    }

    /// A smooth curve through the points (Catmull-Rom as cubics, the charts' bezier interpolation).
    static func smooth(_ pts: [Point]) -> Path {
        var p = Path()
        p.move(to: pts[0])
        for i in 0..<(pts.count - 1) {
            let p0 = pts[max(0, i - 1)], p1 = pts[i], p2 = pts[i + 1], p3 = pts[min(pts.count - 1, i + 2)]
            p.cubic(to: p2, control1: p1 + (p2 - p0) * (1.0 / 6), control2: p2 - (p3 - p1) * (1.0 / 6))
        }
        return p
    }

    static func dashboard() -> DrawList {
        var rng = SplitMix(state: 2024)
        var ops: [DrawOp] = [.transform(.identity)]
        let palette = [Color(hex: "#6A5ACD")!, Color(hex: "#00BFFF")!, Color(hex: "#E4572E")!, Color(hex: "#17BEBB")!,
                       Color(hex: "#FFC914")!, Color(hex: "#76B041")!]
        let cols = 4, rows = 3, gap = 24.0
        let cw = (1920 - gap * Double(cols + 1)) / Double(cols), ch = (1080 - gap * Double(rows + 1)) / Double(rows)
        for k in 0..<(cols * rows) {
            let x0 = gap + Double(k % cols) * (cw + gap), y0 = gap + Double(k / cols) * (ch + gap)
            // Card and plot area.
            ops.append(.fill(.roundedRect(Rect(x: x0, y: y0, width: cw, height: ch), cornerRadius: 12, style: .continuous),
                             .solid(Color(hex: "#F7F7FA")!), .nonZero, opacity: 1))
            let plot = Rect(x: x0 + 36, y: y0 + 20, width: cw - 56, height: ch - 56)
            // Grid: five horizontal and seven vertical hairlines on pixel centres.
            let grid = Paint.solid(Color(hex: "#D3D3D3")!)
            for j in 0...4 {
                let y = (plot.minY + plot.height * Double(j) / 4).rounded() + 0.5
                var p = Path(); p.move(to: Point(plot.minX, y)); p.line(to: Point(plot.maxX, y))
                ops.append(.stroke(p, grid, StrokeStyle(width: 1), opacity: 1))
            }
            for j in 0...6 {
                let x = (plot.minX + plot.width * Double(j) / 6).rounded() + 0.5
                var p = Path(); p.move(to: Point(x, plot.minY)); p.line(to: Point(x, plot.maxY))
                ops.append(.stroke(p, grid, StrokeStyle(width: 1), opacity: 1))
            }
            let c0 = palette[k % palette.count], c1 = palette[(k + 1) % palette.count]
            switch k % 4 {
            case 0, 1:
                // A line (and for every other chart a gradient area under it) over 24 points.
                let n = 24
                var v = 0.5
                let pts: [Point] = (0..<n).map { i in
                    v = min(0.95, max(0.05, v + rng.range(-0.18, 0.18)))
                    return Point(plot.minX + plot.width * Double(i) / Double(n - 1), plot.maxY - plot.height * v)
                }
                let line = smooth(pts)
                if k % 4 == 1 {
                    var area = line
                    area.line(to: Point(plot.maxX, plot.maxY)); area.line(to: Point(plot.minX, plot.maxY)); area.close()
                    ops.append(.fill(area, .linearGradient(LinearGradient(start: Point(0, plot.maxY), end: Point(0, plot.minY),
                                                                          colors: [c0.opacity(0.05), c0.opacity(0.6)])), .nonZero, opacity: 1))
                }
                ops.append(.stroke(line, .linearGradient(LinearGradient(start: Point(plot.minX, 0), end: Point(plot.maxX, 0), colors: [c0, c1])),
                                   StrokeStyle(width: 3, cap: .round, join: .round), opacity: 1))
            case 2:
                // Capsule bars.
                let n = 12
                let slot = plot.width / Double(n)
                for i in 0..<n {
                    let h = plot.height * rng.range(0.15, 0.95)
                    ops.append(.fill(.capsule(in: Rect(x: plot.minX + slot * Double(i) + slot * 0.2, y: plot.maxY - h, width: slot * 0.6, height: h)),
                                     .linearGradient(LinearGradient(start: Point(0, plot.maxY), end: Point(0, plot.minY), colors: [c0, c1])),
                                     .nonZero, opacity: 1))
                }
            default:
                // A donut of five sectors with a thin white gap stroke.
                let center = Point(plot.midX, plot.midY), r = min(plot.width, plot.height) / 2
                var a = -Double.pi / 2
                let weights = (0..<5).map { _ in rng.range(0.5, 2) }
                let total = weights.reduce(0, +)
                for (i, w) in weights.enumerated() {
                    let b = a + 2 * Double.pi * w / total
                    let wedge = Path.wedge(center: center, radius: r, innerRadius: r * 0.55, startAngle: a, endAngle: b, clockwise: true)
                    ops.append(.fill(wedge, .solid(palette[(k + i) % palette.count]), .nonZero, opacity: 1))
                    ops.append(.stroke(wedge, .solid(.white), StrokeStyle(width: 2, join: .round), opacity: 1))
                    a = b
                }
            }
        }
        return DrawList(width: 1920, height: 1080, background: .white, frames: [ops])
    }

    // MARK: A 100,000-point line across a 4K frame

    static func line4K() -> DrawList {
        var rng = SplitMix(state: 7)
        let n = 100_000
        var p = Path()
        var v = 0.0
        for i in 0..<n {
            // A random walk on a slow wave: a noisy time series, the worst case a chart plots.
            v = v * 0.98 + rng.range(-1, 1) * 12
            let x = 40 + 3760 * Double(i) / Double(n - 1)
            let y = 1080 + 600 * sin(Double(i) / Double(n) * 2 * Double.pi * 3) + v
            if i == 0 { p.move(to: Point(x, y)) } else { p.line(to: Point(x, y)) }
        }
        let ops: [DrawOp] = [.transform(.identity),
                             .stroke(p, .solid(Color(hex: "#1F77B4")!), StrokeStyle(width: 2, cap: .round, join: .round), opacity: 1)]
        return DrawList(width: 3840, height: 2160, background: .white, frames: [ops])
    }

    // MARK: 200 overlapping semi-transparent gradient shapes

    static func fillHeavy() -> DrawList {
        var rng = SplitMix(state: 99)
        var ops: [DrawOp] = [.transform(.identity)]
        for i in 0..<200 {
            let cx = rng.range(0, 1920), cy = rng.range(0, 1080)
            let w = rng.range(120, 700), h = rng.range(120, 500)
            let r = Rect(x: cx - w / 2, y: cy - h / 2, width: w, height: h)
            let a = Color(r: rng.next(), g: rng.next(), b: rng.next(), a: rng.range(0.3, 0.7))
            let b = Color(r: rng.next(), g: rng.next(), b: rng.next(), a: rng.range(0.3, 0.7))
            let path: Path
            switch i % 3 {
            case 0: path = .ellipse(in: r)
            case 1: path = .roundedRect(r, cornerRadius: min(w, h) * 0.2)
            default: path = .rect(r)
            }
            let paint: Paint = i % 2 == 0
                ? .linearGradient(LinearGradient(start: Point(r.minX, r.minY), end: Point(r.maxX, r.maxY), colors: [a, b]))
                : .radialGradient(RadialGradient(center: Point(r.midX, r.midY), endRadius: max(w, h) / 2, stops: stops([a, b])))
            ops.append(.fill(path, paint, .nonZero, opacity: 1))
        }
        return DrawList(width: 1920, height: 1080, background: .white, frames: [ops])
    }
}
