// The parsed form of a JSON text: a "tape" of 64-bit words that points into the text,
// rather than a tree of Swift values.
//
// A tree of enums and arrays cost about 50 bytes a value and 80 an object member, so a
// 42 MB document of inline rows took 1.7 GB to parse (issue 22 asks for at most 4× the
// document). On the tape a value is one word, or two:
//
//   null, false, true        1 word   tag | offset
//   integer in ±2^19         1 word   tag | value | offset   (no '.', no exponent, not -0)
//   other number             2 words  tag | offset, then the Double's bits
//   string, object key       1 word   tag | escaped flag, length | offset
//   array, object            2 words  tag | offset, then count | index after the last child
//
// where offset is the byte offset of the value's first character in the text (40 bits).
// An object's members follow its header as key, value, key, value. Strings are decoded
// from the text when read, and a number's literal (quoted in messages) is read back
// from the text, so the document keeps its bytes. A row `{"t":12,"v":-0.52},` of 19
// bytes takes 7 words (56 bytes, 2.9×); a document indented for reading far less.
//
// Locations are not stored. `SourceMap` keeps the parser's line and column every 256
// bytes and counts forward from the nearest one, so a location costs a short scan and
// is only worked out for the values a message or a row's origin names.

/// A parsed JSON text: its bytes, its tape and its line map. Immutable once parsed,
/// shared by every `JSONNode` that refers into it.
final class JSONDocument: @unchecked Sendable {
    /// The text, byte order mark included.
    let source: [UInt8]
    /// Where lines are, for turning byte offsets into line:column.
    let map: SourceMap
    private let words: TapeWords

    init(source: [UInt8], words: TapeWords, map: SourceMap) {
        self.source = source
        self.words = words
        self.map = map
    }

    /// The bytes the tape and the line map take, the text not counted.
    var treeBytes: Int { words.allocatedBytes + map.bytes }

    // MARK: Reading entries

    @inline(__always) func tag(_ i: Int) -> Tape.Tag { Tape.Tag(rawValue: UInt8(truncatingIfNeeded: words[i] >> 60))! }
    @inline(__always) func offset(_ i: Int) -> Int { Int(truncatingIfNeeded: words[i] & Tape.offsetMask) }

    /// The tape index just after the value at `i` (and its children).
    @inline(__always) func next(_ i: Int) -> Int {
        switch tag(i) {
        case .array, .object: return Int(truncatingIfNeeded: words[i + 1] >> 32)
        case .number: return i + 2
        default: return i + 1
        }
    }

    /// The number of elements of the array, or members of the object, at `i`.
    @inline(__always) func childCount(_ i: Int) -> Int { Int(truncatingIfNeeded: words[i + 1] & 0xFFFF_FFFF) }

    /// The number at `i` (a small integer or a number entry).
    @inline(__always) func number(_ i: Int) -> Double {
        let w = words[i]
        if Tape.Tag(rawValue: UInt8(truncatingIfNeeded: w >> 60)) == .smallInteger {
            return Double(Int(truncatingIfNeeded: (w >> 40) & 0xFFFFF) - Tape.smallIntegerBias)
        }
        return Double(bitPattern: words[i + 1])
    }

    /// The bytes between the quotes of the string or key at `i`, as written (escapes
    /// not resolved), and whether it has escapes.
    func rawString(_ i: Int) -> (range: Range<Int>, escaped: Bool) {
        source.withUnsafeBufferPointer { Tape.rawString(words[i], in: $0) }
    }

    /// The string or key at `i`, escapes resolved.
    func string(_ i: Int) -> String {
        source.withUnsafeBufferPointer { Tape.string(words[i], in: $0) }
    }

    /// The literal of the number at `i` as written, shortened as the parser shortened it.
    func literal(_ i: Int) -> String {
        let start = offset(i)
        var end = start
        while end < source.count {
            switch source[end] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                 UInt8(ascii: "e"), UInt8(ascii: "E"): end += 1
            default: return Tape.quotedLiteral(source, start, end)
            }
        }
        return Tape.quotedLiteral(source, start, end)
    }

    /// Calls `body` with the tape index of each element of the array at `i`, or of each
    /// member's key of the object at `i` (its value is at `key + 1`).
    @inline(__always) func forEachChild(_ i: Int, _ body: (Int) throws -> Void) rethrows {
        let isObject = tag(i) == .object
        var c = i + 2
        for _ in 0..<childCount(i) {
            try body(c)
            c = isObject ? next(c + 1) : next(c)
        }
    }

    /// Where the value (or key) at `i` starts.
    func location(_ i: Int) -> SourceLocation { map.location(ofOffset: offset(i), in: source) }

    /// False when no string of the text can contain `needle` (ASCII): its bytes are
    /// nowhere in the text, and no `\u` escape could spell them.
    func mayContain(_ needle: String) -> Bool {
        let n = Array(needle.utf8)
        return source.withUnsafeBufferPointer { b in
            guard b.count >= n.count else { return false }
            var i = 0
            while i + n.count <= b.count {
                if b[i] == UInt8(ascii: "\\") && i + 1 < b.count && b[i + 1] == UInt8(ascii: "u") { return true }
                if b[i] == n[0] && b[i..<i + n.count].elementsEqual(n) { return true }
                i += 1
            }
            return false
        }
    }

    // MARK: Values

    /// The value at `i`, one level deep: children are nodes on this tape.
    func value(_ i: Int) -> JSONValue {
        switch tag(i) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .smallInteger, .number: return .number(number(i), literal: literal(i))
        case .string: return .string(string(i))
        case .array:
            var out: [JSONNode] = []
            out.reserveCapacity(childCount(i))
            forEachChild(i) { out.append(JSONNode(self, $0)) }
            return .array(out)
        case .object:
            var out: [JSONMember] = []
            out.reserveCapacity(childCount(i))
            forEachChild(i) { k in out.append(JSONMember(document: self, keyIndex: k)) }
            return .object(out)
        }
    }
}

/// The layout of tape words (see the file's comment).
enum Tape {
    enum Tag: UInt8 {
        case null = 0, `false`, `true`, smallInteger, number, string, array, object
    }

    static let offsetMask: UInt64 = (1 << 40) - 1
    /// Small integers are stored plus this bias in 20 bits.
    static let smallIntegerBias = 1 << 19
    /// In a string's 20 bits: set when it has escapes; the rest is its length.
    static let escapedFlag = 1 << 19
    /// A stored length of this much means "this or longer: scan for the end".
    static let maxStoredLength = (1 << 19) - 1
    /// The longest text a tape can point into, and the most words it may have
    /// (container ends are 32-bit indices).
    static let maxSourceBytes = 1 << 40
    static let maxWords = Int(UInt32.max)

    @inline(__always) static func word(_ tag: Tag, offset: Int, aux: Int = 0) -> UInt64 {
        UInt64(tag.rawValue) << 60 | UInt64(truncatingIfNeeded: aux) << 40 | UInt64(truncatingIfNeeded: offset)
    }

    /// The bytes between the quotes of the string entry `w` in `source`, as written, and
    /// whether it has escapes.
    static func rawString(_ w: UInt64, in source: UnsafeBufferPointer<UInt8>) -> (range: Range<Int>, escaped: Bool) {
        let start = Int(truncatingIfNeeded: w & offsetMask) + 1
        let aux = Int(truncatingIfNeeded: (w >> 40) & 0xFFFFF)
        var length = aux & maxStoredLength
        if length == maxStoredLength {
            // Too long to store: find the closing quote (the parser checked the string).
            var p = start
            while source[p] != UInt8(ascii: "\"") { p += source[p] == UInt8(ascii: "\\") ? 2 : 1 }
            length = p - start
        }
        return (start..<start + length, aux & escapedFlag != 0)
    }

    /// The string entry `w` in `source`, escapes resolved.
    static func string(_ w: UInt64, in source: UnsafeBufferPointer<UInt8>) -> String {
        let (range, escaped) = rawString(w, in: source)
        let raw = UnsafeBufferPointer(rebasing: source[range])
        return escaped ? unescape(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// The longest number literal quoted whole in a message.
    static let maxQuotedNumber = 40

    /// `bytes[from..<to]`, a number's literal, as text; a long one (a 10 MB run of
    /// digits) as its start, its length and its end.
    static func quotedLiteral<C: RandomAccessCollection>(_ bytes: C, _ from: Int, _ to: Int) -> String
        where C.Element == UInt8, C.Index == Int {
        func text(_ a: Int, _ b: Int) -> String { String(decoding: bytes[a..<b], as: UTF8.self) }
        return to - from <= maxQuotedNumber ? text(from, to)
            : text(from, from + 16) + "…(\(to - from) characters)…" + text(to - 8, to)
    }

    /// The string whose escaped form (checked by the parser) is `raw`.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var p = 0
        func hex4(_ at: Int) -> UInt32 {
            var v: UInt32 = 0
            for k in at..<at + 4 {
                let b = raw[k]
                v = v << 4 | UInt32(b <= UInt8(ascii: "9") ? b - UInt8(ascii: "0") : (b | 0x20) - UInt8(ascii: "a") + 10)
            }
            return v
        }
        while p < raw.count {
            let b = raw[p]
            guard b == UInt8(ascii: "\\") else { out.append(b); p += 1; continue }
            let c = raw[p + 1]
            p += 2
            switch c {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(p)
                p += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    let low = hex4(p + 2)
                    p += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                out.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
            default: out.append(c)  // \" \\ \/
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Tape words in fixed chunks, so the tape grows without copying itself (an array
/// doubling its buffer would hold up to three times the tape while it copies).
final class TapeWords {
    private static let shift = 14
    private static let chunkSize = 1 << shift
    private var chunks: [UnsafeMutablePointer<UInt64>] = []
    private(set) var count = 0

    init() {}

    deinit { for c in chunks { c.deallocate() } }

    var allocatedBytes: Int { chunks.count * Self.chunkSize * 8 }

    @inline(__always) subscript(i: Int) -> UInt64 {
        get { chunks[i >> Self.shift][i & (Self.chunkSize - 1)] }
        set { chunks[i >> Self.shift][i & (Self.chunkSize - 1)] = newValue }
    }

    @inline(__always) func append(_ w: UInt64) {
        if count & (Self.chunkSize - 1) == 0 && count >> Self.shift == chunks.count {
            chunks.append(.allocate(capacity: Self.chunkSize))
        }
        chunks[count >> Self.shift][count & (Self.chunkSize - 1)] = w
        count += 1
    }
}

/// Line and column of byte offsets in a JSON text, from checkpoints the parser left.
///
/// Lines end at LF, CRLF or a lone CR; columns count Unicode scalars (UTF-8 bytes that
/// are not continuation bytes), as `SourceLocation` says. The parser records its line
/// and column at a value's start every `spacing` bytes or more; a location is counted
/// forward from the last checkpoint at or before it.
struct SourceMap {
    static let spacing = 256
    private(set) var offsets: [Int] = []
    private(set) var lines: [Int32] = []
    private(set) var columns: [Int32] = []

    var bytes: Int { offsets.capacity * 8 + lines.capacity * 4 + columns.capacity * 4 }

    /// Offset of the next checkpoint the parser should record.
    var nextCheckpoint: Int { (offsets.last ?? -Self.spacing) + Self.spacing }

    mutating func record(offset: Int, line: Int, column: Int) {
        offsets.append(offset)
        lines.append(Int32(truncatingIfNeeded: line))
        columns.append(Int32(truncatingIfNeeded: column))
    }

    /// The location of byte `offset` of `source`.
    func location(ofOffset offset: Int, in source: [UInt8]) -> SourceLocation {
        var scanner = scanner(before: offset)
        scanner.advance(to: offset, in: source)
        return scanner.location
    }

    /// Counts lines and columns forward through a text.
    struct Scanner {
        var offset: Int
        var line: Int
        var column: Int

        var location: SourceLocation { SourceLocation(line: line, column: column) }

        mutating func advance(to target: Int, in source: [UInt8]) {
            source.withUnsafeBufferPointer { b in
                var o = offset, l = line, c = column
                while o < target {
                    let x = b[o]
                    if x == 0x0A {
                        // The LF of a CRLF was counted with its CR.
                        if !(o > 0 && b[o - 1] == 0x0D) { l += 1; c = 1 }
                    } else if x == 0x0D {
                        l += 1; c = 1
                    } else if x & 0xC0 != 0x80 {
                        c += 1
                    }
                    o += 1
                }
                offset = o; line = l; column = c
            }
        }
    }

    /// A scanner at the last checkpoint at or before `offset`.
    func scanner(before offset: Int) -> Scanner {
        var lo = 0, hi = offsets.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if offsets[mid] <= offset { lo = mid } else { hi = mid }
        }
        return Scanner(offset: offsets[lo], line: Int(lines[lo]), column: Int(columns[lo]))
    }
}

extension JSONParser {
    /// The string values of every object member named one of `keys`, anywhere in the JSON
    /// text `bytes`; empty when the text is not JSON. (The CLI lists a document's files
    /// this way, so that no output overwrites one.)
    public static func stringValues(ofKeys keys: Set<String>, in bytes: [UInt8]) -> [String] {
        guard let d = try? parseDocument(bytes) else { return [] }
        var found: [String] = []
        var pending = [0]
        while let i = pending.popLast() {
            switch d.tag(i) {
            case .object:
                d.forEachChild(i) { k in
                    if d.tag(k + 1) == .string, keys.contains(d.string(k)) { found.append(d.string(k + 1)) }
                    else { pending.append(k + 1) }
                }
            case .array:
                d.forEachChild(i) { pending.append($0) }
            default:
                break
            }
        }
        return found
    }
}
