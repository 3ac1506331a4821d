// The text benchmark (scripts/bench, section "text"): ChartReel's side of the comparison
// with Pango+Cairo (scripts/bench-text/pango.c).
//
//   chartreel-textbench labels OUT.txt [COUNT]   writes COUNT (300) mixed-script labels
//                                                on a 1920x1080 canvas, the input of both sides
//   chartreel-textbench run LABELS.txt SECONDS [--counter] [--png OUT.png]
//   chartreel-textbench counter LABELS.txt FRAMES
//   chartreel-textbench counteronly LABELS.txt FRAMES
//   chartreel-textbench moving LABELS.txt FRAMES [MOVING] [--steps N]
//
// `run` makes a TextNode per label once (shaped once, outlines built once, as a scene
// does), then draws frames on one thread for at least SECONDS: clear to white, render
// every node. With --counter one more label counts from 0 to 1,000,000 over the frames
// (a new string each frame: shaped and laid out on every frame, as a counter is).
// Prints "fps N". `counter` draws FRAMES pairs of frames in one process, each pair one
// frame without and one with the counting label (in alternating order), and prints the
// median frame time of each and their ratio: the pairs share the machine's load. It also
// prints the median time of the counter's own drawing inside the frames with it (laying
// its value out and filling it, after the 300 labels: with the caches the labels left
// cold) and that as a share of the static frame, a steadier figure than the ratio.
// `counteronly` draws just the counting label FRAMES times on a canvas that is never
// cleared and prints its mean time in microseconds (for profiling the counter alone;
// its caches stay warm, so it costs less than inside a frame).
// `moving` does the same for a bar-race-like frame: the labels, plus MOVING (40) more
// that ride bar heads — made anew every frame, as a chart rebuilds its labels, at a
// position that moves by a fraction of a pixel each frame — against the same frame with
// those labels made anew at fixed positions. `--steps N` draws the moving labels with
// `subpixelSteps` N (their position rounded to 1/N px, coverage kept per fraction).
import Foundation
import Geometry
import Motion
import Raster
import Scene
import Text

let args = CommandLine.arguments
func fail(_ m: String) -> Never { FileHandle.standardError.write(Data((m + "\n").utf8)); exit(2) }

/// Labels in eight scripts with flags, numbers and Latin ligatures, cycled.
let samples = [
    "🇮🇳 भारत 1,429", "🇨🇳 中国 1,410", "🇧🇷 Brasil 216", "🇷🇺 Россия 144", "🇯🇵 日本 124",
    "🇪🇬 مصر 113", "🇹🇭 ประเทศไทย 72", "🇬🇷 Ελλάδα 10", "🇮🇱 ישראל 10", "Office traffic 42%",
    "Revenue (€ millions)", "Q3 2025 flights", "Caffeine 140 mg", "Ünïcödé naïve café",
]

/// The canvas size and a TextNode per label of a labels file (shaped once, here).
func load(_ path: String) throws -> (Int, Int, [TextNode]) {
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    let header = lines[0].split(separator: " ")
    guard header.count == 3, let w = Int(header[1]), let h = Int(header[2]) else { fail("bad header") }
    let font = try FontCache.font()
    var nodes: [TextNode] = []
    for line in lines.dropFirst() {
        let parts = line.split(separator: " ", maxSplits: 3)
        guard parts.count == 4, let x = Double(parts[0]), let y = Double(parts[1]), let size = Double(parts[2]) else { continue }
        nodes.append(TextNode(String(parts[3]), font: font, size: size, color: Color(r: 0.1, g: 0.1, b: 0.12), position: Point(x, y)))
    }
    return (w, h, nodes)
}

/// The counting label of `counter`, `counteronly` and `run --counter`: 15 px at the
/// frame's bottom-right corner, right-aligned on its baseline.
func counterNode(_ font: Font) -> TextNode {
    TextNode("0", font: font, size: 15, color: Color(r: 0.1, g: 0.1, b: 0.12), position: Point(1900, 1070),
             anchor: TextAnchor(.trailing, .baseline))
}

/// The counter's value on frame `i`: a different number each frame, as a counter ticking
/// through a video.
func counterValue(_ i: Int) -> (value: AnimatedValue, format: @Sendable (Double) -> String) {
    (AnimatedValue.constant(Double(i * 7919 % 1_000_000)), { String(Int($0)) })
}

switch args.count > 1 ? args[1] : "" {
case "labels":
    guard args.count >= 3 else { fail("usage: chartreel-textbench labels OUT.txt [COUNT]") }
    let count = args.count > 3 ? Int(args[3]) ?? 300 : 300
    var out = "canvas 1920 1080\n"
    let columns = 6, rows = (count + columns - 1) / columns
    for i in 0..<count {
        let c = i % columns, r = i / columns
        let x = 12 + Double(c) * 318, y = 22 + Double(r) * (1050 / Double(rows))
        out += "\(x) \(y) 15 \(samples[(i * 7 + r) % samples.count])\n"
    }
    try out.write(toFile: args[2], atomically: true, encoding: .utf8)
case "counter":
    guard args.count >= 4, let frames = Int(args[3]) else { fail("usage: chartreel-textbench counter LABELS.txt FRAMES") }
    let (w, h, nodes) = try load(args[2])
    var counter = counterNode(try FontCache.font())
    let canvas = Canvas(width: w, height: h)
    var plain: [Double] = [], counting: [Double] = [], counterPart: [Double] = []
    for i in 0..<(2 * frames) {
        let withCounter = (i % 4 == 1) || (i % 4 == 2)   // ABBA order
        let start = DispatchTime.now().uptimeNanoseconds
        canvas.clear(.white)
        for n in nodes { n.render(at: 0, on: canvas) }
        let mid = DispatchTime.now().uptimeNanoseconds
        if withCounter {
            counter.counter = counterValue(i)
            counter.render(at: 0, on: canvas)
        }
        let end = DispatchTime.now().uptimeNanoseconds
        let ms = Double(end - start) / 1e6
        if i >= 4 && withCounter { counterPart.append(Double(end - mid) / 1e6) }
        if i >= 4 { if withCounter { counting.append(ms) } else { plain.append(ms) } }
    }
    func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] }
    print(String(format: "static %.3f ms counting %.3f ms ratio %.4f counter %.4f ms share %.4f", median(plain), median(counting),
                 median(counting) / median(plain), median(counterPart), median(counterPart) / median(plain)))
case "counteronly":
    guard args.count >= 4, let frames = Int(args[3]) else { fail("usage: chartreel-textbench counteronly LABELS.txt FRAMES") }
    let (w, h, _) = try load(args[2])
    var counter = counterNode(try FontCache.font())
    let canvas = Canvas(width: w, height: h)
    let start = DispatchTime.now().uptimeNanoseconds
    for i in 0..<frames {
        counter.counter = counterValue(i)
        counter.render(at: 0, on: canvas)
    }
    print(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(frames), "us per counter")
case "moving":
    guard args.count >= 4, let frames = Int(args[3]) else { fail("usage: chartreel-textbench moving LABELS.txt FRAMES [MOVING]") }
    let movingCount = args.count > 4 ? Int(args[4]) ?? 40 : 40
    let steps = args.firstIndex(of: "--steps").flatMap { $0 + 1 < args.count ? Int(args[$0 + 1]) : nil } ?? 0
    let (w, h, nodes) = try load(args[2])
    let font = try FontCache.font()
    let names = ["India", "China", "Brasil", "Россия", "日本", "مصر", "ประเทศไทย", "Ελλάδα", "ישראל", "United States"]
    func riders(_ frame: Int, moving: Bool) -> [TextNode] {
        (0..<movingCount).map { k in
            // A bar head's x grows by 0.37 px a frame; ranks swap now and then (y moves too).
            let x = 200 + Double(k * 37 % 900) + (moving ? 0.37 * Double(frame) : 0)
            let y = 30 + Double(k) * 26 + (moving ? 3.1 * sin(Double(frame) * 0.05 + Double(k)) : 0)
            var node = TextNode("\(names[k % names.count]) \(1000 + 17 * k)", font: font, size: 15,
                                color: Color(r: 0.1, g: 0.1, b: 0.12), position: Point(x, y), anchor: TextAnchor(.trailing, .center))
            node.subpixelSteps = steps
            return node
        }
    }
    let canvas = Canvas(width: w, height: h)
    var still: [Double] = [], moved: [Double] = []
    for i in 0..<(2 * frames) {
        let moving = (i % 4 == 1) || (i % 4 == 2)   // ABBA order
        let start = DispatchTime.now().uptimeNanoseconds
        canvas.clear(.white)
        for n in nodes { n.render(at: 0, on: canvas) }
        for n in riders(i, moving: moving) { n.render(at: 0, on: canvas) }
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        if i >= 4 { if moving { moved.append(ms) } else { still.append(ms) } }
    }
    func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] }
    print(String(format: "still %.3f ms moving %.3f ms ratio %.4f", median(still), median(moved), median(moved) / median(still)))
case "run":
    guard args.count >= 4, let seconds = Double(args[3]) else { fail("usage: chartreel-textbench run LABELS.txt SECONDS [--counter] [--png OUT]") }
    let (w, h, nodes) = try load(args[2])
    let counterMode = args.contains("--counter")
    let counter = counterNode(try FontCache.font())
    let canvas = Canvas(width: w, height: h)
    var frames = 0
    let start = Date()
    var elapsed = 0.0
    repeat {
        canvas.clear(.white)
        for n in nodes { n.render(at: 0, on: canvas) }
        if counterMode {
            // A different number each frame, as a counter ticking through a video.
            var c = counter
            c.counter = counterValue(frames)
            c.render(at: 0, on: canvas)
        }
        frames += 1
        elapsed = Date().timeIntervalSince(start)
    } while elapsed < seconds || frames < 3
    print(String(format: "fps %.3f frames %d labels %d", Double(frames) / elapsed, frames, nodes.count))
    if let i = args.firstIndex(of: "--png"), i + 1 < args.count {
        try canvas.pixmap.writePNG(toFile: args[i + 1])
    }
default:
    fail("usage: chartreel-textbench labels OUT.txt [COUNT] | run LABELS.txt SECONDS [--counter] [--png OUT.png] | counter LABELS.txt FRAMES | counteronly LABELS.txt FRAMES | moving LABELS.txt FRAMES [MOVING]")
}
