// Easing written as text, as documents write it.
//
// Accepted, with whitespace anywhere between tokens:
//   - a name from Easing.names ("easeInOut", "easeOutBounce", "bouncy"),
//     case-sensitive as JSON keys are;
//   - CSS keywords: linear, ease, ease-in, ease-out, ease-in-out,
//     step-start, step-end;
//   - cubic-bezier(x1, y1, x2, y2) with x1 and x2 in 0...1 (CSS rejects the
//     rest; Easing.cubicBezier would clamp them, but text that asks for an x
//     outside is a mistake worth reporting);
//   - steps(n) and steps(n, position), position one of start, end,
//     jump-start, jump-end, jump-none, jump-both; n ≥ 1, or ≥ 2 for
//     jump-none;
//   - linear(stop, stop, …), each stop a number with up to two percentages
//     before or after it, at least two stops;
//   - SwiftUI's springs with labelled arguments, any omitted taking
//     SwiftUI's default: spring(duration: 0.5, bounce: 0.3),
//     spring(response: 0.5, dampingFraction: 0.825),
//     interpolatingSpring(mass: 1, stiffness: 170, damping: 15, initialVelocity: 0)
//     (stiffness and damping required).
// CSS keywords and function names are ASCII case-insensitive, as in CSS;
// spring labels are case-sensitive, as in Swift. Numbers are CSS numbers:
// optional sign, digits with an optional fraction, optional exponent.

extension Easing {
    /// The easing a string describes (see the forms above), or nil.
    public static func parse(_ text: String) -> Easing? {
        let trimmed = text.trimmingSpaces
        if let named = Easing(name: trimmed) { return named }
        guard let open = trimmed.firstIndex(of: "(") else {
            switch trimmed.lowercased() {
            case "linear": return .linear
            case "ease": return .ease
            case "ease-in": return .easeIn
            case "ease-out": return .easeOut
            case "ease-in-out": return .easeInOut
            case "step-start": return .steps(1, .jumpStart)
            case "step-end": return .steps(1, .jumpEnd)
            default: return nil
            }
        }
        guard trimmed.last == ")" else { return nil }
        let function = trimmed[..<open].trimmingSpaces
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        guard !inner.contains("("), !inner.contains(")") else { return nil }
        let arguments = inner.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        switch function {
        case "interpolatingSpring": return interpolatingSpring(arguments)
        case "spring": return spring(arguments)
        default: break
        }
        switch function.lowercased() {
        case "cubic-bezier": return cubicBezier(arguments)
        case "steps": return steps(arguments)
        case "linear": return piecewiseLinear(arguments)
        default: return nil
        }
    }

    private static func cubicBezier(_ arguments: [String]) -> Easing? {
        let numbers = arguments.compactMap(cssNumber)
        guard arguments.count == 4, numbers.count == 4,
              (0...1).contains(numbers[0]), (0...1).contains(numbers[2]) else { return nil }
        return .cubicBezier(numbers[0], numbers[1], numbers[2], numbers[3])
    }

    private static func steps(_ arguments: [String]) -> Easing? {
        guard (1...2).contains(arguments.count),
              arguments[0].allSatisfy({ $0.isASCII && $0.isNumber }) || arguments[0].first == "+",
              let count = Int(arguments[0]) else { return nil }
        var position = StepPosition.jumpEnd
        if arguments.count == 2 {
            switch arguments[1].lowercased() {
            case "start", "jump-start": position = .jumpStart
            case "end", "jump-end": position = .jumpEnd
            case "jump-none": position = .jumpNone
            case "jump-both": position = .jumpBoth
            default: return nil
            }
        }
        guard count >= (position == .jumpNone ? 2 : 1) else { return nil }
        return .steps(count, position)
    }

    private static func piecewiseLinear(_ arguments: [String]) -> Easing? {
        var stops: [PiecewiseLinear.Stop] = []
        for argument in arguments {
            let tokens = argument.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            guard (1...3).contains(tokens.count) else { return nil }
            // <number> && <percentage>{1,2}: the number first or last, the
            // percentages together.
            let numberFirst = !tokens[0].hasSuffix("%")
            let numberToken = numberFirst ? tokens[0] : tokens[tokens.count - 1]
            let percentTokens = numberFirst ? tokens.dropFirst() : tokens.dropLast()
            guard let output = cssNumber(numberToken) else { return nil }
            var inputs: [Double] = []
            for token in percentTokens {
                guard token.hasSuffix("%"), let percent = cssNumber(token.dropLast()) else { return nil }
                inputs.append(percent / 100)
            }
            stops.append(PiecewiseLinear.Stop(output, at: inputs.first, through: inputs.count > 1 ? inputs[1] : nil))
        }
        return PiecewiseLinear(stops).map { .piecewiseLinear($0) }
    }

    private static func spring(_ arguments: [String]) -> Easing? {
        if arguments == [""] { return .spring(Spring()) }
        guard let values = labelled(arguments, allowed: ["duration", "bounce", "response", "dampingFraction"]) else {
            return nil
        }
        let perceptual = values["duration"] != nil || values["bounce"] != nil
        let physical = values["response"] != nil || values["dampingFraction"] != nil
        if perceptual && physical { return nil }
        if physical {
            return .spring(Spring(response: values["response"] ?? 0.5,
                                  dampingFraction: values["dampingFraction"] ?? 0.825))
        }
        return .spring(Spring(duration: values["duration"] ?? 0.5, bounce: values["bounce"] ?? 0))
    }

    private static func interpolatingSpring(_ arguments: [String]) -> Easing? {
        guard let values = labelled(arguments, allowed: ["mass", "stiffness", "damping", "initialVelocity"]),
              let stiffness = values["stiffness"], let damping = values["damping"] else { return nil }
        return .spring(Spring(mass: values["mass"] ?? 1, stiffness: stiffness, damping: damping,
                              initialVelocity: values["initialVelocity"] ?? 0))
    }

    /// "label: number" arguments, each label allowed and given once.
    private static func labelled(_ arguments: [String], allowed: Set<String>) -> [String: Double]? {
        var values: [String: Double] = [:]
        for argument in arguments {
            guard let colon = argument.firstIndex(of: ":") else { return nil }
            let label = argument[..<colon].trimmingSpaces
            guard allowed.contains(label), values[label] == nil,
                  let value = cssNumber(argument[argument.index(after: colon)...].trimmingSpaces) else { return nil }
            values[label] = value
        }
        return values
    }

    /// A CSS <number>: [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?,
    /// finite. Swift's Double(String) alone would also take "nan", "inf" and hex.
    static func cssNumber<S: StringProtocol>(_ text: S) -> Double? {
        var chars = Array(text.utf8)[...]
        func digits() -> Int {
            var n = 0
            while let c = chars.first, c >= 48, c <= 57 { chars = chars.dropFirst(); n += 1 }
            return n
        }
        if let c = chars.first, c == 43 || c == 45 { chars = chars.dropFirst() }
        var mantissa = digits()
        if chars.first == 46 {
            chars = chars.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if let c = chars.first, c == 101 || c == 69 {
            chars = chars.dropFirst()
            if let s = chars.first, s == 43 || s == 45 { chars = chars.dropFirst() }
            guard digits() > 0 else { return nil }
        }
        guard chars.isEmpty, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }
}

extension StringProtocol {
    /// The text without leading and trailing ASCII whitespace (Foundation-free).
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }),
              let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
