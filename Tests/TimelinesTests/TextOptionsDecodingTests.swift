import XCTest
import Scene
import Text
@testable import Timelines

/// The text options of the document format (issue 17): wrap, features, language,
/// direction on titles and text marks; weight and italic on the font.
final class TextOptionsDecodingTests: XCTestCase {
    func scene(_ text: String) throws -> Scene { try TimelineDecoder.decode(Array(text.utf8), file: "text.json") }

    func document(title: String, text: String, font: String = "") -> String {
        """
        { "canvas": { "width": 400, "height": 300 }, "duration": 0.1, \(font)
          "data": { "t": { "values": [ { "x": 1, "y": 2, "name": "Ελλάδα" } ] } },
          "charts": [ { "data": "t", "title": \(title),
                        "marks": [ { "id": "labels", "type": "text", "text": \(text) } ] } ] }
        """
    }

    struct NoTextNode: Error { let id: String }

    func textNode(_ s: Scene, _ id: String) throws -> TextNode {
        guard case .text(let t)? = s.node(id) else { throw NoTextNode(id: id) }
        return t
    }

    func testWrapFeaturesLanguageAndDirectionReachTheNodes() throws {
        let subtitle = "A subtitle long enough to need three lines at a width of two hundred pixels, at least"
        let s = try scene(document(
            title: #"{ "text": "T", "subtitle": "\#(subtitle)", "wrap": { "maxWidth": 200, "lineHeight": 1.5, "align": "center" }, "language": "el" }"#,
            text: #"{ "field": "name", "wrap": { "maxWidth": 30, "overflow": "truncate" }, "features": ["-liga", "ss01=1"], "direction": "rightToLeft" }"#))
        let sub = try textNode(s, "subtitle")
        XCTAssertEqual(sub.style.maxWidth, 200)
        XCTAssertEqual(sub.style.lineHeight, 1.5)
        XCTAssertEqual(sub.style.alignment, .center)
        XCTAssertEqual(sub.options.language, "el")
        XCTAssertGreaterThan(sub.lineStrings.count, 2)
        XCTAssertLessThanOrEqual(sub.metrics.width, 200)
        let label = try textNode(s, "labels[0]")
        XCTAssertEqual(label.style.overflow, .truncate)
        XCTAssertEqual(label.options.direction, .rightToLeft)
        XCTAssertEqual(label.options.features, ["-liga", "ss01=1"])
        XCTAssertEqual(label.lineStrings.count, 1)
        XCTAssertTrue(label.lineStrings[0].hasSuffix("…"), label.lineStrings[0])
    }

    func testNumberLabelsGetTabularFiguresUnlessTold() throws {
        let s = try scene(document(title: #""T""#, text: #"{ "format": { "fractionDigits": 0 } }"#))
        XCTAssertEqual(try textNode(s, "labels[0]").options.features, ["tnum"])
        let off = try scene(document(title: #""T""#, text: #"{ "features": ["-tnum"] }"#))
        XCTAssertEqual(try textNode(off, "labels[0]").options.features, ["-tnum"])
    }

    func testFontWeightAndItalicComeFromFontconfig() throws {
        let s = try scene(document(title: #""Title""#, text: "{}", font: #""font": { "family": "DejaVu Sans", "italic": true },"#))
        let title = try textNode(s, "title"), label = try textNode(s, "labels[0]")
        XCTAssertTrue(title.glyphs.isEmpty == false)
        // The italic faces: DejaVu Sans Oblique and Bold Oblique (fonts-dejavu-extra).
        XCTAssertEqual(label.metrics.ascent, title.metrics.ascent / 18 * 12, accuracy: 0.5)
        let italic = try FontCache.font(family: "DejaVu Sans", style: FontStyle(weight: 400, italic: true))
        XCTAssertTrue(italic.isItalic)
        XCTAssertEqual(label.glyphs, TextNode(label.string, font: italic, size: label.size, position: .zero,
                                              options: label.options).glyphs)
    }

    func captionDocument(_ caption: String, style: String = "") -> String {
        """
        { "canvas": { "width": 400, "height": 300 }, "duration": 2,
          "data": { "t": { "values": [ { "x": 1, "y": 2 } ] } },
          "charts": [ { "data": "t", "caption": \(caption) \(style), "marks": [ { "type": "bar" } ] } ] }
        """
    }

    func testCaptionTakesTheSubtitlesOptions() throws {
        let plain = try textNode(try scene(captionDocument(#""Source: World Bank""#)), "caption")
        XCTAssertEqual(plain.string, "Source: World Bank")
        XCTAssertEqual(plain.size, 11)
        XCTAssertNil(plain.style.maxWidth, "one line without \"wrap\"")
        let long = "A caption long enough to need three lines at a width of two hundred pixels, at least"
        let s = try scene(captionDocument(
            #"{ "text": "\#(long)", "wrap": { "maxWidth": 200, "lineHeight": 1.5 }, "language": "el", "features": ["-liga"], "#
            + #""animate": { "opacity": { "from": 0, "to": 1, "duration": 1 } } }"#,
            style: #", "style": { "captionSize": 9 }"#))
        let c = try textNode(s, "caption")
        XCTAssertEqual(c.size, 9)
        XCTAssertEqual(c.style.maxWidth, 200)
        XCTAssertEqual(c.style.lineHeight, 1.5)
        XCTAssertEqual(c.options.language, "el")
        XCTAssertEqual(c.options.features, ["-liga"])
        XCTAssertGreaterThanOrEqual(c.lineStrings.count, 2)
        XCTAssertEqual(c.opacity.value(at: 0), 0)
        XCTAssertEqual(c.opacity.value(at: 1.5), 1)
        // "wrap": true wraps at the chart's content width.
        let wide = try textNode(try scene(captionDocument(#"{ "text": "\#(long) \#(long)", "wrap": true }"#)), "caption")
        XCTAssertEqual(wide.style.maxWidth, 400 - 16)
        XCTAssertGreaterThan(wide.lineStrings.count, 1)
    }

    func testBadCaptionsAreErrorsWithTheirPlace() {
        XCTAssertThrowsError(try scene(captionDocument(#"{ "text": "c", "subtitle": "s" }"#))) { error in
            XCTAssertTrue("\(error)".contains("charts[0].caption"), "\(error)")
        }
        XCTAssertThrowsError(try scene(captionDocument(#"{ "wrap": true }"#)))
        XCTAssertThrowsError(try scene(captionDocument("12")))
    }

    func testBadFeatureAndLanguageAreErrorsWithTheirPlace() {
        XCTAssertThrowsError(try scene(document(title: #""T""#, text: #"{ "features": ["tabular figures"], "language": "en us" }"#))) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("not an OpenType feature setting: \"tabular figures\""), message)
            XCTAssertTrue(message.contains("charts[0].marks[0].text.features[0]"), message)
            XCTAssertTrue(message.contains("not a BCP 47 language tag"), message)
        }
        XCTAssertThrowsError(try scene(document(title: #"{ "text": "T", "wrap": { "overflow": "scroll" } }"#, text: "{}")))
    }
}
