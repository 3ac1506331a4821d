import Synchronization

/// Fonts loaded once per process and shared: a document names a family or a file many
/// times (every label), and loading a face parses its tables.
public enum FontCache {
    private static let fonts = Mutex<[String: Font]>([:])

    /// The font for `family` (a family name or a font file path; DejaVu Sans when nil),
    /// bold or regular, loaded on first use.
    public static func font(family: String? = nil, bold: Bool = false) throws -> Font {
        let key = "\(family ?? "")|\(bold)"
        if let f = fonts.withLock({ $0[key] }) { return f }
        let path = try FontLocator.locate(family: family, bold: bold)
        let font = try Font(path: path)
        return fonts.withLock { table in
            if let existing = table[key] { return existing }
            table[key] = font
            return font
        }
    }
}
