import XCTest
import Foundation

/// Runs `chartreel` on every document of the bad-input corpus (Tests/Fixtures/bad) and
/// checks that each is refused the way a compiler refuses a bad program: exit code 2,
/// the expected messages on stderr (file:line:column: path: message), no crash, and
/// nothing written.
final class BadInputTests: XCTestCase {
    static let fixtures = CommandLineTests.root.appendingPathComponent("Tests/Fixtures/bad")

    var tmp: URL!
    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chartreel-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws {
        // A case may have left a file without permissions; make it removable.
        if let names = try? FileManager.default.contentsOfDirectory(atPath: tmp.path) {
            for n in names { chmod(tmp.appendingPathComponent(n).path, 0o755) }
        }
        try? FileManager.default.removeItem(at: tmp)
    }

    struct Run { var status: Int32; var signalled: Bool; var stderr: String }

    /// Runs the binary in `directory` with `args`; stdout is discarded.
    func chartreel(_ args: [String], in directory: URL) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CommandLineTests.binary)
        p.arguments = args
        p.currentDirectoryURL = directory
        let err = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = err
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, signalled: p.terminationReason == .uncaughtSignal,
                   stderr: String(decoding: data, as: UTF8.self))
    }

    /// The cases: every `.json` entry of the corpus, files and directories alike.
    func cases() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".json") }.sorted()
    }

    func expectedLines(_ name: String) throws -> [String] {
        let url = Self.fixtures.appendingPathComponent(String(name.dropLast(5)) + ".expected")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// True once `chartreel validate` exists (it checks a document without rendering).
    lazy var hasValidate: Bool = {
        (try? chartreel(["validate", "--help"], in: tmp).status) == 0
    }()

    /// What one refused document did: the render, what it left in its output
    /// directory, and `validate` when the binary has it.
    struct Outcome { var render: Run; var leftovers: [String]; var validate: Run? }

    /// Renders `document` (run in `directory`) into a fresh, empty output directory.
    func attempt(_ document: String, in directory: URL, validate: Bool) throws -> Outcome {
        let out = tmp.appendingPathComponent("out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let r = try chartreel(["render", document, "-o", out.appendingPathComponent("out.mp4").path], in: directory)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.path)
        let v = validate ? try chartreel(["validate", document], in: directory) : nil
        return Outcome(render: r, leftovers: leftovers, validate: v)
    }

    /// Checks a refusal: exit code 2 without a signal, exactly the expected lines on
    /// stderr, nothing written; `validate`, when present, says the same with exit code 2.
    func assertRefused(_ document: String, _ o: Outcome, expected: [String],
                       file: StaticString = #filePath, line: UInt = #line) {
        let r = o.render
        XCTAssertFalse(r.signalled, "\(document): killed by a signal\n\(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.status, 2, "\(document): exit status\n\(r.stderr)", file: file, line: line)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, expected, "\(document): messages", file: file, line: line)
        XCTAssertEqual(o.leftovers, [], "\(document): something was written", file: file, line: line)
        if let v = o.validate {
            XCTAssertFalse(v.signalled, "\(document): validate killed by a signal", file: file, line: line)
            XCTAssertEqual(v.status, 2, "\(document): validate exit status\n\(v.stderr)", file: file, line: line)
            for e in expected {
                XCTAssertTrue(v.stderr.contains(e), "\(document): validate does not say\n\(e)\nbut\n\(v.stderr)", file: file, line: line)
            }
        }
    }

    func assertRefused(_ document: String, in directory: URL, expected: [String],
                       file: StaticString = #filePath, line: UInt = #line) throws {
        assertRefused(document, try attempt(document, in: directory, validate: hasValidate), expected: expected, file: file, line: line)
    }

    func testTheCorpusHasSixtyCasesEachWithItsMessages() throws {
        let names = try cases()
        XCTAssertGreaterThanOrEqual(names.count, 60)
        for name in names {
            let lines = try expectedLines(name)
            XCTAssertFalse(lines.isEmpty, "\(name) has no expected message")
            // Every message is located: the document or the CSV it reads, then line:column
            // (only errors about the file as a whole, such as a directory, have none).
            for l in lines {
                XCTAssertNotNil(l.range(of: #"^[0-9]{3}-[^:]+\.(json|csv):[0-9]+:[0-9]+: [^:]+: "#, options: .regularExpression)
                                ?? (name.hasPrefix("100-") ? l.range(of: name) : nil), "\(name): unlocated message \(l)")
            }
        }
        // Cases with several errors report all of them at once.
        XCTAssertEqual(try expectedLines("098-three-errors.json").count, 3)
        XCTAssertEqual(try expectedLines("099-errors-everywhere.json").count, 8)
    }

    func testEveryBadDocumentIsRefusedWithItsMessagesAndNoOutput() throws {
        let names = try cases()
        let validate = hasValidate
        // Each run mostly waits (process start, fc-match), so several run at once; the
        // assertions are made afterwards, on this thread.
        var outcomes = [Result<Outcome, Error>?](repeating: nil, count: names.count)
        let lock = NSLock()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 8
        for (i, name) in names.enumerated() {
            queue.addOperation {
                let o = Result { try self.attempt(name, in: Self.fixtures, validate: validate) }
                lock.lock(); outcomes[i] = o; lock.unlock()
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        for (name, outcome) in zip(names, outcomes) {
            assertRefused(name, try outcome!.get(), expected: try expectedLines(name))
        }
    }

    func testAMissingPathAndAFIFOAreRefusedWithoutReading() throws {
        try assertRefused("no-such.json", in: tmp, expected: ["no-such.json: no such file; expected a timeline document (.json)"])
        // Reading a FIFO would block for ever: it is refused after stat, before open.
        XCTAssertEqual(mkfifo(tmp.appendingPathComponent("pipe.json").path, 0o644), 0)
        try assertRefused("pipe.json", in: tmp,
                          expected: ["pipe.json: is a FIFO (named pipe), not a regular file; expected a timeline document (.json)"])
        // The same for a data file.
        XCTAssertEqual(mkfifo(tmp.appendingPathComponent("pipe.csv").path, 0o644), 0)
        try """
        { "data": { "d": { "file": "pipe.csv" } },
          "charts": [ { "data": "d", "marks": [ { "type": "line" } ] } ] }
        """.write(to: tmp.appendingPathComponent("doc.json"), atomically: true, encoding: .utf8)
        try assertRefused("doc.json", in: tmp, expected: [
            "doc.json:1:28: data.d.file: \"pipe.csv\" is a FIFO (named pipe), not a regular file; expected a CSV file with a header row",
        ])
    }

    func testADocumentWithoutReadPermissionIsRefused() throws {
        if geteuid() == 0 {
            // Root reads any file whatever its mode. The file used here before, the
            // process's own /proc/self/mem (EIO at offset 0), is now refused before any
            // read, as every file of /proc is (issue 22): that refusal is what is checked.
            let out = tmp.appendingPathComponent("out.mp4").path
            let r = try chartreel(["render", "/proc/self/mem", "-o", out], in: tmp)
            XCTAssertEqual(r.status, 2)
            XCTAssertEqual(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines),
                           "/proc/self/mem: is a file of /proc, the kernel's state, not a regular file; expected a timeline document (.json)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))
            return
        }
        let doc = tmp.appendingPathComponent("secret.json")
        try "{}".write(to: doc, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(doc.path, 0), 0)
        try assertRefused("secret.json", in: tmp, expected: ["secret.json: cannot be read: permission denied"])
    }
}
