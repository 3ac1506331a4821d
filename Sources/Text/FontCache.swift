import Synchronization

/// Fonts loaded once per process and shared: a document names a family or a file many
/// times (every label), and loading a face parses its tables. Fallback fonts chosen by
/// fontconfig are loaded here too, once per face.
public enum FontCache {
    private static let fonts = Mutex<[String: Font]>([:])
    private static let faces = Mutex<[FontFace: Font]>([:])

    /// The font for `family` (a family name or a font file path; DejaVu Sans when nil),
    /// bold or regular, loaded on first use.
    public static func font(family: String? = nil, bold: Bool = false) throws -> Font {
        try font(family: family, style: bold ? .bold : .regular)
    }

    /// The font for `family` in any weight and slant fontconfig can match, loaded on first use.
    public static func font(family: String? = nil, style: FontStyle) throws -> Font {
        let key = "\(family ?? "")|\(style.weight)|\(style.italic)"
        if let f = fonts.withLock({ $0[key] }) { return f }
        let font = try self.font(face: try FontLocator.locateFace(family: family, style: style))
        return fonts.withLock { table in
            if let existing = table[key] { return existing }
            table[key] = font
            return font
        }
    }

    /// The font for a face on disk, loaded on first use.
    public static func font(face: FontFace) throws -> Font {
        if let f = faces.withLock({ $0[face] }) { return f }
        let font = try Font(path: face.path, faceIndex: face.index)
        return faces.withLock { table in
            if let existing = table[face] { return existing }
            table[face] = font
            return font
        }
    }
}
