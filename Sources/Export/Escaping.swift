/// Quoting and escaping text for other programs (a shell, ffmpeg's concat lists, HTML),
/// done on Unicode scalars.
///
/// `replacingOccurrences(of:with:)` compares whole Characters (grapheme clusters), and a
/// combining mark joins the scalar before it into one: in "'" + U+0301 it finds no "'",
/// so a quote, a slash or an angle bracket followed by a mark went through unescaped.
extension String {
    /// This text with each Unicode scalar for which `replacement` gives text replaced by
    /// that text, in one pass (a replacement is not looked at again).
    public func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(unicodeScalars.count)
        for scalar in unicodeScalars {
            if let r = replacement(scalar) { out += r } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}

/// `s` as a single-quoted string for a POSIX shell or an ffconcat list: each `'` closes
/// the quote, is escaped, and reopens it.
public func singleQuoted(_ s: String) -> String {
    "'" + s.replacingScalars { $0 == "'" ? "'\\''" : nil } + "'"
}
