import Foundation
import Glibc
import Scene
import Timelines
import Export

/// `chartreel watch DOC -o OUT [render options] [--at S | --frame N]`: renders, then
/// renders again whenever the document or a file it reads changes, until Ctrl-C.
///
/// Each render is an ordinary one (written under a temporary name and renamed into place
/// when complete), so a document saved broken leaves the last good output where it was;
/// the first error is printed in full. With `--at` or `--frame`, only that frame is
/// rendered, as a PNG, for a fast loop.
func runWatch(_ args: [String]) throws {
    let a = try Arguments(args, flags: renderFlags.union(["--preview", "--sheet"]),
                          valued: renderValued.union(["--at", "--frame", "--debounce", "--preview-port",
                                                      "--every", "--count", "--columns", "--width"]))
    if a.flag("-h", "--help") { print(watchHelp); return }
    guard a.positional.count == 1 else { throw UsageError("watch needs one document: chartreel watch DOC -o OUT") }
    let document = a.positional[0]
    let preview = a.flag("--preview")
    let port = try a.int("--preview-port", min: 0, max: 65_535)
    if port != nil && !preview { throw UsageError("--preview-port needs --preview") }
    guard let output = a.value("-o", "--output") ?? (preview ? "" : nil) else {
        throw UsageError("watch needs an output (-o OUT), --preview, or both")
    }
    if output == "-" { throw UsageError("watch writes a file again and again; -o - (stdout) cannot be replaced") }
    let at = try a.double("--at", min: 0, max: 1e6)
    let index = try a.int("--frame", min: 0, max: Int(Int32.max))
    if at != nil && index != nil { throw UsageError("watch takes one of --at SECONDS or --frame N") }
    let sheet = a.flag("--sheet")
    let sheetOnly = ["--every", "--count", "--columns", "--width"].filter { a.options[$0] != nil }
    if !sheet && !sheetOnly.isEmpty { throw UsageError("\(sheetOnly.joined(separator: ", ")) need --sheet") }
    if sheet && (at != nil || index != nil) { throw UsageError("watch takes --sheet or one frame (--at/--frame), not both") }
    if sheet && !output.lowercased().hasSuffix(".png") { throw UsageError("watch --sheet writes a PNG; name the output SHEET.png") }
    let single = at != nil || index != nil
    if single && preview { throw UsageError("--preview shows every frame; it does not take --at or --frame") }
    if single && !output.lowercased().hasSuffix(".png") {
        throw UsageError("watch --at/--frame writes one frame as a PNG; name the output FILE.png")
    }
    let debounce = try a.double("--debounce", min: 0, max: 10) ?? 0.1
    var options = a
    options.flags.insert("-y")   // watch replaces its own output each time

    let watcher = try FileWatcher()
    defer { watcher.close() }
    // One trap for the whole session: Ctrl-C stops a render cleanly (its temporary file
    // removed, the last good output kept) or the wait between renders.
    let trap = SignalTrap()
    defer { trap.release() }
    let server = preview ? try PreviewServer(port: UInt16(port ?? 0)) : nil
    if let server { report("preview at http://127.0.0.1:\(server.port)/ (reloads after each render)") }
    let pageFPS = try a.double("--fps", min: 1, max: 1000)
    let pageScale = try a.double("--scale", min: 0.01, max: 16) ?? 1
    let threads = try a.int("--threads", min: 1, max: 256) ?? ProcessInfo.processInfo.activeProcessorCount
    var renders = 0
    while true {
        renders += 1
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            if output.isEmpty {
                // --preview alone: the page is the output.
            } else if sheet {
                let what = try writeSheet(document: document, output: output, options, overwrite: true)
                report("\(clock()) wrote \(output) (\(what)) in \(elapsed(since: start))")
            } else if single {
                let (t, size) = try renderFrame(document: document, output: output, options, at: at, index: index)
                report("\(clock()) wrote \(output) (frame at \(String(format: "%.3f", t)) s, \(size)) in \(elapsed(since: start))")
            } else if let s = try render(document: document, output: output, options, quietSummary: true, showProgress: false,
                                         cancellation: trap.token) {
                report("\(clock()) wrote \(output) in \(elapsed(since: start)): \(s.frames) frames, "
                       + (s.bytes.map(describeBytes) ?? "") + (s.warnings.isEmpty ? "" : ", \(s.warnings.count) warning(s)"))
            }
            if let server {
                let page = try previewPage(document: document, options, fps: pageFPS, scale: pageScale, from: nil, to: nil, threads: threads)
                server.publish(servedPreview(page.html))
                report("\(clock()) preview: \(page.frames) frames of \(page.width)x\(page.height) in \(elapsed(since: start))")
            }
        } catch let e as InterruptedExport {
            throw e
        } catch let e as ExportError {
            if case .interrupted = e { throw e }
            reportFailure(e, output: output)
            server?.fail(outcome(of: e).message)
        } catch {
            reportFailure(error, output: output)
            server?.fail(outcome(of: error).message)
        }
        // The document may name other files now: watch what it reads after this save.
        var inputs = inputFiles(ofDocument: document, options)
        if let audio = a.value("--audio") { inputs.append(audio) }
        try watcher.watch(inputs)
        guard let changed = watcher.waitForChange(debounce: debounce, cancellation: trap.token) else {
            throw ExitStatus(message: "chartreel: watch stopped after \(renders) render\(renders == 1 ? "" : "s")", code: 130)
        }
        report("\(clock()) \(changed.joined(separator: ", ")) changed")
    }
}

/// The preview page as served: allowed to poll its server, and reloading after each render.
func servedPreview(_ html: String) -> String {
    html.replacingOccurrences(of: "script-src 'unsafe-inline'\">", with: "script-src 'unsafe-inline'; connect-src 'self'\">")
        .replacingOccurrences(of: "</body>", with: previewReloadScript + "\n</body>")
}

/// Prints why a render failed: the first error in full, and how many more there are; the
/// last good output stays (nothing replaces it until a render completes).
private func reportFailure(_ error: Error, output: String) {
    var lines: [String]
    if let e = error as? DocumentErrors {
        lines = [e.errors[0].description]
        if e.errors.count > 1 { lines.append("(and \(e.errors.count - 1) more; `chartreel validate` lists them all)") }
    } else {
        lines = [outcome(of: error).message]
    }
    var info = stat()
    if !output.isEmpty && stat(output, &info) == 0 { lines.append("kept the last good \(output)") }
    report("\(clock()) render failed:\n" + lines.joined(separator: "\n"))
}

/// Renders one frame of `document` as `frame` does; returns its time and size on disk.
func renderFrame(document: String, output: String, _ a: Arguments, at: Double?, index: Int?) throws -> (Double, String) {
    let scale = try a.double("--scale", min: 0.01, max: 16) ?? 1
    let fps = try a.double("--fps", min: 1, max: 1000)
    _ = try OutputTarget.prepare(output, format: nil, overwrite: true, inputs: inputFiles(ofDocument: document, a))
    let scene = try loadScene(document, a)
    try checkScaledCanvas(scene, scale: scale)
    let scaled = scene.scaled(by: scale)
    let t = at ?? Scene.time(ofFrame: index!, fps: fps ?? scaled.fps)
    try FramePNG.write(scaled.frame(at: t), toFile: output)
    return (t, fileSize(output).map(describeBytes) ?? "?")
}

/// `[14:03:07]`, the wall-clock time for a watch log line.
private func clock() -> String {
    var now = time(nil)
    var parts = tm()
    localtime_r(&now, &parts)
    return String(format: "[%02d:%02d:%02d]", parts.tm_hour, parts.tm_min, parts.tm_sec)
}

/// `0.42 s`.
private func elapsed(since start: UInt64) -> String {
    String(format: "%.2f s", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

/// Waits for files to change, through inotify.
///
/// It watches the folders that hold the files, not the files themselves: editors save by
/// writing a new file and renaming it over the old one, which a watch on the old file's
/// inode would never see. Events are then matched by name.
final class FileWatcher {
    private let fd: Int32
    /// Watch descriptor → folder.
    private var folders: [Int32: String] = [:]
    /// Folder → the names in it that matter.
    private var names: [String: Set<String>] = [:]

    init() throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw ExportError.io("cannot watch files: inotify_init1: \(String(cString: strerror(errno)))") }
    }

    func close() { _ = Glibc.close(fd) }

    /// Watches `files` (and only them) from now on.
    func watch(_ files: [String]) throws {
        var wanted: [String: Set<String>] = [:]
        for file in files {
            let absolute = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
            let url = URL(fileURLWithPath: absolute).standardizedFileURL
            wanted[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
        }
        for (wd, folder) in folders where wanted[folder] == nil {
            inotify_rm_watch(fd, wd)
            folders[wd] = nil
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB)
        for folder in wanted.keys where !folders.values.contains(folder) {
            let wd = inotify_add_watch(fd, folder, mask)
            guard wd >= 0 else {
                throw ExportError.io("cannot watch \(folder): \(String(cString: strerror(errno)))")
            }
            folders[wd] = folder
        }
        names = wanted
    }

    /// Blocks until a watched file changes and no other event follows for `debounce`
    /// seconds (an editor's save is several events); returns the files that changed, or
    /// nil when `cancellation` is cancelled (Ctrl-C).
    func waitForChange(debounce: Double, cancellation: CancellationToken) -> [String]? {
        var changed: [String] = []
        var quietSince: UInt64? = nil
        while true {
            if cancellation.error != nil { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, 50)
            if ready > 0 {
                for name in readEvents() where !changed.contains(name) { changed.append(name) }
                if !changed.isEmpty { quietSince = DispatchTime.now().uptimeNanoseconds }
            } else if let since = quietSince, Double(DispatchTime.now().uptimeNanoseconds - since) / 1e9 >= debounce {
                return changed
            }
        }
    }

    /// The watched files named by the events waiting to be read.
    private func readEvents() -> [String] {
        var out: [String] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return out }
            var i = 0
            let header = MemoryLayout<inotify_event>.size
            while i + header <= n {
                let (wd, length) = buffer.withUnsafeBytes { raw -> (Int32, Int) in
                    let e = raw.loadUnaligned(fromByteOffset: i, as: inotify_event.self)
                    return (e.wd, Int(e.len))
                }
                let nameBytes = buffer[(i + header)..<min(n, i + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if let folder = folders[wd], names[folder]?.contains(name) == true {
                    out.append(name)
                }
                i += header + length
            }
        }
    }
}
