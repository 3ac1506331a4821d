import XCTest
import Foundation

/// `chartreel watch` as a subprocess: a save renders again, a broken document keeps the last
/// good output, a CSV it reads is watched too, SIGINT stops it (docs/cli.md, `watch`).
final class WatchTests: ChartreelTestCase {
    /// A running `chartreel watch` whose standard error is collected as it comes.
    final class Watcher: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var text = ""

        init(_ args: [String]) throws {
            process.executableURL = URL(fileURLWithPath: ChartreelTestCase.binary)
            process.arguments = ["watch"] + args
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let handle = err.fileHandleForReading
            DispatchQueue.global().async { [self] in
                while true {
                    let d = handle.availableData
                    if d.isEmpty { return }
                    lock.lock(); text += String(decoding: d, as: UTF8.self); lock.unlock()
                }
            }
        }

        var stderr: String { lock.lock(); defer { lock.unlock() }; return text }

        /// Waits up to `timeout` seconds for `condition`; false when it never held.
        func wait(_ timeout: Double = 20, _ condition: () -> Bool) -> Bool {
            let end = Date().addingTimeInterval(timeout)
            while Date() < end {
                if condition() { return true }
                usleep(20_000)
            }
            return condition()
        }

        /// How many times `s` occurs in standard error so far.
        func count(_ s: String) -> Int { stderr.components(separatedBy: s).count - 1 }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGINT) }
            process.waitUntilExit()
        }
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    func testSaveRendersAgainAndABrokenDocumentKeepsTheOutput() throws {
        let doc = try document(width: 120, height: 90, extra: ", \"duration\": 0.3, \"fps\": 10")
        // The document's own "fps": 60 comes later in the file; both set, the decoder refuses
        // duplicates, so take the generated one's fps out.
        var text = try String(contentsOfFile: doc, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"fps\": 60,", with: "").replacingOccurrences(of: "\"inset\": 40", with: "\"inset\": 8")
        try text.write(toFile: doc, atomically: true, encoding: .utf8)
        let out = tmp.appendingPathComponent("out.gif").path
        let w = try Watcher([doc, "-o", out, "--debounce", "0.05"])
        defer { w.stop() }
        XCTAssertTrue(w.wait { w.count("wrote \(out)") == 1 }, w.stderr)
        let first = try XCTUnwrap(bytes(out))
        XCTAssertEqual(try streamInfo(out).frames, 3)

        // A save as editors do it: a new file renamed over the old one.
        try text.replacingOccurrences(of: "#FFFFFF", with: "#FFE0E0").write(toFile: doc, atomically: true, encoding: .utf8)
        XCTAssertTrue(w.wait { w.count("wrote \(out)") == 2 }, w.stderr)
        XCTAssertTrue(w.stderr.contains((doc as NSString).lastPathComponent + " changed"), w.stderr)
        let second = try XCTUnwrap(bytes(out))
        XCTAssertNotEqual(first, second, "the new background is in the new output")

        // Broken: the first error in full, and the output stays as it was.
        try (text + ",").write(toFile: doc, atomically: false, encoding: .utf8)
        XCTAssertTrue(w.wait { w.stderr.contains("kept the last good \(out)") }, w.stderr)
        XCTAssertTrue(w.stderr.contains("render failed:\n\(doc):"), w.stderr)
        XCTAssertEqual(bytes(out), second)
        XCTAssertEqual(w.count("wrote \(out)"), 2)

        // Fixed again: rendered again.
        try text.write(toFile: doc, atomically: false, encoding: .utf8)
        XCTAssertTrue(w.wait { w.count("wrote \(out)") == 3 }, w.stderr)
        XCTAssertEqual(bytes(out), first, "frames are a pure function of the document")

        kill(w.process.processIdentifier, SIGINT)
        w.process.waitUntilExit()
        XCTAssertEqual(w.process.terminationReason, .exit)
        XCTAssertEqual(w.process.terminationStatus, 130)
        // Four renders: the first, the save, the broken one, the fix.
        XCTAssertTrue(w.wait(5) { w.stderr.contains("watch stopped after 4 renders") }, w.stderr)
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.contains("partial") }
        XCTAssertEqual(left, [], "no temporary files left")
    }

    func testOneFrameFollowsTheCSV() throws {
        let csv = tmp.appendingPathComponent("d.csv").path
        try "x,y\n1,5\n2,9\n3,4\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let doc = tmp.appendingPathComponent("doc.json").path
        try """
            { "canvas": { "width": 100, "height": 80 }, "fps": 10, "duration": 0.5,
              "data": { "d": { "file": "d.csv" } },
              "charts": [ { "data": "d", "marks": [ { "type": "bar" } ] } ] }
            """.write(toFile: doc, atomically: true, encoding: .utf8)
        let out = tmp.appendingPathComponent("f.png").path
        let w = try Watcher([doc, "-o", out, "--frame", "3", "--debounce", "0.05"])
        defer { w.stop() }
        XCTAssertTrue(w.wait { w.count("wrote \(out)") == 1 }, w.stderr)
        try "x,y\n1,1\n2,2\n3,12\n".write(toFile: csv, atomically: false, encoding: .utf8)
        XCTAssertTrue(w.wait { w.count("wrote \(out)") == 2 }, w.stderr)
        XCTAssertTrue(w.stderr.contains("d.csv changed"), w.stderr)
        // The frame is what `frame` gives for the new data, byte for byte.
        let expected = tmp.appendingPathComponent("expected.png").path
        let r = try chartreel("frame", doc, "--frame", "3", "-o", expected)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(bytes(out), bytes(expected))
    }
}
