import Foundation

// What the command line changes in a document before it is decoded.
//
// `--set PATH=JSON` replaces any value of the parsed document, `--data NAME=FILE` gives a
// table another CSV file, and `--param NAME=VALUE` gives a declared parameter its value.
// They work on the parsed JSON tree, before the decoder sees it, so a value set from the
// command line is checked exactly as if it had been written in the file. Nodes that come
// from the command line carry a location on line 0 (no document has one), whose column
// is the flag's position plus one; errors about them are told as the flag's, not as a
// place in the file (`TimelineDecoder.relocate`).

/// Values given on the command line for one decode: `--set`, `--data` and `--param`.
public struct DocumentInputs: Sendable {
    /// One `--set PATH=JSON` (or a `--data`, which becomes one).
    public struct Assignment: Sendable {
        /// The flag as the user gave it, for messages: `--set charts[0].title=Sales`.
        public var flag: String
        /// Where the value goes.
        public var path: JSONPath
        /// The value: the JSON after `=`, or the text itself when it is not JSON.
        public var value: JSONValue
    }

    /// `--data NAME=FILE`: the table `name` reads `file` (a path as the user typed it).
    public struct DataSource: Sendable {
        /// The flag as given, for messages.
        public var flag: String
        /// The table.
        public var name: String
        /// The CSV file, relative to the working directory or absolute.
        public var file: String
    }

    /// `--param NAME=VALUE`, or a column of a batch's row.
    public struct ParameterValue: Sendable {
        /// The flag as given, for messages (`--param region=EU`, `runs.csv row 3`).
        public var flag: String
        /// The parameter.
        public var name: String
        /// Its value as text; read as the parameter's type.
        public var text: String

        /// A value for the parameter `name`, given by `flag`.
        public init(flag: String, name: String, text: String) {
            self.flag = flag
            self.name = name
            self.text = text
        }
    }

    /// Every `--set`, in order (a later one wins).
    public var assignments: [Assignment] = []
    /// Every `--data`.
    public var dataSources: [DataSource] = []
    /// Every `--param`.
    public var parameters: [ParameterValue] = []

    /// No changes.
    public init() {}

    /// True when nothing is changed.
    public var isEmpty: Bool { assignments.isEmpty && dataSources.isEmpty && parameters.isEmpty }

    /// Parses `--set PATH=JSON` (`argument` is what follows the flag).
    public static func assignment(_ argument: String) throws(InputError) -> Assignment {
        let flag = "--set " + argument
        guard let eq = equalsIndex(argument) else {
            throw InputError(flag: "--set \(argument)", message: "expected PATH=VALUE, such as charts[0].title=\"Sales\"")
        }
        let pathText = String(argument[..<eq])
        let valueText = String(argument[argument.index(after: eq)...])
        let path: JSONPath
        do throws(InputError) {
            path = try parsePath(pathText)
        } catch {
            throw InputError(flag: "--set \(pathText)", message: error.message)
        }
        guard !path.isRoot else { throw InputError(flag: "--set", message: "a path is needed before \"=\" (the document itself cannot be replaced)") }
        // JSON when it parses as JSON, otherwise the text: `--set title=Sales 2026`.
        let value: JSONValue
        if let node = try? JSONParser.parse(valueText) { value = node.value } else { value = .string(valueText) }
        return Assignment(flag: flag, path: path, value: value)
    }

    /// Parses `--data NAME=FILE`.
    public static func dataSource(_ argument: String) throws(InputError) -> DataSource {
        guard let eq = argument.firstIndex(of: "="), eq != argument.startIndex, argument.index(after: eq) != argument.endIndex else {
            throw InputError(flag: "--data \(argument)", message: "expected NAME=FILE, such as sales=week49.csv")
        }
        return DataSource(flag: "--data " + argument, name: String(argument[..<eq]), file: String(argument[argument.index(after: eq)...]))
    }

    /// Parses `--param NAME=VALUE`.
    public static func parameter(_ argument: String) throws(InputError) -> ParameterValue {
        guard let eq = argument.firstIndex(of: "="), eq != argument.startIndex else {
            throw InputError(flag: "--param \(argument)", message: "expected NAME=VALUE, such as region=EU")
        }
        return ParameterValue(flag: "--param " + argument, name: String(argument[..<eq]),
                              text: String(argument[argument.index(after: eq)...]))
    }

    /// The first `=` outside brackets and quotes (a key may be `data["a=b"]`).
    static func equalsIndex(_ s: String) -> String.Index? {
        var depth = 0, quoted = false, escaped = false
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if quoted {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { quoted = false }
            } else if c == "\"" { quoted = true }
            else if c == "[" { depth += 1 }
            else if c == "]" { depth -= 1 }
            else if c == "=" && depth == 0 { return i }
            i = s.index(after: i)
        }
        return nil
    }

    /// Parses a JSON path as `JSONPath` prints it: `charts[0].y.domain`, `data["unit price"].file`.
    public static func parsePath(_ text: String) throws(InputError) -> JSONPath {
        var path = JSONPath()
        let s = Array(text.unicodeScalars)
        var i = 0
        func bad(_ why: String) -> InputError { InputError(flag: "--set \(text)", message: why) }
        while i < s.count {
            if s[i] == "[" {
                i += 1
                if i < s.count, s[i] == "\"" {
                    // A quoted key with JSON escapes, up to the closing quote.
                    var j = i + 1, escaped = false
                    while j < s.count && (escaped || s[j] != "\"") { escaped = !escaped && s[j] == "\\"; j += 1 }
                    guard j + 1 < s.count, s[j + 1] == "]" else { throw bad("a quoted key in [\"…\"] is not closed") }
                    var key = String(String.UnicodeScalarView(s[i...j]))
                    if let node = try? JSONParser.parse(key), case .string(let k) = node.value { key = k } else { throw bad("bad key \(key)") }
                    path.components.append(.key(key))
                    i = j + 2
                } else {
                    var j = i
                    while j < s.count && s[j] != "]" { j += 1 }
                    let digits = String(String.UnicodeScalarView(s[i..<j]))
                    guard j < s.count, let n = Int(digits), n >= 0 else {
                        throw bad("expected an index such as [0] or a quoted key such as [\"unit price\"], found [\(digits)")
                    }
                    path.components.append(.index(n))
                    i = j + 1
                }
            } else {
                if s[i] == "." {
                    guard !path.isRoot else { throw bad("a path does not start with \".\"") }
                    i += 1
                }
                var j = i
                while j < s.count && s[j] != "." && s[j] != "[" { j += 1 }
                guard j > i else { throw bad("an empty key in the path") }
                path.components.append(.key(String(String.UnicodeScalarView(s[i..<j]))))
                i = j
            }
        }
        return path
    }
}

/// A `--set`, `--data` or `--param` that cannot be applied: exit 2 with the flag named,
/// `--set charts[3]: the document has 2 charts`.
public struct InputError: Error, Sendable, CustomStringConvertible {
    /// The flag and the part of its value at fault: `--set charts[3]`.
    public var flag: String
    /// What is wrong.
    public var message: String
    /// Creates an error.
    public init(flag: String, message: String) {
        self.flag = flag
        self.message = message
    }
    /// `--set charts[3]: the document has 2 charts`.
    public var description: String { "\(flag): \(message)" }
}

extension DocumentInputs {
    /// The location given to nodes from the command line: line 0, which no document has.
    static func commandLineLocation(_ index: Int) -> SourceLocation { SourceLocation(line: 0, column: index + 1) }

    /// `value` with every location, its children's too, set to `location`.
    static func relocated(_ value: JSONValue, at location: SourceLocation) -> JSONNode {
        switch value {
        case .array(let items):
            return JSONNode(value: .array(items.map { relocated($0.value, at: location) }), location: location)
        case .object(let members):
            return JSONNode(value: .object(members.map {
                JSONMember(key: $0.key, keyLocation: location, value: relocated($0.value.value, at: location))
            }), location: location)
        default:
            return JSONNode(value: value, location: location)
        }
    }

    /// Applies the `--data` sources and then the `--set` assignments to the document's
    /// tree. `index(of:)` numbers them for their locations (see `commandLineLocation`);
    /// `dataIndex` numbers the data sources after the assignments.
    func apply(to root: inout JSONNode) throws(InputError) {
        for (k, source) in dataSources.enumerated() {
            let location = Self.commandLineLocation(assignments.count + k)
            guard case .object(var members) = root.value,
                  let d = members.firstIndex(where: { $0.key == "data" }),
                  case .object(var tables) = members[d].value.value else {
                throw InputError(flag: "--data \(source.name)", message: "the document has no data tables")
            }
            guard let t = tables.firstIndex(where: { $0.key == source.name }) else {
                var message = "the document has no table \(quotedForMessage(source.name))"
                let names = tables.map(\.key)
                if let near = nearestCandidate(to: source.name, in: names) {
                    message += "; did you mean \(quotedForMessage(near))?"
                } else {
                    message += "; its tables are " + names.map(quotedForMessage).joined(separator: ", ")
                }
                throw InputError(flag: "--data \(source.name)", message: message)
            }
            // Relative to where the command was typed, not to the document.
            let file = source.file.hasPrefix("/") ? source.file
                : FileManager.default.currentDirectoryPath + "/" + source.file
            var table: [JSONMember] = []
            if case .object(let m) = tables[t].value.value { table = m.filter { $0.key != "values" && $0.key != "file" } }
            table.append(JSONMember(key: "file", keyLocation: location, value: JSONNode(value: .string(file), location: location)))
            tables[t].value = JSONNode(value: .object(table), location: tables[t].value.location)
            members[d].value = JSONNode(value: .object(tables), location: members[d].value.location)
            root = JSONNode(value: .object(members), location: root.location)
        }
        for (k, a) in assignments.enumerated() {
            let node = Self.relocated(a.value, at: Self.commandLineLocation(k))
            try Self.set(&root, a.path.components[...], to: node, walked: JSONPath())
        }
    }

    /// The directories of the `--data` files: the user named them, so the document may read them.
    var dataDirectories: [String] {
        dataSources.map { s in
            let file = s.file.hasPrefix("/") ? s.file : FileManager.default.currentDirectoryPath + "/" + s.file
            return (file as NSString).deletingLastPathComponent
        }
    }

    /// Sets the value at `path` under `node` (reached by `walked`), creating objects for
    /// keys that are missing on the way; an index must exist.
    static func set(_ node: inout JSONNode, _ path: ArraySlice<JSONPath.Component>, to value: JSONNode,
                    walked: JSONPath) throws(InputError) {
        guard let step = path.first else {
            node = value
            return
        }
        let here: JSONPath
        switch step {
        case .key(let key): here = walked.appending(key: key)
        case .index(let i): here = walked.appending(index: i)
        }
        let owner = walked.isRoot ? "the document" : walked.description
        let parent = JSONPath(Array(walked.components.dropLast()))
        switch (step, node.value) {
        case (.key(let key), .object(var members)):
            if let i = members.firstIndex(where: { $0.key == key }) {
                try set(&members[i].value, path.dropFirst(), to: value, walked: here)
            } else {
                var child = JSONNode(value: .object([]), location: value.location)
                try set(&child, path.dropFirst(), to: value, walked: here)
                members.append(JSONMember(key: key, keyLocation: value.location, value: child))
            }
            node = JSONNode(value: .object(members), location: node.location)
        case (.index(let i), .array(var items)):
            guard i < items.count else {
                throw InputError(flag: "--set \(here)", message: "\(parent.isRoot ? "the document" : parent.description) has \(counted(items.count, of: walked))")
            }
            try set(&items[i], path.dropFirst(), to: value, walked: here)
            node = JSONNode(value: .array(items), location: node.location)
        case (.key, _):
            throw InputError(flag: "--set \(here)", message: "\(owner) is \(node.value.kindDescription), not an object")
        case (.index, _):
            throw InputError(flag: "--set \(here)", message: "\(owner) is \(node.value.kindDescription), not an array")
        }
    }

    /// `2 charts`, `1 chart`, `3 elements`: an array's length named after its key when the
    /// key is a plural (`charts`, `marks`, `values`).
    static func counted(_ n: Int, of path: JSONPath) -> String {
        if case .key(let key)? = path.components.last, key.hasSuffix("s"), key.count > 1 {
            return n == 1 ? "1 \(key.dropLast())" : "\(n) \(key)"
        }
        return n == 1 ? "1 element" : "\(n) elements"
    }
}
