import XCTest
import Foundation

/// Issue #21: no output is ever lost, clobbered or reported as done when it is broken.
/// Each test runs a small render (200×150, 5 fps: 11 frames) so the file stays quick.
final class OutputSafetyTests: ChartreelTestCase {
    static let small = ["--scale", "0.25", "--fps", "5", "-q"]

    struct Shell { var status: Int32; var stdout: String; var stderr: String }

    /// Runs `bash -c script` with the binary in $B, the document in $D and the test's
    /// directory in $T; `path` replaces PATH (a fake ffmpeg first).
    func bash(_ script: String, path: String? = nil) throws -> Shell {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", script]
        var env = ProcessInfo.processInfo.environment
        env["B"] = Self.binary; env["D"] = Self.document; env["T"] = tmp.path
        if let path { env["PATH"] = path }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let errors = Collector(err.fileHandleForReading)
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = errors.wait()
        p.waitUntilExit()
        return Shell(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                     stderr: String(decoding: e, as: UTF8.self))
    }

    func names(_ dir: String? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir ?? tmp.path).sorted()
    }

    func fileType(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0
    }

    // MARK: 1. A full disk is a failure, and the earlier file is kept.

    /// Mounts a tmpfs of `kilobytes` at `dir`; nil (with the reason) where that is not permitted.
    func mountTmpfs(_ dir: String, kilobytes: Int) throws -> String? {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let r = try run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", dir])
        return r.status == 0 ? nil : "mounting a tmpfs is not permitted here (\(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))"
    }

    func testAReallyFullDiskFailsEveryVideoFormatAndKeepsTheEarlierFile() throws {
        let full = tmp.appendingPathComponent("full").path
        if let why = try mountTmpfs(full, kilobytes: 8) {
            print("skipped: \(why); testFileSizeLimitFailsAndKeepsTheEarlierFile still runs")
            throw XCTSkip(why)
        }
        defer { _ = try? run("/bin/umount", [full]) }
        for format in ["mp4", "gif", "webm", "apng", "mov"] {
            let out = full + "/out." + format
            try Data("earlier".utf8).write(to: URL(fileURLWithPath: out))
            // The estimate (a few KB to 400 KB) is over the 4 KB left, so the render is
            // refused before a frame is drawn (exit 2, issue 22)...
            let refused = try chartreel(["render", Self.document, "-o", out, "-y", "--scale", "0.5", "--fps", "5"])
            XCTAssertEqual(refused.status, 2, "\(format): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("are free where it goes"), "\(format): \(refused.stderr)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), Data("earlier".utf8), format)
            // ...and past the estimate, the disk filling up is still caught after the fact.
            let r = try chartreel(["render", Self.document, "-o", out, "-y", "--scale", "0.5", "--fps", "5", "--no-space-check"])
            XCTAssertEqual(r.status, 1, "\(format): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("No space left on device") || r.stderr.contains("disk may be full"),
                          "\(format): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("->"), "\(format): no success summary")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), Data("earlier".utf8), format)
            XCTAssertEqual(try names(full), ["out.\(format)"], "\(format): nothing else left")
            try FileManager.default.removeItem(atPath: out)
        }
    }

    func testFileSizeLimitFailsAndKeepsTheEarlierFile() throws {
        for format in ["mp4", "gif"] {
            let out = tmp.appendingPathComponent("out.\(format)").path
            try Data("earlier".utf8).write(to: URL(fileURLWithPath: out))
            let r = try bash("ulimit -f 8; exec \"$B\" render \"$D\" -o \"$T/out.\(format)\" -y --scale 0.5 --fps 5 -q")
            XCTAssertEqual(r.status, 1, "\(format): \(r.stderr)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), Data("earlier".utf8), format)
            XCTAssertEqual(try names(), ["out.\(format)"], format)
            try FileManager.default.removeItem(atPath: out)
        }
    }

    func testAnFFmpegThatExitsZeroWithABrokenFileIsCaught() throws {
        // Success status, no error printed, but half the file: only the probe can tell.
        let real = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }!
        let path = try fakeFFmpeg("""
        out="${@: -1}"
        \(real) "$@" || exit $?
        head -c 2000 "$out" > "$out.cut" && mv "$out.cut" "$out"
        """)
        let r = try bash("exec \"$B\" render \"$D\" -o \"$T/out.gif\" \(Self.small.joined(separator: " "))", path: path)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("the GIF is incomplete"), r.stderr)
        XCTAssertEqual(try names().filter { $0 != "bin" }, [])
    }

    // MARK: 2. -y replaces only a directory of frames.

    func testOverwritingADirectoryWithOtherFilesIsRefusedAndDeletesNothing() throws {
        let dir = tmp.appendingPathComponent("work").path
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: dir + "/a-notes.txt"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/frame-00000.png"))
        let r = try chartreel(["render", Self.document, "-o", dir, "-y"] + Self.small)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("\"a-notes.txt\", which is not a frame file"), r.stderr)
        XCTAssertEqual(try names(dir), ["a-notes.txt", "frame-00000.png", "sub"])

        // The document itself inside the directory: refused, the document stays.
        let docDir = tmp.appendingPathComponent("docs").path
        try FileManager.default.createDirectory(atPath: docDir, withIntermediateDirectories: true)
        let doc = docDir + "/doc.json"
        try FileManager.default.copyItem(atPath: Self.document, toPath: doc)
        let r2 = try chartreel(["render", doc, "-o", docDir, "-y"] + Self.small)
        XCTAssertEqual(r2.status, 2, r2.stderr)
        XCTAssertTrue(r2.stderr.contains("doc.json"), r2.stderr)
        XCTAssertEqual(try names(docDir), ["doc.json"])
    }

    func testOverwritingAFrameDirectoryReplacesIt() throws {
        let dir = tmp.appendingPathComponent("frames").path
        XCTAssertEqual(try chartreel(["render", Self.document, "-o", dir] + Self.small).status, 0)
        try Data("stale".utf8).write(to: URL(fileURLWithPath: dir + "/frame-00099.png"))
        let r = try chartreel(["render", Self.document, "-o", dir, "-y"] + Self.small)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try names(dir).count, 11)
        XCTAssertFalse(try names(dir).contains("frame-00099.png"))
    }

    func testTheDocumentIsNeverAnOutput() throws {
        let doc = tmp.appendingPathComponent("doc").path   // no extension: a frame directory name
        try FileManager.default.copyItem(atPath: Self.document, toPath: doc)
        let before = try Data(contentsOf: URL(fileURLWithPath: doc))
        for args in [["-o", doc, "-y"], ["-o", doc, "--format", "gif", "-y"]] {
            let r = try chartreel(["render", doc] + args + Self.small)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("input"), r.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: doc)), before)
        }
        let f = try chartreel("frame", doc, "--at", "0.5", "-o", doc, "-y")
        XCTAssertEqual(f.status, 2, f.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: doc)), before)
    }

    // MARK: 3. Device nodes, FIFOs and symlinks.

    func testACharacterDeviceIsWrittenInPlaceOrRefusedNeverReplaced() throws {
        let node = tmp.appendingPathComponent("null").path
        let made = try run("/bin/mknod", [node, "c", "1", "3"])
        guard made.status == 0 else { throw XCTSkip("mknod is not permitted here: \(made.stderr)") }
        // Formats that stream are written into the device.
        for format in ["gif", "webm", "apng"] {
            let r = try chartreel(["render", Self.document, "-o", node, "--format", format, "-y"] + Self.small)
            XCTAssertEqual(r.status, 0, "\(format): \(r.stderr)")
            XCTAssertEqual(fileType(node), S_IFCHR, format)
        }
        // MP4 and PNG frames cannot be streamed: refused before rendering, saying which.
        for (args, why) in [(["--format", "mp4"], "MP4 cannot be written as a stream"), ([], "PNG frames are a directory")] {
            let r = try chartreel(["render", Self.document, "-o", node, "-y"] + args + Self.small)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains(why), r.stderr)
            XCTAssertEqual(fileType(node), S_IFCHR)
        }
        // frame, sheet and diff write their PNG into it.
        let png = tmp.appendingPathComponent("a.png").path
        XCTAssertEqual(try chartreel("frame", Self.document, "--at", "0.5", "-o", png).status, 0)
        for args in [["frame", Self.document, "--at", "0.5", "-o", node, "-y"],
                     ["sheet", Self.document, "--count", "2", "--width", "32", "-o", node, "-y"],
                     ["diff", png, png, "-o", node, "-y"]] {
            let r = try chartreel(args)
            XCTAssertEqual(r.status, 0, "\(args[0]): \(r.stderr)")
            XCTAssertEqual(fileType(node), S_IFCHR, args[0])
        }
        XCTAssertEqual(try names(), ["a.png", "null"], "no temporary file left")
    }

    func testAFIFOReceivesTheStream() throws {
        let fifo = tmp.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let got = tmp.appendingPathComponent("got.webm").path
        let r = try bash("cat \"$T/fifo\" > \"\(got)\" & \"$B\" render \"$D\" -o \"$T/fifo\" --format webm "
                         + Self.small.joined(separator: " ") + "; s=$?; wait; exit $s")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(fileType(fifo), S_IFIFO)
        XCTAssertEqual(try streamInfo(got).frames, 11)
    }

    func testASymlinkOutputReplacesItsTarget() throws {
        let target = tmp.appendingPathComponent("real.gif").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let link = tmp.appendingPathComponent("link.gif").path
        XCTAssertEqual(symlink("real.gif", link), 0)
        let r = try chartreel(["render", Self.document, "-o", link, "-y"] + Self.small)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(fileType(link), S_IFLNK, "the link stays a link")
        XCTAssertEqual(try streamInfo(target).frames, 11)
    }

    // MARK: 4. concat probes its parts.

    func testConcatRefusesPartsThatDoNotMatch() throws {
        func render(_ name: String, _ extra: [String]) throws -> String {
            let out = tmp.appendingPathComponent(name).path
            let r = try chartreel(["render", Self.document, "-o", out, "--frames", "0..<3", "--fps", "5", "-q"] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            return out
        }
        let a = try render("a.mp4", ["--scale", "0.25"])
        let small = try render("b.mp4", ["--scale", "0.2"])
        let webm = try render("c.webm", ["--scale", "0.25"])
        let png = tmp.appendingPathComponent("d.png").path
        XCTAssertEqual(try chartreel("frame", Self.document, "--at", "0", "-o", png).status, 0)
        let out = tmp.appendingPathComponent("joined.mp4").path
        for (part, why) in [(small, "size 160x120 against 200x150"), (webm, "against"), (png, "against")] {
            let r = try chartreel("concat", a, part, "-o", out)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains(part) && r.stderr.contains(why), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        }
        let fifo = tmp.appendingPathComponent("part.mp4").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let started = Date()
        let r = try chartreel("concat", a, fifo, "-o", out)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("is a FIFO"), r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        let ok = try chartreel("concat", a, a, "-o", out)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(try streamInfo(out).frames, 6)
    }

    // MARK: 5. Signals, children, the stall watchdog, stale partials.

    /// A directory holding a fake `ffmpeg` that runs `body`, first on PATH.
    func fakeFFmpeg(_ body: String) throws -> String {
        let bin = tmp.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = bin.appendingPathComponent("ffmpeg")
        try "#!/bin/bash\n\(body)\n".write(to: script, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(script.path, 0o755), 0)
        return bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// Whether process `pid` is still running (a zombie left to an init that does not
    /// reap counts as gone).
    func alive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    /// Starts a render into `out.mp4` with a fake ffmpeg that records its pid and then runs
    /// `then`, waits until that ffmpeg runs, and sends `signals` (spaced `gap` seconds).
    /// Returns the exit status, stderr, seconds from the first signal to the exit, and the
    /// fake ffmpeg's pid.
    func interrupt(fake then: String, signals: [Int32], gap: Double = 0, settle: useconds_t = 300_000,
                   extra: [String] = [])
        throws -> (status: Int32, stderr: String, seconds: Double, child: Int32) {
        let pidFile = tmp.appendingPathComponent("ffmpeg.pid").path
        let path = try fakeFFmpeg("echo $$ > \"\(pidFile)\"\n\(then)")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.binary)
        p.arguments = ["render", Self.document, "-o", tmp.appendingPathComponent("out.mp4").path, "-q"] + extra
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = path
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let collected = Collector(err.fileHandleForReading)
        var child: Int32 = 0
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let s = try? String(contentsOfFile: pidFile, encoding: .utf8),
               let pid = Int32(s.trimmingCharacters(in: .whitespacesAndNewlines)) { child = pid; break }
            usleep(20_000)
        }
        XCTAssertNotEqual(child, 0, "the fake ffmpeg started")
        usleep(settle)   // let the render fill ffmpeg's pipe
        let start = Date()
        for (k, s) in signals.enumerated() {
            if k > 0 { usleep(useconds_t(gap * 1e6)) }
            kill(p.processIdentifier, s)
        }
        p.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        return (p.terminationStatus, String(decoding: collected.wait(), as: UTF8.self), seconds, child)
    }

    func testEverySignalEndsAHungFFmpegAndExitsWithinTwoSeconds() throws {
        // An ffmpeg that stops reading (the pipe fills and the render blocks on it), and one
        // that reads everything and never exits.
        for (fake, sig, code) in [("exec sleep 1000", SIGTERM, Int32(143)), ("exec sleep 1000", SIGINT, 130),
                                  ("cat > /dev/null; exec sleep 1000", SIGHUP, 129)] {
            let r = try interrupt(fake: fake, signals: [sig])
            XCTAssertEqual(r.status, code, r.stderr)
            XCTAssertLessThan(r.seconds, 2, "exited within 2 s")
            XCTAssertTrue(r.stderr.contains("interrupted by"), r.stderr)
            usleep(100_000)
            XCTAssertFalse(alive(r.child), "ffmpeg was ended")
            XCTAssertEqual(try names().filter { $0 != "bin" && $0 != "ffmpeg.pid" }, [], "nothing half-written")
        }
    }

    func testASecondSignalRightAfterTheFirstStillCleansUp() throws {
        let r = try interrupt(fake: "exec sleep 1000", signals: [SIGINT, SIGINT], gap: 0.02)
        XCTAssertEqual(r.status, 130, r.stderr)
        XCTAssertLessThan(r.seconds, 2)
        usleep(100_000)
        XCTAssertFalse(alive(r.child))
        XCTAssertEqual(try names().filter { $0 != "bin" && $0 != "ffmpeg.pid" }, [])
    }

    func testASignalAtTheMomentFFmpegStartsIsNotLost() throws {
        // ffmpeg is started before the document is read, so its pid file appears while
        // chartreel is still starting up: a signal then must stop the render like any other
        // (it once met the default action, or nothing at all while the handler was being
        // installed).
        for sigs in [[SIGINT], [SIGTERM, SIGTERM, SIGTERM]] {
            let r = try interrupt(fake: "exec sleep 1000", signals: sigs, settle: 0)
            XCTAssertEqual(r.status, 128 + sigs[0], r.stderr)
            XCTAssertTrue(r.stderr.contains("interrupted by"), r.stderr)
            XCTAssertLessThan(r.seconds, 2)
            usleep(100_000)
            XCTAssertFalse(alive(r.child), "ffmpeg was ended")
            XCTAssertEqual(try names().filter { $0 != "bin" && $0 != "ffmpeg.pid" }, [], "nothing half-written")
            try? FileManager.default.removeItem(atPath: tmp.appendingPathComponent("ffmpeg.pid").path)
        }
    }

    func testACommandWithoutATrapEndsByTheSignal() throws {
        // frame (which sets no trap) writing a large PNG to a pipe nobody reads: blocked in
        // write(). SIGTERM must end it by the default action, not be swallowed by the
        // thread that reads the signals.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.binary)
        p.arguments = ["frame", Self.document, "--at", "1", "-o", "-", "--scale", "4"]
        let unread = Pipe()
        p.standardOutput = unread
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(20)
        var blocked = false
        while !blocked && Date() < deadline && p.isRunning {
            usleep(50_000)
            let stat = (try? String(contentsOfFile: "/proc/\(p.processIdentifier)/wchan", encoding: .utf8)) ?? ""
            blocked = stat.contains("pipe")
        }
        XCTAssertTrue(p.isRunning, "frame waits for its reader")
        XCTAssertTrue(blocked, "blocked writing the pipe")
        kill(p.processIdentifier, SIGTERM)
        let watchdog = DispatchWorkItem { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: watchdog)
        p.waitUntilExit()
        watchdog.cancel()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal)
        XCTAssertEqual(p.terminationStatus, SIGTERM)
        _ = unread
    }

    func testFFmpegDiesWithAKilledChartreel() throws {
        let r = try interrupt(fake: "exec sleep 1000", signals: [SIGKILL])
        XCTAssertEqual(r.status, 9)   // Foundation reports the signal for an uncaught one
        var gone = false
        for _ in 0..<50 where !gone { gone = !alive(r.child); if !gone { usleep(20_000) } }
        XCTAssertTrue(gone, "PR_SET_PDEATHSIG ended ffmpeg")
    }

    func testTheStallWatchdogStopsAnFFmpegThatTakesNoFrames() throws {
        let path = try fakeFFmpeg("exec sleep 1000")
        let started = Date()
        let r = try bash("exec \"$B\" render \"$D\" -o \"$T/out.mp4\" --stall-timeout 1 -q", path: path)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("took no frame for 1.0 s"), r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        XCTAssertEqual(try names(), ["bin"])
    }

    func testStalePartialsOfKilledRunsAreRemovedAndReported() throws {
        // A pid that is not running: beyond the kernel's pid_max.
        let stale = tmp.appendingPathComponent(".out.gif.partial-2147483646").path
        try Data("junk".utf8).write(to: URL(fileURLWithPath: stale))
        let staleDir = tmp.appendingPathComponent(".frames.partial-2147483646").path
        try FileManager.default.createDirectory(atPath: staleDir, withIntermediateDirectories: true)
        let live = tmp.appendingPathComponent(".out.gif.partial-1").path   // pid 1 is running
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: live))
        let r = try chartreel(["render", Self.document, "-o", tmp.appendingPathComponent("out.gif").path] + Self.small)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("removed \(stale), left by a chartreel run that was killed"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertTrue(FileManager.default.fileExists(atPath: live), "a running process's file is left alone")
        let f = try chartreel(["render", Self.document, "-o", tmp.appendingPathComponent("frames").path] + Self.small)
        XCTAssertEqual(f.status, 0, f.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: staleDir))
    }

    // MARK: 6. The small ones.

    func testHugeTimesAreReportedNotTrapped() throws {
        let r = try chartreel("render", Self.document, "-o", tmp.appendingPathComponent("x.mp4").path, "--from", "1e18s")
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("the range starts at frame"), r.stderr)
        let t = try chartreel(["render", Self.document, "-o", tmp.appendingPathComponent("f").path, "--to", "1e19s"] + Self.small)
        XCTAssertEqual(t.status, 0, t.stderr)
        XCTAssertEqual(try names(tmp.appendingPathComponent("f").path).count, 11, "a --to past the end is clamped")
    }

    func testFrameToStdoutWritesThePNGThere() throws {
        let r = try chartreel("frame", Self.document, "--at", "0.5", "-o", "-")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(Array(r.stdout.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertFalse(FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/-"))
    }

    func testAQualityAboveMP4sRangeIsRefused() throws {
        let r = try chartreel("render", Self.document, "-o", tmp.appendingPathComponent("x.mp4").path, "--quality", "52")
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--quality 52 is out of range for MP4"), r.stderr)
        XCTAssertEqual(try names(), [])
    }

    func testAClosedStdoutIsNamed() throws {
        let r = try bash("exec \"$B\" render \"$D\" -o - --format rgba --fps 5 >&-")
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("standard output is closed"), r.stderr)
        XCTAssertFalse(r.stderr.contains("Invalid argument"), r.stderr)
    }
}
