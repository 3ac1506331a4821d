// ChartReel's Swift front door: charts built in code, in the vocabulary of Swift Charts
// and SwiftUI, producing exactly the model the JSON front door (Timelines) produces.
//
// The pipeline is the one DESIGN.md draws, entered one step later:
//
//   ChartScene { Chart(rows) { LineMark(…) … } … }
//     -> Charts  one ChartSpec per chart (a table of DataRows, channels, guides, MarkSpecs)
//     -> Scene   spec.build(id: "chart<i>") laid out by DashboardLayout, as TimelineDecoder does
//     -> Motion / Raster per frame, Export for files
//
// Marks are declared once per chart, with key paths (or closures) that read a column
// from the user's rows, rather than once per row as in Swift Charts: a ChartReel mark is
// one MarkSpec over all rows, whose style and animations apply to every element, and
// per-element differences come from encodings (`foregroundStyle(by:)`, `stagger`). The
// rows become the chart's table: one DataRow per element, one column per `.value` label.
//
// Everything a user needs is re-exported, so `import ChartReel` is the only import.
@_exported import Geometry
@_exported import Raster
@_exported import Motion
@_exported import Text
@_exported import Scene
@_exported import Charts
@_exported import Timelines
@_exported import Export
