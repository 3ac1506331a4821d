/// A command line split into positional arguments and options, with typed accessors
/// that throw `UsageError` naming the option and what it expects.
struct Arguments {
    var positional: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    /// Options that take a value; everything else starting with `-` is a flag.
    static let valued: Set<String> = ["-o", "--output", "--format", "--threads", "--at", "--frame", "--fps"]

    init(_ args: [String], allowedFlags: Set<String>, allowedOptions: Set<String>) throws {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "-" || !a.hasPrefix("-") || Double(a) != nil {
                positional.append(a)
            } else if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                let key = String(a[..<eq])
                guard allowedOptions.contains(key) else { throw UsageError("unknown option \(key)") }
                options[key] = String(a[a.index(after: eq)...])
            } else if Self.valued.contains(a) {
                guard allowedOptions.contains(a) else { throw UsageError("unknown option \(a)") }
                guard i + 1 < args.count else { throw UsageError("\(a) needs a value") }
                options[a] = args[i + 1]
                i += 1
            } else {
                guard allowedFlags.contains(a) else { throw UsageError("unknown option \(a)") }
                flags.insert(a)
            }
            i += 1
        }
    }

    func value(_ names: String...) -> String? {
        for n in names { if let v = options[n] { return v } }
        return nil
    }

    func int(_ name: String, min: Int, max: Int) throws -> Int? {
        guard let s = options[name] else { return nil }
        guard let v = Int(s), v >= min, v <= max else {
            throw UsageError("\(name) expects a whole number from \(min) to \(max), got \"\(s)\"")
        }
        return v
    }

    func double(_ name: String, min: Double, max: Double) throws -> Double? {
        guard let s = options[name] else { return nil }
        guard let v = Double(s), v.isFinite, v >= min, v <= max else {
            throw UsageError("\(name) expects a number from \(min) to \(max), got \"\(s)\"")
        }
        return v
    }
}

/// Bad command-line usage: exit code 2 with the message and a pointer to --help.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
