import XCTest
@testable import Timelines

/// A compact rendering of a tree for comparisons: values only, no locations.
private func render(_ node: JSONNode) -> String {
    switch node.value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let value, let literal): return "\(literal)=\(value)"
    case .string(let s): return quotedForMessage(s)
    case .array(let elements): return "[" + elements.map(render).joined(separator: ",") + "]"
    case .object(let members):
        return "{" + members.map { quotedForMessage($0.key) + ":" + render($0.value) }.joined(separator: ",") + "}"
    }
}

private func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONNode? {
    do {
        return try JSONParser.parse(text)
    } catch {
        XCTFail("unexpected error: \(error)", file: file, line: line)
        return nil
    }
}

/// Asserts that `text` fails with `message` at `line:column`.
private func assertSyntaxError(
    _ text: String, _ message: String, at line: Int, _ column: Int, path: String? = nil,
    file: StaticString = #filePath, testLine: UInt = #line
) {
    assertSyntaxError(Array(text.utf8), message, at: line, column, path: path, file: file, testLine: testLine)
}

private func assertSyntaxError(
    _ bytes: [UInt8], _ message: String, at line: Int, _ column: Int, path: String? = nil,
    file: StaticString = #filePath, testLine: UInt = #line
) {
    do {
        let node = try JSONParser.parse(bytes)
        XCTFail("expected an error, parsed \(render(node))", file: file, line: testLine)
    } catch {
        XCTAssertEqual(error.message, message, file: file, line: testLine)
        XCTAssertEqual(error.location, SourceLocation(line: line, column: column), file: file, line: testLine)
        if let path {
            XCTAssertEqual(error.path.description, path, file: file, line: testLine)
        }
    }
}

private func number(_ text: String) -> Double? {
    guard let node = try? JSONParser.parse(text), case .number(let value, _) = node.value else { return nil }
    return value
}

final class JSONParserTests: XCTestCase {
    // MARK: Values

    func testScalars() {
        XCTAssertEqual(parse("null")?.value, .null)
        XCTAssertEqual(parse("true")?.value, .bool(true))
        XCTAssertEqual(parse(" false ")?.value, .bool(false))
        XCTAssertEqual(parse("\"hi\"")?.value, .string("hi"))
        XCTAssertEqual(parse("\"\"")?.value, .string(""))
        XCTAssertEqual(parse("[]")?.value, .array([]))
        XCTAssertEqual(parse("{}")?.value, .object([]))
        XCTAssertEqual(parse("1.50")?.value, .number(1.5, literal: "1.50"))
    }

    func testNumbers() {
        let cases: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("7", 7), ("-12", -12), ("1.5", 1.5), ("-0.25", -0.25),
            ("1e3", 1000), ("1E3", 1000), ("1e+3", 1000), ("25e-1", 2.5), ("0.1", 0.1),
            ("9007199254740993", 9007199254740992), ("123456789012345678901234567890", 1.2345678901234568e29),
            ("0.000000000000000000000000001", 1e-27), ("1.7976931348623157e308", .greatestFiniteMagnitude),
            ("5e-324", .leastNonzeroMagnitude), ("1e-400", 0), ("0e99999999", 0),
        ]
        for (text, expected) in cases {
            let value = number(text)
            XCTAssertEqual(value, expected, text)
            XCTAssertEqual(value?.sign, expected.sign, text)
        }
        // Clinger's fast path agrees with the correctly rounded slow path.
        for text in ["3.14159", "0.3", "123.456e-7", "987654321e10", "4503599627370497.5", "1.2345e22"] {
            XCTAssertEqual(number(text), Double(text), text)
        }
    }

    func testNestedValues() {
        let text = """
        {"a": [1, -2.5e1, "x", true, false, null, {}, []], "b": {"c": {"d": ["deep"]}}, "a": 2}
        """
        XCTAssertEqual(render(parse(text)!), """
        {"a":[1=1.0,-2.5e1=-25.0,"x",true,false,null,{},[]],"b":{"c":{"d":["deep"]}},"a":2=2.0}
        """)
    }

    func testStringEscapes() {
        XCTAssertEqual(parse(#""\" \\ \/ \b \f \n \r \t""#)?.value, .string("\" \\ / \u{8} \u{C} \n \r \t"))
        XCTAssertEqual(parse(#""\u0041\u00e9\u00E9\u4E2D\u0000""#)?.value, .string("Aéé中\u{0}"))
        XCTAssertEqual(parse(#""raw é 中 😀""#)?.value, .string("raw é 中 😀"))
        XCTAssertEqual(parse(#""a\nb" "#)?.value, .string("a\nb"))
    }

    func testSurrogatePairs() {
        XCTAssertEqual(parse(#""\uD83D\uDE00""#)?.value, .string("😀"))
        XCTAssertEqual(parse(#""x\ud834\udd1ey""#)?.value, .string("x𝄞y"))
        XCTAssertEqual(parse(#""\uDBFF\uDFFF""#)?.value, .string("\u{10FFFF}"))
        assertSyntaxError(#""ab\uD83Dx""#, "unpaired UTF-16 surrogate '\\uD83D'", at: 1, 4)
        assertSyntaxError(#""\uD83D\u0041""#, "unpaired UTF-16 surrogate '\\uD83D'", at: 1, 2)
        assertSyntaxError(#""\uDE00""#, "unpaired UTF-16 surrogate '\\uDE00'", at: 1, 2)
        assertSyntaxError(#""\uD83D\uZZZZ""#, "invalid escape '\\u': expected 4 hexadecimal digits", at: 1, 8)
    }

    func testByteOrderMarkIsSkipped() throws {
        let node = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1,\n 2]".utf8))
        XCTAssertEqual(render(node), "[1=1.0,2=2.0]")
        XCTAssertEqual(node.location, SourceLocation(line: 1, column: 1))
        guard case .array(let elements) = node.value else { return XCTFail() }
        XCTAssertEqual(elements[0].location, SourceLocation(line: 1, column: 2))
        XCTAssertEqual(elements[1].location, SourceLocation(line: 2, column: 2))
        // Only at the start.
        assertSyntaxError([0x20, 0xEF, 0xBB, 0xBF], "expected a value, found '\u{FEFF}' (U+FEFF)", at: 1, 2)
    }

    // MARK: Locations

    func testLocationsInMultiLineDocument() throws {
        let text = """
        {
          "canvas": { "width": 800, "height": 600 },
          "charts": [
            {
              "title": "Café",  "x": -1.5e2,
        \t"marks": [ null, true ]
            }
          ]
        }
        """
        let root = try JSONParser.parse(text)
        XCTAssertEqual(root.location, SourceLocation(line: 1, column: 1))
        guard case .object(let top) = root.value, case .object(let canvas) = top[0].value.value,
              case .array(let charts) = top[1].value.value, case .object(let chart) = charts[0].value,
              case .array(let marks) = chart[2].value.value
        else { return XCTFail("shape: \(render(root))") }

        XCTAssertEqual(top[0].keyLocation, SourceLocation(line: 2, column: 3))
        XCTAssertEqual(top[0].value.location, SourceLocation(line: 2, column: 13))
        XCTAssertEqual(canvas[0].keyLocation, SourceLocation(line: 2, column: 15))
        XCTAssertEqual(canvas[0].value.location, SourceLocation(line: 2, column: 24))
        XCTAssertEqual(canvas[1].keyLocation, SourceLocation(line: 2, column: 29))
        XCTAssertEqual(canvas[1].value.location, SourceLocation(line: 2, column: 39))
        XCTAssertEqual(top[1].keyLocation, SourceLocation(line: 3, column: 3))
        XCTAssertEqual(top[1].value.location, SourceLocation(line: 3, column: 13))
        XCTAssertEqual(charts[0].location, SourceLocation(line: 4, column: 5))
        XCTAssertEqual(chart[0].keyLocation, SourceLocation(line: 5, column: 7))
        XCTAssertEqual(chart[0].value.location, SourceLocation(line: 5, column: 16))
        // Columns count scalars: "Café" is 6 columns although its UTF-8 is 7 bytes.
        XCTAssertEqual(chart[1].keyLocation, SourceLocation(line: 5, column: 25))
        XCTAssertEqual(chart[1].value.location, SourceLocation(line: 5, column: 30))
        // A tab is one column.
        XCTAssertEqual(chart[2].keyLocation, SourceLocation(line: 6, column: 2))
        XCTAssertEqual(marks[0].location, SourceLocation(line: 6, column: 13))
        XCTAssertEqual(marks[1].location, SourceLocation(line: 6, column: 19))
    }

    func testLineEndings() throws {
        let root = try JSONParser.parse("[1,\r\n2,\r3,\n\n4]")
        guard case .array(let elements) = root.value else { return XCTFail() }
        XCTAssertEqual(elements.map(\.location), [
            SourceLocation(line: 1, column: 2), SourceLocation(line: 2, column: 1),
            SourceLocation(line: 3, column: 1), SourceLocation(line: 5, column: 1),
        ])
    }

    // MARK: Errors

    func testStructureErrors() {
        assertSyntaxError("", "unexpected end of input: expected a value", at: 1, 1)
        assertSyntaxError("  \n ", "unexpected end of input: expected a value", at: 2, 2)
        assertSyntaxError("{\"a\": 1]", "expected ',' or '}' after object member, found ']'", at: 1, 8)
        assertSyntaxError("[1 2]", "expected ',' or ']' after array element, found '2'", at: 1, 4)
        assertSyntaxError("[1,\n  2", "unexpected end of input: expected ',' or ']' after array element", at: 2, 4)
        assertSyntaxError("{\"a\" 1}", "expected ':' after object key, found '1'", at: 1, 6)
        assertSyntaxError("{\"a\"", "unexpected end of input: expected ':' after object key", at: 1, 5)
        assertSyntaxError("{\"a\":", "unexpected end of input: expected a value", at: 1, 6)
        assertSyntaxError("{\"a\":1,", "unexpected end of input: expected a string key", at: 1, 8)
        assertSyntaxError("{", "unexpected end of input: expected a string key or '}'", at: 1, 2)
        assertSyntaxError("[,1]", "expected a value, found ','", at: 1, 2)
        assertSyntaxError("{\"a\":1 \"b\":2}", "expected ',' or '}' after object member, found '\"'", at: 1, 8)
        assertSyntaxError("{} []", "expected end of input after the document's value, found '['", at: 1, 4)
        assertSyntaxError("1 2", "expected end of input after the document's value, found '2'", at: 1, 3)
    }

    func testTrailingCommas() {
        assertSyntaxError("{\"a\": 1,}", "trailing comma before '}'", at: 1, 8)
        assertSyntaxError("[1,\n  2,\n]", "trailing comma before ']'", at: 2, 4)
        assertSyntaxError("{\"a\": [1, 2 , ] }", "trailing comma before ']'", at: 1, 13, path: "a")
    }

    func testHintsForCommonMistakes() {
        assertSyntaxError("{a: 1}",
                          "expected a string key or '}', found 'a' (object keys must be double-quoted strings)",
                          at: 1, 2)
        assertSyntaxError("['x']", "expected a value, found \"'\" (JSON strings use double quotes)", at: 1, 2)
        assertSyntaxError("[1, // two\n2]", "expected a value, found '/' (JSON does not allow comments)", at: 1, 5)
        assertSyntaxError("[tru]", "expected a value, found 'tru' (did you mean 'true'?)", at: 1, 2)
        assertSyntaxError("[True]", "expected a value, found 'True' (did you mean 'true'?)", at: 1, 2)
        assertSyntaxError("[nil]", "expected a value, found 'nil' (did you mean 'null'?)", at: 1, 2)
        assertSyntaxError("[red]", "expected a value, found 'red' (strings must be double-quoted)", at: 1, 2)
        assertSyntaxError("[\u{201C}x\u{201D}]",
                          "expected a value, found '\u{201C}' (U+201C) (use straight double quotes)", at: 1, 2)
        assertSyntaxError("[\u{C}]", "expected a value, found U+000C", at: 1, 2)
    }

    func testStringErrors() {
        assertSyntaxError("[\"abc", "unterminated string", at: 1, 2)
        assertSyntaxError("[\"abc\\", "unterminated string", at: 1, 2)
        assertSyntaxError(#"{"k": "a\qb"}"#, "invalid escape '\\q'", at: 1, 9, path: "k")
        assertSyntaxError("\"a\\\u{1}\"", "invalid escape '\\ followed by U+0001'", at: 1, 3)
        assertSyntaxError("\"a\nb\"", "control character in string (U+000A); write it as \\n", at: 1, 3)
        assertSyntaxError("\"é\té\"", "control character in string (U+0009); write it as \\t", at: 1, 3)
        assertSyntaxError("\"\u{1F}\"", "control character in string (U+001F); write it as \\u001F", at: 1, 2)
        assertSyntaxError(#""\u12G4""#, "invalid escape '\\u': expected 4 hexadecimal digits", at: 1, 2)
        assertSyntaxError(#""\u12""#, "invalid escape '\\u': expected 4 hexadecimal digits", at: 1, 2)
        assertSyntaxError(#"{"a\x": 1}"#, "invalid escape '\\x'", at: 1, 4, path: "(document root)")
    }

    func testInvalidUTF8() {
        let save = "; save the file as UTF-8"
        assertSyntaxError([0x22, 0x61, 0xFF, 0x22], "invalid UTF-8 in string (byte 0xFF)" + save, at: 1, 3)
        assertSyntaxError([0x22, 0xC3, 0xA9, 0xC0, 0xAF, 0x22], "invalid UTF-8 in string (byte 0xC0)" + save, at: 1, 3)
        // A lead byte followed by a non-continuation byte (a Latin-1 "é" before a quote):
        // the lead byte is named, at its own column.
        assertSyntaxError([0x22, 0xE4, 0xB8, 0x41, 0x22], "invalid UTF-8 in string (byte 0xE4)" + save, at: 1, 2)
        assertSyntaxError([0x22, 0x43, 0x61, 0x66, 0xE9, 0x22], "invalid UTF-8 in string (byte 0xE9)" + save, at: 1, 5)
        // Encoded surrogate (U+D800) and beyond U+10FFFF: the continuation byte out of range.
        assertSyntaxError([0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 in string (byte 0xA0)" + save, at: 1, 3)
        assertSyntaxError([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8 in string (byte 0x90)" + save, at: 1, 3)
        assertSyntaxError([0x22, 0xE4, 0xB8], "unterminated string", at: 1, 1)
        assertSyntaxError([0x5B, 0xFF, 0x5D], "expected a value, found byte 0xFF", at: 1, 2)
    }

    func testNumberErrors() {
        assertSyntaxError("[01]", "invalid number: leading zeros are not allowed", at: 1, 2)
        assertSyntaxError("-00", "invalid number: leading zeros are not allowed", at: 1, 1)
        assertSyntaxError("[+1]", "invalid number: a leading '+' is not allowed", at: 1, 2)
        assertSyntaxError("[.5]", "invalid number: a digit is required before '.'", at: 1, 2)
        assertSyntaxError("[1.]", "invalid number: expected a digit after '.'", at: 1, 2)
        assertSyntaxError("[1.e3]", "invalid number: expected a digit after '.'", at: 1, 2)
        assertSyntaxError("[1e]", "invalid number: expected a digit in the exponent", at: 1, 2)
        assertSyntaxError("[1e+]", "invalid number: expected a digit in the exponent", at: 1, 2)
        assertSyntaxError("[-]", "invalid number: expected a digit after '-'", at: 1, 2)
        assertSyntaxError("[-Infinity]", "invalid number: expected a digit after '-' (JSON has no NaN or Infinity)", at: 1, 2)
        assertSyntaxError("[NaN]", "expected a value, found 'NaN' (JSON has no NaN or Infinity)", at: 1, 2)
        assertSyntaxError("[Infinity]", "expected a value, found 'Infinity' (JSON has no NaN or Infinity)", at: 1, 2)
        assertSyntaxError("[0x10]", "expected ',' or ']' after array element, found 'x10'", at: 1, 3)
    }

    func testNumberOutOfRange() {
        assertSyntaxError("{\"y\": 1e400}", "number out of range: 1e400", at: 1, 7, path: "y")
        assertSyntaxError("-1e400", "number out of range: -1e400", at: 1, 1)
        assertSyntaxError("1.8e308", "number out of range: 1.8e308", at: 1, 1)
        assertSyntaxError("1e99999999999999999999", "number out of range: 1e99999999999999999999", at: 1, 1)
        // A long literal is quoted as its start, length and end (a 10 MB one was echoed whole).
        assertSyntaxError(String(repeating: "9", count: 400),
                          "number out of range: " + String(repeating: "9", count: 16) + "…(400 characters)…99999999", at: 1, 1)
    }

    func testNestingDepth() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        XCTAssertNoThrow(try JSONParser.parse(ok))
        assertSyntaxError(String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
                          "nesting too deep: more than 512 nested arrays and objects", at: 1, 513)
        assertSyntaxError(String(repeating: "[", count: 10_000),
                          "nesting too deep: more than 512 nested arrays and objects", at: 1, 513)
        assertSyntaxError(String(repeating: "{\"a\":", count: 10_000),
                          "nesting too deep: more than 512 nested arrays and objects", at: 1, 512 * 5 + 1)
    }

    func testErrorPathNamesTheValueBeingParsed() {
        assertSyntaxError(#"{"charts": [{"marks": [{}, {"stroke": {"width": tru}}]}]}"#,
                          "expected a value, found 'tru' (did you mean 'true'?)",
                          at: 1, 49, path: "charts[0].marks[1].stroke.width")
        // Between values, the path is the enclosing container.
        assertSyntaxError(#"{"charts": [{"marks": [1 2]}]}"#,
                          "expected ',' or ']' after array element, found '2'",
                          at: 1, 26, path: "charts[0].marks")
    }

    func testSyntaxErrorDescription() {
        XCTAssertThrowsError(try JSONParser.parse("{\n  \"a\": 1,\n}")) { error in
            XCTAssertEqual("\(error)", "2:9: trailing comma before '}'")
            XCTAssertEqual((error as? JSONSyntaxError)?.kind, .trailingComma(before: "}"))
        }
    }
}
