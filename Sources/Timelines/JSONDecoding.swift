// Decoding helpers for timeline documents: a cursor over the located JSON tree
// that checks types, ranges and keys, and reports every problem with its file,
// path and line:column (DESIGN.md, "Bad input").
//
// Errors are collected, not thrown: a failed check appends a `DocumentError` to
// the shared `DiagnosticSink` and returns nil, and decoding carries on, so one
// run shows the author every mistake in the document at once. A decoder reads
//
//     guard let mark = cursor.object(allowedKeys: ["id", "type", "stroke"]) else { return nil }
//     let id = mark.optional("id")?.string()
//     let type = mark.required("type")?.stringEnum(["line", "area", "bar"])
//     let width = mark.optional("stroke")?.object(allowedKeys: ["width"])?
//         .optional("width")?.double(min: 0) ?? 1
//
// and `JSONCursor.decode(_:file:_:)` turns the collected errors into one thrown
// `DocumentErrors`.

/// One problem in a document, located like a compiler diagnostic.
public struct DocumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The document's file name as the user gave it.
    public var file: String
    /// The value the problem concerns (for an unknown or missing key, the object).
    public var path: JSONPath
    /// Where in the file, when known.
    public var location: SourceLocation?
    /// What is wrong, saying what was found and what was expected.
    public var message: String

    /// Creates an error.
    public init(file: String, path: JSONPath, location: SourceLocation?, message: String) {
        self.file = file
        self.path = path
        self.location = location
        self.message = message
    }

    /// An error for a document that is not well-formed JSON.
    public init(file: String, syntaxError: JSONSyntaxError) {
        self.init(file: file, path: syntaxError.path, location: syntaxError.location,
                  message: syntaxError.message)
    }

    /// `timeline.json:14:9: charts[0].marks[1]: unknown key "strok"; did you mean "stroke"?`
    /// An error about the file as a whole (it is missing, a directory, unreadable)
    /// has neither location nor path: `data/x.json: is a directory; expected …`.
    public var description: String {
        guard let location else {
            return path.isRoot ? "\(file): \(message)" : "\(file): \(path.abbreviated): \(message)"
        }
        return "\(file):\(location): \(path.abbreviated): \(message)"
    }
}

/// All the problems found in one document, in document order.
public struct DocumentErrors: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems; never empty when thrown.
    public var errors: [DocumentError]

    /// Collects `errors`, sorted stably by location (errors without one last).
    public init(_ errors: [DocumentError]) {
        self.errors = errors.enumerated().sorted { a, b in
            switch (a.element.location, b.element.location) {
            case let (x?, y?) where x != y: return x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.offset < b.offset
            }
        }.map(\.element)
    }

    /// One error per line.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}

/// Collects the errors reported while one document is decoded.
///
/// A class so that every `JSONCursor` derived from a root shares it.
public final class DiagnosticSink {
    /// The errors reported so far, in the order they were reported.
    public private(set) var errors: [DocumentError] = []

    /// Creates an empty sink.
    public init() {}

    /// True when at least one error was reported.
    public var hasErrors: Bool { !errors.isEmpty }

    /// Records an error.
    public func report(_ error: DocumentError) {
        errors.append(error)
    }

    /// Throws everything reported so far as one `DocumentErrors`, if anything was.
    public func throwIfErrors() throws(DocumentErrors) {
        if !errors.isEmpty { throw DocumentErrors(errors) }
    }
}

/// A position in a parsed document: a node, the path to it, and where to
/// report problems. Each accessor checks the node's type (and range, keys,
/// allowed values), reports a mismatch to `sink` and returns nil, so one
/// decoding pass finds every error.
public struct JSONCursor {
    /// The value under the cursor.
    public let node: JSONNode
    /// The path from the document root to `node`.
    public let path: JSONPath
    /// The document's file name, for messages.
    public let file: String
    /// Where errors go.
    public let sink: DiagnosticSink

    /// A cursor at `node`, reached by `path`.
    public init(node: JSONNode, path: JSONPath = JSONPath(), file: String, sink: DiagnosticSink) {
        self.node = node
        self.path = path
        self.file = file
        self.sink = sink
    }

    /// The value under the cursor.
    public var value: JSONValue { node.value }
    /// Where the value starts.
    public var location: SourceLocation { node.location }
    /// True when the value is `null`.
    public var isNull: Bool { node.isNull }

    /// Parses `bytes`, runs `body` on a cursor at the root, and returns its result.
    ///
    /// - Throws: `DocumentErrors` holding the syntax error if the text is not
    ///   JSON, or every error `body` reported; also if `body` returns nil
    ///   without reporting anything (a decoder bug, named as such).
    public static func decode<T>(
        _ bytes: [UInt8], file: String, _ body: (JSONCursor) -> T?
    ) throws(DocumentErrors) -> T {
        let root: JSONNode
        do throws(JSONSyntaxError) {
            root = try JSONParser.parse(bytes)
        } catch {
            throw DocumentErrors([DocumentError(file: file, syntaxError: error)])
        }
        return try decode(root: root, file: file, body)
    }

    /// Runs `body` on a cursor at `root`, a tree parsed already, and returns its result;
    /// throws as `decode(_:file:_:)` does.
    public static func decode<T>(
        root: JSONNode, file: String, _ body: (JSONCursor) -> T?
    ) throws(DocumentErrors) -> T {
        let sink = DiagnosticSink()
        let result = body(JSONCursor(node: root, file: file, sink: sink))
        try sink.throwIfErrors()
        guard let result else {
            throw DocumentErrors([DocumentError(
                file: file, path: JSONPath(), location: root.location,
                message: "internal error: the document was rejected without a reason")])
        }
        return result
    }

    /// Reports `message` about this value. Use it for checks the cursor does
    /// not know, such as a malformed color string.
    public func report(_ message: String) {
        sink.report(DocumentError(file: file, path: path, location: node.location, message: message))
    }

    /// Reports `message` about this value and returns nil, for `return cursor.fail(...)`.
    public func fail<T>(_ message: String) -> T? {
        report(message)
        return nil
    }

    private func mismatch<T>(_ expected: String) -> T? {
        fail("expected \(expected), found \(node.value.kindDescription)")
    }

    // MARK: Containers

    /// The value as an object whose keys must all be in `allowedKeys`.
    ///
    /// Reports each unknown key (at the key, suggesting the nearest allowed
    /// key) and each duplicate key, then still returns the object so its known
    /// members can be checked too. Returns nil only when the value is not an object.
    public func object(allowedKeys: [String]) -> JSONObjectCursor? {
        guard let object = object() else { return nil }
        for member in object.members where !allowedKeys.contains(member.key) {
            var message = "unknown key \(quotedForMessage(member.key))"
            if let suggestion = nearestCandidate(to: member.key, in: allowedKeys) {
                message += "; did you mean \(quotedForMessage(suggestion))?"
            } else if !allowedKeys.isEmpty && allowedKeys.count <= 12 {
                message += "; expected one of " + allowedKeys.map(quotedForMessage).joined(separator: ", ")
            }
            sink.report(DocumentError(file: file, path: path, location: member.keyLocation, message: message))
        }
        return object
    }

    /// The value as an object with any keys, such as a dictionary of named
    /// data sets. Duplicate keys are reported.
    public func object() -> JSONObjectCursor? {
        guard case .object(let members) = node.value else { return mismatch("an object") }
        let object = JSONObjectCursor(cursor: self, members: members)
        for (index, member) in members.enumerated() {
            let first = object.firstIndex(of: member.key)!
            if first != index {
                report(key: member, "duplicate key \(quotedForMessage(member.key)) (first at \(members[first].keyLocation))")
            }
        }
        return object
    }

    private func report(key member: JSONMember, _ message: String) {
        sink.report(DocumentError(file: file, path: path, location: member.keyLocation, message: message))
    }

    /// The value as an array of cursors at its elements, with between
    /// `minCount` and `maxCount` elements.
    public func array(minCount: Int = 0, maxCount: Int = .max) -> [JSONCursor]? {
        elements(minCount: minCount, maxCount: maxCount).map(Array.init)
    }

    /// The value as an array, checked as `array(minCount:maxCount:)` does, whose
    /// cursors are made as they are read: for long arrays, such as inline rows.
    public func elements(minCount: Int = 0, maxCount: Int = .max) -> JSONArrayCursor? {
        let elements: JSONArrayCursor.Elements
        if let (d, i) = node.parsed {
            guard d.tag(i) == .array else { return mismatch("an array") }
            var children: [UInt32] = []
            children.reserveCapacity(d.childCount(i))
            d.forEachChild(i) { children.append(UInt32(truncatingIfNeeded: $0)) }
            elements = .parsed(d, children)
        } else {
            guard case .array(let nodes) = node.value else { return mismatch("an array") }
            elements = .built(nodes)
        }
        if elements.count < minCount || elements.count > maxCount {
            let bound: String
            if minCount == maxCount {
                bound = "exactly \(minCount)"
            } else if maxCount == .max {
                bound = "at least \(minCount)"
            } else if minCount == 0 {
                bound = "at most \(maxCount)"
            } else {
                bound = "\(minCount) to \(maxCount)"
            }
            let noun = maxCount == 1 || (minCount == 1 && maxCount == .max) ? "element" : "elements"
            return fail("expected an array of \(bound) \(noun), found \(elements.count)")
        }
        return JSONArrayCursor(parent: self, elements: elements)
    }

    // MARK: Scalars

    /// The value as a number in `min...max` (either bound optional).
    public func double(min: Double? = nil, max: Double? = nil) -> Double? {
        guard case .number(let value, let literal) = node.value else { return mismatch("a number") }
        if value < (min ?? -.infinity) || value > (max ?? .infinity) {
            return outOfRange("a number", literal, min.map(format), max.map(format))
        }
        return value
    }

    /// The value as a whole number in `min...max` (either bound optional).
    /// `3`, `3.0` and `3e0` are all 3; `2.5` is an error.
    public func int(min: Int? = nil, max: Int? = nil) -> Int? {
        guard case .number(let value, let literal) = node.value else { return mismatch("an integer") }
        guard value.rounded() == value, abs(value) <= 9_007_199_254_740_992 else {
            return fail("expected an integer, found \(literal)")
        }
        let int = Int(value)
        if int < (min ?? .min) || int > (max ?? .max) {
            return outOfRange("an integer", literal, min.map { String($0) }, max.map { String($0) })
        }
        return int
    }

    private func outOfRange<T>(_ kind: String, _ literal: String, _ min: String?, _ max: String?) -> T? {
        switch (min, max) {
        case let (min?, max?): return fail("expected \(kind) between \(min) and \(max), found \(literal)")
        case let (min?, nil): return fail("expected \(kind) >= \(min), found \(literal)")
        case let (nil, max?): return fail("expected \(kind) <= \(max), found \(literal)")
        case (nil, nil): return nil
        }
    }

    /// The value as a string.
    /// Longer than the label limit (`DocumentLimits.maxLabelLength`, which the decoding
    /// document sets) is refused: every string a document gives may end up drawn as a
    /// label, and each character costs a glyph's outline and coverage.
    public func string() -> String? {
        guard case .string(let s) = node.value else { return mismatch("a string") }
        return checkedLength(s)
    }

    /// The string at the cursor whatever its length (an SVG path's data, not a label).
    func longString() -> String? {
        guard case .string(let s) = node.value else { return mismatch("a string") }
        return s
    }

    /// `s`, or nil (reported) when it is longer than the label limit.
    func checkedLength(_ s: String) -> String? {
        let limit = TimelineDecoder.labelLimit
        // UTF-8 bytes are at least as many as scalars, and counted in O(1).
        guard s.utf8.count > limit else { return s }
        let count = s.unicodeScalars.count
        guard count > limit else { return s }
        return fail("a string of \(count) characters, over the limit of \(limit) characters on a label's length "
                    + "(the label limit): \(quotedForMessage(s))")
    }

    /// The value as `true` or `false`.
    public func bool() -> Bool? {
        guard case .bool(let b) = node.value else { return mismatch("true or false") }
        return b
    }

    /// The value as one of the strings in `allowed`; anything else is reported
    /// with the nearest allowed value as a suggestion, or the list of them.
    public func stringEnum(_ allowed: [String]) -> String? {
        guard case .string(let s) = node.value else {
            return mismatch("one of " + allowed.map(quotedForMessage).joined(separator: ", "))
        }
        if allowed.contains(s) { return s }
        if let suggestion = nearestCandidate(to: s, in: allowed) {
            return fail("unknown value \(quotedForMessage(s)); did you mean \(quotedForMessage(suggestion))?")
        }
        return fail("unknown value \(quotedForMessage(s)); expected one of "
                    + allowed.map(quotedForMessage).joined(separator: ", "))
    }

    /// The value as a case of a string-backed enum, checked like `stringEnum(_:)`.
    public func stringEnum<E: RawRepresentable & CaseIterable>(_ type: E.Type) -> E? where E.RawValue == String {
        stringEnum(E.allCases.map(\.rawValue)).flatMap(E.init(rawValue:))
    }
}

/// Cursors at the elements of an array, made as they are read (an array of a
/// million inline rows does not become a million cursors and paths at once).
public struct JSONArrayCursor: RandomAccessCollection {
    enum Elements {
        case parsed(JSONDocument, [UInt32])
        case built([JSONNode])

        var count: Int {
            switch self {
            case .parsed(_, let c): return c.count
            case .built(let n): return n.count
            }
        }
    }

    /// The cursor at the array itself.
    public let parent: JSONCursor
    let elements: Elements

    public var startIndex: Int { 0 }
    public var endIndex: Int { elements.count }

    /// A cursor at element `i`.
    public subscript(i: Int) -> JSONCursor {
        let node: JSONNode
        switch elements {
        case .parsed(let d, let c): node = JSONNode(d, Int(c[i]))
        case .built(let n): node = n[i]
        }
        return JSONCursor(node: node, path: parent.path.appending(index: i), file: parent.file, sink: parent.sink)
    }
}

/// A cursor at an object: its members, and lookups that report missing keys.
public struct JSONObjectCursor {
    /// The cursor at the object itself.
    public let cursor: JSONCursor
    /// The members in document order, duplicates included.
    public let members: [JSONMember]
    /// Index of the first member with each key, for large objects only.
    private let index: [String: Int]?

    /// A view of `members`, the members of the object at `cursor`.
    public init(cursor: JSONCursor, members: [JSONMember]) {
        self.cursor = cursor
        self.members = members
        if members.count > 16 {
            var index: [String: Int] = [:]
            for (i, member) in members.enumerated() where index[member.key] == nil {
                index[member.key] = i
            }
            self.index = index
        } else {
            self.index = nil
        }
    }

    /// The path to the object.
    public var path: JSONPath { cursor.path }
    /// Where the object's `{` is.
    public var location: SourceLocation { cursor.location }
    /// The keys in document order.
    public var keys: [String] { members.map(\.key) }

    /// True when the object has a member `key` (of any value, `null` included).
    public func contains(_ key: String) -> Bool { firstIndex(of: key) != nil }

    /// The index in `members` of the first member named `key`.
    func firstIndex(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    /// A cursor at the member `key`; reports `missing required key` (at the
    /// object) and returns nil when there is none.
    public func required(_ key: String) -> JSONCursor? {
        if let member = optional(key) { return member }
        cursor.report("missing required key \(quotedForMessage(key))")
        return nil
    }

    /// A cursor at the member `key`, or nil when there is none. A `null` value
    /// is returned like any other (the accessors then report it).
    public func optional(_ key: String) -> JSONCursor? {
        guard let i = firstIndex(of: key) else { return nil }
        return child(members[i])
    }

    /// Cursors at every member, in document order, for objects used as
    /// dictionaries (duplicates are reported by `JSONCursor.object()`).
    public var entries: [(key: String, value: JSONCursor)] {
        members.map { (key: $0.key, value: child($0)) }
    }

    private func child(_ member: JSONMember) -> JSONCursor {
        JSONCursor(node: member.value, path: cursor.path.appending(key: member.key),
                   file: cursor.file, sink: cursor.sink)
    }
}

// MARK: - Suggestions

/// The candidate `word` was most likely meant as: equal ignoring case, or at
/// most 2 edits away (and fewer edits than `word` has characters), or a prefix
/// of it or it of them (at least 2 characters); the first of the closest wins.
func nearestCandidate(to word: String, in candidates: [String]) -> String? {
    let w = Array(word.lowercased().unicodeScalars)
    var best: (score: Int, candidate: String)? = nil
    for candidate in candidates {
        let c = Array(candidate.lowercased().unicodeScalars)
        var score: Int? = nil
        if abs(c.count - w.count) <= 2 {
            let d = editDistance(w, c)
            if d <= 2 && d < w.count { score = d }
        }
        if score == nil, w.count >= 2, c.count >= 2, c.starts(with: w) || w.starts(with: c) {
            score = 3
        }
        if let score, score < (best?.score ?? .max) {
            best = (score, candidate)
        }
    }
    return best?.candidate
}

/// Levenshtein distance (insertions, deletions, substitutions).
func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
