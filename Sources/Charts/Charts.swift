// The Charts module: how data becomes scene nodes.
//
// A chart is data, recomputed, not a picture built once (Vega-Lite compiles a spec into a
// dataflow that re-runs when its inputs change; D3 keeps scales as plain functions). The
// model has three layers:
//
// 1. `ChartSpec`: what a document or the Swift API says — the rows, the x and y
//    channels, the guides (grid, axes, legend, title, card, value labels) and the marks.
//    It is plain data; both front doors make one and nothing else.
//
// 2. `ChartState`, from `ChartSpec.state(at: t)`: the chart at one moment — each channel
//    resolved from the data (scale kind, each row's value, the domain, widened for stacks
//    and ranges), d3's nice ticks, and the plot rectangle the guides leave, measured with
//    the real font, with the scales onto it. A pure function of the spec and t. Only an
//    animated domain (`Channel.animatedDomain`) makes it depend on t; `stateChangeSpan`
//    says when it can change.
//
// 3. Nodes, from `ChartSpec.build(id:)`: card and title, then grid, marks, axes, value
//    labels and legend built from a state. A static chart (every chart without an
//    animated domain) computes its state once and builds its nodes once, so it costs
//    what a picture built once costs. A chart whose state changes keeps the card and
//    title as they are and puts the rest in a group whose children Scene rebuilds from
//    `state(at: t)` at every frame while the state changes (`GroupNode.dynamicChildren`);
//    outside that span the group is the first or last state's and the frame cache keeps
//    its pixels like any other unchanging layer. Rebuilding costs a layout and the mark
//    geometry per frame (text is measured, not drawn, in the layout).
//
// Marks: each kind is one type in `Marks/` (`LineMarkSpec`, `AreaMarkSpec`, `BarMarkSpec`,
// `PointMarkSpec`, `RuleMarkSpec`, `TextMarkSpec`, `SectorMarkSpec`, `ShapeMarkSpec`) that
// holds only its own options and builds its nodes from a state through `ChartMark`; what
// every mark has is `MarkOptions`. Rows become elements (`MarkElements.swift`: a row's
// position, value range after stacking, series and colour) in one place for every kind;
// lines and areas share `ConnectedPath.swift`, points and a line's dots share `dotNodes`.
// The shared movement, rotation and colour animations and the stagger are applied to
// every element of every kind by `ChartSpec.markNode`. Adding a mark: docs/charts-model.md.
//
// Transforms (`Transforms/`): `DataTransform` steps (filter, aggregate, timeUnit, bin,
// sort, top, window, calculate with `FieldExpression`) run on a table's rows before a
// spec is made from them (`DataTransform.apply`); both front doors call the same engine.
//
// Placing charts: `ChartCanvas` is the one assembly both front doors use — the canvas
// size (or the automatic height), the layout's frames, and the scene of the built charts
// with ids `chart<i>` — so a document and the same charts in Swift give byte-identical
// frames (FrontDoorParityTests).
