// Fuzz target: the rasterizer and the geometry under it.
//
// The input is a little drawing program (FuzzInput): a canvas of up to 64×64 pixels,
// then up to 48 operations — save/restore, random transforms (including singular,
// NaN and 1e308 ones), clips, opacity layers, fills and strokes of random paths
// (lines, quads, cubics, closes, SwiftUI shapes, SVG path data) with random paints
// (solid, linear gradients with random stops), fill rules, stroke styles (caps, joins,
// miter limits, dashes and phases), curve tolerances, and trims (SwiftUI and Lottie).
// Besides not crashing, the result must be a valid premultiplied image: every colour
// channel at most its alpha.
import Geometry
import Raster
import Glibc

/// FUZZ_TRACE=1 prints each operation, to turn a crash input into a regression test.
let trace = getenv("FUZZ_TRACE") != nil

func log(_ items: Any...) {
    if trace { fputs(items.map { "\($0)" }.joined(separator: " ") + "\n", stderr) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let w = 1 + input.int(below: 64), h = 1 + input.int(below: 64)
    let canvas = Canvas(width: w, height: h, background: input.bool() ? .white : .clear)
    log("canvas", w, h)
    var layers = 0
    for _ in 0..<48 {
        if input.isAtEnd { break }
        switch input.int(below: 12) {
        case 0: canvas.save(); log("save")
        case 1: canvas.restore(); log("restore")
        case 2:
            let t = transform(&input)
            log("concatenate", t)
            canvas.concatenate(t)
        case 3:
            let r = Rect(x: input.coordinate(), y: input.coordinate(), width: input.coordinate(), height: input.coordinate())
            log("clip", r)
            canvas.clip(to: r)
        case 4:
            let rule: FillRule = input.bool() ? .evenOdd : .nonZero
            let p = path(&input), pt = paint(&input), o = opacity(&input)
            log("fill", p, pt, rule, o)
            canvas.fill(p, paint: pt, rule: rule, opacity: o)
        case 5, 6:
            let p = path(&input), s = strokeStyle(&input), pt = paint(&input), o = opacity(&input)
            log("stroke", p, s, pt, o)
            canvas.stroke(p, style: s, paint: pt, opacity: o)
        case 7:
            if layers < 4 {
                let o = opacity(&input)
                log("beginLayer", o)
                canvas.beginLayer(opacity: o); layers += 1
            }
        case 8:
            if layers > 0 { log("endLayer"); canvas.endLayer(); layers -= 1 }
        case 9:
            canvas.tolerance = input.int(below: 4) == 0 ? input.double() : 0.1
            log("tolerance", canvas.tolerance)
        case 10:
            let p = path(&input)
            let m = PathMeasure(p)
            let d = input.double()
            _ = m.position(atDistance: d)
            let trimmed: Path
            if input.bool() {
                let a = input.double(), b = input.double()
                log("trim", p, a, b)
                trimmed = m.trimmed(from: a, to: b)
            } else {
                let a = input.double(), b = input.double(), o = input.double()
                log("lottie trim", p, a, b, o)
                trimmed = m.trimmed(start: a, end: b, offset: o)
            }
            let s = strokeStyle(&input), pt = paint(&input)
            log("stroke trimmed", trimmed, s, pt)
            canvas.stroke(trimmed, style: s, paint: pt)
        default:
            let p = path(&input), t = transform(&input), pt = paint(&input)
            log("fill applying", p, t, pt)
            canvas.fill(p.applying(t), paint: pt)
        }
    }
    while layers > 0 { canvas.endLayer(); layers -= 1 }
    let p = canvas.pixmap
    for y in 0..<p.height {
        for x in 0..<p.width {
            let px = p.pixel(x, y)
            if px.r > px.a || px.g > px.a || px.b > px.a {
                fatalError("pixel (\(x), \(y)) is not premultiplied: \(px)")
            }
        }
    }
    return 0
}

func point(_ input: inout FuzzInput) -> Point { Point(input.coordinate(), input.coordinate()) }

func opacity(_ input: inout FuzzInput) -> Double {
    input.int(below: 4) == 0 ? input.double() : Double(input.u8()) / 255
}

func transform(_ input: inout FuzzInput) -> Transform {
    switch input.int(below: 5) {
    case 0: return .translation(input.coordinate(), input.coordinate())
    case 1: return .scale(input.double(), input.double())
    case 2: return .rotation(input.double())
    case 3: return .scale(Double(input.u8()) / 64, Double(input.u8()) / 64)
    default:
        return Transform(a: input.double(), b: input.double(), c: input.double(), d: input.double(),
                         tx: input.coordinate(), ty: input.coordinate())
    }
}

func color(_ input: inout FuzzInput) -> Color {
    if input.int(below: 8) == 0 {
        return Color(r: input.double(), g: input.double(), b: input.double(), a: input.double())
    }
    return Color(r8: input.u8(), g8: input.u8(), b8: input.u8(), a8: input.u8())
}

func paint(_ input: inout FuzzInput) -> Paint {
    if input.bool() { return .solid(color(&input)) }
    let n = input.int(below: 6)
    var stops: [GradientStop] = []
    for _ in 0..<n {
        let offset = input.bool() ? Double(input.u8()) / 255 : input.double()
        stops.append(GradientStop(offset: offset, color: color(&input)))
    }
    return .linearGradient(LinearGradient(start: point(&input), end: point(&input), stops: stops))
}

func strokeStyle(_ input: inout FuzzInput) -> StrokeStyle {
    let width = input.int(below: 4) == 0 ? input.double() : Double(input.u8()) / 16
    let cap = LineCap.allCases[input.int(below: 3)]
    let join = LineJoin.allCases[input.int(below: 3)]
    let miter = input.int(below: 4) == 0 ? input.double() : 10
    var dash: [Double] = []
    if input.bool() {
        for _ in 0..<input.int(below: 5) {
            dash.append(input.int(below: 4) == 0 ? input.double() : Double(input.u8()) / 8)
        }
    }
    let phase = dash.isEmpty ? 0 : input.double()
    return StrokeStyle(width: width, cap: cap, join: join, miterLimit: miter, dash: dash, dashPhase: phase)
}

func rect(_ input: inout FuzzInput) -> Rect {
    Rect(x: input.coordinate(), y: input.coordinate(), width: input.coordinate(), height: input.coordinate())
}

func path(_ input: inout FuzzInput) -> Path {
    switch input.int(below: 8) {
    case 0:
        return .roundedRect(rect(&input), cornerRadius: input.coordinate(),
                            style: input.bool() ? .circular : .continuous)
    case 1: return .capsule(in: rect(&input))
    case 2: return .ellipse(in: rect(&input))
    case 3:
        return .arc(center: point(&input), radius: input.coordinate(), startAngle: input.double(),
                    endAngle: input.double(), clockwise: input.bool())
    case 4:
        return .wedge(center: point(&input), radius: input.coordinate(), innerRadius: input.coordinate(),
                      startAngle: input.double(), endAngle: input.double(), clockwise: input.bool())
    case 5:
        return (try? Path(svg: input.string(max: 64))) ?? Path()
    default:
        var p = Path()
        for _ in 0..<input.int(below: 24) {
            switch input.int(below: 6) {
            case 0: p.move(to: point(&input))
            case 1, 2: p.line(to: point(&input))
            case 3: p.quad(to: point(&input), control: point(&input))
            case 4: p.cubic(to: point(&input), control1: point(&input), control2: point(&input))
            default: p.close()
            }
        }
        return p
    }
}
