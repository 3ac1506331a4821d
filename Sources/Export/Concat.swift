// Joining chunks rendered apart (`--frames A..<B`, possibly on other machines) into one
// output without re-encoding.
//
// Video: ffmpeg's concat demuxer with `-c copy`. Each chunk was encoded on its own, so it
// starts with a key frame and carries the same codec parameters (the same document,
// size, rate and settings give the same encoder configuration), which is what stream copy
// needs. A GIF chunk has its own palette, so GIFs and APNGs are refused.
//
// PNG directories: frame files are named by their index in the whole video, so joining
// is gathering the files; the result is byte-identical to a single render's directory.
import Foundation

/// Joins chunks of a video or of a PNG frame directory.
public enum Concatenation {
    /// Joins the video files `parts`, in order, into `output` without re-encoding.
    ///
    /// The output is written under a temporary name and renamed into place when ffmpeg
    /// succeeds. With `overwrite` false an existing output is an error.
    public static func joinVideos(_ parts: [String], format: VideoFormat, output: String,
                                  overwrite: Bool = false, ffmpegPath: String? = nil,
                                  cancellation: CancellationToken? = nil) throws {
        guard format.canConcatenate else {
            throw ExportError.unsupported("\(format.rawValue.uppercased()) chunks cannot be joined without re-encoding "
                                          + "(each has its own palette or frame table); render the whole "
                                          + "\(format.rawValue.uppercased()) in one go, or join MP4, WebM or MOV chunks")
        }
        guard !parts.isEmpty else { throw ExportError.invalidArgument("no parts to join") }
        for p in parts where !FileManager.default.isReadableFile(atPath: p) {
            throw ExportError.io("\(p): no such file")
        }
        if !overwrite && pathExists(output) { throw ExportError.outputExists(output) }
        let executable: String
        if let given = ffmpegPath {
            guard FFmpeg.isExecutableFile(given) else { throw ExportError.ffmpegMissing }
            executable = given
        } else {
            guard let found = FFmpeg.locateFFmpeg() else { throw ExportError.ffmpegMissing }
            executable = found
        }
        let temp = temporarySibling(of: output)
        let list = temp + ".ffconcat"
        defer { unlink(list) }
        let cwd = FileManager.default.currentDirectoryPath
        var text = "ffconcat version 1.0\n"
        for p in parts {
            let absolute = p.hasPrefix("/") ? p : cwd + "/" + p
            text += "file '" + absolute.replacingOccurrences(of: "'", with: "'\\''") + "'\n"
        }
        try writeFile(list, Array(text.utf8))

        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = FFmpeg.concatArguments(listFile: list, format: format, output: temp)
        let errors = Pipe()
        p.standardError = errors
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }   // no 50 ms waitUntilExit poll
        do { try p.run() } catch {
            throw ExportError.io("cannot start \(executable): \(reason(error))")
        }
        let key = cancellation?.onCancel { _ in p.terminate() }
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        exited.wait()
        if let key { cancellation?.removeHandler(key) }
        let status = p.terminationReason == .exit ? p.terminationStatus : -p.terminationStatus
        if let e = cancellation?.error {
            unlink(temp)
            throw e
        }
        guard status == 0 else {
            unlink(temp)
            let tail = String(decoding: stderr, as: UTF8.self).split(separator: "\n").suffix(20).joined(separator: "\n")
            throw ExportError.ffmpegFailed(status: status, stderrTail: tail)
        }
        if !overwrite && pathExists(output) {
            unlink(temp)
            throw ExportError.outputExists(output)
        }
        guard rename(temp, output) == 0 else {
            let e = errno
            unlink(temp)
            throw ExportError.io("cannot rename \(temp) to \(output): \(errnoText(e))")
        }
    }

    /// Joins PNG frame directories (`frame-NNNNN.png` named by index in the whole video)
    /// into the directory `output` and returns the number of frames.
    ///
    /// The frames of all parts together must be contiguous with no index twice; anything
    /// else means a chunk is missing or overlaps, and is an error naming the frames.
    /// Files are hard-linked when the parts are on the same file system, copied otherwise.
    @discardableResult
    public static func joinFrameDirectories(_ parts: [String], output: String, overwrite: Bool = false) throws -> Int {
        guard !parts.isEmpty else { throw ExportError.invalidArgument("no parts to join") }
        if !overwrite && pathExists(output) { throw ExportError.outputExists(output) }
        var files: [(index: Int, name: String, part: String)] = []
        for part in parts {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: part, isDirectory: &isDir), isDir.boolValue else {
                throw ExportError.io("\(part): not a directory of PNG frames")
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: part)
            for name in names where name.hasPrefix("frame-") && name.hasSuffix(".png") {
                guard let i = Int(name.dropFirst(6).dropLast(4)) else { continue }
                files.append((i, name, part))
            }
        }
        guard !files.isEmpty else { throw ExportError.invalidArgument("the parts hold no frame-NNNNN.png files") }
        files.sort { $0.index < $1.index }
        for (a, b) in zip(files, files.dropFirst()) {
            if a.index == b.index {
                throw ExportError.invalidArgument("frame \(a.index) is in both \(a.part) and \(b.part): the chunks overlap")
            }
            if b.index != a.index + 1 {
                throw ExportError.invalidArgument("frames \(a.index + 1)..<\(b.index) are missing: no part holds them")
            }
        }
        let temp = temporarySibling(of: output)
        let fm = FileManager.default
        if pathExists(temp) { try? fm.removeItem(atPath: temp) }
        do {
            try fm.createDirectory(atPath: temp, withIntermediateDirectories: false)
        } catch {
            throw ExportError.io("cannot create \(temp): \(reason(error))")
        }
        do {
            for f in files {
                let src = f.part + "/" + f.name, dst = temp + "/" + f.name
                if link(src, dst) != 0 {
                    do { try fm.copyItem(atPath: src, toPath: dst) } catch {
                        throw ExportError.io("cannot copy \(src): \(reason(error))")
                    }
                }
            }
            try moveDirectoryIntoPlace(temp, output, overwrite: overwrite)
        } catch {
            try? fm.removeItem(atPath: temp)
            throw error
        }
        return files.count
    }
}
