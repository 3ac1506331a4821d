import Foundation

/// Finds the font file for a family name, the way DESIGN.md's "Fonts" section says:
/// fontconfig first (through its library, see Fontconfig.swift), then the standard
/// DejaVu paths, so a machine with `fonts-dejavu-core` but no fontconfig
/// configuration still renders text.
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
    /// A family name is resolved by fontconfig; because fontconfig always returns
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
        // The default family is looked for at its standard path first: fontconfig's
        // first query loads its configuration and cache, which a document using only the
        // default font need not pay. fontconfig answers the same file there.
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

    /// Asks fontconfig's library for the family; nil when fontconfig is unavailable or
    /// substitutes another family (fontconfig always answers *some* font).
    static func fontconfigMatch(family: String, bold: Bool) -> String? {
        fontconfigFace(family: family, style: bold ? .bold : .regular)?.path
    }

    /// The face fontconfig matches for `family` in `style`, accepted only when one of the
    /// face's family names contains the requested name (case-insensitively).
    static func fontconfigFace(family: String, style: FontStyle) -> FontFace? {
        guard let (face, families) = Fontconfig.match(family: family, style: style) else { return nil }
        let wanted = family.lowercased()
        guard families.contains(where: { $0.lowercased().contains(wanted) }), isRegularFile(face.path) else { return nil }
        return face
    }

    /// The face for `family` in `style`: like `locate(family:bold:)`, for any weight and
    /// slant fontconfig knows (a file path is taken as face 0 of that file). The default
    /// family's regular and bold faces are found at their standard paths without
    /// starting fontconfig.
    ///
    /// - Throws: `TextError.fontNotFound` naming what was looked for.
    public static func locateFace(family: String? = nil, style: FontStyle = .regular) throws -> FontFace {
        let requested = family.flatMap { $0.isEmpty ? nil : $0 } ?? defaultFamily
        if style.italic == false && (style.weight == 400 || style.weight == 700) || looksLikePath(requested) {
            return FontFace(path: try locate(family: family, bold: style.weight == 700))
        }
        if let face = fontconfigFace(family: requested, style: style) { return face }
        throw TextError.fontNotFound("\(requested):weight=\(style.weight)\(style.italic ? ":italic" : "")")
    }
}
