import Foundation

/// Reads the files a document names (the document itself, CSV data, fonts) and says
/// precisely why one cannot be read.
///
/// Foundation's `FileManager.contents(atPath:)` answers nil for every failure and
/// blocks for ever on a FIFO; a document given as a named pipe or a directory, or a
/// file without read permission, must instead be refused with a message. So the file
/// is checked with `stat` first (only regular files are read) and opened with POSIX
/// calls, whose `errno` names the reason.
enum FileReading {
    /// Why a file could not be read, phrased to follow the file's name.
    enum Failure: Error, Equatable {
        /// Nothing at the path.
        case missing
        /// The path is a directory.
        case directory
        /// The path is a FIFO, socket or device, never a document.
        case notRegular(kind: String)
        /// The system refused to open or read it (permission, I/O error).
        case unreadable(reason: String)

        /// About the file a message is already named after (`doc.json: is a directory; …`);
        /// `expected` says what the file should be.
        func message(expected: String) -> String {
            switch self {
            case .missing: return "no such file; expected \(expected)"
            case .directory: return "is a directory; expected \(expected)"
            case .notRegular(let kind): return "is a \(kind), not a regular file; expected \(expected)"
            case .unreadable(let reason): return "cannot be read: \(reason)"
            }
        }

        /// About a file a document names: `no file at "data/x.csv"; expected …`.
        func message(path: String, expected: String) -> String {
            let p = quotedForMessage(path)
            switch self {
            case .missing: return "no file at \(p); expected \(expected)"
            case .directory: return "\(p) is a directory; expected \(expected)"
            case .notRegular(let kind): return "\(p) is a \(kind), not a regular file; expected \(expected)"
            case .unreadable(let reason): return "cannot read \(p): \(reason)"
            }
        }
    }

    /// The bytes of the regular file at `path`.
    static func contents(_ path: String) -> Result<[UInt8], Failure> {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .failure(.missing) : .failure(.unreadable(reason: reason(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(.directory)
        case S_IFIFO: return .failure(.notRegular(kind: "FIFO (named pipe)"))
        case S_IFSOCK: return .failure(.notRegular(kind: "socket"))
        case S_IFCHR, S_IFBLK: return .failure(.notRegular(kind: "device"))
        default: return .failure(.notRegular(kind: "special file"))
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.unreadable(reason: reason(errno))) }
        defer { close(fd) }
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

    /// The system's text for `code`, lower-cased as it reads inside a sentence.
    private static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first else { return "error \(code)" }
        return first.lowercased() + text.dropFirst()
    }
}
