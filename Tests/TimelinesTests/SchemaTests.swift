import XCTest
import Foundation
import Charts
import Geometry
import Raster
import Motion
@testable import Timelines

/// schema/timeline.schema.json against the decoder, which is the authority on the format.
///
/// `testValidatorScript` runs scripts/validate-schema (jsonschema from PyPI): every
/// timeline validates and the invalid fixtures are rejected for the expected reason. The
/// other tests need no Python: they read the schema with JSONSerialization and check, for
/// every object the format has, that each key the schema lists decodes without an
/// "unknown key" error and that the decoder knows no key the schema lacks; that the
/// schema's enums, colour, date and curve patterns accept what the decoder accepts; and
/// that the decoder agrees with the schema on the fixtures.
final class SchemaTests: XCTestCase {
    static let root = CurvedLineRevealTests.root
    static let schemaPath = root.appendingPathComponent("schema/timeline.schema.json").path
    static let invalidDir = root.appendingPathComponent("Tests/Fixtures/schema-invalid")
    static let validDir = root.appendingPathComponent("Tests/Fixtures/schema-valid")

    var schema: [String: Any] = [:]

    override func setUpWithError() throws {
        let data = try XCTUnwrap(FileManager.default.contents(atPath: Self.schemaPath), "cannot read \(Self.schemaPath)")
        schema = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    // MARK: The Python validator

    func testValidatorScript() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let python = path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard python != nil else {
            return XCTFail("python3 is not on PATH; scripts/validate-schema needs it (Debian/Ubuntu: sudo apt-get install python3 python3-venv)")
        }
        let p = Process()
        p.executableURL = Self.root.appendingPathComponent("scripts/validate-schema")
        p.currentDirectoryURL = Self.root
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, output)
        XCTAssertTrue(output.contains("invalid document(s) rejected as expected"), output)
    }

    // MARK: Keys, both ways

    /// A small valid document in parts, so a test can put an object anywhere in it.
    struct Doc {
        var root: [String: Any] = ["canvas": ["width": 40, "height": 30],
                                   "data": ["d": ["values": [["x": 0, "y": 1], ["x": 1, "y": 2]]]]]
        var chart: [String: Any] = ["data": "d"]
        var mark: [String: Any] = ["type": "line"]

        /// Gives the table one transform step.
        mutating func transform(_ step: [String: Any]) {
            root["data"] = ["d": ["values": [["x": 0, "y": 1], ["x": 1, "y": 2]], "transform": [step]]]
        }

        var json: [UInt8] {
            var c = chart; c["marks"] = [mark]
            var r = root; r["charts"] = [c]
            return [UInt8](try! JSONSerialization.data(withJSONObject: r, options: [.sortedKeys]))
        }
    }

    /// One closed object of the format: where the schema describes it (`schema`, one path
    /// or several whose keys together make the decoder's list), a minimal valid instance,
    /// and how to place it in a document.
    struct Context {
        var name: String
        var schema: [String]
        var minimal: [String: Any]
        var place: (inout Doc, [String: Any]) -> Void
    }

    /// Every closed object in the format. Schema paths start at a `$defs` name (or `#`, the
    /// root) and go through properties (`.key`) and array items (`[]`), through `$ref`s
    /// and into the object branch of a `oneOf`.
    let contexts: [Context] = [
        Context(name: "root", schema: ["#"], minimal: Doc().root) { $0.root = $1 },
        Context(name: "canvas", schema: ["#.canvas"], minimal: [:]) { $0.root["canvas"] = $1 },
        Context(name: "font", schema: ["#.font"], minimal: [:]) { $0.root["font"] = $1 },
        Context(name: "layout", schema: ["#.layout"], minimal: [:]) { $0.root["layout"] = $1 },
        Context(name: "param", schema: ["param"], minimal: ["default": "EU"]) { $0.root["params"] = ["p": $1] },
        Context(name: "sequence group", schema: ["sequenceEntry"], minimal: ["parallel": [String]()]) { $0.root["sequence"] = [$1] },
        Context(name: "data table", schema: ["dataTable"], minimal: ["values": [["x": 0, "y": 1]]]) { $0.root["data"] = ["d": $1] },
        Context(name: "fold", schema: ["dataTable.fold"], minimal: ["columns": ["y"]]) {
            $0.root["data"] = ["d": ["values": [["x": 0, "y": 1]], "fold": $1]]
        },
        Context(name: "column type", schema: ["columnType"], minimal: ["date": "yyyy"]) {
            $0.root["data"] = ["d": ["file": "no-such.csv", "columns": ["c": $1]]]
        },
        Context(name: "transform filter", schema: ["transformFilter"], minimal: ["filter": ["field": "x", "equals": 0]]) { $0.transform($1) },
        Context(name: "filter predicate", schema: ["filterPredicate"], minimal: ["field": "x", "equals": 0]) { $0.transform(["filter": $1]) },
        Context(name: "transform aggregate", schema: ["transformAggregate"], minimal: ["aggregate": [["op": "count", "as": "n"]]]) { $0.transform($1) },
        Context(name: "aggregate field", schema: ["aggregateField"], minimal: ["op": "count", "as": "n"]) { $0.transform(["aggregate": [$1]]) },
        Context(name: "transform timeUnit", schema: ["transformTimeUnit"], minimal: ["timeUnit": "year", "field": "x"]) { $0.transform($1) },
        Context(name: "transform bin", schema: ["transformBin"], minimal: ["bin": true, "field": "x"]) { $0.transform($1) },
        Context(name: "bin options", schema: ["binOptions"], minimal: [:]) { $0.transform(["bin": $1, "field": "x"]) },
        Context(name: "transform sort", schema: ["transformSort"], minimal: ["sort": ["x"]]) { $0.transform($1) },
        Context(name: "sort key", schema: ["sortKey"], minimal: ["field": "x"]) { $0.transform(["sort": [$1]]) },
        Context(name: "transform top", schema: ["transformTop"], minimal: ["top": 1]) { $0.transform($1) },
        Context(name: "transform window", schema: ["transformWindow"], minimal: ["window": [["op": "rowNumber", "as": "n"]]]) { $0.transform($1) },
        Context(name: "window field", schema: ["windowField"], minimal: ["op": "rowNumber", "as": "n"]) { $0.transform(["window": [$1]]) },
        Context(name: "transform calculate", schema: ["transformCalculate"], minimal: ["calculate": "x", "as": "z"]) { $0.transform($1) },
        Context(name: "chart", schema: ["chart"], minimal: ["data": "d"]) { $0.chart = $1 },
        Context(name: "channel", schema: ["channel"], minimal: [:]) { $0.chart["x"] = $1 },
        Context(name: "time", schema: ["chart.time"], minimal: ["field": "x", "key": "y"]) { $0.chart["time"] = $1 },
        Context(name: "period label", schema: ["chart.periodLabel"], minimal: [:]) {
            $0.chart["time"] = ["field": "x", "key": "y"]; $0.chart["periodLabel"] = $1
        },
        Context(name: "rank", schema: ["chart.time.rank"], minimal: ["by": "y"]) {
            $0.chart["time"] = ["field": "x", "key": "y", "rank": $1]
        },
        Context(name: "follow", schema: ["channel.follow"], minimal: [:]) { $0.chart["y"] = ["follow": $1] },
        Context(name: "channel animate", schema: ["channel.animate"], minimal: [:]) { $0.chart["x"] = ["domain": [0, 1], "animate": $1] },
        Context(name: "domain zoom", schema: ["channel.animate.domain"], minimal: ["to": [0, 2]]) {
            $0.chart["x"] = ["domain": [0, 1], "animate": ["domain": $1]]
        },
        Context(name: "domain keyframe", schema: ["channel.animate.domain.keyframes[]"], minimal: ["time": 0, "value": [0, 1]]) {
            $0.chart["x"] = ["animate": ["domain": ["keyframes": [$1]]]]
        },
        Context(name: "grid", schema: ["grid"], minimal: [:]) { $0.chart["grid"] = $1 },
        Context(name: "grid lines", schema: ["gridLines"], minimal: ["step": 1]) { $0.chart["grid"] = ["x": $1] },
        Context(name: "axis", schema: ["axis"], minimal: ["side": "bottom"]) { $0.chart["axes"] = [$1] },
        Context(name: "label format", schema: ["numberFormat", "dateFormat"], minimal: [:]) {
            $0.chart["axes"] = [["side": "bottom", "format": $1]]
        },
        Context(name: "legend", schema: ["legend"], minimal: [:]) { $0.chart["legend"] = $1 },
        Context(name: "legend entry", schema: ["legend.entries[]"], minimal: ["name": "a", "color": "#000"]) {
            $0.chart["legend"] = ["entries": [$1]]
        },
        Context(name: "title", schema: ["title"], minimal: ["text": "t"]) { $0.chart["title"] = $1 },
        Context(name: "caption", schema: ["caption"], minimal: ["text": "c"]) { $0.chart["caption"] = $1 },
        Context(name: "guide animate", schema: ["guideAnimate"], minimal: [:]) { $0.chart["title"] = ["text": "t", "animate": $1] },
        Context(name: "card", schema: ["card"], minimal: [:]) { $0.chart["card"] = $1 },
        Context(name: "plot area", schema: ["plotArea"], minimal: [:]) { $0.chart["plotArea"] = $1 },
        Context(name: "rule label", schema: ["ruleLabel"], minimal: ["field": "x"]) { $0.mark = ["type": "rule", "label": $1] },
        Context(name: "tick stride", schema: ["tickStride"], minimal: ["every": 5]) { $0.chart["axes"] = [["side": "bottom", "ticks": $1]] },
        Context(name: "extremes", schema: ["extremes"], minimal: [:]) { $0.chart["extremes"] = $1 },
        Context(name: "style", schema: ["chartStyle"], minimal: [:]) { $0.chart["style"] = $1 },
        Context(name: "mark", schema: ["mark"], minimal: ["type": "line"]) { $0.mark = $1 },
        Context(name: "mark animate", schema: ["markAnimate"], minimal: [:]) { $0.mark["animate"] = $1 },
        Context(name: "trim", schema: ["markAnimate.trim"], minimal: [:]) { $0.mark["animate"] = ["trim": $1] },
        Context(name: "translate", schema: ["markAnimate.translate"], minimal: [:]) { $0.mark["animate"] = ["translate": $1] },
        Context(name: "stagger", schema: ["stagger"], minimal: [:]) { $0.mark["animate"] = ["stagger": $1] },
        Context(name: "tween", schema: ["tween"], minimal: ["from": 0, "to": 1]) { $0.mark["animate"] = ["opacity": $1] },
        Context(name: "keyframes", schema: ["keyframes"], minimal: ["keyframes": [["time": 0, "value": 0]]]) {
            $0.mark["animate"] = ["opacity": $1]
        },
        Context(name: "keyframe", schema: ["keyframe"], minimal: ["time": 0, "value": 0]) {
            $0.mark["animate"] = ["opacity": ["keyframes": [$1]]]
        },
        Context(name: "colour animation", schema: ["colourAnimation"], minimal: ["from": "#000", "to": "#FFF"]) {
            $0.mark["animate"] = ["color": $1]
        },
        Context(name: "point size", schema: ["mark.size"], minimal: ["field": "y"]) { $0.mark = ["type": "point", "size": $1] },
        Context(name: "trail", schema: ["mark.trail"], minimal: [:]) { $0.mark["trail"] = $1 },
        Context(name: "trace", schema: ["mark.trace"], minimal: [:]) { $0.mark["trace"] = $1 },
        Context(name: "transition", schema: ["mark.transition"], minimal: ["data": "d"]) { $0.mark["transition"] = $1 },
        Context(name: "timing", schema: ["timing"], minimal: [:]) { $0.mark["transition"] = ["data": "d", "animation": $1] },
        Context(name: "filter", schema: ["mark.filter"], minimal: ["field": "x", "equals": 0]) { $0.mark["filter"] = $1 },
        Context(name: "stroke", schema: ["stroke"], minimal: [:]) { $0.mark["stroke"] = $1 },
        Context(name: "gradient paint", schema: ["paint"], minimal: ["linear": ["stops": ["#000"]]]) {
            $0.mark = ["type": "area", "fill": $1]
        },
        Context(name: "linear gradient", schema: ["paint.linear"], minimal: ["stops": ["#000"]]) {
            $0.mark = ["type": "area", "fill": ["linear": $1]]
        },
        Context(name: "radial gradient", schema: ["paint.radial"], minimal: ["endRadius": 10, "stops": ["#000"]]) {
            $0.mark = ["type": "area", "fill": ["radial": $1]]
        },
        Context(name: "angular gradient", schema: ["paint.angular"], minimal: ["stops": ["#000"]]) {
            $0.mark = ["type": "area", "fill": ["angular": $1]]
        },
        Context(name: "gradient stop", schema: ["gradientStop"], minimal: ["offset": 0, "color": "#000"]) {
            $0.mark = ["type": "area", "fill": ["linear": ["stops": [$1]]]]
        },
        Context(name: "points", schema: ["points"], minimal: [:]) { $0.mark["points"] = $1 },
        Context(name: "point outline", schema: ["points.stroke"], minimal: ["color": "#000"]) { $0.mark["points"] = ["stroke": $1] },
        Context(name: "text", schema: ["textOptions"], minimal: [:]) { $0.mark = ["type": "text", "text": $1] },
        Context(name: "text wrap", schema: ["textWrap"], minimal: [:]) { $0.mark = ["type": "text", "text": ["wrap": $1]] },
        Context(name: "text background", schema: ["textOptions.background"], minimal: [:]) {
            $0.mark = ["type": "text", "text": ["background": $1]]
        },
        Context(name: "shape", schema: ["shapeOptions"], minimal: ["kind": "rect", "rect": [0, 0, 1, 1]]) {
            $0.mark = ["type": "shape", "shape": $1]
        },
        Context(name: "colour encoding", schema: ["colourEncoding"], minimal: [:]) { $0.mark = ["type": "bar", "color": $1] },
        Context(name: "threshold", schema: ["colourEncoding.thresholds[]"], minimal: ["upTo": 1, "color": "#000"]) {
            $0.mark = ["type": "bar", "color": ["thresholds": [$1], "otherwise": "#FFF"]]
        },
        Context(name: "value gradient stop", schema: ["colourEncoding.gradient[]"], minimal: ["value": 1, "color": "#000"]) {
            $0.mark = ["type": "bar", "color": ["gradient": [$1, ["value": 2, "color": "#FFF"]]]]
        },
        Context(name: "overrides", schema: ["colourEncoding.overrides"], minimal: ["field": "x", "values": [String: Any]()]) {
            $0.mark = ["type": "bar", "color": ["overrides": $1]]
        },
        Context(name: "interpolation", schema: ["interpolation"], minimal: ["bezier": 0.5]) { $0.mark["interpolation"] = $1 },
    ]

    /// Objects with more keys than the decoder lists in an "unknown key" message (12); their
    /// decoder keys are checked through `rootKeys`, `chartKeys`, `markKeys` where those exist.
    static let unlisted: Set<String> = ["chart", "mark", "tween", "keyframes", "colour animation", "text", "time"]

    func testEverySchemaKeyDecodesWithoutUnknownKeyError() throws {
        for context in contexts {
            let keys = try schemaKeys(context.schema)
            XCTAssertFalse(keys.isEmpty, "\(context.name): the schema lists no keys")
            XCTAssertEqual(unknownKeyErrors(context, adding: nil), [], "\(context.name): the minimal document is not clean")
            for key in keys.sorted() {
                XCTAssertEqual(unknownKeyErrors(context, adding: key), [], "\(context.name): the schema's \"\(key)\"")
            }
        }
    }

    func testEveryDecoderKeyIsInTheSchema() throws {
        XCTAssertEqual(try schemaKeys(["#"]), Set(TimelineDecoder.rootKeys))
        XCTAssertEqual(try schemaKeys(["chart"]), Set(TimelineDecoder.chartKeys))
        XCTAssertEqual(try schemaKeys(["mark"]), Set(TimelineDecoder.markKeys))
        XCTAssertEqual(try schemaKeys(["textOptions"]), Set(TimelineDecoder.textKeys))
        XCTAssertEqual(try schemaKeys(["chart.time"]), Set(TimelineDecoder.timeKeys))
        // Everywhere else the decoder's list is read from its message for a key it cannot
        // know; this also proves each context reaches the object it means to test.
        for context in contexts {
            let errors = unknownKeyErrors(context, adding: "zzzzzzzz")
            guard let message = errors.first(where: { $0.hasPrefix("unknown key \"zzzzzzzz\"") }) else {
                XCTFail("\(context.name): the decoder did not check the object's keys: \(errors)"); continue
            }
            guard let listed = message.range(of: "expected one of ") else {
                XCTAssertTrue(Self.unlisted.contains(context.name), "\(context.name): \(message)"); continue
            }
            let decoderKeys = Set(message[listed.upperBound...].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            })
            XCTAssertEqual(try schemaKeys(context.schema), decoderKeys, context.name)
        }
    }

    /// Every closed object in the schema is one of the contexts above, so an object added to
    /// the schema without a context here fails instead of going unchecked.
    func testContextsCoverEveryObjectInTheSchema() throws {
        var covered: [NSDictionary] = []
        for context in contexts {
            for path in context.schema { covered.append(try XCTUnwrap(try objectSchema(try node(path))) as NSDictionary) }
        }
        var found = 0
        func walk(_ value: Any, _ at: String) {
            if let d = value as? [String: Any] {
                if d["type"] as? String == "object", d["additionalProperties"] as? Bool == false {
                    found += 1
                    XCTAssertTrue(covered.contains(d as NSDictionary), "no context tests the object at \(at)")
                }
                for (k, v) in d { walk(v, at + "/" + k) }
            } else if let a = value as? [Any] {
                for (i, v) in a.enumerated() { walk(v, at + "/\(i)") }
            }
        }
        walk(schema, "#")
        XCTAssertGreaterThan(found, 40)
    }

    /// The "unknown key" messages from decoding `context`'s minimal object with `key`
    /// added (as null, which only the key check cares about; other errors are ignored).
    func unknownKeyErrors(_ context: Context, adding key: String?) -> [String] {
        var object = context.minimal
        if let key, object[key] == nil { object[key] = NSNull() }
        var doc = Doc()
        context.place(&doc, object)
        do {
            _ = try TimelineDecoder.decode(doc.json, file: "t.json")
            return []
        } catch {
            // `decode` throws only DocumentErrors (typed throws).
            return error.errors.map(\.message).filter { $0.hasPrefix("unknown key") }
        }
    }

    // MARK: Reading the schema

    func resolve(_ node: Any?) throws -> [String: Any] {
        var current = try XCTUnwrap(node as? [String: Any], "not a schema object: \(String(describing: node))")
        while let ref = current["$ref"] as? String {
            XCTAssertTrue(ref.hasPrefix("#/"), ref)
            var target: Any = schema
            for part in ref.dropFirst(2).split(separator: "/") {
                target = try XCTUnwrap((target as? [String: Any])?[String(part)], "dangling \(ref)")
            }
            current = try XCTUnwrap(target as? [String: Any])
        }
        return current
    }

    /// The object form of a schema: itself, or the object branch of its oneOf/anyOf.
    func objectSchema(_ node: Any?) throws -> [String: Any]? {
        let s = try resolve(node)
        if s["type"] as? String == "object", s["properties"] != nil { return s }
        for branch in (s["oneOf"] as? [Any] ?? []) + (s["anyOf"] as? [Any] ?? []) {
            if let o = try objectSchema(branch) { return o }
        }
        return nil
    }

    /// The schema node at `path`: a `$defs` name or `#` (the root), then properties
    /// (`.key`) and array items (`[]`), through `$ref`s and into the object branch of a oneOf.
    func node(_ path: String) throws -> Any? {
        var parts = path.split(separator: ".").map(String.init)
        let first = parts.removeFirst()
        var node: Any? = first == "#" ? schema : (schema["$defs"] as? [String: Any])?[first]
        XCTAssertNotNil(node, "no $defs/\(first)")
        for part in parts {
            let isArray = part.hasSuffix("[]")
            let name = isArray ? String(part.dropLast(2)) : part
            let object = try XCTUnwrap(try objectSchema(node), "\(path): no object holds \(name)")
            node = (object["properties"] as? [String: Any])?[name]
            if isArray { node = try resolve(node)["items"] }
        }
        return node
    }

    /// The union of the property names of the objects at `paths`, each of which must be closed.
    func schemaKeys(_ paths: [String]) throws -> Set<String> {
        var keys = Set<String>()
        for path in paths {
            let object = try XCTUnwrap(try objectSchema(try node(path)), "\(path) is not an object schema")
            XCTAssertEqual(object["additionalProperties"] as? Bool, false, "\(path) is open")
            keys.formUnion((object["properties"] as? [String: Any] ?? [:]).keys)
        }
        return keys
    }

    /// The string values the schema at `path` allows.
    func enumValues(_ path: String) throws -> Set<String> { try enumIn(try node(path)) }

    /// The string enum in a schema, looking through $ref and oneOf/anyOf branches.
    func enumIn(_ node: Any?) throws -> Set<String> {
        let s = try resolve(node)
        if let values = s["enum"] as? [String] { return Set(values) }
        for branch in (s["oneOf"] as? [Any] ?? []) + (s["anyOf"] as? [Any] ?? []) {
            let values = try enumIn(branch)
            if !values.isEmpty { return values }
        }
        return []
    }

    // MARK: Enums and patterns

    func testEnumsAreTheDecodersValues() throws {
        func raw<E: RawRepresentable & CaseIterable>(_ type: E.Type) -> Set<String> where E.RawValue == String {
            Set(E.allCases.map(\.rawValue))
        }
        XCTAssertEqual(try enumValues("mark.type"), raw(MarkKind.self))
        XCTAssertEqual(try enumValues("param.type"), raw(DocumentParameter.Kind.self))
        XCTAssertEqual(try enumValues("mark.stack"), raw(StackMode.self))
        XCTAssertEqual(try enumValues("mark.blendMode"), Set(TimelineDecoder.blendModeNames))
        XCTAssertEqual(try enumValues("channel.scale"), raw(ScaleType.self))
        XCTAssertEqual(try enumValues("axis.side"), raw(Side.self))
        XCTAssertEqual(try enumValues("legend.side"), raw(Side.self))
        XCTAssertEqual(try enumValues("stagger.order"), raw(StaggerSpec.Order.self))
        XCTAssertEqual(try enumValues("stroke.cap"), raw(LineCap.self))
        XCTAssertEqual(try enumValues("stroke.join"), raw(LineJoin.self))
        XCTAssertEqual(try enumValues("textOptions.position"), raw(TextPosition.self))
        XCTAssertEqual(try enumValues("shapeOptions.style"), raw(RoundedCornerStyle.self))
        XCTAssertEqual(try enumValues("unitPoint"), Set(TimelineDecoder.unitPoints.keys))
        XCTAssertEqual(try enumValues("curve"), Set(Easing.names))
        XCTAssertEqual(try enumValues("aggregateField.op"), raw(AggregateField.Op.self))
        XCTAssertEqual(try enumValues("windowField.op"), raw(WindowField.Op.self))
        XCTAssertEqual(try enumValues("transformTimeUnit.timeUnit"), raw(TimeUnit.self))
        XCTAssertEqual(try enumValues("numberFormat.rounding"), raw(NumberFormat.Rounding.self))
    }

    /// Whether `text` matches the pattern of the schema at `path` as ECMA-262 would: the
    /// whole string (ICU's `$` also matches before a final newline, ECMA's does not).
    func matches(_ path: String, _ text: String) throws -> Bool {
        let s = try resolve(try node(path))
        let pattern = try XCTUnwrap((s["pattern"] as? String) ?? ((s["anyOf"] as? [[String: Any]])?.compactMap { $0["pattern"] as? String }.first))
        let regex = try NSRegularExpression(pattern: pattern)
        let whole = NSRange(text.startIndex..., in: text)
        return regex.firstMatch(in: text, range: whole)?.range == whole
    }

    func testColourPatternAcceptsWhatTheDecoderAccepts() throws {
        for text in ["#FFF", "#fff8", "#6A5ACD", "#6a5acd99", "#000000", "FFF", "#", "#FF", "#12345", "#1234567",
                     "#123456789", "#GGG", " #FFF", "#FFF ", "#FFF\n", ""] {
            XCTAssertEqual(try matches("colour", text), Color(hex: text) != nil, "\"\(text)\"")
        }
        // Character.hexDigitValue also reads fullwidth digits, so the decoder takes "#ＦＦＦ";
        // the schema keeps to ASCII, as the format documents.
        XCTAssertNotNil(Color(hex: "#\u{FF26}\u{FF26}\u{FF26}"))
        XCTAssertFalse(try matches("colour", "#\u{FF26}\u{FF26}\u{FF26}"))
    }

    func testDatePatternAcceptsWhatTheDecoderAccepts() throws {
        for text in ["2025-03-01", "2024-02-29", "2025-03-01T14:30", "2025-03-01 14:30:05", "2025-03-01T14:30:05.25Z",
                     "2025-03-01T14:30:00+01:00", "2025-03-01T14:30:00-0130", "2025-03-01Z", "2025-12-31T23:59:60",
                     "2025-3-1", "2025-13-01", "2025-00-10", "2025-03-32", "2025-03-01T24:00", "2025-03-01T14:30:",
                     "2025-03-01T14:30:00.", "2025-03-01T14:30:00+1:00", "25-03-01", "2025-03-01T14", ""] {
            XCTAssertEqual(try matches("isoDate", text), CivilDate.parseISO(text) != nil, "\"\(text)\"")
        }
        // The pattern allows day 31 in every month; the decoder knows month lengths.
        XCTAssertTrue(try matches("isoDate", "2025-02-30"))
        XCTAssertNil(CivilDate.parseISO("2025-02-30"))
    }

    func testCurvePatternAcceptsWhatTheDecoderAccepts() throws {
        let corpus = Easing.names + [
            " easeIn ", "EASE-IN", "Ease-In-Out", "step-start", "STEP-END", "ease-out",
            "cubic-bezier(0.68, -0.6, 0.32, 1.6)", "Cubic-Bezier( .25 , .1 , .25 , 1 )", "cubic-bezier(0, 0, 1, 1e0)",
            "steps(5)", "steps(+2, jump-both)", "Steps (3, START)", "steps(2, jump-none)",
            "linear(0, 1)", "linear(0, 0.25 75%, 1)", "linear(0 0%, 0.5 20% 40%, 1 100%)", "linear(0, 30% 0.4, 1)",
            "spring()", "spring( )", "spring(duration: 0.8, bounce: 0.5)", "spring(response: 0.5, dampingFraction: 0.6)",
            "interpolatingSpring(stiffness: 100, damping: 10)", "interpolatingSpring(mass: 2, stiffness: 170, damping: 15, initialVelocity: 1)",
            "", "easeinout", "EaseIn", "bogus", "ease in", "easeIn easeOut", "cubic-bezier(0.1, 0.2, 0.3)",
            "cubic-bezier(a, b, c, d)", "steps(0)", "steps(2, middle)", "steps(1.5)", "linear(1)", "linear()",
            "linear(0, 1%%, 1)", "spring(foo: 1)", "Spring()", "spring(duration 1)", "interpolatingSpring",
        ]
        for text in corpus {
            XCTAssertEqual(try matches("curve", text), Easing.parse(text) != nil, "\"\(text)\"")
        }
        // What the pattern leaves to the decoder (the schema's $comment lists these).
        for text in ["cubic-bezier(2, 0, 0.5, 1)", "steps(1, jump-none)", "interpolatingSpring(mass: 1)",
                     "spring(duration: 1, response: 1)", "spring(bounce: 0.1, bounce: 0.2)"] {
            XCTAssertTrue(try matches("curve", text), text)
            XCTAssertNil(Easing.parse(text), text)
        }
    }

    // MARK: Fixtures

    /// Each invalid fixture: the decoder rejects it at the place the schema does, or (where
    /// the manifest says the schema is stricter) decodes it.
    func testDecoderAgreesWithTheSchemaOnTheInvalidFixtures() throws {
        let manifest = try String(contentsOf: Self.invalidDir.appendingPathComponent("expected.tsv"), encoding: .utf8)
        var count = 0
        for line in manifest.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            XCTAssertGreaterThanOrEqual(fields.count, 4, String(line))
            guard fields.count >= 4 else { continue }
            let (name, pointer, decoder) = (fields[0], fields[1], fields[3])
            let path = Self.invalidDir.appendingPathComponent(name).path
            count += 1
            switch decoder {
            case "rejects":
                do {
                    _ = try TimelineDecoder.load(path: path)
                    XCTFail("\(name): the decoder accepts it")
                } catch {
                    let expected = jsonPath(pointer)
                    XCTAssertTrue(error.errors.contains { $0.path == expected }, "\(name): no error at \(expected): \(error)")
                }
            case "accepts":
                XCTAssertNoThrow(try TimelineDecoder.load(path: path), name)
            default:
                XCTFail("\(name): the decoder column says \"\(decoder)\"; expected rejects or accepts")
            }
        }
        XCTAssertGreaterThanOrEqual(count, 20)
    }

    func testValidFixturesDecode() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.validDir.path).filter { $0.hasSuffix(".json") }
        XCTAssertFalse(names.isEmpty)
        for name in names {
            let scene = try TimelineDecoder.load(path: Self.validDir.appendingPathComponent(name).path)
            XCTAssertGreaterThan(scene.nodes.count, 0, name)
        }
    }

    /// A JSON Pointer as the decoder's path: "/charts/0/marks" is charts[0].marks.
    func jsonPath(_ pointer: String) -> JSONPath {
        var path = JSONPath()
        for part in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let i = Int(key) { path = path.appending(index: i) } else { path = path.appending(key: key) }
        }
        return path
    }
}
