import XCTest
@testable import Timelines

/// A decoded stroke, as a timeline decoder would write it.
private struct Stroke: Equatable {
    var width: Double
    var cap: String
}

private enum Curve: String, CaseIterable {
    case linear, easeIn, easeOut, easeInOut
}

/// Runs `body` on `text` and returns its result or the error lines.
private func decode<T>(_ text: String, file: String = "timeline.json",
                       _ body: (JSONCursor) -> T?) -> Result<T, DocumentErrors> {
    do throws(DocumentErrors) {
        return .success(try JSONCursor.decode(Array(text.utf8), file: file, body))
    } catch {
        return .failure(error)
    }
}

private func errorLines<T>(_ result: Result<T, DocumentErrors>) -> [String] {
    switch result {
    case .success: return []
    case .failure(let errors): return errors.errors.map(\.description)
    }
}

final class JSONDecodingTests: XCTestCase {
    // MARK: Paths

    func testPathFormatting() {
        let path = JSONPath().appending(key: "charts").appending(index: 0)
            .appending(key: "marks").appending(index: 1).appending(key: "stroke")
        XCTAssertEqual(path.description, "charts[0].marks[1].stroke")
        XCTAssertEqual(JSONPath().description, "(document root)")
        XCTAssertTrue(JSONPath.root.isRoot)
        XCTAssertEqual(JSONPath([.index(3), .key("x")]).description, "[3].x")
        XCTAssertEqual(JSONPath([.key("data"), .key("unit price"), .key("_a1")]).description,
                       "data[\"unit price\"]._a1")
        XCTAssertEqual(JSONPath([.key("1st"), .key(""), .key("q\"\\")]).description,
                       "[\"1st\"][\"\"][\"q\\\"\\\\\"]")
    }

    func testDocumentErrorDescription() {
        let error = DocumentError(file: "timeline.json", path: JSONPath([.key("charts"), .index(0)]),
                                  location: SourceLocation(line: 14, column: 9), message: "boom")
        XCTAssertEqual(error.description, "timeline.json:14:9: charts[0]: boom")
        // An error about the whole file has no location and no path.
        let unlocated = DocumentError(file: "a.json", path: JSONPath(), location: nil, message: "boom")
        XCTAssertEqual(unlocated.description, "a.json: boom")
        let root = DocumentError(file: "a.json", path: JSONPath(), location: SourceLocation(line: 1, column: 1), message: "boom")
        XCTAssertEqual(root.description, "a.json:1:1: (document root): boom")
    }

    // MARK: Decoding

    func testDecodesADocument() throws {
        let text = """
        { "stroke": { "width": 3, "cap": "round" }, "count": 4, "curve": "easeInOut",
          "visible": true, "points": [1, 2.5] }
        """
        let result = decode(text) { root -> (Stroke, Int, Curve, Bool, [Double])? in
            guard let doc = root.object(allowedKeys: ["stroke", "count", "curve", "visible", "points"]),
                  let strokeObject = doc.required("stroke")?.object(allowedKeys: ["width", "cap"]),
                  let width = strokeObject.required("width")?.double(min: 0),
                  let cap = strokeObject.optional("cap")?.stringEnum(["butt", "round", "square"]),
                  let count = doc.required("count")?.int(min: 1, max: 10),
                  let curve = doc.required("curve")?.stringEnum(Curve.self),
                  let visible = doc.optional("visible")?.bool(),
                  let points = doc.required("points")?.array(minCount: 2)
            else { return nil }
            return (Stroke(width: width, cap: cap), count, curve, visible, points.compactMap { $0.double() })
        }
        let (stroke, count, curve, visible, points) = try result.get()
        XCTAssertEqual(stroke, Stroke(width: 3, cap: "round"))
        XCTAssertEqual(count, 4)
        XCTAssertEqual(curve, .easeInOut)
        XCTAssertTrue(visible)
        XCTAssertEqual(points, [1, 2.5])
    }

    func testUnknownKeySuggestion() {
        let text = """
        {
          "charts": [
            { "marks": [
                { "type": "line" },
                { "type": "line",
                "strok": { "width": 3 } }
            ] }
          ]
        }
        """
        let result: Result<Int, DocumentErrors> = decode(text) { root in
            for chart in root.object(allowedKeys: ["charts"])?.required("charts")?.array() ?? [] {
                for mark in chart.object(allowedKeys: ["marks"])?.required("marks")?.array() ?? [] {
                    _ = mark.object(allowedKeys: ["type", "stroke", "fill"])
                }
            }
            return 0
        }
        XCTAssertEqual(errorLines(result), [
            #"timeline.json:6:9: charts[0].marks[1]: unknown key "strok"; did you mean "stroke"?"#,
        ])
    }

    func testUnknownKeyWithoutSuggestionListsAllowedKeys() {
        let result: Result<Int, DocumentErrors> = decode(#"{"zzz": 1, "Width": 2, "heigth": 3, "interp": 4}"#) {
            _ = $0.object(allowedKeys: ["width", "height", "interpolation"])
            return 0
        }
        XCTAssertEqual(errorLines(result), [
            #"timeline.json:1:2: (document root): unknown key "zzz"; expected one of "width", "height", "interpolation""#,
            #"timeline.json:1:12: (document root): unknown key "Width"; did you mean "width"?"#,
            #"timeline.json:1:24: (document root): unknown key "heigth"; did you mean "height"?"#,
            #"timeline.json:1:37: (document root): unknown key "interp"; did you mean "interpolation"?"#,
        ])
    }

    func testCollectsAllErrorsOfADocument() {
        let text = """
        {
          "fps": "sixty",
          "canvas": { "width": -800 },
          "charts": [ { "titel": "Sales" } ]
        }
        """
        let result: Result<Int, DocumentErrors> = decode(text) { root in
            guard let doc = root.object(allowedKeys: ["fps", "canvas", "charts"]) else { return nil }
            let fps = doc.optional("fps")?.double(min: 1)
            let canvas = doc.required("canvas")?.object(allowedKeys: ["width", "height"])
            let width = canvas?.required("width")?.int(min: 1)
            let height = canvas?.optional("height")?.int(min: 1) ?? 600
            for chart in doc.required("charts")?.array() ?? [] {
                _ = chart.object(allowedKeys: ["title", "marks"])
            }
            guard let fps, let width else { return nil }
            return Int(fps) + width + height
        }
        guard case .failure(let errors) = result else { return XCTFail("decoded a bad document") }
        XCTAssertEqual(errors.errors.count, 3)
        XCTAssertEqual(errors.description, """
        timeline.json:2:10: fps: expected a number, found a string "sixty"
        timeline.json:3:24: canvas.width: expected an integer >= 1, found -800
        timeline.json:4:17: charts[0]: unknown key "titel"; did you mean "title"?
        """)
    }

    func testMissingRequiredKeyIsReportedAtTheObject() {
        let result: Result<Double, DocumentErrors> = decode("[\n  { \"x\": 1 }\n]") { root in
            root.array()?.first?.object(allowedKeys: ["x", "y"])?.required("y")?.double()
        }
        XCTAssertEqual(errorLines(result), [#"timeline.json:2:3: [0]: missing required key "y""#])
    }

    func testDuplicateKeys() {
        let result: Result<Int, DocumentErrors> = decode("{\"a\": 1,\n \"b\": 2,\n \"a\": 3}") {
            $0.object(allowedKeys: ["a", "b"])?.required("a")?.int()
        }
        XCTAssertEqual(errorLines(result), [#"timeline.json:3:2: (document root): duplicate key "a" (first at 1:2)"#])

        // Large objects use an index; duplicates are still found, and the first value wins.
        let members = (0..<40).map { "\"k\($0)\": \($0)" } + ["\"k7\": 99"]
        let sink = DiagnosticSink()
        let root = JSONCursor(node: try! JSONParser.parse("{" + members.joined(separator: ",") + "}"),
                              file: "big.json", sink: sink)
        let object = root.object()
        XCTAssertEqual(object?.optional("k7")?.int(), 7)
        XCTAssertEqual(object?.optional("k39")?.int(), 39)
        XCTAssertNil(object?.optional("k40"))
        XCTAssertEqual(sink.errors.map(\.message), [#"duplicate key "k7" (first at 1:58)"#])
    }

    func testTypeMismatchMessages() {
        let text = #"[null, true, 1.5, "a long string that goes on and on and on and on", [], {}]"#
        let sink = DiagnosticSink()
        let elements = JSONCursor(node: try! JSONParser.parse(text), file: "t.json", sink: sink).array()!
        XCTAssertNil(elements[0].double())
        XCTAssertNil(elements[1].string())
        XCTAssertNil(elements[2].bool())
        XCTAssertNil(elements[3].array())
        XCTAssertNil(elements[4].object())
        XCTAssertNil(elements[5].int())
        XCTAssertNil(elements[2].int())
        XCTAssertNil(elements[0].stringEnum(["a", "b"]))
        XCTAssertTrue(elements[0].isNull)
        XCTAssertEqual(sink.errors.map(\.description), [
            "t.json:1:2: [0]: expected a number, found null",
            "t.json:1:8: [1]: expected a string, found true",
            "t.json:1:14: [2]: expected true or false, found a number 1.5",
            #"t.json:1:19: [3]: expected an array, found a string "a long string that goes on and on and on…""#,
            "t.json:1:70: [4]: expected an object, found an array",
            "t.json:1:74: [5]: expected an integer, found an object",
            "t.json:1:14: [2]: expected an integer, found 1.5",
            #"t.json:1:2: [0]: expected one of "a", "b", found null"#,
        ])
    }

    func testRanges() {
        let sink = DiagnosticSink()
        let e = JSONCursor(node: try! JSONParser.parse("[1.5, -2, 3.0, 1e2, 0.25]"), file: "r.json", sink: sink).array()!
        XCTAssertNil(e[0].double(min: 0, max: 1))
        XCTAssertNil(e[1].double(min: 0))
        XCTAssertNil(e[0].double(max: 0.5))
        XCTAssertEqual(e[4].double(min: 0, max: 1), 0.25)
        XCTAssertEqual(e[2].int(min: 3, max: 3), 3)
        XCTAssertEqual(e[3].int(), 100)
        XCTAssertNil(e[3].int(max: 60))
        XCTAssertNil(e[1].int(min: 1, max: 240))
        XCTAssertEqual(sink.errors.map(\.message), [
            "expected a number between 0 and 1, found 1.5",
            "expected a number >= 0, found -2",
            "expected a number <= 0.5, found 1.5",
            "expected an integer <= 60, found 1e2",
            "expected an integer between 1 and 240, found -2",
        ])
    }

    func testArrayCounts() {
        let sink = DiagnosticSink()
        let root = JSONCursor(node: try! JSONParser.parse("[[1], [1, 2, 3], []]"), file: "c.json", sink: sink)
        let e = root.array()!
        XCTAssertNil(e[0].array(minCount: 2))
        XCTAssertNil(e[1].array(maxCount: 2))
        XCTAssertNil(e[1].array(minCount: 2, maxCount: 2))
        XCTAssertNil(e[2].array(minCount: 1))
        XCTAssertEqual(e[1].array(minCount: 1, maxCount: 4)?.map(\.path.description), ["[1][0]", "[1][1]", "[1][2]"])
        XCTAssertEqual(sink.errors.map(\.message), [
            "expected an array of at least 2 elements, found 1",
            "expected an array of at most 2 elements, found 3",
            "expected an array of exactly 2 elements, found 3",
            "expected an array of at least 1 element, found 0",
        ])
    }

    func testStringEnums() {
        let sink = DiagnosticSink()
        let e = JSONCursor(node: try! JSONParser.parse(#"["easeInOt", "bounce", "linear", "EASEIN"]"#),
                           file: "e.json", sink: sink).array()!
        XCTAssertNil(e[0].stringEnum(Curve.self))
        XCTAssertNil(e[1].stringEnum(Curve.self))
        XCTAssertEqual(e[2].stringEnum(Curve.self), .linear)
        XCTAssertNil(e[3].stringEnum(Curve.self))
        XCTAssertEqual(sink.errors.map(\.message), [
            #"unknown value "easeInOt"; did you mean "easeInOut"?"#,
            #"unknown value "bounce"; expected one of "linear", "easeIn", "easeOut", "easeInOut""#,
            #"unknown value "EASEIN"; did you mean "easeIn"?"#,
        ])
    }

    func testSuggestions() {
        XCTAssertEqual(nearestCandidate(to: "strok", in: ["fill", "stroke"]), "stroke")
        XCTAssertEqual(nearestCandidate(to: "colour", in: ["color", "opacity"]), "color")
        XCTAssertEqual(nearestCandidate(to: "anim", in: ["id", "animate"]), "animate")
        XCTAssertNil(nearestCandidate(to: "id", in: ["x", "y"]))
        XCTAssertNil(nearestCandidate(to: "z", in: ["x", "y"]))
        XCTAssertEqual(editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)), 3)
        XCTAssertEqual(editDistance([], Array("abc".unicodeScalars)), 3)
    }

    func testEntriesAndCustomReports() {
        let text = ##"{"data": {"week": {"values": []}, "month": "#bad"}}"##
        let result: Result<[String], DocumentErrors> = decode(text, file: "d.json") { root in
            guard let data = root.object(allowedKeys: ["data"])?.required("data")?.object() else { return nil }
            var names: [String] = []
            for (name, value) in data.entries {
                if value.object(allowedKeys: ["values"]) != nil { names.append(name) }
            }
            XCTAssertEqual(data.keys, ["week", "month"])
            XCTAssertTrue(data.contains("week"))
            let color: String? = data.required("month")?.fail("invalid color \"#bad\"")
            XCTAssertNil(color)
            return names
        }
        XCTAssertEqual(errorLines(result), [
            ##"d.json:1:44: data.month: expected an object, found a string "#bad""##,
            ##"d.json:1:44: data.month: invalid color "#bad""##,
        ])
    }

    func testSyntaxErrorsBecomeDocumentErrors() {
        let result: Result<Int, DocumentErrors> = decode("{\n  \"charts\": [\n    { \"title\": \"x\", },\n  ]\n}") { _ in 0 }
        XCTAssertEqual(errorLines(result), ["timeline.json:3:19: charts[0]: trailing comma before '}'"])
    }

    func testNilWithoutErrorsIsNamedAsADecoderBug() {
        let result: Result<Int, DocumentErrors> = decode("{}") { _ in nil }
        XCTAssertEqual(errorLines(result),
                       ["timeline.json:1:1: (document root): internal error: the document was rejected without a reason"])
    }
}
