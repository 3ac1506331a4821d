import XCTest
import Foundation
@testable import Timelines

/// A document is untrusted input (issue 22): the sizes it asks for are checked before
/// anything is allocated, the files it names stay in its folder, and its mistakes get
/// messages that say what is wrong, quoting only a short excerpt of any file.
final class UntrustedDocumentTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("untrusted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("doc"), withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// The messages decoding `text` gives (empty when it decodes), as `file` in `folder`
    /// (the test's `doc` folder by default); warnings go to `warnings`.
    func errors(_ text: String, limits: DocumentLimits = DocumentLimits(), file: String = "t.json",
                in folder: URL? = nil, warnings: UnsafeMutablePointer<[String]>? = nil) -> [String] {
        let path = (folder ?? dir.appendingPathComponent("doc")).appendingPathComponent(file).path
        do {
            _ = try TimelineDecoder.decode(Array(text.utf8), file: path, limits: limits) { w in warnings?.pointee.append(w.description) }
            return []
        } catch {
            return error.errors.map { $0.description.replacingOccurrences(of: path, with: file) }
        }
    }

    func write(_ text: String, _ name: String) throws {
        try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    let values = #""data": { "d": { "values": [ { "x": 0, "y": 1 }, { "x": 1, "y": 2 } ] } }"#

    func document(title: String) -> String {
        #"{ "# + values + #", "charts": [ { "data": "d", "title": "# + title + #", "marks": [ { "type": "line" } ] } ] }"#
    }

    func table(_ file: String) -> String {
        #"{ "data": { "d": { "file": ""# + file + #"" } }, "charts": [ { "data": "d", "marks": [ { "type": "line" } ] } ] }"#
    }

    // MARK: Sizes

    func testALabelOverTheLimitIsRefusedNamingTheLimit() {
        let long = String(repeating: "é", count: 10_001)
        XCTAssertEqual(errors(document(title: "\"\(long)\"")), [
            "t.json:1:114: charts[0].title: a string of 10001 characters, over the limit of 10000 characters on a label's "
                + "length (the label limit): \"" + String(repeating: "é", count: 40) + "…\"",
        ])
        // The limit counts characters, not bytes: 10,000 two-byte characters are allowed.
        XCTAssertEqual(errors(document(title: "\"\(long.dropLast())\"")), [])
        XCTAssertEqual(errors(document(title: #"{ "text": "\#(long)" }"#)).count, 1)
        var small = DocumentLimits()
        small.maxLabelLength = 3
        XCTAssertEqual(errors(document(title: #""abcd""#), limits: small), [
            "t.json:1:114: charts[0].title: a string of 4 characters, over the limit of 3 characters on a label's length (the label limit): \"abcd\"",
        ])
        // Data that may become a label is held to it too: inline strings and CSV text.
        let inline = #"{ "data": { "d": { "values": [ { "x": "abcd", "y": 1 } ] } }, "charts": [ { "data": "d", "marks": [ { "type": "bar" } ] } ] }"#
        XCTAssertEqual(errors(inline, limits: small), [
            "t.json:1:39: data.d.values[0].x: a string of 4 characters, over the limit of 3 characters on a label's length (the label limit): \"abcd\"",
        ])
    }

    /// A document whose text mark shows `rows` labels of `label`.
    func labels(_ rows: Int, _ label: String, extra: String = "") -> String {
        let values = (0..<rows).map { #"{ "x": \#($0 % 100), "y": \#($0 / 100), "n": "\#(label)" }"# }.joined(separator: ", ")
        return #"{ "data": { "d": { "values": [ "# + values + #" ] } }, "charts": [ { "data": "d", "marks": [ { "type": "text", "text": { "field": "n" } } ] }"#
            + extra + " ] }"
    }

    func testTextOverTheGlyphLimitIsRefusedAtTheMarkNamingTheLimit() throws {
        var small = DocumentLimits()
        small.maxGlyphsPerFrame = 100
        // 11 labels of 10 characters: 110 glyphs; 10 of them are 100, the limit itself.
        let over = errors(labels(11, "abcdefghij"), limits: small)
        XCTAssertEqual(over.count, 1, "\(over)")
        XCTAssertTrue(over[0].hasPrefix("t.json:1:"), over[0])
        XCTAssertTrue(over[0].contains(": charts[0].marks[0]: the mark shows up to 11 labels at once, of up to 10 characters (110 glyphs a frame), "
                                       + "over the limit of 100 glyphs a frame (the glyph limit); show fewer labels"), over[0])
        let under = labels(10, "abcdefghij")
        XCTAssertEqual(errors(under, limits: small), [])
        // Just under the limit decodes and draws.
        var scene = try TimelineDecoder.decode(Array(under.utf8), file: dir.appendingPathComponent("doc/t.json").path, limits: small)
        scene.width = 64; scene.height = 64
        let frame = scene.frame(at: 0)
        XCTAssertEqual(frame.width, 64)
        // The limit counts the whole document: a second chart's title that takes the text
        // past it is reported at that chart, with the total.
        let title = String(repeating: "t", count: 20)
        let two = errors(labels(9, "abcdefghij", extra: #", { "data": "d", "title": "\#(title)", "marks": [ { "type": "point" } ] }"#), limits: small)
        XCTAssertEqual(two.count, 1, "\(two)")
        XCTAssertTrue(two[0].contains(": charts[1]: the chart's titles, axis labels and legend come to up to 20 characters, which takes the "
                                      + "document's text to 110, over the limit of 100 glyphs a frame (the glyph limit)"), two[0])
    }

    func testTenThousandLabelsOfTenThousandCharactersAreOverTheDefaultGlyphLimit() {
        // Each label is within the label limit; together they are 10^8 glyphs a frame.
        let long = String(repeating: "é", count: 10_000)
        let values = (0..<10_000).map { #"{ "x": \#($0 % 100), "y": \#($0 / 100) }"# }.joined(separator: ", ")
        let doc = #"{ "data": { "d": { "values": [ "# + values + #" ] } }, "charts": [ { "data": "d", "marks": [ { "type": "point" }, "#
            + #"{ "type": "text", "text": { "value": "\#(long)" } } ] } ] }"#
        let started = Date()
        let messages = errors(doc)
        XCTAssertEqual(messages.count, 1, "\(messages.map { $0.prefix(300) })")
        XCTAssertTrue(messages.first?.contains("charts[0].marks[1]: the mark shows up to 10000 labels at once, of up to 10000 characters "
                                               + "(100000000 glyphs a frame), over the limit of 500000 glyphs a frame (the glyph limit)") == true,
                      "\(messages.map { $0.prefix(300) })")
        // Refused before shaping: decoding alone, not 10^8 glyphs.
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
    }

    func testACSVTextCellOverTheLimitIsRefusedAtItsCell() throws {
        try write("x,y\nab,1\nabcdef,2\n", "doc/t.csv")
        var small = DocumentLimits()
        small.maxLabelLength = 5
        let messages = errors(table("t.csv"), limits: small)
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages[0].hasSuffix("/t.csv:3:1: data.d: a text of 6 characters in column \"x\", over the limit of 5 characters on a label's length (the label limit)"),
                      messages[0])
    }

    func testANumberLiteralIsQuotedShortWhateverItsLength() {
        let huge = String(repeating: "9", count: 1_000_000)
        let messages = errors(#"{ "fps": \#(huge), "# + values.dropFirst(0) + #", "charts": [] }"#)
        XCTAssertEqual(messages, ["t.json:1:10: fps: number out of range: 9999999999999999…(1000000 characters)…99999999"])
        // A literal that fits is quoted whole, as before.
        XCTAssertEqual(errors(#"{ "fps": 10000, "# + values + #", "charts": [ { "data": "d", "marks": [ { "type": "line" } ] } ] }"#),
                       ["t.json:1:10: fps: expected a frame rate of at most 1000 frames per second (the frame-rate limit), found 10000"])
    }

    // MARK: Files

    func testAFileOutsideTheDocumentsFolderIsRefused() throws {
        try write("x,y\n0,1\n", "secret.csv")
        let outside = "is outside the document's folder"
        for name in ["../secret.csv", dir.appendingPathComponent("secret.csv").path, "/etc/passwd", "../../../../../../etc/passwd"] {
            let messages = errors(table(name))
            XCTAssertEqual(messages.count, 1, name)
            XCTAssertTrue(messages.first?.contains(outside) == true, "\(name): \(messages)")
            XCTAssertTrue(messages.first?.contains("--allow-path") == true, "\(name): \(messages)")
            XCTAssertFalse(messages.first?.contains("root:") == true, "\(name): quotes the file: \(messages)")
        }
        // A symlink inside the folder that leads out is followed and refused.
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("doc/link.csv").path,
                                                   withDestinationPath: dir.appendingPathComponent("secret.csv").path)
        XCTAssertTrue(errors(table("link.csv")).first?.contains(outside) == true)
        // Allowed folders are read, through links too; so are files below the document.
        var allow = DocumentLimits()
        allow.allowedDirectories = [dir.path]
        XCTAssertEqual(errors(table("../secret.csv"), limits: allow), [])
        XCTAssertEqual(errors(table("link.csv"), limits: allow), [])
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("doc/data"), withIntermediateDirectories: true)
        try write("x,y\n0,1\n", "doc/data/in.csv")
        XCTAssertEqual(errors(table("data/in.csv")), [])
        // A folder whose name starts like the document's is not inside it.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("doc2"), withIntermediateDirectories: true)
        try write("x,y\n0,1\n", "doc2/x.csv")
        XCTAssertTrue(errors(table("../doc2/x.csv")).first?.contains(outside) == true)
    }

    func testKernelFilesAreRefusedWithoutReadingThem() {
        var allowRoot = DocumentLimits()
        allowRoot.allowedDirectories = ["/"]
        for name in ["/proc/self/maps", "/proc/self/environ", "/proc/kmsg", "/sys/kernel/mm/transparent_hugepage/enabled"]
            where FileManager.default.fileExists(atPath: name) {
            let start = Date()
            let messages = errors(table(name), limits: allowRoot)
            XCTAssertEqual(messages.count, 1, name)
            XCTAssertTrue(messages.first?.contains("the kernel's state, not a regular file") == true, "\(name): \(messages)")
            XCTAssertLessThan(Date().timeIntervalSince(start), 2, "\(name) was read")
        }
        // Through a symlink in the document's folder too.
        try? FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("doc/maps.csv").path,
                                                    withDestinationPath: "/proc/self/maps")
        XCTAssertTrue(errors(table("maps.csv"), limits: allowRoot).first?.contains("a file of /proc") == true)
    }

    func testAFileIsOpenedBeforeItIsCheckedSoAFIFOCannotBlock() throws {
        let fifo = dir.appendingPathComponent("doc/pipe.csv").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let start = Date()
        XCTAssertEqual(FileReading.contents(fifo), .failure(.notRegular(kind: "FIFO (named pipe)")))
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    func testMessagesQuoteOnlyAShortExcerptOfAFile() throws {
        // One long header line, as a file that is not CSV has: the list of its "fields"
        // in the message stays short.
        let header = (0..<400).map { "column\($0)-" + String(repeating: "s", count: 30) }.joined(separator: ",")
        try write(header + "\n" + (0..<400).map(String.init).joined(separator: ",") + "\n", "doc/wide.csv")
        let doc = #"{ "data": { "d": { "file": "wide.csv" } }, "charts": [ { "data": "d", "x": { "field": "when" }, "marks": [ { "type": "line" } ] } ] }"#
        let messages = errors(doc)
        XCTAssertFalse(messages.isEmpty)
        for m in messages { XCTAssertLessThan(m.count, 400, m) }
        XCTAssertTrue(messages.contains { $0.contains("its fields are \"column0-") && $0.hasSuffix(", …") }, "\(messages)")
        let columns = #"{ "data": { "d": { "file": "wide.csv", "columns": { "when": "number" } } }, "charts": [ { "data": "d", "marks": [ { "type": "line" } ] } ] }"#
        let missing = errors(columns)
        XCTAssertEqual(missing.count, 1)
        XCTAssertLessThan(missing[0].count, 400, missing[0])
    }

    func testASingleColumnFileWithCommasIsToldItMayNotBeCSV() throws {
        try write("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon,,,:/usr/sbin:/usr/sbin/nologin\n", "doc/pw.csv")
        let messages = errors(table("pw.csv"))
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages[0].hasSuffix("/pw.csv:2:21: data.d: expected 1 field as in the header, found 4; the header (line 1) "
                                            + "has no comma, so this may not be a table with commas between its fields: give the table "
                                            + "\"delimiter\" (\";\", \"\\t\" or \"|\")"), messages[0])
    }

    // MARK: Messages that mislead

    func testATinySpeedIsRefusedAsASpeed() {
        let doc = #"{ "# + values + #", "charts": [ { "data": "d", "marks": [ { "type": "line", "animate": { "opacity": { "from": 0, "to": 1, "speed": 1e-300 } } } ] } ] }"#
        XCTAssertEqual(errors(doc), ["t.json:1:189: charts[0].marks[0].animate.opacity.speed: expected a speed of at least 0.001, found 1e-300"])
    }

    func testAMarkRepeatedInTheSequenceIsReportedAtTheRepeat() {
        let doc = #"{ "# + values + #", "sequence": ["a", "b", "a"], "charts": [ { "data": "d", "marks": ["#
            + #"{ "id": "a", "type": "line", "animate": { "opacity": { "from": 0, "to": 1 } } }, "#
            + #"{ "id": "b", "type": "point", "animate": { "opacity": { "from": 0, "to": 1 } } } ] } ] }"#
        XCTAssertEqual(errors(doc), [
            "t.json:1:101: sequence[2]: the mark \"a\" is already in the sequence (at 1:91); a mark's animations play once, so each id may appear once",
        ])
    }

    func testWideEncodingsAreNamedRightly() {
        func utf16(_ s: String, bigEndian: Bool) -> [UInt8] {
            s.utf16.flatMap { u in bigEndian ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)] }
        }
        func utf32(_ s: String, bigEndian: Bool) -> [UInt8] {
            s.unicodeScalars.flatMap { u -> [UInt8] in
                let b = (0..<4).map { UInt8((u.value >> (8 * $0)) & 0xFF) }
                return bigEndian ? b.reversed() : b
            }
        }
        let doc = "\u{FEFF}{ \"charts\": [] }"
        XCTAssertEqual(TimelineDecoder.wideEncoding(utf32(doc, bigEndian: false))?.0, "UTF-32LE")
        XCTAssertEqual(TimelineDecoder.wideEncoding(utf32(doc, bigEndian: true))?.0, "UTF-32BE")
        XCTAssertEqual(TimelineDecoder.wideEncoding(utf16(doc, bigEndian: false))?.0, "UTF-16LE")
        XCTAssertEqual(TimelineDecoder.wideEncoding(utf16(doc, bigEndian: true))?.0, "UTF-16BE")
        let bare = String(doc.dropFirst())
        XCTAssertEqual(TimelineDecoder.wideEncoding(utf16(bare, bigEndian: false))?.0, "UTF-16LE")
        XCTAssertEqual(TimelineDecoder.wideEncoding(utf16(bare, bigEndian: true))?.0, "UTF-16BE")
        XCTAssertEqual(TimelineDecoder.wideEncoding(utf32(bare, bigEndian: false))?.0, "UTF-32LE")
        XCTAssertEqual(TimelineDecoder.wideEncoding(Array(bare.utf8)) == nil, true)
        do {
            _ = try TimelineDecoder.decode(utf16(bare, bigEndian: false), file: "t.json")
            XCTFail("decoded UTF-16")
        } catch {
            XCTAssertEqual(error.errors.map(\.description), [
                "t.json:1:1: (document root): the file is UTF-16LE (it has no byte order mark, but zero bytes around its first character); save it as UTF-8",
            ])
        }
    }

    func testAKeyframeTimeOutOfRangeIsOneError() {
        let doc = #"{ "# + values + #", "charts": [ { "data": "d", "marks": [ { "type": "line", "animate": { "opacity": { "keyframes": [ { "time": 0, "value": 0 }, { "time": 1e308, "value": 1 } ] } } } ] } ] }"#
        XCTAssertEqual(errors(doc), [
            "t.json:1:212: charts[0].marks[0].animate.opacity.keyframes[1].time: expected a number between 0 and 3600, found 1e308",
        ])
    }

    func testKeyframesOutOfOrderAreRefused() {
        let doc = #"{ "# + values + #", "charts": [ { "data": "d", "marks": [ { "type": "line", "animate": { "opacity": { "keyframes": [ { "time": 1, "value": 0 }, { "time": 0.5, "value": 1 } ] } } } ] } ] }"#
        XCTAssertEqual(errors(doc), [
            "t.json:1:212: charts[0].marks[0].animate.opacity.keyframes[1].time: keyframe times go in order, but 0.5 comes after 1 (keyframes[0]); two keyframes at one time make a jump",
        ])
        XCTAssertEqual(errors(doc.replacingOccurrences(of: "0.5", with: "1")), [], "equal times are a jump")
    }

    func testAnAfterThatTheSequenceOverridesIsAWarning() {
        let doc = #"{ "# + values + #", "sequence": ["b", "a"], "charts": [ { "data": "d", "marks": ["#
            + #"{ "id": "a", "type": "line", "animate": { "opacity": { "from": 0, "to": 1 } } }, "#
            + #"{ "id": "b", "type": "point", "animate": { "opacity": { "from": 0, "to": 1, "after": "a" } } } ] } ] }"#
        var warnings: [String] = []
        XCTAssertEqual(errors(doc, warnings: &warnings), [])
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.hasSuffix("t.json:1:305: charts[0].marks[1].animate.opacity.after: the \"sequence\" (at 1:91) places "
                                                + "the mark \"b\", so this \"after\" is ignored; remove it, or the mark from the sequence") == true,
                      "\(warnings)")
        // Without the sequence, the same "after" places the mark and nothing is said.
        warnings = []
        XCTAssertEqual(errors(doc.replacingOccurrences(of: #""sequence": ["b", "a"], "#, with: ""), warnings: &warnings), [])
        XCTAssertEqual(warnings, [])
    }
}
