import Foundation

/// A command line split into positional arguments and options, with typed accessors
/// that throw `UsageError` naming the option and what it expects.
struct Arguments {
    var positional: [String] = []
    var options: [String: String] = [:]
    /// Every value of each option, in order, for options that may be repeated.
    var allValues: [String: [String]] = [:]
    var flags: Set<String> = []

    /// Parses `args`. Every name in `valued` takes a value (`--fps 30` or `--fps=30`);
    /// every name in `flags` stands alone; anything else starting with `-` is an error.
    /// A lone `-` and negative numbers are positional.
    init(_ args: [String], flags allowedFlags: Set<String>, valued: Set<String>) throws {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "-" || !a.hasPrefix("-") || Double(a) != nil {
                positional.append(a)
            } else if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                let key = String(a[..<eq])
                guard valued.contains(key) else { throw UsageError("unknown option \(key)") }
                options[key] = String(a[a.index(after: eq)...])
                allValues[key, default: []].append(options[key]!)
            } else if valued.contains(a) {
                guard i + 1 < args.count else { throw UsageError("\(a) needs a value") }
                options[a] = args[i + 1]
                allValues[a, default: []].append(args[i + 1])
                i += 1
            } else {
                guard allowedFlags.contains(a) else { throw UsageError("unknown option \(a)") }
                flags.insert(a)
            }
            i += 1
        }
    }

    /// The value of the first of `names` given.
    func value(_ names: String...) -> String? {
        for n in names { if let v = options[n] { return v } }
        return nil
    }

    /// Every value given for `name` (an option that may be repeated).
    func values(_ name: String) -> [String] { allValues[name] ?? [] }

    /// Whether any of `names` was given as a flag.
    func flag(_ names: String...) -> Bool { names.contains { flags.contains($0) } }

    /// A whole-number option within `min...max`.
    func int(_ name: String, min: Int, max: Int) throws -> Int? {
        guard let s = options[name] else { return nil }
        guard let v = Int(s), v >= min, v <= max else {
            throw UsageError("\(name) expects a whole number from \(min) to \(max), got \"\(s)\"")
        }
        return v
    }

    /// A number option within `min...max`.
    func double(_ name: String, min: Double, max: Double) throws -> Double? {
        guard let s = options[name] else { return nil }
        guard let v = Double(s), v.isFinite, v >= min, v <= max else {
            throw UsageError("\(name) expects a number from \(fmt(min)) to \(fmt(max)), got \"\(s)\"")
        }
        return v
    }

    /// An option parsed by `parse`, which returns nil for a bad value; `expected` says what it takes.
    func parsed<T>(_ name: String, expected: String, _ parse: (String) -> T?) throws -> T? {
        guard let s = options[name] else { return nil }
        guard let v = parse(s) else { throw UsageError("\(name) expects \(expected), got \"\(s)\"") }
        return v
    }
}

/// `2`, `0.5`, `1e+06`: a number as short as it reads.
func fmt(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
}

/// Bad command-line usage: exit code 2 with the message and a pointer to --help.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
