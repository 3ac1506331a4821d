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

        /// Runs `chartreel COMMAND ARGS` (`watch` by default; nil: `args` name the command).
        init(_ args: [String], command: String? = "watch") throws {
            process.executableURL = URL(fileURLWithPath: ChartreelTestCase.binary)
            process.arguments = (command.map { [$0] } ?? []) + args
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

    func testContactSheetFollowsTheDocument() throws {
        let doc = try ParameterTests.writeParameterDocument(in: tmp)
        let out = tmp.appendingPathComponent("sheet.png").path
        let w = try Watcher([doc, "-o", out, "--sheet", "--count", "3", "--width", "60", "--debounce", "0.05"])
        defer { w.stop() }
        XCTAssertTrue(w.wait { w.count("wrote \(out) (3 thumbnails") == 1 }, w.stderr)
        let text = try String(contentsOfFile: doc, encoding: .utf8)
        try text.replacingOccurrences(of: "\"EU\"", with: "\"NA\"").write(toFile: doc, atomically: true, encoding: .utf8)
        XCTAssertTrue(w.wait { w.count("wrote \(out) (3 thumbnails") == 2 }, w.stderr)
        // The sheet is what `sheet` draws for the saved document, byte for byte.
        let expected = tmp.appendingPathComponent("expected.png").path
        let r = try chartreel("sheet", doc, "--count", "3", "--width", "60", "-o", expected)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(bytes(out), bytes(expected))
        let bad = try chartreel("watch", doc, "-o", out, "--count", "3")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--count need --sheet"), bad.stderr)
    }

    /// The served page in a real browser: headless Chromium loads it, a save is made, and
    /// the page reloads itself with the new render (scripts/preview-check --served).
    func testServedPageReloadsInChromium() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard path.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/chromium") }) else {
            return XCTFail("chromium is not on PATH; scripts/setup installs it (Debian: sudo apt-get install chromium)")
        }
        let doc = try ParameterTests.writeParameterDocument(in: tmp)
        let next = tmp.appendingPathComponent("next.json").path
        try String(contentsOfFile: doc, encoding: .utf8).replacingOccurrences(of: "\"default\": \"EU\"", with: "\"default\": \"NA\"")
            .write(toFile: next, atomically: true, encoding: .utf8)
        let w = try Watcher([doc, "--preview", "--debounce", "0.05"])
        defer { w.stop() }
        XCTAssertTrue(w.wait { w.count("preview: 3 frames") == 1 }, w.stderr)
        let line = try XCTUnwrap(w.stderr.split(separator: "\n").first { $0.hasPrefix("preview at http://127.0.0.1:") }, w.stderr)
        let url = String(line.dropFirst("preview at ".count).prefix { $0 != " " })
        let r = try run(Self.root.appendingPathComponent("scripts/preview-check").path, ["--served", url, doc, next])
        XCTAssertEqual(r.status, 0, r.stderr)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], r.text)
        XCTAssertEqual(o["reloaded"] as? Bool, true, w.stderr)
        XCTAssertTrue((o["before"] as? String)?.contains("region = EU") == true, r.text)
        XCTAssertTrue((o["after"] as? String)?.contains("region = NA") == true, r.text)
        XCTAssertEqual(w.count("preview: 3 frames"), 2)
    }

    /// One HTTP/1.0 request to 127.0.0.1:`port`; the whole answer.
    func http(_ port: Int, _ request: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0, "connect to 127.0.0.1:\(port)")
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var answer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            answer += chunk[0..<n]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    func testPreviewIsServedOnLoopbackAndFollowsRenders() throws {
        let doc = try ParameterTests.writeParameterDocument(in: tmp)
        let w = try Watcher([doc, "--preview", "--preview-port", "0", "--debounce", "0.05"])
        defer { w.stop() }
        XCTAssertTrue(w.wait { w.count("preview: 3 frames of 120x80") == 1 }, w.stderr)
        let line = try XCTUnwrap(w.stderr.split(separator: "\n").first { $0.hasPrefix("preview at http://127.0.0.1:") }, w.stderr)
        let port = try XCTUnwrap(Int(line.dropFirst("preview at http://127.0.0.1:".count).prefix { $0.isNumber }))
        let page = try http(port, "GET / HTTP/1.0\r\n\r\n")
        XCTAssertTrue(page.hasPrefix("HTTP/1.1 200 OK\r\n"), String(page.prefix(200)))
        XCTAssertTrue(page.contains("connect-src 'self'") && page.contains("fetch(\"/status\""), "the served page polls its server")
        XCTAssertEqual(page.components(separatedBy: "\"iVBORw0KGgo").count - 1, 3, "its frames")
        XCTAssertTrue(try http(port, "GET /status HTTP/1.0\r\n\r\n").hasSuffix("\r\n\r\n1\n"))
        // Only GET and HEAD of its two paths.
        XCTAssertTrue(try http(port, "POST / HTTP/1.0\r\n\r\n").hasPrefix("HTTP/1.1 405 "))
        XCTAssertTrue(try http(port, "GET /../../etc/passwd HTTP/1.0\r\n\r\n").hasPrefix("HTTP/1.1 404 "))
        XCTAssertTrue(try http(port, "GET \(doc) HTTP/1.0\r\n\r\n").hasPrefix("HTTP/1.1 404 "))
        // Broken: the status carries the error, the page stays; fixed: a new version.
        let text = try String(contentsOfFile: doc, encoding: .utf8)
        try (text + ",").write(toFile: doc, atomically: false, encoding: .utf8)
        XCTAssertTrue(w.wait { (try? self.http(port, "GET /status HTTP/1.0\r\n\r\n"))?.contains("\r\n\r\n1\n\(doc):") == true },
                      w.stderr)
        try text.replacingOccurrences(of: "\"EU\"", with: "\"NA\"").write(toFile: doc, atomically: false, encoding: .utf8)
        XCTAssertTrue(w.wait { (try? self.http(port, "GET /status HTTP/1.0\r\n\r\n"))?.hasSuffix("\r\n\r\n2\n") == true }, w.stderr)
        XCTAssertTrue(try http(port, "GET / HTTP/1.0\r\n\r\n").contains("{\"name\":\"region\",\"value\":\"NA\"}"), "the new page")
    }
}
