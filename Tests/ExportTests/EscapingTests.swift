import XCTest
import Foundation
@testable import Export

/// Quoting for the shell and ffconcat lists, and escaping, work on Unicode scalars: a
/// quote followed by a combining mark is one Character but still a quote to the reader.
final class EscapingTests: XCTestCase {
    func testEveryScalarIsSeenEvenWithAMarkAfterIt() {
        XCTAssertEqual("a'\u{301}b".replacingScalars { $0 == "'" ? "Q" : nil }, "aQ\u{301}b")
        XCTAssertEqual("/\u{301}/".replacingScalars { $0 == "/" ? "_" : nil }, "_\u{301}_")
        // One pass: what a replacement writes is not replaced again.
        XCTAssertEqual("ab".replacingScalars { $0 == "a" ? "b" : $0 == "b" ? "c" : nil }, "bc")
        XCTAssertEqual("".replacingScalars { _ in "x" }, "")
    }

    /// The shell reads back exactly the text quoted, whatever it holds.
    func testSingleQuotedTextComesBackFromTheShell() throws {
        let alphabet: [String] = ["'", "\u{301}", "\u{64C}", "\"", "$", "\\", " ", "\n", "`", "a", "é", "!", "*", ";"]
        var state: UInt64 = 5
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33)
        }
        var texts = ["'\u{301}", "it's", "", "''"]
        for _ in 0..<60 { texts.append((0..<(next() % 12)).map { _ in alphabet[next() % alphabet.count] }.joined()) }
        // One shell run prints every text, each followed by a NUL.
        let script = texts.map { "printf '%s\\0' " + singleQuoted($0) }.joined(separator: "\n")
        let sh = try runTool("/bin/sh", ["-c", script])
        XCTAssertEqual(sh.status, 0)
        // Split by scalar: a text that starts with a mark would join the NUL before it
        // into one Character.
        let back = sh.output.unicodeScalars.split(separator: "\0", omittingEmptySubsequences: false).dropLast()
            .map { String(String.UnicodeScalarView($0)) }
        XCTAssertEqual(back.count, texts.count)
        for (a, b) in zip(back, texts) { XCTAssertEqual(Array(a.unicodeScalars), Array(b.unicodeScalars)) }
    }
}
