// The JSON values that timeline documents are decoded from.
//
// Foundation's JSONDecoder cannot say where a value came from, and DESIGN.md
// ("Bad input") promises that every error names the file, the JSON path and
// line:column. So ChartReel parses JSON itself (JSONParser.swift) onto a compact
// tape (JSONTape.swift) and reads it through these types, in which every value and
// every object key can tell its position.

/// A position in a JSON text: 1-based line and column.
///
/// Lines are separated by LF, CRLF or a lone CR. Columns count Unicode scalars
/// (not bytes, not UTF-16 units), so `"é": 1` puts the `1` at column 6 just as an
/// editor shows it; a tab counts as one column. A UTF-8 byte order mark at the
/// start of the text is not counted.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Line number, starting at 1.
    public var line: Int
    /// Column number in Unicode scalars, starting at 1.
    public var column: Int

    /// Creates a location from a 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Orders locations as they appear in the text.
    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        a.line != b.line ? a.line < b.line : a.column < b.column
    }

    /// `line:column`, as compilers print it.
    public var description: String { "\(line):\(column)" }
}

/// A JSON value together with the location of its first character.
///
/// A node is either a value on a parsed document's tape (JSONTape.swift), read one
/// level at a time, or a value built in code (`init(value:location:)`), such as a
/// `--set` value or a tree with parameters substituted. Both read alike.
public struct JSONNode: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    enum Storage: Sendable {
        case parsed(JSONDocument, UInt32)
        case built(Built)
    }
    final class Built: Sendable {
        let value: JSONValue
        let location: SourceLocation
        init(value: JSONValue, location: SourceLocation) { self.value = value; self.location = location }
    }
    let storage: Storage

    /// Creates a node.
    public init(value: JSONValue, location: SourceLocation) {
        storage = .built(Built(value: value, location: location))
    }

    init(_ document: JSONDocument, _ index: Int) {
        storage = .parsed(document, UInt32(truncatingIfNeeded: index))
    }

    /// The value (its children are nodes in turn).
    public var value: JSONValue {
        switch storage {
        case .parsed(let d, let i): return d.value(Int(i))
        case .built(let b): return b.value
        }
    }

    /// Where the value starts: its opening `{`, `[` or `"`, its sign or first
    /// digit, or the first letter of `true`, `false` or `null`.
    public var location: SourceLocation {
        switch storage {
        case .parsed(let d, let i): return d.location(Int(i))
        case .built(let b): return b.location
        }
    }

    /// The document and tape index of a parsed node.
    var parsed: (document: JSONDocument, index: Int)? {
        if case .parsed(let d, let i) = storage { return (d, Int(i)) }
        return nil
    }

    /// True when the value is `null`, without reading it.
    var isNull: Bool {
        switch storage {
        case .parsed(let d, let i): return d.tag(Int(i)) == .null
        case .built(let b): if case .null = b.value { return true }; return false
        }
    }

    /// True when both are the same parsed value or the same built one (not merely equal).
    func isSame(as other: JSONNode) -> Bool {
        switch (storage, other.storage) {
        case let (.parsed(a, i), .parsed(b, j)): return a === b && i == j
        case let (.built(a), .built(b)): return a === b
        default: return false
        }
    }

    public static func == (a: JSONNode, b: JSONNode) -> Bool {
        if a.isSame(as: b) { return true }
        return a.location == b.location && a.value == b.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(location)
        hasher.combine(value)
    }

    /// `JSONNode(value: …, location: line:column)`, the whole tree below.
    public var description: String { "JSONNode(value: \(String(reflecting: value)), location: \(location))" }
    public var debugDescription: String { description }
}

/// One `"key": value` member of a JSON object.
///
/// A named struct rather than a tuple so that nodes can be `Hashable`; it reads
/// the same as the tuple would (`member.key`, `member.keyLocation`, `member.value`).
public struct JSONMember: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The key, with escapes resolved.
    public var key: String
    /// The member's value.
    public var value: JSONNode
    /// Where the key is: given, or worked out from the tape when asked.
    private var keyPlace: KeyPlace
    private enum KeyPlace: Sendable {
        case given(SourceLocation)
        case parsed(JSONDocument, UInt32)
    }

    /// Creates a member.
    public init(key: String, keyLocation: SourceLocation, value: JSONNode) {
        self.key = key
        self.keyPlace = .given(keyLocation)
        self.value = value
    }

    /// The member whose key is at `keyIndex` on `document`'s tape (its value follows).
    init(document: JSONDocument, keyIndex: Int) {
        key = document.string(keyIndex)
        value = JSONNode(document, keyIndex + 1)
        keyPlace = .parsed(document, UInt32(truncatingIfNeeded: keyIndex))
    }

    /// Where the key's opening quote is.
    public var keyLocation: SourceLocation {
        get {
            switch keyPlace {
            case .given(let l): return l
            case .parsed(let d, let i): return d.location(Int(i))
            }
        }
        set { keyPlace = .given(newValue) }
    }

    public static func == (a: JSONMember, b: JSONMember) -> Bool {
        a.key == b.key && a.keyLocation == b.keyLocation && a.value == b.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(keyLocation)
        hasher.combine(value)
    }

    /// `JSONMember(key: "k", keyLocation: line:column, value: …)`.
    public var description: String {
        "JSONMember(key: \(String(reflecting: key)), keyLocation: \(keyLocation), value: \(value))"
    }
    public var debugDescription: String { description }
}

/// A JSON value (RFC 8259) whose children carry their locations.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number: its value, and its text as written (`1.50`, `1e3`) so messages
    /// can quote it. Always finite: literals beyond `Double`'s range are rejected.
    case number(Double, literal: String)
    /// A string, with escapes resolved.
    case string(String)
    /// An array.
    case array([JSONNode])
    /// An object, its members in document order. Duplicate keys are kept (the
    /// decoder reports them, see `JSONCursor.object(allowedKeys:)`).
    case object([JSONMember])

    /// How the value reads in a message: `null`, `true`, `a number 1.5`,
    /// `a string "abc"`, `an array`, `an object`.
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(_, let literal): return "a number \(literal)"
        case .string(let s): return "a string \(quotedForMessage(s))"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON text that is not well-formed, with the location of the problem.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong. Every case has a fixed message (see `message`).
    public enum Kind: Hashable, Sendable {
        /// The text ended where `expected` was needed, e.g. `"a value"`.
        case unexpectedEndOfInput(expected: String)
        /// `found` (quoted as `'x'`, or `U+000C`) stands where `expected` was
        /// needed; `hint` says what a likely mistake is (comments, single quotes).
        case unexpectedToken(expected: String, found: String, hint: String?)
        /// A `,` directly before the closing `]` or `}`; the location is the comma's.
        case trailingComma(before: Character)
        /// A string has no closing quote; the location is the opening quote's.
        case unterminatedString
        /// A backslash escape that JSON does not have, as written (`\q`).
        case invalidEscape(String)
        /// `\u` not followed by four hexadecimal digits.
        case invalidUnicodeEscape
        /// A `\uD800`–`\uDFFF` escape that is not half of a surrogate pair.
        case unpairedSurrogate(UInt16)
        /// A raw character below U+0020 inside a string.
        case controlCharacterInString(UInt8)
        /// A byte that is not part of well-formed UTF-8 inside a string.
        case invalidUTF8(UInt8)
        /// A number that breaks RFC 8259's grammar; `reason` says how.
        case invalidNumber(reason: String)
        /// A number beyond `Double`'s range, such as `1e400`.
        case numberOutOfRange(literal: String)
        /// Arrays and objects nested deeper than `limit`.
        case nestingTooDeep(limit: Int)
        /// A text of a terabyte or more, or of more than 2^32 values' worth of tape:
        /// beyond what the parsed form can point to.
        case documentTooLarge
    }

    /// What is wrong.
    public var kind: Kind
    /// Where: the offending character (for `trailingComma`, the comma; for
    /// `unterminatedString`, the opening quote; for escapes, the backslash; for
    /// numbers, their first character).
    public var location: SourceLocation
    /// The path of the value being parsed when the error was found (the
    /// enclosing container for errors between values).
    public var path: JSONPath

    /// Creates an error.
    public init(kind: Kind, location: SourceLocation, path: JSONPath = JSONPath()) {
        self.kind = kind
        self.location = location
        self.path = path
    }

    /// The message, saying what was found and what was expected.
    public var message: String {
        switch kind {
        case .unexpectedEndOfInput(let expected):
            return "unexpected end of input: expected \(expected)"
        case .unexpectedToken(let expected, let found, let hint):
            return "expected \(expected), found \(found)" + (hint.map { " (\($0))" } ?? "")
        case .trailingComma(let before):
            return "trailing comma before '\(before)'"
        case .unterminatedString:
            return "unterminated string"
        case .invalidEscape(let escape):
            return "invalid escape '\(escape)'"
        case .invalidUnicodeEscape:
            return "invalid escape '\\u': expected 4 hexadecimal digits"
        case .unpairedSurrogate(let unit):
            return "unpaired UTF-16 surrogate '\\u\(hex4(unit))'"
        case .controlCharacterInString(let byte):
            let escape: String
            switch byte {
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            default: escape = "\\u" + hex4(UInt16(byte))
            }
            return "control character in string (U+\(hex4(UInt16(byte)))); write it as \(escape)"
        case .invalidUTF8(let byte):
            return "invalid UTF-8 in string (byte 0x\(hex2(byte))); save the file as UTF-8"
        case .invalidNumber(let reason):
            return "invalid number: \(reason)"
        case .numberOutOfRange(let literal):
            return "number out of range: \(literal)"
        case .nestingTooDeep(let limit):
            return "nesting too deep: more than \(limit) nested arrays and objects"
        case .documentTooLarge:
            return "the document is too large to parse: at most 1 TB and about 4 billion values"
        }
    }

    /// `line:column: message`.
    public var description: String { "\(location): \(message)" }
}

// MARK: - Message formatting shared with the decoder

/// `s` in double quotes with JSON escapes, shortened to about 40 characters.
/// Names read from a file (a CSV header's columns, its rows' fields), quoted and joined
/// for a message, but never more than a short excerpt of the file: at most `maxCount`
/// names and about `maxLength` characters, then `…`. A document can name any file, so
/// whatever a message quotes from one must stay short (a header of 1,000 columns, or the
/// first line of a file that is not CSV at all).
func quotedList(_ names: [String], maxCount: Int = 12, maxLength: Int = 120) -> String {
    var out = ""
    for (i, name) in names.enumerated() {
        let q = quotedForMessage(name)
        if i == maxCount || (i > 0 && out.count + q.count > maxLength) { return out + ", …" }
        out += (i == 0 ? "" : ", ") + q
    }
    return out
}

func quotedForMessage(_ s: String) -> String { quotedForMessage(s, maxLength: 40) }

/// `s` quoted and escaped, cut after `maxLength` Unicode scalars with `…`.
func quotedForMessage(_ s: String, maxLength: Int) -> String {
    var out = "\""
    var count = 0
    for scalar in s.unicodeScalars {
        if count == maxLength {
            out += "…"
            break
        }
        count += 1
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20: out += "\\u" + hex4(UInt16(scalar.value))
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// Four uppercase hexadecimal digits.
func hex4(_ v: UInt16) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - s.count) + s
}

/// Two uppercase hexadecimal digits.
func hex2(_ v: UInt8) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return s.count == 1 ? "0" + s : s
}
