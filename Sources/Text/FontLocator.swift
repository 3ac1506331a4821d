import Foundation

/// Finds the font file for a family name, the way DESIGN.md's "Fonts" section says:
/// fontconfig first (through the `fc-match` tool, so no libfontconfig link is
/// needed), then the standard DejaVu paths, so a machine with
/// `fonts-dejavu-core` but no fontconfig still renders text.
public enum FontLocator {
    /// The family used when a document names none.
    public static let defaultFamily = "DejaVu Sans"

    /// Where distributions put DejaVu Sans: Debian/Ubuntu, Fedora, Arch, Alpine.
    static let standardDirectories = [
        "/usr/share/fonts/truetype/dejavu",
        "/usr/share/fonts/dejavu-sans-fonts",
        "/usr/share/fonts/TTF",
        "/usr/share/fonts/dejavu",
    ]

    /// File extensions FreeType opens; a `family` ending in one is taken as a path.
    static let fontExtensions: Set<String> = ["ttf", "otf", "ttc", "otc", "pfb", "pfa", "woff", "woff2"]

    /// Returns the path of a font file for `family` (nil or empty: `defaultFamily`).
    ///
    /// `family` may also be a file path (it contains `/` or ends in a font
    /// extension such as `.ttf`); then the file must exist and `bold` is ignored.
    /// A family name is resolved by `fc-match`; because fc-match always returns
    /// *some* font, an answer whose family names do not contain the requested
    /// name (case-insensitively) counts as missing. For the default family the
    /// standard DejaVu paths are tried next; a bold request that finds only the
    /// regular file gets the regular file, as fc-match itself would answer.
    ///
    /// - Throws: `TextError.fontNotFound` naming what was looked for.
    public static func locate(family: String? = nil, bold: Bool = false) throws -> String {
        let requested = family.flatMap { $0.isEmpty ? nil : $0 } ?? defaultFamily
        if looksLikePath(requested) {
            guard isRegularFile(requested) else { throw TextError.fontNotFound(requested) }
            return requested
        }
        let isDefault = requested.caseInsensitiveCompare(defaultFamily) == .orderedSame
        func standardFile(_ names: [String]) -> String? {
            for name in names {
                for dir in standardDirectories {
                    let candidate = dir + "/" + name
                    if isRegularFile(candidate) { return candidate }
                }
            }
            return nil
        }
        // The default family is looked for at its standard path first: asking fc-match
        // starts a process that loads fontconfig's cache, about 0.1 s of every run — as
        // long as rendering a hundred frames. fc-match answers the same file there.
        if isDefault, let file = standardFile([bold ? "DejaVuSans-Bold.ttf" : "DejaVuSans.ttf"]) { return file }
        if let file = fontconfigMatch(family: requested, bold: bold) { return file }
        if isDefault, let file = standardFile(bold ? ["DejaVuSans-Bold.ttf", "DejaVuSans.ttf"] : ["DejaVuSans.ttf"]) { return file }
        throw TextError.fontNotFound(bold ? "\(requested):Bold" : requested)
    }

    static func looksLikePath(_ s: String) -> Bool {
        if s.contains("/") { return true }
        guard let dot = s.lastIndex(of: ".") else { return false }
        return fontExtensions.contains(s[s.index(after: dot)...].lowercased())
    }

    static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Asks fc-match for the family; nil when fc-match is absent, fails, or
    /// substitutes another family.
    static func fontconfigMatch(family: String, bold: Bool) -> String? {
        guard let tool = executable(named: "fc-match") else { return nil }
        let pattern = escapePattern(family) + (bold ? ":style=Bold" : "")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-f", "%{file}\n%{family}", pattern]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        // Read before waiting: a full pipe would otherwise block fc-match forever.
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let text = String(data: data, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard lines.count == 2 else { return nil }
        let file = String(lines[0]), families = lines[1].lowercased()
        // fc-match lists every (localized) family name of the face, comma-separated.
        let wanted = family.lowercased()
        let matches = families.split(separator: ",").contains { $0.contains(wanted) }
        guard matches, isRegularFile(file) else { return nil }
        return file
    }

    /// Escapes the characters that separate fields in a fontconfig pattern.
    static func escapePattern(_ family: String) -> String {
        var out = ""
        for c in family {
            if c == "\\" || c == "-" || c == ":" || c == "," { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// The first executable called `name` on PATH.
    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = dir + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
