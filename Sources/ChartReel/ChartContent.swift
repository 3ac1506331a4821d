import Geometry
import Raster
import Motion
import Scene
import Charts

/// Something a chart draws: a mark over the chart's rows. Every mark type conforms,
/// and every modifier is written once on this protocol.
public protocol ChartContent {
    /// The type of the chart's rows (the user's struct).
    associatedtype Row
    /// The mark as the chart builds it.
    var mark: AnyMark<Row> { get set }
    /// Every mark the content makes (one for a mark, one per element for `ForEach`).
    var marks: [AnyMark<Row>] { get }
    /// Applies `edit` to every mark the content makes (what a modifier does).
    mutating func editMarks(_ edit: (inout AnyMark<Row>) -> Void)
}

extension ChartContent {
    /// The one mark.
    public var marks: [AnyMark<Row>] { [mark] }
    /// Edits the one mark.
    public mutating func editMarks(_ edit: (inout AnyMark<Row>) -> Void) { edit(&mark) }
}

/// Marks that connect their points: lines and areas.
public protocol InterpolatedMark: ChartContent {}

/// Marks that can stand at each series' peak: rules and labels.
public protocol PeakMark: ChartContent {}
