#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A syntax error in SVG path data, with the character offset where it was found.
public struct SVGPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 0-based offset into the string.
    public var offset: Int
    /// What was wrong.
    public var message: String
    public var description: String { "SVG path data, character \(offset + 1): \(message)" }
}

extension Path {
    /// Parses SVG path data (`M 10 10 C 20 0, 40 0, 50 10 Z`): every command of SVG 1.1 in
    /// absolute and relative forms, implicit repeated commands, and elliptical arcs
    /// (converted to cubic Béziers of at most 90° each after the SVG implementation notes'
    /// endpoint-to-centre conversion, radii scaled up when too small).
    public init(svg data: String) throws {
        self.init()
        let s = Array(data.utf8)
        var i = 0
        func skipSeparators() {
            while i < s.count, s[i] == 0x20 || s[i] == 0x09 || s[i] == 0x0A || s[i] == 0x0D || s[i] == 0x2C { i += 1 }
        }
        func number() throws -> Double {
            skipSeparators()
            let start = i
            if i < s.count, s[i] == 0x2B || s[i] == 0x2D { i += 1 }
            var digits = 0
            while i < s.count, s[i] >= 0x30 && s[i] <= 0x39 { i += 1; digits += 1 }
            if i < s.count, s[i] == 0x2E { i += 1; while i < s.count, s[i] >= 0x30 && s[i] <= 0x39 { i += 1; digits += 1 } }
            guard digits > 0 else { throw SVGPathError(offset: start, message: "expected a number") }
            if i < s.count, s[i] == 0x65 || s[i] == 0x45 {
                let save = i
                i += 1
                if i < s.count, s[i] == 0x2B || s[i] == 0x2D { i += 1 }
                var e = 0
                while i < s.count, s[i] >= 0x30 && s[i] <= 0x39 { i += 1; e += 1 }
                if e == 0 { i = save }
            }
            guard let v = Double(String(decoding: s[start..<i], as: UTF8.self)), v.isFinite else {
                throw SVGPathError(offset: start, message: "number out of range")
            }
            return v
        }
        func flag() throws -> Bool {
            skipSeparators()
            guard i < s.count, s[i] == 0x30 || s[i] == 0x31 else { throw SVGPathError(offset: i, message: "expected an arc flag, 0 or 1") }
            defer { i += 1 }
            return s[i] == 0x31
        }
        var cur = Point.zero, start = Point.zero
        var lastControl: Point? = nil, lastQuad: Point? = nil
        var command: UInt8 = 0
        skipSeparators()
        while i < s.count {
            skipSeparators()
            guard i < s.count else { break }
            let c = s[i]
            if (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) {
                command = c; i += 1
            } else if command == 0 {
                throw SVGPathError(offset: i, message: "path data must start with a command such as M")
            } else if command == 0x4D { command = 0x4C } else if command == 0x6D { command = 0x6C }
            let rel = command >= 0x61
            let base = rel ? cur : .zero
            let upper = rel ? command - 0x20 : command
            if elements.isEmpty && upper != 0x4D { throw SVGPathError(offset: i - 1, message: "path data must start with M") }
            var control: Point? = nil, quadControl: Point? = nil
            switch upper {
            case 0x4D: // M
                let p = Point(try number(), try number()) + base
                move(to: p); cur = p; start = p
            case 0x4C: // L
                let p = Point(try number(), try number()) + base
                line(to: p); cur = p
            case 0x48: // H
                let x = try number() + (rel ? cur.x : 0)
                cur = Point(x, cur.y); line(to: cur)
            case 0x56: // V
                let y = try number() + (rel ? cur.y : 0)
                cur = Point(cur.x, y); line(to: cur)
            case 0x43: // C
                let c1 = Point(try number(), try number()) + base, c2 = Point(try number(), try number()) + base
                let p = Point(try number(), try number()) + base
                cubic(to: p, control1: c1, control2: c2); cur = p; control = c2
            case 0x53: // S
                let c1 = lastControl.map { cur * 2 - $0 } ?? cur
                let c2 = Point(try number(), try number()) + base, p = Point(try number(), try number()) + base
                cubic(to: p, control1: c1, control2: c2); cur = p; control = c2
            case 0x51: // Q
                let q = Point(try number(), try number()) + base, p = Point(try number(), try number()) + base
                quad(to: p, control: q); cur = p; quadControl = q
            case 0x54: // T
                let q = lastQuad.map { cur * 2 - $0 } ?? cur
                let p = Point(try number(), try number()) + base
                quad(to: p, control: q); cur = p; quadControl = q
            case 0x41: // A
                let rx = abs(try number()), ry = abs(try number()), rot = try number()
                let large = try flag(), sweep = try flag()
                let p = Point(try number(), try number()) + base
                appendSVGArc(from: cur, to: p, rx: rx, ry: ry, rotationDegrees: rot, largeArc: large, sweep: sweep)
                cur = p
            case 0x5A: // Z
                close(); cur = start
                lastControl = nil; lastQuad = nil
                continue
            default:
                throw SVGPathError(offset: i - 1, message: "unknown command '\(Character(Unicode.Scalar(c)))'")
            }
            lastControl = control; lastQuad = quadControl
        }
    }

    /// Appends an SVG elliptical arc from `a` to `b` as cubic pieces.
    mutating func appendSVGArc(from a: Point, to b: Point, rx rx0: Double, ry ry0: Double, rotationDegrees: Double, largeArc: Bool, sweep: Bool) {
        if a == b { return }
        var rx = rx0, ry = ry0
        if rx == 0 || ry == 0 { line(to: b); return }
        let phi = rotationDegrees * .pi / 180, cp = cos(phi), sp = sin(phi)
        let dx = (a.x - b.x) / 2, dy = (a.y - b.y) / 2
        let x1 = cp * dx + sp * dy, y1 = -sp * dx + cp * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { let k = lambda.squareRoot(); rx *= k; ry *= k }
        let num = max(0, rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1)
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var co = den > 0 ? (num / den).squareRoot() : 0
        if largeArc == sweep { co = -co }
        let cx1 = co * rx * y1 / ry, cy1 = -co * ry * x1 / rx
        let cx = cp * cx1 - sp * cy1 + (a.x + b.x) / 2, cy = sp * cx1 + cp * cy1 + (a.y + b.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double { atan2(ux * vy - uy * vx, ux * vx + uy * vy) }
        let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var dtheta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep && dtheta > 0 { dtheta -= 2 * .pi } else if sweep && dtheta < 0 { dtheta += 2 * .pi }
        let n = max(1, Int((abs(dtheta) / (.pi / 2)).rounded(.up)))
        let step = dtheta / Double(n)
        let k = 4.0 / 3.0 * tan(step / 4)
        func map(_ ux: Double, _ uy: Double) -> Point { Point(cx + rx * ux * cp - ry * uy * sp, cy + rx * ux * sp + ry * uy * cp) }
        var t = theta1
        for j in 0..<n {
            let c0 = cos(t), s0 = sin(t), t1 = t + step, c1 = cos(t1), s1 = sin(t1)
            let p1 = map(c0 - k * s0, s0 + k * c0), p2 = map(c1 + k * s1, s1 - k * c1)
            cubic(to: j == n - 1 ? b : map(c1, s1), control1: p1, control2: p2)
            t = t1
        }
    }
}
