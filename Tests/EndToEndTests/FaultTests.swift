import XCTest
import Foundation

/// Issue #8's faults: whatever goes wrong while writing, chartreel exits 1 with a message
/// that says what happened, and leaves no output, no temporary file and no child behind.
final class FaultTests: XCTestCase {
    var tmp: URL!
    let doc = CommandLineTests.document

    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chartreel-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    struct Run { var status: Int32; var stderr: String }

    /// Runs `bash -c script` with the binary in $B and the document in $D.
    func bash(_ script: String, path: String? = nil) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", script]
        var env = ProcessInfo.processInfo.environment
        env["B"] = CommandLineTests.binary; env["D"] = doc; env["T"] = tmp.path
        if let path { env["PATH"] = path }
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, stderr: String(decoding: data, as: UTF8.self))
    }

    func contents() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted() }

    func testDiskFullWhileEncodingVideo() throws {
        // A 8 KiB file-size limit stands in for a full disk: ffmpeg's write fails.
        let r = try bash("ulimit -f 8; exec \"$B\" render \"$D\" -o \"$T/out.mp4\" --fps 10 -q")
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("disk is full"), r.stderr)
        XCTAssertEqual(try contents(), [])
    }

    func testDiskFullWhileWritingPNGFrames() throws {
        let r = try bash("ulimit -f 8; exec \"$B\" render \"$D\" -o \"$T/frames\" --fps 10 -q")
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("File too large"), r.stderr)
        XCTAssertEqual(try contents(), [])
    }

    func testUnwritableOutputDirectory() throws {
        // /proc takes no new files, even from root.
        for out in ["/proc/chartreel-out.mp4", "/proc/chartreel-frames"] {
            let r = try bash("exec \"$B\" render \"$D\" -o \(out) --fps 5 -q")
            XCTAssertEqual(r.status, 1, "\(out): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("/proc/"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        }
    }

    /// A directory holding a fake `ffmpeg` that runs `body`, first on PATH.
    func fakeFFmpeg(_ body: String) throws -> String {
        let bin = tmp.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = bin.appendingPathComponent("ffmpeg")
        try "#!/bin/bash\n\(body)\n".write(to: script, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(script.path, 0o755), 0)
        return bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    func testFFmpegKilledInTheMiddleOfARender() throws {
        // The real ffmpeg, killed with SIGKILL after it has read a few frames.
        let real = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }!
        let path = try fakeFFmpeg("""
        \(real) "$@" & child=$!
        echo $child > "$T/ffmpeg.pid"
        sleep 0.3; kill -9 $child; wait $child; exit $?
        """)
        let r = try bash("exec \"$B\" render \"$D\" -o \"$T/out.mp4\" -q", path: path)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("ffmpeg"), r.stderr)
        XCTAssertEqual(try contents().filter { $0 != "bin" && $0 != "ffmpeg.pid" }, [], "output or temporary files left")
        let pid = Int32(try String(contentsOf: tmp.appendingPathComponent("ffmpeg.pid"), encoding: .utf8)
                            .trimmingCharacters(in: .whitespacesAndNewlines))!
        XCTAssertEqual(kill(pid, 0), -1, "ffmpeg is still running")
    }

    func testFFmpegExitingWithAnErrorShowsItsLastLines() throws {
        let path = try fakeFFmpeg("""
        head -c 100000 > /dev/null
        echo "[rawvideo] something went wrong in the encoder" >&2
        exit 3
        """)
        let r = try bash("exec \"$B\" render \"$D\" -o \"$T/out.mp4\" --fps 5 -q", path: path)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("exited with status 3"), r.stderr)
        XCTAssertTrue(r.stderr.contains("something went wrong in the encoder"), r.stderr)
        XCTAssertEqual(try contents(), ["bin"])
    }
}
