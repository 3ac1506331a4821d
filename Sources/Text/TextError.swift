/// Errors of the Text module: finding a font file and loading it.
///
/// Both happen at the I/O boundary (a document names a font, or the default is
/// used); once a `Font` exists, measuring and outlining never fail.
public enum TextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No font file matched the request. The value is what was looked for: a
    /// family name with its style (for example `"DejaVu Sans:Bold"`) or a file path.
    case fontNotFound(String)
    /// FreeType could not open the file as a font face. `code` is FreeType's
    /// `FT_Error` (1: cannot open the file, 2: unknown file format, 3: broken file).
    case fontLoadFailed(path: String, code: Int32)
    /// The file loaded but cannot give outlines (a bitmap-only face): ChartReel
    /// fills glyph outlines with its own rasterizer and never uses bitmaps.
    case fontNotScalable(path: String)

    /// A message for people: what failed and how to fix it.
    public var description: String {
        switch self {
        case .fontNotFound(let what):
            var message = "font not found: \(what) (looked up with fontconfig's fc-match and in the standard font directories)"
            if what.lowercased().hasPrefix(FontLocator.defaultFamily.lowercased()) {
                message += "; install the default font with `apt-get install fonts-dejavu-core`"
            } else {
                message += "; install the font or give the path of a .ttf/.otf file"
            }
            return message
        case .fontLoadFailed(let path, let code):
            return "cannot load font file \(path): FreeType error \(code) (\(TextError.freeTypeMeaning(code)))"
        case .fontNotScalable(let path):
            return "font file \(path) has no scalable outlines (bitmap-only fonts are not supported)"
        }
    }

    /// Meanings of the FreeType errors a bad font file produces. FreeType's own
    /// `FT_Error_String` returns nil unless the library was built with
    /// `FT_CONFIG_OPTION_ERROR_STRINGS`, which distribution packages leave off.
    private static func freeTypeMeaning(_ code: Int32) -> String {
        switch code {
        case 0x01: return "cannot open resource"
        case 0x02: return "unknown file format"
        case 0x03: return "broken file"
        case 0x06: return "invalid argument"
        case 0x40: return "out of memory"
        default: return "see fterrdef.h"
        }
    }
}
