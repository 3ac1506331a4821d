import XCTest
import Foundation

/// Helpers for tests that run the built `chartreel` binary and inspect what it writes
/// with ffmpeg and ffprobe. Each test gets a fresh temporary directory.
class ChartreelTestCase: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let document = root.appendingPathComponent("timelines/curved-line-reveal.json").path
    static var binary: String {
        // The test bundle sits next to the products it was built with.
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let p = candidate.appendingPathComponent("chartreel").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return Bundle.main.bundleURL.appendingPathComponent("chartreel").path
    }

    var tmp: URL!
    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chartreel-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    struct Result { var status: Int32; var stdout: Data; var stderr: String; var text: String { String(decoding: stdout, as: UTF8.self) } }

    /// Collects a pipe's bytes on another thread.
    final class Collector: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()
        private let done = DispatchSemaphore(value: 0)
        init(_ handle: FileHandle) {
            DispatchQueue.global().async { [self] in
                let d = handle.readDataToEndOfFile()
                lock.lock(); bytes = d; lock.unlock()
                done.signal()
            }
        }
        func wait() -> Data { done.wait(); lock.lock(); defer { lock.unlock() }; return bytes }
    }

    @discardableResult
    func run(_ exe: String, _ args: [String], environment: [String: String]? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        // Read both pipes concurrently so a full pipe cannot block the child.
        let errors = Collector(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    func chartreel(_ args: String..., environment: [String: String]? = nil) throws -> Result {
        try run(Self.binary, args, environment: environment)
    }

    func chartreel(_ args: [String]) throws -> Result { try run(Self.binary, args) }

    func ffprobe(_ file: String, _ args: [String]) throws -> String {
        String(decoding: try run("/usr/bin/env", ["ffprobe", "-v", "error"] + args + [file]).stdout, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func streamInfo(_ file: String) throws -> (width: Int, height: Int, frames: Int) {
        let s = try ffprobe(file, ["-count_frames", "-select_streams", "v:0",
                                   "-show_entries", "stream=width,height,nb_read_frames", "-of", "csv=p=0"])
        let f = s.split(separator: ",").compactMap { Int($0) }
        XCTAssertEqual(f.count, 3, s)
        guard f.count == 3 else { return (0, 0, 0) }
        return (f[0], f[1], f[2])
    }

    /// Frame `index` of a video decoded by ffmpeg as straight RGBA bytes. `decoder` goes
    /// before `-i` (libvpx-vp9 is needed to decode a WebM's alpha channel).
    func decodedFrame(_ file: String, index: Int, decoder: [String] = []) throws -> [UInt8] {
        let r = try run("/usr/bin/env", ["ffmpeg", "-v", "error"] + decoder + ["-i", file, "-vf", "select=eq(n\\,\(index))",
                                         "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return [UInt8](r.stdout)
    }

    /// The RGBA of pixel (x, y) in straight RGBA bytes of a `width`-wide image.
    func pixel(_ rgba: [UInt8], width: Int, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * width + x) * 4
        return Array(rgba[i..<i + 4])
    }

    /// The default document with its canvas changed (e.g. a transparent background), saved in tmp.
    func document(background: String = "#FFFFFF", width: Int = 800, height: Int = 600, extra: String = "") throws -> String {
        var text = try String(contentsOfFile: Self.document, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"canvas\": { \"width\": 800, \"height\": 600, \"background\": \"#FFFFFF\" }",
                                         with: "\"canvas\": { \"width\": \(width), \"height\": \(height), \"background\": \"\(background)\" }\(extra)")
        XCTAssertTrue(text.contains("\"background\": \"\(background)\""), "the canvas line was found")
        let path = tmp.appendingPathComponent("doc-\(UUID().uuidString.prefix(8)).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every file in a directory, sorted, with its bytes.
    func contents(ofDirectory dir: String) throws -> [(String, Data)] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted().map {
            ($0, try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0)))
        }
    }
}
