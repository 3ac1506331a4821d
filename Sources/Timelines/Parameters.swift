import Foundation

// Named parameters a document declares under "params", used as "{params.NAME}" in its
// strings.
//
// A parameter is resolved on the parsed tree before decoding, like the command line's
// `--set`: every string of the document (keys and the "params" object itself excepted)
// that holds "{params.NAME}" gets the parameter's value. A string that is exactly one
// reference becomes the value itself, with its type (a number stays a number, so
// `"equals": "{params.year}"` filters a number column and `"domain": [0, "{params.max}"]`
// is a domain); a reference inside longer text is replaced by the value's text
// ("Sales in {params.region}"). The substituted value keeps the location of the string
// it replaced, so a mistake is still reported where the reference is written.

/// A parameter a document declares: `"params": { "region": { "default": "EU" } }`.
public struct DocumentParameter: Sendable, Equatable {
    /// The kinds of value a parameter takes.
    public enum Kind: String, CaseIterable, Sendable {
        /// Text.
        case string
        /// A number (a finite double).
        case number
        /// `true` or `false`.
        case boolean
    }

    /// The name used in `{params.NAME}`.
    public var name: String
    /// The kind of value.
    public var type: Kind
    /// The value when none is given; nil when one must be given.
    public var defaultValue: JSONValue?
    /// The value in force.
    public var value: JSONValue
    /// Who gave the value (`--param region=NA`), or nil for the default.
    public var givenBy: String?
    /// What the parameter is for, as the document says.
    public var description: String?

    /// The value as text: `EU`, `2026`, `true`.
    public static func text(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): return s
        case .number(_, let literal): return literal
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array, .object: return "…"
        }
    }
}

extension TimelineDecoder {
    /// The keys of one parameter's declaration.
    static let parameterKeys = ["default", "type", "description"]

    /// The declared kind of the parameter declared by `declaration`: its `"type"`, or
    /// the kind of its `"default"`; string when neither says.
    static func declaredKind(_ declaration: JSONValue) -> DocumentParameter.Kind {
        guard case .object(let members) = declaration else { return .string }
        if let t = members.first(where: { $0.key == "type" }), case .string(let s) = t.value.value,
           let kind = DocumentParameter.Kind(rawValue: s) {
            return kind
        }
        switch members.first(where: { $0.key == "default" })?.value.value {
        case .number?: return .number
        case .bool?: return .boolean
        default: return .string
        }
    }

    /// Reads the given values (`--param`, a batch row) as the parameters' kinds; a name
    /// the document does not declare, or a value that is not of its kind, is an
    /// `InputError` naming the flag.
    static func givenParameterValues(_ given: [DocumentInputs.ParameterValue], root: JSONNode) throws(InputError)
        -> [String: (value: JSONValue, flag: String)] {
        var declared: [JSONMember] = []
        if case .object(let members) = root.value, let p = members.first(where: { $0.key == "params" }),
           case .object(let params) = p.value.value {
            declared = params
        }
        var out: [String: (value: JSONValue, flag: String)] = [:]
        for g in given {
            guard let d = declared.first(where: { $0.key == g.name }) else {
                var message = "the document declares no parameter \(quotedForMessage(g.name))"
                if let near = nearestCandidate(to: g.name, in: declared.map(\.key)) {
                    message += "; did you mean \(quotedForMessage(near))?"
                } else if declared.isEmpty {
                    message += " (it has no \"params\")"
                } else {
                    message += "; it declares " + declared.map { quotedForMessage($0.key) }.joined(separator: ", ")
                }
                throw InputError(flag: g.flag, message: message)
            }
            switch declaredKind(d.value.value) {
            case .string:
                out[g.name] = (.string(g.text), g.flag)
            case .number:
                guard let v = Double(g.text), v.isFinite else {
                    throw InputError(flag: g.flag, message: "the parameter \(quotedForMessage(g.name)) is a number, found \(quotedForMessage(g.text))")
                }
                out[g.name] = (.number(v, literal: g.text), g.flag)
            case .boolean:
                guard g.text == "true" || g.text == "false" else {
                    throw InputError(flag: g.flag, message: "the parameter \(quotedForMessage(g.name)) is true or false, found \(quotedForMessage(g.text))")
                }
                out[g.name] = (.bool(g.text == "true"), g.flag)
            }
        }
        return out
    }

    /// Decodes the root's `"params"`, gives each parameter its value (given, or its
    /// default) and returns the tree with every reference replaced. Problems are
    /// reported to `root`'s sink.
    static func resolveParameters(_ root: JSONCursor, given: [String: (value: JSONValue, flag: String)])
        -> (root: JSONNode, parameters: [DocumentParameter]) {
        var parameters: [DocumentParameter] = []
        if case .object(let members) = root.value, let member = members.first(where: { $0.key == "params" }),
           let params = JSONCursor(node: member.value, path: JSONPath().appending(key: "params"), file: root.file,
                                   sink: root.sink).object() {
            for (name, c) in params.entries {
                guard let obj = c.object(allowedKeys: parameterKeys) else { continue }
                var kind: DocumentParameter.Kind? = nil
                if let t = obj.optional("type") { kind = t.stringEnum(DocumentParameter.Kind.self); if kind == nil { continue } }
                var defaultValue: JSONValue? = nil
                if let d = obj.optional("default") {
                    switch (d.value, kind) {
                    case (.string, nil), (.string, .string?): defaultValue = d.value; kind = .string
                    case (.number, nil), (.number, .number?): defaultValue = d.value; kind = .number
                    case (.bool, nil), (.bool, .boolean?): defaultValue = d.value; kind = .boolean
                    case (_, let k?): d.report("expected a default of type \(k.rawValue), found \(d.value.kindDescription)"); continue
                    case (_, nil): d.report("expected a string, a number, true or false, found \(d.value.kindDescription)"); continue
                    }
                    if case .string = d.value, d.string() == nil { continue }
                }
                let description = obj.optional("description")?.string()
                let value: JSONValue
                let givenBy = given[name]?.flag
                if let g = given[name] {
                    value = g.value
                } else if let defaultValue {
                    value = defaultValue
                } else {
                    c.report("the parameter \(quotedForMessage(name)) has no \"default\", and no value was given "
                             + "(--param \(name)=VALUE, or a batch column \(quotedForMessage(name)))")
                    continue
                }
                parameters.append(DocumentParameter(name: name, type: kind ?? .string, defaultValue: defaultValue,
                                                    value: value, givenBy: givenBy, description: description))
            }
        }
        let values = Dictionary(parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        var declaredNames: [String] = []
        if case .object(let m) = root.value, let p = m.first(where: { $0.key == "params" }), case .object(let ps) = p.value.value {
            declaredNames = ps.map(\.key)
        }
        // A parsed text that never spells "{params." has nothing to substitute; walking
        // it would read every value of a document of a million inline rows.
        if let parsed = root.node.parsed, !parsed.document.mayContain("{params.") { return (root.node, parameters) }
        let node = substitute(root.node, path: JSONPath(), values: values, declared: declaredNames, cursor: root)
        return (node, parameters)
    }

    /// `node` with every `{params.NAME}` in its strings replaced (see the file's comment).
    /// References to parameters that are declared but unusable (reported already) are left.
    static func substitute(_ node: JSONNode, path: JSONPath, values: [String: JSONValue], declared: [String],
                           cursor: JSONCursor) -> JSONNode {
        switch node.value {
        case .string(let s):
            guard s.contains("{params.") else { return node }
            var out = ""
            var whole: JSONValue? = nil
            var rest = s[...]
            while let open = rest.range(of: "{params.") {
                guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
                let name = String(rest[open.upperBound..<close])
                out += rest[..<open.lowerBound]
                if let v = values[name] {
                    if open.lowerBound == s.startIndex && rest.index(after: close) == s.endIndex { whole = v }
                    out += DocumentParameter.text(v)
                } else {
                    if !declared.contains(name) {
                        var message = "unknown parameter \(quotedForMessage(name))"
                        if let near = nearestCandidate(to: name, in: declared) {
                            message += "; did you mean \(quotedForMessage(near))?"
                        } else if declared.isEmpty {
                            message += "; declare it in the document's \"params\": { \(quotedForMessage(name)): { \"default\": … } }"
                        } else {
                            message += "; the document declares " + declared.map(quotedForMessage).joined(separator: ", ")
                        }
                        cursor.sink.report(DocumentError(file: cursor.file, path: path, location: node.location, message: message))
                    }
                    out += rest[open.lowerBound...close]
                }
                rest = rest[rest.index(after: close)...]
            }
            out += rest
            return JSONNode(value: whole ?? .string(out), location: node.location)
        case .array(let items):
            // Unchanged containers are kept as they are (parsed nodes stay on the tape).
            var changed = false
            let out = items.enumerated().map { i, item in
                let new = substitute(item, path: path.appending(index: i), values: values, declared: declared, cursor: cursor)
                if !new.isSame(as: item) { changed = true }
                return new
            }
            return changed ? JSONNode(value: .array(out), location: node.location) : node
        case .object(let members):
            var changed = false
            let out = members.map { m in
                if path.isRoot && m.key == "params" { return m }
                var m = m
                let new = substitute(m.value, path: path.appending(key: m.key), values: values, declared: declared, cursor: cursor)
                if !new.isSame(as: m.value) { changed = true }
                m.value = new
                return m
            }
            return changed ? JSONNode(value: .object(out), location: node.location) : node
        default:
            return node
        }
    }
}
