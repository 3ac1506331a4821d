#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small arithmetic expression over a row's fields, for `calculate`: numbers, fields,
/// `+ - * / %`, unary minus, parentheses and a few functions (`abs`, `ceil`, `floor`,
/// `round`, `sqrt`, `exp`, `ln`, `log10`, `min`, `max`, `pow`).
///
/// ```
/// value / 1000        high - low        round(temp_max * 9 / 5 + 32)        `Wind speed` * 3.6
/// ```
///
/// A field is a name of letters, digits and `_` (not starting with a digit), or any text
/// between backquotes. There are no variables, loops, strings or calls beyond the list, so
/// a document cannot run code: an expression is parsed once into a tree and evaluated per
/// row. A row missing a field, a division by zero or a result that is not finite gives a
/// missing value (the row is left without the field), as a spreadsheet leaves a blank.
public struct FieldExpression: Sendable, Hashable, CustomStringConvertible {
    /// A parsed expression.
    indirect enum Node: Sendable, Hashable {
        case number(Double)
        case field(String)
        case negate(Node)
        case binary(Character, Node, Node)
        case call(String, [Node])
    }

    /// A syntax error at a 1-based line and column (in characters) of the expression.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var message: String
        /// `1:9: expected …`.
        public var description: String { "\(line):\(column): \(message)" }
    }

    /// The functions and how many arguments each takes.
    public static let functions: [String: Int] = [
        "abs": 1, "ceil": 1, "floor": 1, "round": 1, "sqrt": 1, "exp": 1, "ln": 1, "log10": 1,
        "min": 2, "max": 2, "pow": 2,
    ]

    /// The text as written.
    public let source: String
    let root: Node
    /// The fields the expression reads, in order of first use.
    public let fields: [String]

    public var description: String { source }

    /// Parses `source`.
    /// - Throws: `SyntaxError` at the first character that does not fit.
    public init(_ source: String) throws(SyntaxError) {
        var parser = Parser(Array(source))
        let root = try parser.expression()
        try parser.end()
        self.source = source
        self.root = root
        var seen: [String] = []
        func collect(_ n: Node) {
            switch n {
            case .number: break
            case .field(let f): if !seen.contains(f) { seen.append(f) }
            case .negate(let a): collect(a)
            case .binary(_, let a, let b): collect(a); collect(b)
            case .call(_, let args): args.forEach(collect)
            }
        }
        collect(root)
        fields = seen
    }

    /// Why a row could not be evaluated.
    public enum Failure: Error, Sendable {
        /// The field holds text, not a number.
        case text(field: String, value: String)
    }

    /// The value for `row`; nil when a field is missing or the result is not finite.
    public func evaluate<R: FieldLookup>(_ row: R) throws(Failure) -> Double? {
        let v = try Self.eval(root, row)
        guard let v, v.isFinite else { return nil }
        return v
    }

    static func eval<R: FieldLookup>(_ n: Node, _ row: R) throws(Failure) -> Double? {
        switch n {
        case .number(let v): return v
        case .field(let f):
            switch row[f] {
            case .number(let v)?: return v
            case .string(let s)?: throw .text(field: f, value: s)
            case nil: return nil
            }
        case .negate(let a): return try eval(a, row).map { -$0 }
        case .binary(let op, let a, let b):
            guard let x = try eval(a, row), let y = try eval(b, row) else { return nil }
            switch op {
            case "+": return x + y
            case "-": return x - y
            case "*": return x * y
            case "/": return y == 0 ? nil : x / y
            default: return y == 0 ? nil : fmod(x, y)
            }
        case .call(let name, let args):
            var values: [Double] = []
            for a in args { guard let v = try eval(a, row) else { return nil }; values.append(v) }
            switch name {
            case "abs": return abs(values[0])
            case "ceil": return values[0].rounded(.up)
            case "floor": return values[0].rounded(.down)
            case "round": return values[0].rounded(.toNearestOrAwayFromZero)
            case "sqrt": return values[0] < 0 ? nil : values[0].squareRoot()
            case "exp": return exp(values[0])
            case "ln": return values[0] <= 0 ? nil : log(values[0])
            case "log10": return values[0] <= 0 ? nil : log10(values[0])
            case "min": return Swift.min(values[0], values[1])
            case "max": return Swift.max(values[0], values[1])
            default: return pow(values[0], values[1])
            }
        }
    }

    /// A recursive-descent parser: expression := term (("+" | "-") term)*,
    /// term := unary (("*" | "/" | "%") unary)*, unary := "-" unary | "+" unary | primary,
    /// primary := number | field | function "(" arguments ")" | "(" expression ")".
    struct Parser {
        let chars: [Character]
        var i = 0
        var depth = 0
        init(_ chars: [Character]) { self.chars = chars }

        /// The line and column of character `k`.
        func position(_ k: Int) -> (Int, Int) {
            var line = 1, column = 1
            for c in chars[..<min(k, chars.count)] {
                if c == "\n" || c == "\r\n" || c == "\r" { line += 1; column = 1 } else { column += 1 }
            }
            return (line, column)
        }

        func error(_ message: String, at k: Int? = nil) -> SyntaxError {
            let (l, c) = position(k ?? i)
            return SyntaxError(line: l, column: c, message: message)
        }

        /// What is at the cursor, for messages.
        var found: String {
            skipSpaceCopy() < chars.count ? "\"\(chars[skipSpaceCopy()])\"" : "the end of the expression"
        }

        func skipSpaceCopy() -> Int {
            var k = i
            while k < chars.count && chars[k].isWhitespace { k += 1 }
            return k
        }

        mutating func skipSpace() { i = skipSpaceCopy() }

        mutating func peek() -> Character? { skipSpace(); return i < chars.count ? chars[i] : nil }

        mutating func end() throws(SyntaxError) {
            guard let c = peek() else { return }
            if c == ")" { throw error("a \")\" without its \"(\"") }
            throw error("expected an operator (+ - * / %) or the end of the expression, found \"\(c)\"")
        }

        mutating func expression() throws(SyntaxError) -> Node {
            depth += 1
            defer { depth -= 1 }
            if depth > 200 { throw error("the expression nests more than 200 levels deep") }
            var left = try term()
            while let c = peek(), c == "+" || c == "-" {
                i += 1
                left = .binary(c, left, try term(after: c))
            }
            return left
        }

        mutating func term(after op: Character? = nil) throws(SyntaxError) -> Node {
            var left = try unary(after: op)
            while let c = peek(), c == "*" || c == "/" || c == "%" {
                i += 1
                left = .binary(c, left, try unary(after: c))
            }
            return left
        }

        mutating func unary(after op: Character?) throws(SyntaxError) -> Node {
            guard let c = peek() else {
                throw error(op.map { "expected a number, a field or \"(\" after \"\($0)\", found the end of the expression" }
                            ?? "expected a number, a field or \"(\", found the end of the expression")
            }
            if c == "-" || c == "+" {
                i += 1
                depth += 1
                defer { depth -= 1 }
                if depth > 200 { throw error("the expression nests more than 200 levels deep") }
                let operand = try unary(after: c)
                return c == "-" ? .negate(operand) : operand
            }
            return try primary(after: op)
        }

        mutating func primary(after op: Character?) throws(SyntaxError) -> Node {
            skipSpace()
            let start = i
            let c = chars[i]
            if c == "(" {
                i += 1
                let inner = try expression()
                guard peek() == ")" else { throw error("expected \")\" to close the \"(\" at \(describe(start)), found \(found)") }
                i += 1
                return inner
            }
            if c.isASCII && (c.isNumber || c == ".") { return .number(try number()) }
            if c == "`" {
                i += 1
                var name = ""
                while i < chars.count && chars[i] != "`" { name.append(chars[i]); i += 1 }
                guard i < chars.count else { throw error("a field name opened with \"`\" at \(describe(start)) is not closed", at: start) }
                i += 1
                if name.isEmpty { throw error("expected a field name between the backquotes", at: start) }
                return .field(name)
            }
            if c.isLetter || c == "_" {
                var name = ""
                while i < chars.count && (chars[i].isLetter || chars[i].isNumber || chars[i] == "_") { name.append(chars[i]); i += 1 }
                if peek() == "(" {
                    guard let arity = FieldExpression.functions[name] else {
                        throw error("unknown function \"\(name)\"; the functions are "
                                    + FieldExpression.functions.keys.sorted().joined(separator: ", "), at: start)
                    }
                    i += 1
                    var args: [Node] = []
                    if peek() != ")" {
                        args.append(try expression())
                        while peek() == "," { i += 1; args.append(try expression()) }
                    }
                    guard peek() == ")" else { throw error("expected \",\" or \")\" in the arguments of \(name), found \(found)") }
                    i += 1
                    if args.count != arity {
                        throw error("\(name) takes \(arity) argument\(arity == 1 ? "" : "s"), found \(args.count)", at: start)
                    }
                    return .call(name, args)
                }
                return .field(name)
            }
            let what = op.map { "after \"\($0)\"" } ?? "at the start"
            throw error("expected a number, a field or \"(\" \(what), found \"\(c)\"")
        }

        mutating func number() throws(SyntaxError) -> Double {
            let start = i
            while i < chars.count && chars[i].isASCII && (chars[i].isNumber || chars[i] == ".") { i += 1 }
            if i < chars.count && (chars[i] == "e" || chars[i] == "E") {
                var k = i + 1
                if k < chars.count && (chars[k] == "+" || chars[k] == "-") { k += 1 }
                if k < chars.count && chars[k].isASCII && chars[k].isNumber {
                    i = k
                    while i < chars.count && chars[i].isASCII && chars[i].isNumber { i += 1 }
                }
            }
            let text = String(chars[start..<i])
            guard let v = Double(text), v.isFinite else { throw error("\"\(text)\" is not a number", at: start) }
            if i < chars.count && (chars[i].isLetter || chars[i] == "_") {
                throw error("a number followed by \"\(chars[i])\"; a field name cannot start with a digit (write it between backquotes)", at: i)
            }
            return v
        }

        func describe(_ k: Int) -> String { let (l, c) = position(k); return "\(l):\(c)" }
    }
}
