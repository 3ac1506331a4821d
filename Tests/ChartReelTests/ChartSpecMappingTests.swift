import XCTest
import Foundation
import ChartReel

/// What the Swift API writes into the model: tables, channels, mark specs and guides.
final class ChartSpecMappingTests: XCTestCase {
    struct Row { var day: String; var mg: Double; var note: String?; var when: Date }
    let rows = [Row(day: "Mon", mg: 95, note: "espresso", when: Date(timeIntervalSince1970: 86_400)),
                Row(day: "Tue", mg: 140, note: nil, when: Date(timeIntervalSince1970: 2 * 86_400))]
    let frame = Rect(x: 0, y: 0, width: 400, height: 300)

    func style() throws -> ChartStyle { ChartStyle(font: try FontCache.font(), boldFont: try FontCache.font(bold: true)) }

    func testRowsBecomeATableWithOneColumnPerLabel() throws {
        let spec = try Chart(rows) {
            LineMark(x: .value("Day", \.day), y: .value("Caffeine", \.mg))
            TextMark(x: .value("Day", \.day), y: .value("Caffeine", \.mg), text: .value("Note", \.note))
        }.spec(frame: frame, style: try style())
        XCTAssertEqual(spec.x.field, "Day")
        XCTAssertEqual(spec.y.field, "Caffeine")
        XCTAssertNil(spec.x.scale, "text decides its scale from the cells, as in documents")
        XCTAssertEqual(spec.data, [["Day": .string("Mon"), "Caffeine": .number(95), "Note": .string("espresso")],
                                   ["Day": .string("Tue"), "Caffeine": .number(140)]])
        XCTAssertEqual(spec.marks.map(\.kind), [.line, .text])
        XCTAssertEqual((spec.marks[1] as? TextMarkSpec)?.field, "Note")
        XCTAssertEqual(spec.frame, frame)
    }

    func testClosuresAndDatesPlot() throws {
        let spec = try Chart(rows) {
            PointMark(x: .value("When", \.when), y: .value("Grams") { $0.mg / 1000 })
        }.spec(frame: frame, style: try style())
        XCTAssertEqual(spec.x.scale, .time)
        XCTAssertEqual(spec.data[1]["When"], .number(2 * 86_400))
        XCTAssertEqual(spec.data[0]["Grams"], .number(0.095))
        XCTAssertEqual(spec.ticks(spec.resolve(spec.x), axis: nil).first?.label.isEmpty, false)
    }

    func testMarksDefaultAsDocumentsDo() throws {
        let spec = try Chart(rows) {
            LineMark(x: .value("Day", \.day), y: .value("mg", \.mg))
            AreaMark(x: .value("Day", \.day), y: .value("mg", \.mg))
            RuleMark(y: .value("mg", \.mg))
            BarMark(x: .value("Day", \.day), y: .value("mg", \.mg))
        }.spec(frame: frame, style: try style())
        let line = try XCTUnwrap(spec.marks[0] as? LineMarkSpec), area = try XCTUnwrap(spec.marks[1] as? AreaMarkSpec)
        let rule = try XCTUnwrap(spec.marks[2] as? RuleMarkSpec), bar = try XCTUnwrap(spec.marks[3] as? BarMarkSpec)
        XCTAssertEqual(line.stroke?.paint, .solid(Palette.color(0)))
        XCTAssertEqual(line.stroke?.style, StrokeStyle(width: 2, cap: .round, join: .round))
        XCTAssertEqual(area.fill, .solid(Palette.color(0).opacity(0.3)))
        XCTAssertNil(area.stroke)
        XCTAssertEqual(rule.stroke?.style, StrokeStyle(width: 1))
        XCTAssertFalse(rule.vertical)
        XCTAssertNil(bar.stroke)
        XCTAssertNil(bar.fill)
    }

    func testPaintModifiersGoWhereEachKindDrawsThem() throws {
        let teal = Color.teal
        let spec = try Chart(rows) {
            LineMark(x: .value("Day", \.day), y: .value("mg", \.mg)).foregroundStyle(teal)
            LineMark(x: .value("Day", \.day), y: .value("mg", \.mg)).lineStyle(StrokeStyle(width: 5)).foregroundStyle(.red)
            BarMark(x: .value("Day", \.day), y: .value("mg", \.mg)).foregroundStyle(teal).stroke(.black, lineWidth: 2)
            TextMark("hi", x: .value("Day", \.day), y: .value("mg", \.mg)).foregroundStyle(.linearGradient([.red, .blue]))
        }.spec(frame: frame, style: try style())
        XCTAssertEqual(spec.marks[0].anyStroke?.paint, .solid(teal))
        XCTAssertEqual(spec.marks[0].anyStroke?.style.width, 2)
        XCTAssertEqual(spec.marks[1].anyStroke?.style, StrokeStyle(width: 5))
        XCTAssertEqual(spec.marks[1].anyStroke?.paint, .solid(.red))
        XCTAssertEqual(spec.marks[2].anyFill, .solid(teal))
        XCTAssertEqual(spec.marks[2].anyStroke?.style, StrokeStyle(width: 2, cap: .butt, join: .miter))
        XCTAssertEqual((spec.marks[3] as? TextMarkSpec)?.color, .blue)
        XCTAssertEqual((spec.marks[3] as? TextMarkSpec)?.literal, "hi")
    }

    func testForegroundStyleByMakesSeriesOrNamesSlices() throws {
        let spec = try Chart(rows) {
            LineMark(x: .value("Day", \.day), y: .value("mg", \.mg)).foregroundStyle(by: .value("Note", \.note))
            SectorMark(angle: .value("mg", \.mg), innerRadius: 0.5).foregroundStyle(by: .value("Day", \.day), colors: [.red, .blue])
        }.spec(frame: frame, style: try style())
        XCTAssertEqual(spec.marks[0].options.series, "Note")
        XCTAssertNil(spec.marks[0].options.color)
        XCTAssertNil(spec.marks[1].options.series)
        XCTAssertEqual(spec.x.field, "Day", "a sector's category is the chart's x, as in documents")
        guard case .category(let field, let colors, _)? = spec.marks[1].options.color else { return XCTFail("no category colours") }
        XCTAssertEqual(field, "Day")
        XCTAssertEqual(colors, [.red, .blue])
        XCTAssertEqual((spec.marks[1] as? SectorMarkSpec)?.innerRadius, 0.5)
    }

    func testOverridesWrapTheColouringBeforeThem() throws {
        let spec = try Chart(rows) {
            BarMark(x: .value("Day", \.day), y: .value("mg", \.mg))
                .foregroundStyle(valueGradient: [(100, .red), (0, .green)])
                .foregroundStyle(overriding: ["Tue": .black], by: .value("Day", \.day))
        }.spec(frame: frame, style: try style())
        guard case .overrides(let field, let values, let inner)? = spec.marks[0].options.color,
              case .valueGradient(let stops) = inner else { return XCTFail("expected overrides over a value gradient") }
        XCTAssertEqual(field, "Day")
        XCTAssertEqual(values, ["Tue": .black])
        XCTAssertEqual(stops.map(\.value), [0, 100], "stops sorted by value")
    }

    func testAnimationsBecomeTweensAndKeyframes() throws {
        let spec = try Chart(rows) {
            LineMark(x: .value("Day", \.day), y: .value("mg", \.mg))
                .animation(.trim(from: 0), .easeInOut(duration: 0.8).delay(0.2))
                .animation(.opacity(from: 0.5).and(.offset(x: -20)), .linear(duration: 1).speed(2).repeatCount(3))
                .keyframes(.rotation, [Keyframe(time: 1, value: 45), Keyframe(time: 0, value: 0)])
                .stagger(amount: 1, from: .center)
        }.spec(frame: frame, style: try style())
        let m = spec.marks[0].options
        XCTAssertEqual(m.trimEnd, .tween(Tween(from: 0, to: 1, animation: Animation.easeInOut(duration: 0.8).delay(0.2))))
        guard case .tween(let fade) = m.opacity else { return XCTFail("opacity") }
        XCTAssertEqual(fade.from, 0.5)
        XCTAssertEqual(fade.animation.speed, 2)
        XCTAssertEqual(fade.animation.repetition, .count(3))
        XCTAssertEqual(fade.animation.end, 1.5, accuracy: 1e-12, "three half-second passes")
        guard case .tween(let slide)? = m.translateX else { return XCTFail("translateX") }
        XCTAssertEqual(slide.from, -20)
        XCTAssertNil(m.translateY, "an offset of 0 does not animate")
        guard case .keyframes(let k)? = m.rotation else { return XCTFail("rotation") }
        XCTAssertEqual(k.keyframes.map(\.time), [0, 1])
        XCTAssertEqual(m.stagger, StaggerSpec(step: 0, amount: 1, order: .center))
    }

    func testFiltersBecomeHiddenColumnsAndTransitionsTables() throws {
        let spec = try Chart(rows) {
            PointMark(x: .value("Day", \.day), y: .value("mg", \.mg))
                .filter { $0.mg > 100 }
                .transition(to: [Row(day: "Mon", mg: 10, note: nil, when: Date())], .easeOut(duration: 1))
        }.spec(frame: frame, style: try style())
        let m = spec.marks[0].options
        let f = try XCTUnwrap(m.filter)
        XCTAssertEqual(spec.data.map { $0[f.field] }, [.number(0), .number(1)])
        XCTAssertEqual(f.value, .number(1))
        XCTAssertEqual(m.transition?.rows.first?["mg"], .number(10))
    }

    func testChartModifiersFillTheGuides() throws {
        let spec = try Chart(rows) {
            BarMark(x: .value("Day", \.day), y: .value("mg", \.mg))
        }
        .title("Caffeine", subtitle: "mg", fadeIn: .easeIn(duration: 0.5))
        .chartXScale(type: .band, padding: 0.3, categories: ["Tue", "Mon"])
        .chartYScale(domain: 0...200, nice: true)
        .chartXAxis(position: .top, count: 3, line: false, title: "Day")
        .chartYAxis(position: .trailing, values: [0, 100, 200], format: .number(NumberFormat(suffix: " mg")))
        .chartGrid(y: .every(50), color: .gray, zeroColor: .black)
        .chartLegend(position: .trailing, swatch: .square, entries: [("Coffee", .brown)])
        .card(color: .white, cornerRadius: 4, padding: 10)
        .extremeLabels(format: NumberFormat(maxFractionDigits: 0))
        .plotInset(12)
        .guideStyle(textColor: .red, labelSize: 9)
        .chartSpec { if var b = $0.marks[0] as? BarMarkSpec { b.barWidth = 0.5; $0.marks[0] = b } }
        .spec(frame: frame, style: try style())
        XCTAssertEqual(spec.title?.title, "Caffeine")
        XCTAssertEqual(spec.title?.subtitle, "mg")
        XCTAssertEqual(spec.title?.opacity.value(at: 0), 0)
        XCTAssertEqual(spec.title?.opacity.value(at: 0.5), 1)
        XCTAssertEqual(spec.x.scale, .band)
        XCTAssertEqual(spec.x.paddingInner, 0.3)
        XCTAssertEqual(spec.x.categories, ["Tue", "Mon"])
        XCTAssertEqual(spec.y.domain?.0, 0)
        XCTAssertEqual(spec.y.domain?.1, 200)
        XCTAssertTrue(spec.y.nice)
        XCTAssertEqual(spec.axes.map(\.side), [.top, .trailing])
        XCTAssertEqual(spec.axes[0].tickCount, 3)
        XCTAssertFalse(spec.axes[0].showLine)
        XCTAssertEqual(spec.axes[0].title, "Day")
        XCTAssertEqual(spec.axes[1].values, [0, 100, 200])
        XCTAssertEqual(spec.grid?.yStep, 50)
        XCTAssertFalse(spec.grid!.xAtTicks)
        XCTAssertEqual(spec.grid?.color, .gray)
        XCTAssertEqual(spec.legend?.side, .trailing)
        XCTAssertEqual(spec.legend?.swatch, .square)
        XCTAssertEqual(spec.legend?.entries?.first?.name, "Coffee")
        XCTAssertEqual(spec.card, CardSpec(color: .white, cornerRadius: 4, padding: 10))
        XCTAssertEqual(spec.extremes?.format, NumberFormat(maxFractionDigits: 0))
        XCTAssertEqual(spec.inset, 12)
        XCTAssertEqual(spec.style.textColor, .red)
        XCTAssertEqual(spec.style.labelSize, 9)
        XCTAssertEqual((spec.marks[0] as? BarMarkSpec)?.barWidth, 0.5)
    }

    func testMarksThatDisagreeOnAChannelAreRefused() throws {
        XCTAssertThrowsError(try ChartScene {
            Chart(rows) {
                LineMark(x: .value("Day", \.day), y: .value("mg", \.mg))
                PointMark(x: .value("When", \.when), y: .value("mg", \.mg))
            }
        }) { error in
            XCTAssertEqual(error as? ChartReelError, .conflictingChannel(channel: "x", labels: ["Day", "When"], chart: 0))
            XCTAssertTrue("\(error)".contains("chart 0: marks plot \"Day\" and \"When\" on x"), "\(error)")
        }
    }

    func testBadKeyframesAreRefusedWithTheMarksName() throws {
        XCTAssertThrowsError(try ChartScene {
            Chart(rows) {
                LineMark(x: .value("Day", \.day), y: .value("mg", \.mg)).id("line").keyframes(.opacity, [])
            }
        }) { error in
            guard case .invalidMark(let id, let problems, let chart)? = error as? ChartReelError else { return XCTFail("\(error)") }
            XCTAssertEqual(id, "line")
            XCTAssertEqual(chart, 0)
            XCTAssertEqual(problems.count, 1)
        }
    }

    func testBuildersTakeConditionsAndLoops() throws {
        for showPoints in [false, true] {
            let spec = try Chart(rows) {
                for width in [1.0, 2.0] {
                    LineMark(x: .value("Day", \.day), y: .value("mg", \.mg)).stroke(.black, lineWidth: width)
                }
                if showPoints { PointMark(x: .value("Day", \.day), y: .value("mg", \.mg)) }
                if showPoints { RuleMark(y: .value("mg", \.mg)) } else { AreaMark(x: .value("Day", \.day), y: .value("mg", \.mg)) }
            }.spec(frame: frame, style: try style())
            XCTAssertEqual(spec.marks.map(\.kind), showPoints ? [.line, .line, .point, .rule] : [.line, .line, .area])
            XCTAssertEqual(spec.marks[1].anyStroke?.style.width, 2)
        }
    }

    func testPlottableValues() {
        XCTAssertEqual(3.dataValue, .number(3))
        XCTAssertEqual(Float(0.5).dataValue, .number(0.5))
        XCTAssertEqual("a"[...].dataValue, .string("a"))
        XCTAssertEqual(Optional<Int>.none.dataValue, nil)
        XCTAssertEqual(Optional(2.0).dataValue, .number(2))
        XCTAssertEqual(CivilDate(year: 1970, month: 1, day: 2).dataValue, .number(86_400))
        XCTAssertEqual(Date.preferredScale, .time)
        XCTAssertEqual(Optional<Date>.preferredScale, .time)
        XCTAssertNil(Int.preferredScale)
    }
}

extension ChartMark {
    /// The stroke of a mark that has one.
    var anyStroke: (paint: NodePaint, style: StrokeStyle)? { (self as? any StrokedMark)?.stroke }
    /// The fill of a mark that has one.
    var anyFill: NodePaint? { (self as? any FilledMark)?.fill }
}
