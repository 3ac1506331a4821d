import XCTest
@testable import Timelines

/// `--set` paths and values, `--data`, and parameters, on the parsed tree (DocumentInputs.swift,
/// Parameters.swift). The command line's end-to-end behaviour is in EndToEndTests/ParameterTests.
final class DocumentInputsTests: XCTestCase {
    func testPathsParseAsMessagesPrintThem() throws {
        for text in ["fps", "charts[0].y.domain", "data[\"unit price\"].file", "charts[12].marks[0].stroke.width"] {
            XCTAssertEqual(try DocumentInputs.parsePath(text).description, text)
        }
        XCTAssertEqual(try DocumentInputs.parsePath("data[\"a.b]\"]").components, [.key("data"), .key("a.b]")])
        for bad in ["charts[x]", "charts[-1]", ".fps", "a..b", "data[\"open"] {
            XCTAssertThrowsError(try DocumentInputs.parsePath(bad), bad)
        }
    }

    func testValuesAreJSONOrElseText() throws {
        func value(_ arg: String) throws -> JSONValue { try DocumentInputs.assignment(arg).value }
        XCTAssertEqual(try value("fps=30"), .number(30, literal: "30"))
        XCTAssertEqual(try value("a=true"), .bool(true))
        XCTAssertEqual(try value("t=Sales 2026"), .string("Sales 2026"))
        XCTAssertEqual(try value("t=\"2026\""), .string("2026"))
        XCTAssertEqual(try value("t="), .string(""))
        // The first "=" outside a quoted key splits path and value.
        let a = try DocumentInputs.assignment("data[\"x=y\"].file=a=b.csv")
        XCTAssertEqual(a.path.components, [.key("data"), .key("x=y"), .key("file")])
        XCTAssertEqual(a.value, .string("a=b.csv"))
        if case .array(let items) = try value("d=[0,100]") { XCTAssertEqual(items.count, 2) } else { XCTFail("an array") }
    }

    func testSetCreatesMissingObjectsButNotIndices() throws {
        var root = try JSONParser.parse(#"{ "charts": [ { "data": "d" } ] }"#)
        var inputs = DocumentInputs()
        inputs.assignments = [try DocumentInputs.assignment("charts[0].y.domain=[0,5]")]
        try inputs.apply(to: &root)
        guard case .object(let top) = root.value, case .array(let charts) = top[0].value.value,
              case .object(let chart) = charts[0].value, let y = chart.first(where: { $0.key == "y" }),
              case .object(let ym) = y.value.value else { return XCTFail("charts[0].y is an object") }
        XCTAssertEqual(ym.map(\.key), ["domain"])
        // Nodes from the command line are on line 0.
        XCTAssertEqual(y.keyLocation.line, 0)
        inputs.assignments = [try DocumentInputs.assignment("charts[1].title=x")]
        XCTAssertThrowsError(try inputs.apply(to: &root)) { error in
            XCTAssertEqual("\(error)", "--set charts[1]: the document has 1 chart")
        }
    }

    func testParametersKeepTheirTypeWhenWhole() throws {
        let doc = #"""
            { "params": { "n": { "default": 3 }, "who": { "default": "EU" } },
              "charts": [ { "data": "d", "title": "{params.who} has {params.n}", "y": { "domain": [0, "{params.n}"] } } ],
              "data": { "d": { "values": [ { "x": 1, "y": 2 } ] } } }
            """#
        let root = try JSONParser.parse(doc)
        let sink = DiagnosticSink()
        let (resolved, parameters) = TimelineDecoder.resolveParameters(JSONCursor(node: root, file: "t.json", sink: sink),
                                                                        given: [:])
        XCTAssertFalse(sink.hasErrors, "\(sink.errors)")
        XCTAssertEqual(parameters.map(\.name), ["n", "who"])
        XCTAssertEqual(parameters.map(\.type), [.number, .string])
        let text = String(describing: resolved)
        XCTAssertTrue(text.contains("EU has 3"), "text inside a string")
        XCTAssertTrue(text.contains("number(3.0, literal: \"3\")"), "a whole reference is the number itself")
    }
}
