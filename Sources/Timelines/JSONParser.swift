// A strict RFC 8259 JSON parser over UTF-8 bytes that records locations.
//
// Strict means: no comments, no trailing commas, no single quotes, no NaN or
// Infinity, no leading zeros or '+', well-formed UTF-8 and surrogate pairs only,
// exactly one value per text. Documents are written by hand, so each of these
// gets a message that names the mistake rather than the grammar rule.
//
// The parser is iterative: open arrays and objects live on an explicit stack,
// not the call stack, so nesting depth is bounded by `JSONParser.maxDepth` and
// never by the thread's stack size (rendering threads may have small stacks).
// Line and column are tracked incrementally (line start offset, plus the number
// of UTF-8 continuation bytes seen on the line, which can only occur inside
// strings), so recording a location costs a subtraction, not a rescan.
// Numbers take Clinger's fast path (integer mantissa <= 2^53 and |exponent|
// <= 22 convert exactly with one multiplication or division) and otherwise the
// standard library's correctly rounded conversion.

/// Parses JSON text into a `JSONNode` tree.
public enum JSONParser {
    /// The deepest nesting of arrays and objects accepted. Deeper texts fail with
    /// `JSONSyntaxError.Kind.nestingTooDeep`; no timeline needs a tenth of this.
    public static let maxDepth = 512

    /// Parses one JSON value from UTF-8 `bytes`, which may start with a byte order mark.
    /// The node refers to a tape that keeps `bytes` (JSONTape.swift).
    /// - Throws: `JSONSyntaxError` at the first problem.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        JSONNode(try parseDocument(bytes), 0)
    }

    /// Parses `bytes` onto a tape.
    static func parseDocument(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONDocument {
        let result: Result<JSONDocument, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(buffer)
            do throws(JSONSyntaxError) {
                try parser.parseDocument()
                return .success(JSONDocument(source: bytes, words: parser.words, map: parser.map))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses one JSON value from `text`.
    /// - Throws: `JSONSyntaxError` at the first problem.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        try parse(Array(text.utf8))
    }
}

// MARK: - Byte constants

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")
private let comma = UInt8(ascii: ",")
private let colon = UInt8(ascii: ":")
private let openBracket = UInt8(ascii: "[")
private let closeBracket = UInt8(ascii: "]")
private let openBrace = UInt8(ascii: "{")
private let closeBrace = UInt8(ascii: "}")
private let minus = UInt8(ascii: "-")
private let plus = UInt8(ascii: "+")
private let dot = UInt8(ascii: ".")
private let zero = UInt8(ascii: "0")
private let nine = UInt8(ascii: "9")

@inline(__always) private func isDigit(_ b: UInt8) -> Bool { b &- zero < 10 }

@inline(__always) private func isWordByte(_ b: UInt8) -> Bool {
    (b | 0x20) &- UInt8(ascii: "a") < 26 || isDigit(b) || b == UInt8(ascii: "_")
}

/// Powers of ten exactly representable as `Double`.
private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

// MARK: - Parser

/// An array or object whose closing bracket has not been reached yet.
private struct Frame {
    let isObject: Bool
    /// The tape index of its header.
    let header: Int
    /// Elements or members so far.
    var count = 0
    /// The tape index of the key of the member being parsed (objects only).
    var key = 0
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var pos = 0
    var line = 1
    /// Byte offset where the current line starts.
    var lineStart = 0
    /// UTF-8 continuation bytes between `lineStart` and `pos`.
    var lineExtra = 0
    var stack: [Frame] = []
    /// True between a value and the separator after it: errors then belong to
    /// the enclosing container (the stack's top) rather than to its next child.
    var betweenValues = false
    /// The tape being written, and the line checkpoints.
    let words = TapeWords()
    var map = SourceMap()
    var nextCheckpoint = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            pos = 3
            lineStart = 3
        }
        checkpoint()
    }

    /// Leaves a line checkpoint at `pos` when the last is `SourceMap.spacing` bytes back.
    @inline(__always) mutating func checkpoint() {
        guard pos >= nextCheckpoint else { return }
        map.record(offset: pos, line: line, column: pos &- lineStart &- lineExtra &+ 1)
        nextCheckpoint = pos &+ SourceMap.spacing
    }

    var location: SourceLocation {
        SourceLocation(line: line, column: pos &- lineStart &- lineExtra &+ 1)
    }

    var path: JSONPath {
        var components: [JSONPath.Component] = []
        let frames = betweenValues ? stack.dropLast() : stack[...]
        components.reserveCapacity(frames.count)
        for frame in frames {
            components.append(frame.isObject ? .key(Tape.string(words[frame.key], in: bytes)) : .index(frame.count))
        }
        return JSONPath(components)
    }

    func error(_ kind: JSONSyntaxError.Kind, at location: SourceLocation) -> JSONSyntaxError {
        JSONSyntaxError(kind: kind, location: location, path: path)
    }

    @inline(__always) mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09:
                pos &+= 1
            case 0x0A:
                pos &+= 1
                newLine()
            case 0x0D:
                pos &+= 1
                if pos < bytes.count, bytes[pos] == 0x0A { pos &+= 1 }
                newLine()
            default:
                return
            }
        }
    }

    @inline(__always) mutating func newLine() {
        line &+= 1
        lineStart = pos
        lineExtra = 0
    }

    // MARK: Structure

    mutating func parseDocument() throws(JSONSyntaxError) {
        guard bytes.count < Tape.maxSourceBytes else {
            throw error(.documentTooLarge, at: location)
        }
        try parseValue()
        skipWhitespace()
        if pos < bytes.count {
            throw unexpected(expected: "end of input after the document's value")
        }
    }

    /// Writes a container's second word once its children are on the tape.
    mutating func close(_ frame: Frame) throws(JSONSyntaxError) {
        guard words.count <= Tape.maxWords else { throw error(.documentTooLarge, at: location) }
        words[frame.header &+ 1] = UInt64(frame.count) | UInt64(words.count) << 32
    }

    /// Parses one value onto the tape, iteratively: containers are pushed on `stack`
    /// as they open and closed on the tape when their closing bracket comes.
    mutating func parseValue() throws(JSONSyntaxError) {
        next: while true {
            betweenValues = false
            // Descend: open containers until a scalar or an empty container.
            descend: while true {
                skipWhitespace()
                guard pos < bytes.count else {
                    throw error(.unexpectedEndOfInput(expected: "a value"), at: location)
                }
                checkpoint()
                let start = pos
                switch bytes[pos] {
                case openBracket, openBrace:
                    let isObject = bytes[pos] == openBrace
                    guard stack.count < JSONParser.maxDepth else {
                        throw error(.nestingTooDeep(limit: JSONParser.maxDepth), at: location)
                    }
                    let frame = Frame(isObject: isObject, header: words.count)
                    words.append(Tape.word(isObject ? .object : .array, offset: start))
                    words.append(0)
                    pos &+= 1
                    skipWhitespace()
                    if pos < bytes.count, bytes[pos] == (isObject ? closeBrace : closeBracket) {
                        pos &+= 1
                        try close(frame)
                        break descend
                    }
                    var opened = frame
                    if isObject { opened.key = try parseKey(expected: "a string key or '}'") }
                    stack.append(opened)
                default:
                    try parseScalar()
                    break descend
                }
            }
            // Ascend: count the value in its container; close containers that end.
            betweenValues = true
            while !stack.isEmpty {
                let top = stack.count &- 1
                skipWhitespace()
                let isObject = stack[top].isObject
                let closing = isObject ? closeBrace : closeBracket
                let what = isObject ? "',' or '}' after object member" : "',' or ']' after array element"
                guard pos < bytes.count else {
                    throw error(.unexpectedEndOfInput(expected: what), at: location)
                }
                switch bytes[pos] {
                case comma:
                    let commaLocation = location
                    pos &+= 1
                    skipWhitespace()
                    if pos < bytes.count, bytes[pos] == closing {
                        throw error(.trailingComma(before: isObject ? "}" : "]"), at: commaLocation)
                    }
                    if isObject {
                        // Between values, an error in the key is reported at the object.
                        let key = try parseKey(expected: "a string key")
                        stack[top].key = key
                    }
                    stack[top].count &+= 1
                    continue next
                case closing:
                    pos &+= 1
                    stack[top].count &+= 1
                    try close(stack.removeLast())
                default:
                    throw unexpected(expected: what)
                }
            }
            return
        }
    }

    /// Parses `"key"` and the `:` after it, whitespace around both included, and
    /// returns the key's tape index.
    mutating func parseKey(expected: String) throws(JSONSyntaxError) -> Int {
        skipWhitespace()
        guard pos < bytes.count else {
            throw error(.unexpectedEndOfInput(expected: expected), at: location)
        }
        guard bytes[pos] == quote else {
            throw unexpected(expected: expected, atKey: true)
        }
        checkpoint()
        let key = words.count
        try parseString()
        skipWhitespace()
        guard pos < bytes.count else {
            throw error(.unexpectedEndOfInput(expected: "':' after object key"), at: location)
        }
        guard bytes[pos] == colon else {
            throw unexpected(expected: "':' after object key")
        }
        pos &+= 1
        return key
    }

    mutating func parseScalar() throws(JSONSyntaxError) {
        let b = bytes[pos]
        switch b {
        case quote:
            try parseString()
        case minus, zero...nine:
            try parseNumber()
        case plus:
            throw error(.invalidNumber(reason: "a leading '+' is not allowed"), at: location)
        case dot:
            throw error(.invalidNumber(reason: "a digit is required before '.'"), at: location)
        default:
            if isWordByte(b) {
                let begin = pos
                while pos < bytes.count, isWordByte(bytes[pos]) { pos &+= 1 }
                let word = bytes[begin..<pos]
                if word.elementsEqual("true".utf8) { words.append(Tape.word(.true, offset: begin)); return }
                if word.elementsEqual("false".utf8) { words.append(Tape.word(.false, offset: begin)); return }
                if word.elementsEqual("null".utf8) { words.append(Tape.word(.null, offset: begin)); return }
                pos = begin
            }
            throw unexpected(expected: "a value")
        }
    }

    // MARK: Strings

    /// Checks the string starting at its opening quote and puts it on the tape.
    mutating func parseString() throws(JSONSyntaxError) {
        let start = location
        let begin = pos
        pos &+= 1
        var escaped = false
        while pos < bytes.count {
            let b = bytes[pos]
            if b == quote {
                let length = min(pos &- begin &- 1, Tape.maxStoredLength)
                words.append(Tape.word(.string, offset: begin, aux: length | (escaped ? Tape.escapedFlag : 0)))
                pos &+= 1
                return
            } else if b == backslash {
                escaped = true
                try parseEscape(stringStart: start)
            } else if b < 0x20 {
                throw error(.controlCharacterInString(b), at: location)
            } else if b < 0x80 {
                pos &+= 1
            } else {
                try skipUTF8Sequence(stringStart: start)
            }
        }
        throw error(.unterminatedString, at: start)
    }

    /// Validates the multi-byte UTF-8 sequence at `pos` and steps over it.
    mutating func skipUTF8Sequence(stringStart: SourceLocation) throws(JSONSyntaxError) {
        let lead = bytes[pos]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // range of the second byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F  // no UTF-16 surrogates
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F  // nothing above U+10FFFF
        default: throw error(.invalidUTF8(lead), at: location)
        }
        for i in 1..<length {
            let at = pos &+ i
            guard at < bytes.count else {
                throw error(.unterminatedString, at: stringStart)
            }
            let b = bytes[at]
            let ok = i == 1 ? (low...high).contains(b) : (0x80...0xBF).contains(b)
            guard ok else {
                // A lead byte followed by no continuation byte is the usual sign of a
                // Latin-1 file ("Caf\xE9"): name the lead byte, where the character is.
                if !(0x80...0xBF).contains(b) { throw error(.invalidUTF8(lead), at: location) }
                pos = at
                lineExtra &+= i &- 1
                throw error(.invalidUTF8(b), at: location)
            }
        }
        pos &+= length
        lineExtra &+= length &- 1
    }

    /// Checks the escape at `pos` (a backslash) and steps over it.
    mutating func parseEscape(stringStart: SourceLocation) throws(JSONSyntaxError) {
        let escapeLocation = location
        guard pos &+ 1 < bytes.count else {
            throw error(.unterminatedString, at: stringStart)
        }
        let c = bytes[pos &+ 1]
        pos &+= 2
        switch c {
        case quote, backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
             UInt8(ascii: "r"), UInt8(ascii: "t"):
            break
        case UInt8(ascii: "u"):
            guard let unit = readHex4() else {
                throw error(.invalidUnicodeEscape, at: escapeLocation)
            }
            if (0xDC00...0xDFFF).contains(unit) {
                throw error(.unpairedSurrogate(unit), at: escapeLocation)
            }
            if (0xD800...0xDBFF).contains(unit) {
                guard pos &+ 1 < bytes.count, bytes[pos] == backslash, bytes[pos &+ 1] == UInt8(ascii: "u")
                else {
                    throw error(.unpairedSurrogate(unit), at: escapeLocation)
                }
                let lowLocation = location
                pos &+= 2
                guard let low = readHex4() else {
                    throw error(.invalidUnicodeEscape, at: lowLocation)
                }
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(.unpairedSurrogate(unit), at: escapeLocation)
                }
            }
        default:
            pos &-= 1
            let shown: String
            if c >= 0x21 && c < 0x7F {
                shown = "\\" + String(UnicodeScalar(c))
            } else if c < 0x80 {
                shown = "\\ followed by U+" + hex4(UInt16(c))
            } else {
                shown = "\\ followed by a non-ASCII character"
            }
            throw error(.invalidEscape(shown), at: escapeLocation)
        }
    }

    /// Reads four hexadecimal digits at `pos`, or returns nil leaving `pos` alone.
    mutating func readHex4() -> UInt16? {
        guard pos &+ 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for i in 0..<4 {
            let b = bytes[pos &+ i]
            let digit: UInt8
            switch b {
            case zero...nine: digit = b &- zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        pos &+= 4
        return value
    }

    // MARK: Numbers

    /// Parses `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` at `pos`.
    mutating func parseNumber() throws(JSONSyntaxError) {
        let start = location
        let begin = pos
        var plainInteger = true  // no fraction, no exponent
        let negative = bytes[pos] == minus
        if negative { pos &+= 1 }
        guard pos < bytes.count, isDigit(bytes[pos]) else {
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "I") || bytes[pos] == UInt8(ascii: "N") {
                throw error(.invalidNumber(reason: "expected a digit after '-' (JSON has no NaN or Infinity)"), at: start)
            }
            throw error(.invalidNumber(reason: "expected a digit after '-'"), at: start)
        }
        var mantissa: UInt64 = 0
        var mantissaDigits = 0  // digits in `mantissa`, leading zeros excluded
        var decimalExponent = 0
        if bytes[pos] == zero {
            pos &+= 1
            if pos < bytes.count, isDigit(bytes[pos]) {
                throw error(.invalidNumber(reason: "leading zeros are not allowed"), at: start)
            }
        } else {
            while pos < bytes.count, isDigit(bytes[pos]) {
                mantissa = mantissa &* 10 &+ UInt64(bytes[pos] &- zero)
                mantissaDigits &+= 1
                pos &+= 1
            }
        }
        if pos < bytes.count, bytes[pos] == dot {
            plainInteger = false
            pos &+= 1
            guard pos < bytes.count, isDigit(bytes[pos]) else {
                throw error(.invalidNumber(reason: "expected a digit after '.'"), at: start)
            }
            while pos < bytes.count, isDigit(bytes[pos]) {
                mantissa = mantissa &* 10 &+ UInt64(bytes[pos] &- zero)
                if mantissa != 0 { mantissaDigits &+= 1 }
                decimalExponent &-= 1
                pos &+= 1
            }
        }
        if pos < bytes.count, bytes[pos] | 0x20 == UInt8(ascii: "e") {
            plainInteger = false
            pos &+= 1
            var exponentNegative = false
            if pos < bytes.count, bytes[pos] == minus || bytes[pos] == plus {
                exponentNegative = bytes[pos] == minus
                pos &+= 1
            }
            guard pos < bytes.count, isDigit(bytes[pos]) else {
                throw error(.invalidNumber(reason: "expected a digit in the exponent"), at: start)
            }
            var exponent = 0
            while pos < bytes.count, isDigit(bytes[pos]) {
                if exponent < 100_000 { exponent = exponent &* 10 &+ Int(bytes[pos] &- zero) }
                pos &+= 1
            }
            decimalExponent &+= exponentNegative ? -exponent : exponent
        }
        var value: Double
        if mantissaDigits <= 19, mantissa <= 1 << 53, (-22...22).contains(decimalExponent) {
            value = Double(mantissa)
            if decimalExponent >= 0 {
                value *= exactPowersOfTen[decimalExponent]
            } else {
                value /= exactPowersOfTen[-decimalExponent]
            }
            if negative { value = -value }
        } else {
            // The grammar was checked above, so the conversion cannot fail.
            value = Double(text(begin, pos)) ?? .nan
        }
        guard value.isFinite else {
            throw error(.numberOutOfRange(literal: Tape.quotedLiteral(bytes, begin, pos)), at: start)
        }
        if plainInteger, mantissaDigits <= 7, mantissa < UInt64(Tape.smallIntegerBias), !(negative && mantissa == 0) {
            let v = negative ? -Int(mantissa) : Int(mantissa)
            words.append(Tape.word(.smallInteger, offset: begin, aux: v &+ Tape.smallIntegerBias))
        } else {
            words.append(Tape.word(.number, offset: begin))
            words.append(value.bitPattern)
        }
    }

    /// The document's bytes `from..<to` as text.
    private func text(_ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
    }

    // MARK: Describing what was found

    /// An `unexpectedToken` error for what stands at `pos` (not at end of input).
    func unexpected(expected: String, atKey: Bool = false) -> JSONSyntaxError {
        let b = bytes[pos]
        var found: String
        var hint: String? = nil
        if isWordByte(b) {
            var end = pos
            while end < bytes.count, isWordByte(bytes[end]), end &- pos < 24 { end &+= 1 }
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[pos..<end]), as: UTF8.self)
            found = "'\(word)'"
            if word == "NaN" || word == "Infinity" {
                hint = "JSON has no NaN or Infinity"
            } else if atKey {
                hint = "object keys must be double-quoted strings"
            } else if !isDigit(b) && expected == "a value" {
                if let literal = nearestCandidate(to: word, in: ["true", "false", "null"]) {
                    hint = "did you mean '\(literal)'?"
                } else {
                    hint = "strings must be double-quoted"
                }
            }
        } else if b >= 0x21 && b < 0x7F {
            found = b == UInt8(ascii: "'") ? "\"'\"" : "'\(Character(UnicodeScalar(b)))'"
            if b == UInt8(ascii: "/") { hint = "JSON does not allow comments" }
            if b == UInt8(ascii: "'") { hint = "JSON strings use double quotes" }
        } else if b < 0x80 {
            found = "U+" + hex4(UInt16(b))
        } else {
            let tail = UnsafeBufferPointer(rebasing: bytes[pos..<min(pos &+ 4, bytes.count)])
            var iterator = tail.makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) {
                found = "'\(Character(scalar))' (U+\(String(scalar.value, radix: 16, uppercase: true)))"
                if [0x201C, 0x201D, 0x2018, 0x2019].contains(scalar.value) {
                    hint = "use straight double quotes"
                }
            } else {
                found = "byte 0x" + hex2(b)
            }
        }
        return error(.unexpectedToken(expected: expected, found: found, hint: hint), at: location)
    }
}
