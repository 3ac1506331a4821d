import XCTest
import Charts
import Scene
import Raster
@testable import Timelines

/// Issue 16's defects 1 and 9 in decoded documents: dates in a pattern (typed or found)
/// plot on a time axis, ambiguous dates warn, and a counting label floors.
final class RealDataDefectTests: XCTestCase {
    static let dataDir = CurvedLineRevealTests.root.appendingPathComponent("timelines").path

    /// A line chart of stocks.csv ("Jan 1 2000" dates), its table as `table` says.
    func stocks(_ table: String) -> String {
        """
        { "canvas": { "width": 480, "height": 240 }, "duration": 0.1,
          "data": { "s": { "file": "data/stocks.csv"\(table) } },
          "charts": [ { "data": "s", "x": { "field": "date" }, "y": { "field": "price" },
                        "axes": [ { "side": "bottom" }, { "side": "leading" } ],
                        "marks": [ { "type": "line", "series": "symbol" } ] } ] }
        """
    }

    func decode(_ text: String, warnings: ((DocumentError) -> Void)? = nil) throws -> Scene {
        try TimelineDecoder.decode(Array(text.utf8), file: Self.dataDir + "/t.json", warnings: warnings ?? { XCTFail("warning: \($0)") })
    }

    /// Defect 1: a column typed with a pattern is a time axis with year ticks, not a
    /// linear axis of epoch seconds from 0.
    func testAPatternedDateColumnPlotsOnATimeAxis() throws {
        let scene = try decode(stocks(#", "columns": { "date": { "date": "MMM d yyyy" } }"#))
        let texts = scene.nodes.flatMap(\.allTexts)
        for year in ["2000", "2001", "2002"] { XCTAssertTrue(texts.contains(year), "\(texts)") }
        XCTAssertFalse(texts.contains { $0.count > 6 && $0.allSatisfy { $0.isNumber || $0 == "," } }, "epoch seconds as labels: \(texts)")
        // The first point (Jan 2000) sits at the plot's left, not squeezed to the right of a zero.
        let frame = scene.frame(at: 0)
        let ink = (0..<frame.width).filter { x in (40..<200).contains { y in let p = frame.pixel(x, y); return p.r < 200 || p.b < 200 } }
        XCTAssertLessThan(ink.first ?? 999, 100, "the lines start near the left edge")
    }

    /// Defect 1: the same column untyped is found to be dates and drawn the same.
    func testAnUntypedColumnOfDatesIsFound() throws {
        let typed = try decode(stocks(#", "columns": { "date": { "date": "MMM d yyyy" } }"#)).frame(at: 0)
        let found = try decode(stocks("")).frame(at: 0)
        XCTAssertEqual(found.data, typed.data)
        XCTAssertEqual(DateDetection.detect(["Jan 1 2000", nil, "Feb 29 2000"]), .dates("MMM d yyyy"))
        XCTAssertEqual(DateDetection.detect(["2012/01/31", "2012/02/01"]), .dates("yyyy/MM/dd"))
        XCTAssertEqual(DateDetection.detect(["3 March 2012"]), .dates("d MMMM yyyy"))
        XCTAssertEqual(DateDetection.detect(["Jan 1 2000", "soon"]), DateDetection.Result.none)
        XCTAssertEqual(DateDetection.detect(["12", "13"]), DateDetection.Result.none)
        XCTAssertEqual(DateDetection.detect(["Paris", "Rome"]), DateDetection.Result.none)
    }

    /// Defect 1: month/day order cannot be told, so the column stays text and a warning
    /// says which pattern to give.
    func testSlashDatesWarnAndNameThePattern() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chartreel-dates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "date,v\n01/31/2012,1\n02/01/2012,2\n".write(to: dir.appendingPathComponent("d.csv"), atomically: true, encoding: .utf8)
        let doc = #"{ "data": { "d": { "file": "d.csv" } }, "charts": [ { "data": "d", "x": { "field": "date" }, "y": { "field": "v" } } ] }"#
        var warnings: [DocumentError] = []
        _ = try TimelineDecoder.decode(Array(doc.utf8), file: dir.path + "/t.json") { warnings.append($0) }
        XCTAssertEqual(warnings.count, 1)
        XCTAssertEqual(warnings.first?.path.description, "data.d.file")
        XCTAssertTrue(warnings.first?.message.contains(#"such as "01/31/2012""#) == true, "\(warnings)")
        XCTAssertTrue(warnings.first?.message.contains(#"{ "date": { "date": "MM/dd/yyyy" } }"#) == true, "\(warnings)")
        let typed = doc.replacingOccurrences(of: #""file": "d.csv""#, with: #""file": "d.csv", "columns": { "date": { "date": "MM/dd/yyyy" } }"#)
        XCTAssertNoThrow(try TimelineDecoder.decode(Array(typed.utf8), file: dir.path + "/t.json") { XCTFail("\($0)") })
    }

    /// Defect 9: a year counter counting to 2000 shows 1999 until it gets there.
    func testACounterFloors() throws {
        let doc = """
        { "canvas": { "width": 200, "height": 100 },
          "data": { "d": { "values": [ { "x": "now", "y": 2000 } ] } },
          "charts": [ { "data": "d", "marks": [ { "type": "text", "text": { "format": { "fractionDigits": 0 } },
                         "animate": { "count": { "from": 0, "to": 1, "duration": 1, "curve": "linear" } } } ] } ] }
        """
        let scene = try decode(doc)
        guard let counter = scene.nodes.flatMap(\.allTextNodes).compactMap(\.counter).first else { return XCTFail("no counter") }
        func shown(_ t: Double) -> String { counter.format(counter.value.value(at: t)) }
        XCTAssertEqual(shown(0.9998), "1999", "1999.6 floors")
        XCTAssertEqual(shown(0.5), "1000")
        XCTAssertEqual(shown(1), "2000")
        let nearest = doc.replacingOccurrences(of: #""fractionDigits": 0"#, with: #""fractionDigits": 0, "rounding": "nearest""#)
        guard let c2 = try decode(nearest).nodes.flatMap(\.allTextNodes).compactMap(\.counter).first else { return XCTFail("no counter") }
        XCTAssertEqual(c2.format(c2.value.value(at: 0.9998)), "2000", "\"rounding\" chooses")
    }

    /// Defect 14: an axis format scales thousands to millions.
    func testAnAxisFormatScales() throws {
        let doc = """
        { "canvas": { "width": 300, "height": 200 }, "duration": 0.1,
          "data": { "d": { "values": [ { "x": 0, "y": 0 }, { "x": 1, "y": 3000 } ] } },
          "charts": [ { "data": "d", "axes": [ { "side": "leading", "format": { "scale": 0.001, "unit": "M", "maxFractionDigits": 1 } } ],
                        "marks": [ { "type": "line" } ] } ] }
        """
        let texts = try decode(doc).nodes.flatMap(\.allTexts)
        XCTAssertTrue(texts.contains("3M"), "\(texts)")
        XCTAssertTrue(texts.contains("0.5M"), "\(texts)")
    }
}

extension Node {
    /// Every text node in the tree, depth first.
    var allTextNodes: [TextNode] {
        switch self {
        case .text(let t): return [t]
        case .group(let g): return g.children.flatMap(\.allTextNodes)
        case .shape: return []
        }
    }
}
