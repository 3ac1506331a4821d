/// Where a value sits in a document: the keys and indices leading to it from
/// the root, printed as `charts[0].marks[1].stroke`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// One step from a container to a child.
    public enum Component: Hashable, Sendable {
        /// The member of an object with this key.
        case key(String)
        /// The element of an array at this 0-based index.
        case index(Int)
    }

    /// The steps from the document root, outermost first.
    public var components: [Component]

    /// Creates a path from its steps; no steps is the document root.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// The document root.
    public static let root = JSONPath()

    /// True for the document root.
    public var isRoot: Bool { components.isEmpty }

    /// This path extended to the member `key`.
    public func appending(key: String) -> JSONPath {
        var path = self
        path.components.append(.key(key))
        return path
    }

    /// This path extended to the array element at `index`.
    public func appending(index: Int) -> JSONPath {
        var path = self
        path.components.append(.index(index))
        return path
    }

    /// `charts[0].marks[1].stroke`; keys that are not identifiers print as
    /// `data["unit price"]`; the root prints as `(document root)`.
    public var description: String {
        components.isEmpty ? "(document root)" : Self.text(components[...], continuing: false)
    }

    /// The path for a one-line message: as `description`, but a path deeper than 16
    /// steps (only a pathological document has one) keeps its first and last 8 steps
    /// around `…`, so a message stays readable.
    public var abbreviated: String {
        guard components.count > 16 else { return description }
        return Self.text(components.prefix(8), continuing: false) + "…"
            + Self.text(components.suffix(8), continuing: true)
    }

    /// The steps as text; `continuing` steps follow others, so a first key gets its dot.
    private static func text(_ steps: ArraySlice<Component>, continuing: Bool) -> String {
        var out = ""
        var first = !continuing
        for component in steps {
            switch component {
            case .key(let key) where isIdentifier(key):
                if !first { out += "." }
                out += key
            case .key(let key):
                out += "[" + quotedForPath(key) + "]"
            case .index(let index):
                out += "[\(index)]"
            }
            first = false
        }
        return out
    }

    /// ASCII letters, digits and `_`, not starting with a digit.
    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return key.utf8.allSatisfy { b in
            (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_")
        }
    }
}

/// `key` in double quotes with JSON escapes, never shortened (a path must be exact).
private func quotedForPath(_ key: String) -> String {
    var out = "\""
    for scalar in key.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20: out += "\\u" + hex4(UInt16(scalar.value))
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
