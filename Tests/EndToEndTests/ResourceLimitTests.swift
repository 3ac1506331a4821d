import XCTest
import Foundation

/// Sizes that decide an allocation are checked before it (issue 22): each of these used
/// to abort with "Fatal error: failed to allocate N bytes" (SIGABRT) or block, and must
/// now exit 2 at once with a message naming the limit, leaving nothing behind.
final class ResourceLimitTests: ChartreelTestCase {
    /// `curved-line-reveal.json` with its canvas made `width`×`height`, written into the
    /// test's directory.
    func bigDocument(width: Int, height: Int) throws -> String {
        var doc = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.document))) as! [String: Any]
        var canvas = doc["canvas"] as! [String: Any]
        canvas["width"] = width
        canvas["height"] = height
        doc["canvas"] = canvas
        let path = tmp.appendingPathComponent("big.json").path
        try JSONSerialization.data(withJSONObject: doc).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs chartreel, failing the test (and killing it) when it has not finished in
    /// `seconds`: the cases here used to block or allocate for minutes.
    func chartreelWithin(_ seconds: Double, _ args: [String]) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.binary)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let watchdog = DispatchWorkItem { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        let errors = Collector(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.wait()
        p.waitUntilExit()
        watchdog.cancel()
        XCTAssertEqual(p.terminationReason, .exit, "\(args) was killed: it ran for more than \(seconds) s or crashed")
        return Result(status: p.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    func testAScaleThatTakesTheCanvasPastTheLimitIsRefusedBeforeRendering() throws {
        let doc = try bigDocument(width: 4096, height: 4096)
        let frames = tmp.appendingPathComponent("frames").path
        let r = try chartreelWithin(30, ["render", doc, "--scale", "16", "-o", frames])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--scale 16 makes the 4096x4096 canvas 65536x65536 pixels, over the limit of 16384 "
                                        + "pixels per side (the canvas limit per side); the largest scale for this document is 4"),
                      r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted(), ["big.json"],
                       "a frame directory or a .partial was left behind")
        let f = try chartreelWithin(30, ["frame", doc, "--scale", "4.01", "--at", "0", "-o", tmp.appendingPathComponent("f.png").path])
        XCTAssertEqual(f.status, 2, f.stderr)
        XCTAssertTrue(f.stderr.contains("(the canvas limit per side)"), f.stderr)
        // At the limit itself the plan goes ahead.
        let ok = try chartreelWithin(60, ["render", doc, "--scale", "4", "--dry-run", "-o", tmp.appendingPathComponent("x.mp4").path])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(ok.text.contains("of 16384x16384 at"), ok.text)
    }

    func testASheetLargerThanTheLimitIsRefusedBeforeRendering() throws {
        let r = try chartreelWithin(30, ["sheet", Self.document, "--count", "1000", "--width", "4096", "--columns", "100",
                                         "-o", tmp.appendingPathComponent("s.png").path])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("make a sheet of 411216x"), r.stderr)
        XCTAssertTrue(r.stderr.contains("over the limit of 16384 pixels per side (the canvas limit per side)"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [])
    }

    func testDiffRefusesDevicesAndFIFOsAtOnce() throws {
        let a = tmp.appendingPathComponent("a.png").path
        XCTAssertEqual(try chartreel("frame", Self.document, "--at", "1", "-o", a).status, 0)
        let zero = try chartreelWithin(10, ["diff", a, "/dev/zero"])
        XCTAssertEqual(zero.status, 2, zero.stderr)
        XCTAssertEqual(zero.stderr, "error: /dev/zero: is a device, not a regular file; expected a PNG file\n")
        let fifo = tmp.appendingPathComponent("pipe.png").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let piped = try chartreelWithin(10, ["diff", fifo, a])
        XCTAssertEqual(piped.status, 2, piped.stderr)
        XCTAssertEqual(piped.stderr, "error: \(fifo): is a FIFO (named pipe), not a regular file; expected a PNG file\n")
    }

    func testATenMegabyteTitleIsRefusedNamingTheLabelLimit() throws {
        let doc = tmp.appendingPathComponent("title.json").path
        let title = String(repeating: "x", count: 10_000_000)
        try #"{ "data": { "d": { "values": [ { "x": 0, "y": 1 }, { "x": 1, "y": 2 } ] } }, "charts": [ { "data": "d", "title": "\#(title)", "marks": [ { "type": "line" } ] } ] }"#
            .write(toFile: doc, atomically: true, encoding: .utf8)
        let r = try chartreelWithin(60, ["render", doc, "-o", tmp.appendingPathComponent("t.mp4").path])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertLessThan(r.stderr.utf8.count, 400, "the title is echoed")
        XCTAssertTrue(r.stderr.contains("charts[0].title: a string of 10000000 characters, over the limit of 10000 characters on a "
                                        + "label's length (the label limit)"), r.stderr)
    }

    /// A text mark showing `rows` labels of 10,000 characters each (within the label
    /// limit), written into the test's directory.
    func labelsDocument(rows: Int) throws -> String {
        let label = String(repeating: "ab cd ", count: 1666) + "abcd"
        let values = (0..<rows).map { #"{ "x": \#($0), "y": \#($0), "n": "\#(label)" }"# }.joined(separator: ", ")
        let doc = #"{ "canvas": { "width": 200, "height": 100 }, "data": { "t": { "values": [ "# + values + #" ] } }, "#
            + #""charts": [ { "data": "t", "marks": [ { "type": "text", "text": { "field": "n", "size": 1 } } ] } ] }"#
        let path = tmp.appendingPathComponent("labels-\(rows).json").path
        try doc.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testTextOverTheGlyphLimitExits2NamingTheLimitAndTheMark() throws {
        // 51 labels of 10,000 characters: 510,000 glyphs a frame, over the limit of 500,000.
        let over = try chartreelWithin(30, ["render", try labelsDocument(rows: 51), "-o", tmp.appendingPathComponent("o.mp4").path])
        XCTAssertEqual(over.status, 2, over.stderr)
        XCTAssertTrue(over.stderr.contains(": charts[0].marks[0]: the mark shows up to 51 labels at once, of up to 10000 characters "
                                           + "(510000 glyphs a frame), over the limit of 500000 glyphs a frame (the glyph limit)"), over.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("o.mp4").path))
        // 50 of them, the limit itself, render.
        let png = tmp.appendingPathComponent("u.png").path
        let under = try chartreelWithin(120, ["frame", try labelsDocument(rows: 50), "--at", "0", "-o", png])
        XCTAssertEqual(under.status, 0, under.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: png))
    }

    func testDataFilesStayInTheDocumentsFolderUnlessAllowed() throws {
        let folder = tmp.appendingPathComponent("doc")
        let shared = tmp.appendingPathComponent("shared")
        for d in [folder, shared] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        try "x,y\n0,1\n1,3\n".write(to: shared.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let doc = folder.appendingPathComponent("d.json").path
        try #"{ "data": { "d": { "file": "../shared/t.csv" } }, "charts": [ { "data": "d", "marks": [ { "type": "line" } ] } ] }"#
            .write(toFile: doc, atomically: true, encoding: .utf8)
        let refused = try chartreel("validate", doc)
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("/doc/../shared/t.csv\" is outside the document's folder (\"\(folder.path)\")"), refused.stderr)
        let allowed = try chartreel("validate", doc, "--allow-path", shared.path)
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        let notADirectory = try chartreel("validate", doc, "--allow-path", shared.appendingPathComponent("t.csv").path)
        XCTAssertEqual(notADirectory.status, 2)
        XCTAssertTrue(notADirectory.stderr.contains("--allow-path expects a directory"), notADirectory.stderr)
        // /etc/passwd is neither read nor quoted.
        try #"{ "data": { "d": { "file": "/etc/passwd" } }, "charts": [ { "data": "d", "marks": [ { "type": "line" } ] } ] }"#
            .write(toFile: doc, atomically: true, encoding: .utf8)
        let passwd = try chartreel("render", doc, "-o", tmp.appendingPathComponent("p.mp4").path)
        XCTAssertEqual(passwd.status, 2)
        XCTAssertFalse(passwd.stderr.contains("root"), passwd.stderr)
    }

    func testWarningsReachStandardErrorAndTheDocumentStillRenders() throws {
        let doc = tmp.appendingPathComponent("w.json").path
        try (#"{ "fps": 10, "data": { "d": { "values": [ { "x": 0, "y": 1 }, { "x": 1, "y": 2 } ] } }, "sequence": ["b", "a"], "charts": [ { "data": "d", "marks": ["#
            + #"{ "id": "a", "type": "line", "animate": { "opacity": { "from": 0, "to": 1 } } }, "#
            + #"{ "id": "b", "type": "point", "animate": { "opacity": { "from": 0, "to": 1, "after": "a" } } } ] } ] }"#)
            .write(toFile: doc, atomically: true, encoding: .utf8)
        let r = try chartreel("validate", doc)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("warning: \(doc):1:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("so this \"after\" is ignored"), r.stderr)
    }

    func testAnOutputLargerThanTheFreeSpaceIsRefusedBeforeRendering() throws {
        // Within every document limit, and ~77 TB of PNG frames.
        var doc = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: try bigDocument(width: 16384, height: 16384)))) as! [String: Any]
        doc["fps"] = 1000
        doc["duration"] = 3600
        let path = tmp.appendingPathComponent("huge.json").path
        try JSONSerialization.data(withJSONObject: doc).write(to: URL(fileURLWithPath: path))
        let frames = tmp.appendingPathComponent("frames").path
        let r = try chartreelWithin(30, ["render", path, "-o", frames])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("error: the output would take about 77 TB (3600000 frames of 16384x16384 as png, estimated), but only "),
                      r.stderr)
        XCTAssertTrue(r.stderr.contains("or pass --no-space-check"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: frames))
        // --dry-run shows the estimate and says it does not fit.
        let dry = try chartreelWithin(30, ["render", path, "-o", tmp.appendingPathComponent("h.mp4").path, "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.text.contains("estimated size: about 3.9 TB, "), dry.text)
        XCTAssertTrue(dry.text.contains("(does not fit: render refuses without --no-space-check)"), dry.text)
        // A small output fits, and says so in the dry run.
        let small = try chartreel("render", Self.document, "-o", tmp.appendingPathComponent("s.mp4").path, "--dry-run")
        XCTAssertTrue(small.text.contains("estimated size: about 242 KB, "), small.text)
        XCTAssertFalse(small.text.contains("does not fit"), small.text)
        let forced = try chartreel("render", Self.document, "-o", tmp.appendingPathComponent("s").path, "--fps", "5",
                                   "--no-space-check", "-q")
        XCTAssertEqual(forced.status, 0, forced.stderr)
    }

    /// Inputs whose estimated memory is over `--max-memory` stop before they are read,
    /// naming the input and the estimate; a render whose frames would not fit stops before
    /// the first frame; `--dry-run` prints the estimate; a bad size is a usage error.
    func testAnInputOverTheMemoryLimitIsRefusedBeforeItIsRead() throws {
        let csv = tmp.appendingPathComponent("walk.csv").path
        try ("t,value\n" + (0..<20_000).map { "\($0),\(($0 * 7919) % 1000)" }.joined(separator: "\n") + "\n")
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let doc = tmp.appendingPathComponent("walk.json").path
        try (#"{ "canvas": { "width": 320, "height": 200 }, "fps": 5, "duration": 0.4, "data": { "w": { "file": "walk.csv" } }, "#
             + #""charts": [ { "data": "w", "x": { "field": "t" }, "y": { "field": "value" }, "marks": [ { "type": "line" } ] } ] }"#)
            .write(toFile: doc, atomically: true, encoding: .utf8)
        let out = tmp.appendingPathComponent("walk.mp4").path
        // 32 MB before any input, then 40 bytes a byte of CSV: ~40 MB, over a 35 MB limit.
        let r = try chartreelWithin(30, ["render", doc, "-o", out, "--max-memory", "35M"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("data.w.file: reading \"\(csv)\" (187 KB) would take the render to about "), r.stderr)
        XCTAssertTrue(r.stderr.contains("over the limit of 35 MB (--max-memory)"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        // The same for validate, and for the document itself.
        XCTAssertEqual(try chartreel("validate", doc, "--max-memory", "35M").status, 2)
        let d = try chartreelWithin(30, ["render", doc, "-o", out, "--max-memory", "30M"])
        XCTAssertTrue(d.stderr.contains("reading the document ("), d.stderr)
        // Frames: a 4096x4096 canvas on 2 threads is a few hundred MB; its inputs are small.
        let big = try bigDocument(width: 4096, height: 4096)
        let f = try chartreelWithin(30, ["render", big, "-o", out, "--threads", "2", "--max-memory", "200M"])
        XCTAssertEqual(f.status, 2, f.stderr)
        XCTAssertTrue(f.stderr.hasPrefix("error: the render would take about "), f.stderr)
        XCTAssertTrue(f.stderr.contains("for 4096x4096 frames on 2 threads"), f.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let dry = try chartreel("render", big, "-o", out, "--threads", "2", "--max-memory", "200M", "--dry-run")
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.text.contains("estimated memory: about "), dry.text)
        XCTAssertTrue(dry.text.contains(", limit 200 MB (over: render refuses)"), dry.text)
        // Within the limit (and with none) it renders.
        XCTAssertEqual(try chartreel("render", doc, "-o", out, "-q", "--max-memory", "2G").status, 0)
        XCTAssertEqual(try chartreel("render", doc, "-o", out, "-q", "-y", "--max-memory", "none").status, 0)
        let bad = try chartreel("render", doc, "-o", out, "--max-memory", "lots")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--max-memory expects a size such as 2G"), bad.stderr)
    }
}
