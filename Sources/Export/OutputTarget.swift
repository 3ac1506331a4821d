// What is at an output path, and whether chartreel may write there. Decided before any
// frame is rendered, so a refusal costs nothing and destroys nothing:
//
// - `-y` replaces only what chartreel writes: a file, or a directory holding nothing but
//   frame files. A directory with anything else in it (the document, a subfolder) is
//   refused, naming the first entry that is not a frame.
// - An input of the render (the document, its data and font files) is never an output.
// - A character device or FIFO is written in place as a stream, never renamed over (run
//   as root, renaming an MP4 over /dev/null breaks the machine). A format that cannot be
//   streamed (MP4, MOV, PNG frames) is refused there; sockets and block devices always.
// - A symlink is followed: the output replaces the file it points to, the link stays.
import Foundation

/// Where an output goes, symlinks followed.
public enum OutputTarget: Equatable, Sendable {
    /// Standard output (`-o -`).
    case stdout
    /// Nothing is there yet: create it at `path`.
    case new(path: String)
    /// A regular file, replaced when the output is complete.
    case file(path: String)
    /// A directory of frames, replaced when the output is complete.
    case directory(path: String)
    /// A character device or FIFO, written in place from the start.
    case stream(path: String, kind: String)

    /// The path written (the symlink's target for a link); "-" for stdout.
    public var path: String {
        switch self {
        case .stdout: return "-"
        case .new(let p), .file(let p), .directory(let p), .stream(let p, _): return p
        }
    }

    /// Inspects `path` for an output of `format` (nil: one PNG image, as `frame`, `sheet`
    /// and `diff` write) and decides whether it may be written.
    ///
    /// - Parameters:
    ///   - overwrite: whether an existing file or frame directory may be replaced (`-y`).
    ///   - inputs: files the render reads; none of them may be written or removed.
    /// - Throws: `ExportError.outputExists` for an existing output without `overwrite`;
    ///   `ExportError.refused` for an output chartreel never writes, saying why.
    public static func prepare(_ path: String, format: OutputFormat?, overwrite: Bool,
                               inputs: [String] = []) throws -> OutputTarget {
        if path == "-" { return .stdout }
        var link = stat(), st = stat()
        let isLink = lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
        // The kernel follows the link (including /proc's links to pipes, as /dev/stdout is);
        // a dangling link is followed by hand to where the output is to be created.
        guard stat(path, &st) == 0 else { return .new(path: isLink ? try followLinks(path) : path) }
        let kind = st.st_mode & S_IFMT
        let resolved = isLink && (kind == S_IFREG || kind == S_IFDIR) ? realPath(path) : path
        let shown = resolved == path ? path : "\(path) (a link to \(resolved))"
        let what = format.map { $0 == .png ? "PNG frames" : $0.rawValue.uppercased() } ?? "a PNG image"
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            if let input = inputs.first(where: { sameFile($0, st) }) {
                throw ExportError.refused("\(shown) is \(input == path ? "an input" : "the input \(input)") of this render; "
                                          + "chartreel never overwrites its inputs")
            }
            guard overwrite else { throw ExportError.outputExists(path) }
            if format == .png {
                throw ExportError.refused("\(shown) is a file, not a directory of frames; -y replaces only a directory "
                                          + "that holds nothing but frame files")
            }
            return .file(path: resolved)
        case S_IFDIR:
            guard format == .png else {
                throw ExportError.refused("\(shown) is a directory; \(what) output is one file")
            }
            guard overwrite else { throw ExportError.outputExists(path) }
            let real = realPath(resolved)
            if let input = inputs.first(where: { realPath($0).hasPrefix(real + "/") }) {
                throw ExportError.refused("\(shown) holds \(input), an input of this render; -y replaces only a directory "
                                          + "that holds nothing but frame files")
            }
            if let stranger = firstNonFrame(in: resolved) {
                throw ExportError.refused("\(shown) holds \"\(stranger)\", which is not a frame file; -y replaces only a "
                                          + "directory that holds nothing but frame files (frame-NNNNN.png)")
            }
            return .directory(path: resolved)
        case S_IFCHR, S_IFIFO:
            let kind = st.st_mode & S_IFMT == S_IFCHR ? "a character device" : "a FIFO"
            guard format?.canStream ?? true else {
                let why = format == .png ? "PNG frames are a directory of files"
                    : "\(what) cannot be written as a stream (its index needs a seekable file)"
                let instead = format == .png ? "give a directory name" : "write to a regular file"
                throw ExportError.refused("\(shown) is \(kind), which is written in place as a stream, and \(why); "
                                          + "\(instead), or choose GIF, WebM, APNG or raw RGBA")
            }
            return .stream(path: resolved, kind: kind)
        default:
            let kind = st.st_mode & S_IFMT == S_IFSOCK ? "a socket" : "a block device"
            throw ExportError.refused("\(shown) is \(kind); chartreel writes files, frame directories, "
                                      + "character devices and FIFOs only")
        }
    }

    /// `path` with every symlink along its last component followed (the target of a
    /// dangling link is where the output is created).
    static func followLinks(_ path: String) throws -> String {
        var p = path
        for _ in 0..<40 {
            var st = stat()
            guard lstat(p, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return p }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(p, &buffer, buffer.count - 1)
            guard n >= 0 else { return p }
            let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            p = target.hasPrefix("/") ? target : (p as NSString).deletingLastPathComponent.appendingPath(target)
        }
        throw ExportError.refused("\(path): too many levels of symbolic links")
    }

    /// Whether `path` names the file whose status is `st`.
    static func sameFile(_ path: String, _ st: stat) -> Bool {
        var other = stat()
        return stat(path, &other) == 0 && other.st_dev == st.st_dev && other.st_ino == st.st_ino
    }

    /// The canonical absolute path (symlinks and `..` resolved), or `path` itself.
    static func realPath(_ path: String) -> String {
        guard let r = realpath(path, nil) else { return path }
        defer { free(r) }
        return String(cString: r)
    }

    /// Whether `name` is a frame file as `PNGDirectorySink` names them.
    public static func isFrameFileName(_ name: String) -> Bool {
        guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return false }
        let digits = name.dropFirst(6).dropLast(4)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The first entry (sorted by name) of `directory` that is not a regular frame file.
    static func firstNonFrame(in directory: String) -> String? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        return names.first { name in
            var st = stat()
            return !isFrameFileName(name) || lstat(directory + "/" + name, &st) != 0 || st.st_mode & S_IFMT != S_IFREG
        }
    }

    /// Removes what killed runs left beside `path` (`.NAME.partial-PID`, its `.ffconcat`
    /// list, `.NAME.old-PID`) when process PID no longer exists; returns the names removed.
    /// A `.NAME.old-PID` (an earlier frame directory moved aside) is renamed back to `path`
    /// instead when `path` does not exist.
    public static func removeStalePartials(of path: String) -> [String] {
        guard path != "-" else { return [] }
        let dir = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.isEmpty ? "." : dir)) ?? []
        var removed: [String] = []
        for name in names.sorted() {
            for marker in [".\(base).partial-", ".\(base).old-"] where name.hasPrefix(marker) {
                var rest = name.dropFirst(marker.count)
                if rest.hasSuffix(".ffconcat") { rest = rest.dropLast(9) }
                guard let pid = Int32(rest), pid > 0, pid != getpid() else { continue }
                guard kill(pid, 0) != 0 && errno == ESRCH else { continue }   // that run is still going
                let full = dir.isEmpty ? name : dir.appendingPath(name)
                // An earlier output moved aside by a run killed before it could finish goes
                // back to its name when nothing has taken it since; it is never deleted then.
                if marker.hasSuffix(".old-"), !pathExists(path), rename(full, path) == 0 { continue }
                if (try? FileManager.default.removeItem(atPath: full)) != nil { removed.append(full) }
            }
        }
        return removed
    }
}

extension String {
    /// `self/component`, without doubling a trailing slash.
    func appendingPath(_ component: String) -> String {
        isEmpty ? component : hasSuffix("/") ? self + component : self + "/" + component
    }
}
