import Raster
import Scene

extension Color {
    /// The colour a `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` literal names, as documents
    /// write colours. A malformed literal is a programming error and stops the program
    /// with the literal in the message, as a malformed regex literal would.
    public static func hex(_ literal: String) -> Color {
        guard let c = Color(hex: literal) else {
            preconditionFailure("Color.hex: \"\(literal)\" is not a colour; expected #RGB, #RGBA, #RRGGBB or #RRGGBBAA")
        }
        return c
    }

    // SwiftUI's system colours (light appearance), so code written against SwiftUI reads
    // the same here.

    /// SwiftUI's red, #FF3B30.
    public static let red = Color(r8: 255, g8: 59, b8: 48)
    /// SwiftUI's orange, #FF9500.
    public static let orange = Color(r8: 255, g8: 149, b8: 0)
    /// SwiftUI's yellow, #FFCC00.
    public static let yellow = Color(r8: 255, g8: 204, b8: 0)
    /// SwiftUI's green, #34C759.
    public static let green = Color(r8: 52, g8: 199, b8: 89)
    /// SwiftUI's mint, #00C7BE.
    public static let mint = Color(r8: 0, g8: 199, b8: 190)
    /// SwiftUI's teal, #30B0C7.
    public static let teal = Color(r8: 48, g8: 176, b8: 199)
    /// SwiftUI's cyan, #32ADE6.
    public static let cyan = Color(r8: 50, g8: 173, b8: 230)
    /// SwiftUI's blue, #007AFF.
    public static let blue = Color(r8: 0, g8: 122, b8: 255)
    /// SwiftUI's indigo, #5856D6.
    public static let indigo = Color(r8: 88, g8: 86, b8: 214)
    /// SwiftUI's purple, #AF52DE.
    public static let purple = Color(r8: 175, g8: 82, b8: 222)
    /// SwiftUI's pink, #FF2D55.
    public static let pink = Color(r8: 255, g8: 45, b8: 85)
    /// SwiftUI's brown, #A2845E.
    public static let brown = Color(r8: 162, g8: 132, b8: 94)
    /// SwiftUI's gray, #8E8E93.
    public static let gray = Color(r8: 142, g8: 142, b8: 147)
}

extension NodePaint {
    /// A linear gradient through `colors`, evenly spaced, from one point of the mark's
    /// frame to another (SwiftUI's `.linearGradient(colors:startPoint:endPoint:)`);
    /// leading to trailing by default.
    public static func linearGradient(_ colors: [Color], from start: PaintPoint = .leading, to end: PaintPoint = .trailing) -> NodePaint {
        let n = colors.count
        let stops = colors.enumerated().map { GradientStop(offset: n > 1 ? Double($0.offset) / Double(n - 1) : 0, color: $0.element) }
        return .linear(stops: stops, from: start, to: end)
    }

    /// A linear gradient with explicit stops.
    public static func linearGradient(stops: [GradientStop], from start: PaintPoint = .leading, to end: PaintPoint = .trailing) -> NodePaint {
        .linear(stops: stops, from: start, to: end)
    }
}
