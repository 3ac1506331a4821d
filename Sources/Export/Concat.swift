// Joining chunks rendered apart (`--frames A..<B`, possibly on other machines) into one
// output without re-encoding.
//
// Video: ffmpeg's concat demuxer with `-c copy`. Each chunk was encoded on its own, so it
// starts with a key frame and carries the same codec parameters (the same document,
// size, rate and settings give the same encoder configuration), which is what stream copy
// needs. A GIF chunk has its own palette, so GIFs and APNGs are refused.
//
// Before joining, every video part is probed (container, codec, size, pixel format, frame
// rate, time base must agree) and the joined file is probed for the sum of the parts'
// frames: ffmpeg's concat demuxer otherwise "joins" a 640×480 part with a 200×150 one, or
// an MP4 with a WebM, exits 0 and writes a broken file.
//
// PNG directories: frame files are named by their index in the whole video, so joining
// is gathering the files; the result is byte-identical to a single render's directory.
import Foundation

/// Joins chunks of a video or of a PNG frame directory.
public enum Concatenation {
    /// Joins the video files `parts`, in order, into `output` without re-encoding, and
    /// returns the joined file's probe.
    ///
    /// Every part must be a regular file (a FIFO would block ffmpeg forever), and every
    /// part is probed first: the container, codec, size, pixel format, frame rate and time
    /// base must be those of the first part, or the join is refused (`ExportError.refused`)
    /// naming the part and the difference. The output is written under a temporary name,
    /// checked to hold the sum of the parts' frames, and renamed into place. With
    /// `overwrite` false an existing output is an error.
    @discardableResult
    public static func joinVideos(_ parts: [String], format: OutputFormat, output: String,
                                  overwrite: Bool = false, ffmpegPath: String? = nil,
                                  cancellation: CancellationToken? = nil) throws -> MediaProbe {
        guard format.canConcatenate else {
            throw ExportError.unsupported("\(format.rawValue.uppercased()) chunks cannot be joined without re-encoding "
                                          + "(each has its own palette or frame table); render the whole "
                                          + "\(format.rawValue.uppercased()) in one go, or join MP4, WebM or MOV chunks")
        }
        guard !parts.isEmpty else { throw ExportError.invalidArgument("no parts to join") }
        for p in parts {
            var st = stat()
            guard stat(p, &st) == 0 else { throw ExportError.io("\(p): \(errnoText(errno))") }
            guard st.st_mode & S_IFMT == S_IFREG else {
                let kind = st.st_mode & S_IFMT == S_IFDIR ? "a directory" : st.st_mode & S_IFMT == S_IFIFO ? "a FIFO"
                    : "not a regular file"
                throw ExportError.refused("\(p) is \(kind); the parts of a join are video files")
            }
            guard access(p, R_OK) == 0 else { throw ExportError.io("\(p): \(errnoText(errno))") }
        }
        let target = try OutputTarget.prepare(output, format: format, overwrite: overwrite, inputs: parts)
        if case .stream = target {
            throw ExportError.refused("\(output) is a stream; a joined \(format.rawValue.uppercased()) needs a regular file")
        }
        let destination = target.path
        let executable: String
        if let given = ffmpegPath {
            guard FFmpeg.isExecutableFile(given) else { throw ExportError.ffmpegMissing }
            executable = given
        } else {
            guard let found = FFmpeg.locateFFmpeg() else { throw ExportError.ffmpegMissing }
            executable = found
        }
        var probes: [MediaProbe] = []
        for p in parts {
            if let e = cancellation?.error { throw e }
            let probe: MediaProbe
            do {
                probe = try MediaProbe.probe(p, ffmpeg: executable)
            } catch ExportError.verificationFailed(let why) {
                throw ExportError.refused("\(p) is not a readable video: \(why)")
            }
            if let first = probes.first, let difference = first.mismatch(with: probe) {
                throw ExportError.refused("\(p) does not match \(parts[0]): \(difference); "
                                          + "only chunks of one render join without re-encoding")
            }
            probes.append(probe)
        }
        let expected = probes.reduce(0) { $0 + $1.frames }
        let temp = temporarySibling(of: destination)
        let list = temp + ".ffconcat"
        EmergencyCleanup.addPartial(list)
        EmergencyCleanup.addPartial(temp)
        defer {
            unlink(list); EmergencyCleanup.removePartial(list)
            unlink(temp); EmergencyCleanup.removePartial(temp)
        }
        let cwd = FileManager.default.currentDirectoryPath
        var text = "ffconcat version 1.0\n"
        for p in parts {
            let absolute = p.hasPrefix("/") ? p : cwd + "/" + p
            text += "file " + singleQuoted(absolute) + "\n"
        }
        try writeFile(list, Array(text.utf8))

        let errPipe = try makePipe()
        let errFDs = [errPipe.read, errPipe.write]
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: executable,
                                     arguments: FFmpeg.concatArguments(listFile: list, format: format, output: temp),
                                     stderr: errFDs[1])
        } catch {
            close(errFDs[0]); close(errFDs[1])
            throw error
        }
        close(errFDs[1])
        let tail = StderrTail(fd: errFDs[0])
        let key = cancellation?.onCancel { _ in DispatchQueue.global().async { child.terminate() } }
        child.wait()
        tail.join()
        if let key { cancellation?.removeHandler(key) }
        if let e = cancellation?.error { throw e }
        let log = tail.lastLines(20)
        guard child.status == 0 else { throw ExportError.ffmpegFailed(status: child.status, stderrTail: log) }
        if let line = log.split(separator: "\n").first(where: FFmpegSink.reportsFailure) {
            throw ExportError.verificationFailed("ffmpeg exited 0 but reported: \(line)")
        }
        let joined: MediaProbe
        do {
            joined = try MediaProbe.probe(temp, ffmpeg: executable)
        } catch ExportError.verificationFailed(let why) {
            throw ExportError.verificationFailed("ffprobe cannot read the joined file (\(why)); the disk may be full")
        }
        guard joined.frames == expected else {
            throw ExportError.verificationFailed("the joined file holds \(joined.frames) frames, "
                                                 + "not the \(expected) of its parts")
        }
        if !overwrite && pathExists(destination) { throw ExportError.outputExists(output) }
        let fd = open(temp, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            let e = fsync(fd) == 0 ? 0 : errno
            close(fd)
            if e != 0 { throw ExportError.verificationFailed("fsync: \(errnoText(e))") }
        }
        guard rename(temp, destination) == 0 else {
            throw ExportError.io("cannot rename \(temp) to \(destination): \(errnoText(errno))")
        }
        syncDirectory(of: destination)
        return joined
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
        let target = try OutputTarget.prepare(output, format: .png, overwrite: overwrite, inputs: parts)
        let output = target.path
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
        EmergencyCleanup.addPartial(temp)
        defer { EmergencyCleanup.removePartial(temp) }
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
