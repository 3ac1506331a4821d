#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Raster
import Scene

/// The shape of a point (Swift Charts' `BasicChartSymbolShape`): five filled outlines and
/// three made of strokes.
public enum PointSymbol: String, Hashable, Sendable, CaseIterable {
    case circle, square, triangle, diamond, pentagon, plus, cross, asterisk

    /// The order a `symbol(by:)` encoding hands symbols out in, as Swift Charts does.
    public static let cycle: [PointSymbol] = [.circle, .square, .triangle, .diamond, .pentagon, .plus, .cross, .asterisk]

    /// Whether the symbol is drawn as strokes (plus, cross, asterisk) rather than filled.
    public var isStroked: Bool { self == .plus || self == .cross || self == .asterisk }

    /// The symbol `size` pixels across, centred on `c`: an outline to fill, or for a
    /// stroked symbol the lines to stroke.
    public func path(center c: Point, size: Double) -> Path {
        let r = size / 2
        guard r > 0, r.isFinite, c.isFinite else { return Path() }
        func polygon(_ n: Int, _ radius: Double, rotation: Double = -Double.pi / 2) -> Path {
            var p = Path()
            for k in 0..<n {
                let a = rotation + Double(k) * 2 * .pi / Double(n)
                let q = Point(c.x + radius * cos(a), c.y + radius * sin(a))
                if k == 0 { p.move(to: q) } else { p.line(to: q) }
            }
            p.close()
            return p
        }
        func spokes(_ angles: [Double]) -> Path {
            var p = Path()
            for a in angles {
                p.move(to: Point(c.x - r * cos(a), c.y - r * sin(a)))
                p.line(to: Point(c.x + r * cos(a), c.y + r * sin(a)))
            }
            return p
        }
        switch self {
        case .circle: return .circle(center: c, radius: r)
        // Squares and diamonds of the circle's area look the same size as it.
        case .square: let h = r * 0.886; return .rect(Rect(x: c.x - h, y: c.y - h, width: 2 * h, height: 2 * h))
        case .diamond: return polygon(4, r * 1.15)
        case .triangle: return polygon(3, r * 1.2)
        case .pentagon: return polygon(5, r * 1.05)
        case .plus: return spokes([0, .pi / 2])
        case .cross: return spokes([.pi / 4, 3 * .pi / 4])
        case .asterisk: return spokes([.pi / 2, .pi / 2 + .pi / 3, .pi / 2 + 2 * .pi / 3])
        }
    }
}

extension ChartSpec {
    /// Dots turned into symbols: node `i` of `dots` (circles as `dotNodes` draws them)
    /// becomes `symbol(i)` of the same size and centre, following the circle when it moves.
    func symbolNodes(_ dots: [Node], size sizes: (Int) -> Double, symbol: (Int) -> PointSymbol) -> [Node] {
        dots.enumerated().map { i, n in
            let s = symbol(i), size = sizes(i)
            guard s != .circle, case .shape(var node) = n else { return n }
            @Sendable func reshape(_ circle: Path) -> Path {
                let b = circle.controlBounds
                return circle.isEmpty ? circle : s.path(center: Point(b.midX, b.midY), size: size)
            }
            node.path = reshape(node.path)
            if let moving = node.dynamicPath { node.dynamicPath = { t in reshape(moving(t)) } }
            if s.isStroked, let fill = node.fill {
                node.stroke = (fill.paint, StrokeStyle(width: max(1, size / 5), cap: .butt))
                node.fill = nil
            }
            return .shape(node)
        }
    }

    /// The symbol of each element: the given one, or one per value of `field` in the
    /// order the values first appear (or the chart's order for the field).
    func symbols(_ els: [MarkElement], field: String?, fixed: PointSymbol) -> [PointSymbol] {
        guard let field else { return els.map { _ in fixed } }
        var order: [String: Int] = [:]
        for (k, v) in (fieldOrders[field] ?? []).enumerated() where order[v] == nil { order[v] = k }
        for r in data { let k = key(r[field]); if order[k] == nil { order[k] = order.count } }
        return els.map { PointSymbol.cycle[(order[key(data[$0.row][field])] ?? 0) % PointSymbol.cycle.count] }
    }
}
