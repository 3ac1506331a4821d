import XCTest
import Charts
import TestSupport
@testable import Timelines

/// The parsed form (JSONTape.swift): values and locations read back from the tape as
/// the generator wrote them, its size against the text's, and inline rows read off the
/// tape giving the same table, origins and errors as the general way.
final class JSONTapeTests: XCTestCase {
    /// A value written by `Writer`, with where it starts as the writer counted it.
    private indirect enum Model {
        case null, bool(Bool), number(Double, String), string(String)
        case array([(Model, SourceLocation)])
        case object([(String, SourceLocation, Model, SourceLocation)])
    }

    /// Writes random JSON, counting lines (LF, CRLF, lone CR) and columns (scalars) itself.
    private struct Writer {
        var rng: SplitMix64
        var bytes: [UInt8] = []
        var line = 1, column = 1

        init(seed: UInt64) { rng = SplitMix64(seed: seed) }

        var here: SourceLocation { SourceLocation(line: line, column: column) }

        mutating func emit(_ s: String) {
            for scalar in s.unicodeScalars {
                bytes.append(contentsOf: String(scalar).utf8)
                column += 1
            }
        }

        mutating func space() {
            for _ in 0..<Int(rng.next() % 3) {
                switch rng.next() % 6 {
                case 0:
                    // An LF after a lone CR makes the two one CRLF: one line.
                    if bytes.last != 0x0D { line += 1; column = 1 }
                    bytes.append(0x0A)
                case 1: bytes += [0x0D, 0x0A]; line += 1; column = 1
                case 2: bytes.append(0x0D); line += 1; column = 1
                case 3: bytes.append(0x09); column += 1
                default: bytes.append(0x20); column += 1
                }
            }
        }

        /// A string and how it is written (escapes, non-ASCII, sometimes long).
        mutating func text() -> (String, String) {
            let pieces = ["a", "Zé", "東京", "🇯🇵", "\"", "\\", "\n", "\u{1}", "/", "x y", "{params."]
            var value = "", written = "\""
            let n = rng.next() % 16 == 0 ? 300 + Int(rng.next() % 300) : Int(rng.next() % 6)
            for _ in 0..<n {
                let p = pieces[Int(rng.next() % UInt64(pieces.count))]
                value += p
                switch p {
                case "\"": written += "\\\""
                case "\\": written += "\\\\"
                case "\n": written += "\\n"
                case "\u{1}": written += "\\u0001"
                case "/": written += rng.next() % 2 == 0 ? "\\/" : "/"
                case "東京": written += rng.next() % 2 == 0 ? "\\u6771\\u4eac" : p
                case "🇯🇵": written += rng.next() % 2 == 0 ? "\\ud83c\\uddef\\ud83c\\uddf5" : p
                default: written += p
                }
            }
            return (value, written + "\"")
        }

        mutating func value(depth: Int) -> (Model, SourceLocation) {
            space()
            let at = here
            let kind = depth > 3 ? rng.next() % 4 : rng.next() % 6
            switch kind {
            case 0:
                switch rng.next() % 3 {
                case 0: emit("null"); return (.null, at)
                case 1: emit("true"); return (.bool(true), at)
                default: emit("false"); return (.bool(false), at)
                }
            case 1, 2:
                // Integers around the small-integer bound, -0, fractions, exponents.
                let literals = ["0", "-0", "524287", "-524287", "524288", "-524288", "1048576", "7", "-12",
                                "0.5", "-3.25", "1e3", "2E-2", "123456789012", "9007199254740993", "1.0"]
                let literal = rng.next() % 2 == 0 ? literals[Int(rng.next() % UInt64(literals.count))]
                    : String(Int(rng.next() % 2_000_000) - 1_000_000)
                emit(literal)
                return (.number(Double(literal)!, literal), at)
            case 3:
                let (s, w) = text()
                emit(w)
                return (.string(s), at)
            case 4:
                emit("[")
                var items: [(Model, SourceLocation)] = []
                for i in 0..<Int(rng.next() % 5) {
                    if i > 0 { space(); emit(",") }
                    items.append(value(depth: depth + 1))
                }
                space(); emit("]")
                return (.array(items), at)
            default:
                emit("{")
                var members: [(String, SourceLocation, Model, SourceLocation)] = []
                for i in 0..<Int(rng.next() % 5) {
                    if i > 0 { space(); emit(",") }
                    space()
                    let keyAt = here
                    let (k, w) = text()
                    emit(w)
                    space(); emit(":")
                    let (v, vAt) = value(depth: depth + 1)
                    members.append((k, keyAt, v, vAt))
                }
                space(); emit("}")
                return (.object(members), at)
            }
        }
    }

    private func check(_ node: JSONNode, _ model: Model, _ at: SourceLocation, _ where_: String,
                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(node.location, at, "location of \(where_)", file: file, line: line)
        switch (node.value, model) {
        case (.null, .null): break
        case (.bool(let a), .bool(let b)): XCTAssertEqual(a, b, where_, file: file, line: line)
        case (.number(let a, let la), .number(let b, let lb)):
            XCTAssertEqual(a.bitPattern, b.bitPattern, "\(where_): \(la)", file: file, line: line)
            XCTAssertEqual(la, lb, where_, file: file, line: line)
        case (.string(let a), .string(let b)): XCTAssertEqual(a, b, where_, file: file, line: line)
        case (.array(let a), .array(let b)):
            XCTAssertEqual(a.count, b.count, where_, file: file, line: line)
            for (i, (n, (m, l))) in zip(a, b).enumerated() { check(n, m, l, "\(where_)[\(i)]", file: file, line: line) }
        case (.object(let a), .object(let b)):
            XCTAssertEqual(a.count, b.count, where_, file: file, line: line)
            for (member, (k, kl, m, l)) in zip(a, b) {
                XCTAssertEqual(member.key, k, where_, file: file, line: line)
                XCTAssertEqual(member.keyLocation, kl, "key location in \(where_)", file: file, line: line)
                check(member.value, m, l, "\(where_).\(k)", file: file, line: line)
            }
        default:
            XCTFail("\(where_): \(node.value.kindDescription) for \(model)", file: file, line: line)
        }
    }

    /// Every value and key of 300 random texts reads back as written, at the place written,
    /// including texts with a byte order mark and texts longer than a line checkpoint.
    func testValuesAndLocationsReadBackAsWritten() throws {
        for seed in 0..<300 as Range<UInt64> {
            var w = Writer(seed: seed)
            let bom = seed % 7 == 0
            if bom { w.bytes = [0xEF, 0xBB, 0xBF] }
            let (model, at) = w.value(depth: 0)
            w.space()
            let node = try JSONParser.parse(w.bytes)
            check(node, model, at, "seed \(seed)")
        }
    }

    /// Strings longer than a tape word can give a length of are found by their quote.
    func testLongStringsAndLongNumbers() throws {
        let long = String(repeating: "ab\\\"", count: 200_000)   // 800,000 bytes, escapes included
        let digits = String(repeating: "7", count: 100)
        let node = try JSONParser.parse("[\"\(long)\", \(digits), \"x\"]")
        guard case .array(let items) = node.value, items.count == 3 else { return XCTFail("\(node.value.kindDescription)") }
        XCTAssertEqual(items[0].value, .string(String(repeating: "ab\"", count: 200_000)))
        guard case .number(let v, let literal) = items[1].value else { return XCTFail("not a number") }
        XCTAssertEqual(v, Double(digits))
        XCTAssertEqual(literal, "7777777777777777…(100 characters)…77777777")
        XCTAssertEqual(items[2].value, .string("x"))
        XCTAssertEqual(items[2].location, SourceLocation(line: 1, column: 2 + 800_002 + 2 + 100 + 2))
    }

    /// Rows of inline data take at most 4 bytes of tape and line map per byte of text,
    /// written compactly (the worst case of real documents) or indented.
    func testTreeOfInlineRowsIsAtMostFourTimesTheText() throws {
        var rng = SplitMix64(seed: 22)
        for compact in [true, false] {
            var text = "{\"data\":{\"d\":{\"values\":["
            var y = 0.0
            for i in 0..<100_000 {
                y += rng.nextGaussian()
                let row = compact ? "{\"t\":\(i),\"v\":\(String(format: "%.2f", y))}"
                    : "\n      { \"t\": \(i), \"series\": \"s\(i % 7)\", \"v\": \(String(format: "%.3f", y)) }"
                text += (i == 0 ? "" : ",") + row
            }
            text += "]}}}"
            let document = try JSONParser.parseDocument(Array(text.utf8))
            let ratio = Double(document.treeBytes) / Double(text.utf8.count)
            XCTAssertLessThanOrEqual(ratio, 4, "compact: \(compact), \(text.utf8.count) bytes")
            XCTAssertGreaterThan(ratio, compact ? 2 : 0.5, "the measure counts the tape")
        }
    }

    /// A document without a parameter reference is not rebuilt by the substitution.
    func testParametersLeaveAParsedTreeAlone() throws {
        let doc = #"{ "params": { "n": { "default": 3 } }, "charts": [ { "title": "plain" } ] }"#
        let root = try JSONParser.parse(doc)
        let (resolved, _) = TimelineDecoder.resolveParameters(JSONCursor(node: root, file: "t.json", sink: DiagnosticSink()), given: [:])
        XCTAssertTrue(resolved.isSame(as: root))
        let withReference = try JSONParser.parse(#"{ "params": { "n": { "default": 3 } }, "charts": [ { "title": "{params.n}" } ] }"#)
        let (changed, _) = TimelineDecoder.resolveParameters(JSONCursor(node: withReference, file: "t.json", sink: DiagnosticSink()), given: [:])
        XCTAssertFalse(changed.isSame(as: withReference))
        // A reference spelled with escapes is still found.
        let escaped = try JSONParser.parse(#"{ "params": { "n": { "default": 3 } }, "charts": [ { "title": "\u007Bparams.n}" } ] }"#)
        let (e, _) = TimelineDecoder.resolveParameters(JSONCursor(node: escaped, file: "t.json", sink: DiagnosticSink()), given: [:])
        XCTAssertTrue(String(describing: e).contains("number(3.0"), "\(e)")
    }

    /// 200 random tables of inline rows (numbers, strings, nulls, missing fields, repeated
    /// keys, escaped keys, nested values, rows that are not objects, over-long strings) give
    /// the same columns, row origins and errors read off the tape as the general way.
    func testInlineRowsOffTheTapeMatchTheGeneralWay() throws {
        defer { TimelineDecoder.readsRowsOffTape = true }
        let keys = ["x", "y", "name", "a\\u0062", "ab", "ünï", "long key of a row"]
        for seed in 0..<200 as Range<UInt64> {
            var rng = SplitMix64(seed: seed)
            var rows: [String] = []
            for _ in 0..<Int(1 + rng.next() % 40) {
                switch rng.next() % 25 {
                case 0: rows.append("[1, 2]")
                case 1: rows.append("7")
                default:
                    var members: [String] = []
                    for _ in 0..<Int(rng.next() % 5) {
                        let k = keys[Int(rng.next() % UInt64(keys.count))]
                        let v: String
                        switch rng.next() % 12 {
                        case 0: v = "null"
                        case 1: v = "[1]"
                        case 2: v = "true"
                        case 3: v = "\"" + String(repeating: "w", count: 2_000) + "\""
                        case 4, 5, 6: v = "\"s\(rng.next() % 4)\""
                        default: v = String(Double(Int(rng.next() % 2000)) / 8 - 100)
                        }
                        members.append("\"\(k)\": \(v)")
                    }
                    rows.append("{" + members.joined(separator: rng.next() % 2 == 0 ? ", " : ",\n ") + "}")
                }
            }
            let text = "{ \"values\": [\n  " + rows.joined(separator: ",\n  ") + "\n] }"
            var results: [(DecodedTable, [DocumentError])] = []
            for offTape in [true, false] {
                TimelineDecoder.readsRowsOffTape = offTape
                let sink = DiagnosticSink()
                var limits = DocumentLimits()
                limits.maxLabelLength = 1_000
                let table = TimelineDecoder.$context.withValue(TimelineDecoder.DecodingContext(limits: limits)) {
                    TimelineDecoder.table(JSONCursor(node: try! JSONParser.parse(text), file: "t.json", sink: sink), base: "")
                }
                results.append((table, sink.errors))
            }
            let (a, b) = (results[0], results[1])
            XCTAssertEqual(a.1, b.1, "errors, seed \(seed)")
            XCTAssertTrue(a.0.rows == b.0.rows, "rows, seed \(seed)")
            XCTAssertEqual(a.0.rows.fields, b.0.rows.fields, "field order, seed \(seed)")
            XCTAssertEqual(a.0.origins.count, rows.count)
            var line = 2
            for i in 0..<rows.count {
                let (oa, ob) = (a.0.origins[i], b.0.origins[i])
                XCTAssertEqual(oa.location, SourceLocation(line: line, column: 3), "seed \(seed) row \(i)")
                line += 1 + rows[i].filter { $0 == "\n" }.count
                XCTAssertEqual(oa.location, ob.location, "seed \(seed) row \(i)")
                XCTAssertEqual(oa.path, ob.path)
                XCTAssertEqual(oa.reported, ob.reported)
                XCTAssertEqual(oa.path, JSONPath([.key("values"), .index(i)]))
            }
        }
    }
}

extension JSONTapeTests {
    /// The files a document names are found wherever they are, and only as strings.
    func testStringValuesOfKeys() {
        let doc = #"""
            { "data": { "a": { "file": "a.csv" }, "b": { "values": [ { "file": 3 }, { "x": { "file": "deep.csv" } } ] } },
              "fonts": [ { "file": "f.ttf", "boldFile": "fb.ttf" } ], "file\u0020": "not a key we know" }
            """#
        XCTAssertEqual(Set(JSONParser.stringValues(ofKeys: ["file", "boldFile"], in: Array(doc.utf8))),
                       ["a.csv", "deep.csv", "f.ttf", "fb.ttf"])
        XCTAssertEqual(JSONParser.stringValues(ofKeys: ["file"], in: Array("{ \"file\": ".utf8)), [])
    }
}
