import Foundation

/// Reads the files a document names (the document itself, CSV data, fonts) and says
/// precisely why one cannot be read.
///
/// A document is untrusted input, and so are the paths it names. Foundation's
/// `FileManager.contents(atPath:)` answers nil for every failure and blocks for ever on
/// a FIFO; here a file is opened first (non-blocking, so opening a FIFO cannot hang)
/// and only then checked with `fstat` on the open descriptor, so what is
/// checked is what is read: checking the path with `stat` and opening it afterwards
/// left a window in which the file could be swapped for a FIFO (it hung 3 runs of 60 in
/// the hostile-input trial). Only regular files are read; files of the kernel's
/// pseudo-filesystems (/proc, /sys), which are "regular" but endless (`/proc/kmsg`
/// blocks) or secret (`/proc/self/environ`), are refused. A data or font file must also
/// lie inside one of the allowed directories (the document's folder, and any given
/// with `--allow-path`): its real path, read back from the open descriptor with every
/// symlink resolved, is what is compared.
enum FileReading {
    /// Why a file could not be read, phrased to follow the file's name.
    enum Failure: Error, Equatable {
        /// Nothing at the path.
        case missing
        /// The path is a directory.
        case directory
        /// The path is a FIFO, socket or device, never a document.
        case notRegular(kind: String)
        /// The file belongs to /proc or /sys: kernel state, not data.
        case systemFile(filesystem: String)
        /// The file lies outside the directories a document may read (`folder` is the
        /// document's own).
        case outside(folder: String)
        /// The system refused to open or read it (permission, I/O error).
        case unreadable(reason: String)

        /// About the file a message is already named after (`doc.json: is a directory; …`);
        /// `expected` says what the file should be.
        func message(expected: String) -> String {
            switch self {
            case .missing: return "no such file; expected \(expected)"
            case .directory: return "is a directory; expected \(expected)"
            case .notRegular(let kind): return "is a \(kind), not a regular file; expected \(expected)"
            case .systemFile(let fs): return "is a file of \(fs), the kernel's state, not a regular file; expected \(expected)"
            case .outside(let folder): return "is outside \(folder); expected \(expected)"
            case .unreadable(let reason): return "cannot be read: \(reason)"
            }
        }

        /// About a file a document names: `no file at "data/x.csv"; expected …`.
        func message(path: String, expected: String) -> String {
            // A path is the user's, not a file's content: quoted whole (escaped), up to a
            // length no real path reaches.
            let p = quotedForMessage(path, maxLength: 1024)
            switch self {
            case .missing: return "no file at \(p); expected \(expected)"
            case .directory: return "\(p) is a directory; expected \(expected)"
            case .notRegular(let kind): return "\(p) is a \(kind), not a regular file; expected \(expected)"
            case .systemFile(let fs):
                return "\(p) is a file of \(fs), the kernel's state, not a regular file; expected \(expected)"
            case .outside(let folder):
                return "\(p) is outside the document's folder (\(quotedForMessage(folder, maxLength: 1024))); a document reads files "
                    + "in its own folder and below it (name another folder with --allow-path DIR); expected \(expected)"
            case .unreadable(let reason): return "cannot read \(p): \(reason)"
            }
        }
    }

    /// Where a document's files may lie.
    struct Allowed {
        /// Real paths of the directories (`realDirectory`).
        var directories: [String]
        /// The document's folder as the user named it, for messages (`.`, `timelines`).
        var documentFolder: String
    }

    /// The bytes of the regular file at `path`. With `allowed`, the file's real path must
    /// lie inside one of its directories.
    static func contents(_ path: String, allowed: Allowed? = nil) -> Result<[UInt8], Failure> {
        // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a
        // writer (it is refused below); O_NOCTTY: a terminal never becomes ours.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: return .failure(.missing)
            case ENXIO: return .failure(.notRegular(kind: "socket"))   // a UNIX socket cannot be opened
            default: return .failure(.unreadable(reason: reason(code)))
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(reason: reason(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(.directory)
        case S_IFIFO: return .failure(.notRegular(kind: "FIFO (named pipe)"))
        case S_IFSOCK: return .failure(.notRegular(kind: "socket"))
        case S_IFCHR, S_IFBLK: return .failure(.notRegular(kind: "device"))
        default: return .failure(.notRegular(kind: "special file"))
        }
        let real = realPath(ofDescriptor: fd)
        if let fs = pseudoFilesystem(info, realPath: real) { return .failure(.systemFile(filesystem: fs)) }
        if let allowed {
            guard let real, allowed.directories.contains(where: { isInside(real, $0) }) else {
                return .failure(.outside(folder: allowed.documentFolder))
            }
        }
        // Reads are blocking again (a regular file never blocks, but be plain about it).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(reason: reason(errno)))
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return .success(bytes)
    }

    /// True when `path` names a regular file.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The real path of directory `path` (symlinks resolved), or nil when it is not one.
    /// An empty path is the working directory.
    static func realDirectory(_ path: String) -> String? {
        guard let resolved = realpath(path.isEmpty ? "." : path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// True when the real path `file` lies inside the real directory `directory`.
    static func isInside(_ file: String, _ directory: String) -> Bool {
        if directory == "/" { return true }
        return file.hasPrefix(directory.hasSuffix("/") ? directory : directory + "/")
    }

    /// The path the kernel holds for an open descriptor: what was opened, whatever
    /// links led there.
    private static func realPath(ofDescriptor fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasPrefix("/") ? path : nil
    }

    /// "/proc" or "/sys" when the open file belongs to that pseudo-filesystem: its
    /// device is theirs (whatever path or link reached it), or its real path is under
    /// them (another mount of the same kind).
    private static func pseudoFilesystem(_ info: stat, realPath: String?) -> String? {
        for root in ["/proc", "/sys"] {
            var r = stat()
            if stat(root, &r) == 0 && r.st_dev == info.st_dev { return root }
            if let realPath, isInside(realPath, root) { return root }
        }
        return nil
    }

    /// The system's text for `code`, lower-cased as it reads inside a sentence.
    private static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first else { return "error \(code)" }
        return first.lowercased() + text.dropFirst()
    }
}
