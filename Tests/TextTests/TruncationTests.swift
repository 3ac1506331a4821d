import Foundation
import XCTest
@testable import Text

/// Truncation finds its cut by halving (Fuzz/corpus/text/timeout-truncate-long-text: a
/// 2,700-character text truncated narrowly took 30 s under the text fuzz target, one
/// shaping of the whole candidate per grapheme stepped back).
final class TruncationTests: XCTestCase {
    /// The cut as it was found before: stepping back a grapheme at a time from the end.
    func stepwise(_ s: String, width: Double, size: Double) -> String {
        if TextBlock.width(s[...], dejaVu, size, .default) <= width { return s }
        var cut = s.endIndex
        while true {
            let candidate = TextBlock.trimmed(s[..<cut]) + "…"
            if cut == s.startIndex || TextBlock.width(candidate[...], dejaVu, size, .default) <= width { return candidate }
            cut = s.index(before: cut)
        }
    }

    func testTheCutIsTheOneSteppingBackFoundForEveryWidth() {
        let texts = ["Monthly rainfall in Seattle, 2012 to 2015", "Ω≈ç√∫ naïve café 🙂👍🏽 flag 🇫🇷 end",
                     "مرحبا بالعالم hello", "a", ""]
        for text in texts {
            for width in stride(from: 0.0, through: 320, by: 7) {
                let got = TextBlock.truncate(text, width: width, font: dejaVu, size: 14, options: .default, always: false)
                XCTAssertEqual(got, stepwise(text, width: width, size: 14), "\(text) at \(width)")
            }
        }
        // With `always`, a text that fits still gets its ellipsis.
        XCTAssertEqual(TextBlock.truncate("ab", width: 500, font: dejaVu, size: 14, options: .default, always: true), "ab…")
    }

    func testALongTextIsTruncatedInAFewShapings() {
        let text = String(repeating: "lorem ipsum dolor sit amet ", count: 370)   // ~10,000 characters
        let started = Date()
        let got = TextBlock.truncate(text, width: 60, font: dejaVu, size: 12, options: .default, always: false)
        XCTAssertTrue(got.hasSuffix("…"))
        XCTAssertLessThanOrEqual(TextBlock.width(got[...], dejaVu, 12, .default), 60)
        XCTAssertLessThan(got.count, 20)
        // ~14 shapings; stepping back shaped ~10,000 candidates of up to 10,000 characters.
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }
}
