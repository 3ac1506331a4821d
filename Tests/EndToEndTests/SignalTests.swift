import XCTest
import Foundation

/// Ctrl-C and SIGTERM during a render: nothing half-written, no ffmpeg left behind.
final class SignalTests: ChartreelTestCase {
    /// Processes whose command line contains `text` (as pids).
    private func processes(mentioning text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self).contains(text)
        }
    }

    /// Starts a long render into `output`, waits until `ready()` holds, sends `signal`,
    /// and returns the exit status and stderr.
    private func interrupt(output: String, extra: [String] = [], signal: Int32,
                           ready: () -> Bool) throws -> (Int32, String) {
        let doc = try document(extra: ", \"duration\": 120")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.binary)
        p.arguments = ["render", doc, "-o", output, "-q"] + extra
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let collected = Collector(err.fileHandleForReading)
        let deadline = Date().addingTimeInterval(20)
        while !ready() && Date() < deadline && p.isRunning { usleep(20_000) }
        XCTAssertTrue(p.isRunning, "still rendering when interrupted")
        XCTAssertTrue(ready(), "the render got under way")
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: collected.wait(), as: UTF8.self))
    }

    func testSIGINTStopsFFmpegAndRemovesTheTemporaryFile() throws {
        let out = tmp.appendingPathComponent("long.mp4").path
        var ffmpegPids: [Int32] = []
        let (status, stderr) = try interrupt(output: out, signal: SIGINT) {
            // ffmpeg has started and is writing our temporary file.
            ffmpegPids = processes(mentioning: ".long.mp4.partial-")
            return !ffmpegPids.isEmpty && ((try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? [])
                .contains { $0.hasPrefix(".long.mp4.partial-") }
        }
        XCTAssertEqual(status, 130, "128 + SIGINT")
        XCTAssertTrue(stderr.contains("interrupted by SIGINT"), stderr)
        XCTAssertFalse(ffmpegPids.isEmpty)
        XCTAssertEqual(processes(mentioning: ".long.mp4.partial-"), [], "no ffmpeg left running")
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { !$0.hasSuffix(".json") }
        XCTAssertEqual(left, [], "nothing half-written")
    }

    func testSIGTERMRemovesAPartialFrameDirectory() throws {
        let out = tmp.appendingPathComponent("frames").path
        let (status, stderr) = try interrupt(output: out, signal: SIGTERM) {
            let temp = ((try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []).first { $0.hasPrefix(".frames.partial-") }
            return temp.map { ((try? FileManager.default.contentsOfDirectory(atPath: tmp.path + "/" + $0)) ?? []).count > 3 } ?? false
        }
        XCTAssertEqual(status, 143, "128 + SIGTERM")
        XCTAssertTrue(stderr.contains("interrupted by SIGTERM"), stderr)
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { !$0.hasSuffix(".json") }
        XCTAssertEqual(left, [])
    }
}
