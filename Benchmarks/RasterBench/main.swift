// chartreel-rasterbench: ChartReel's side of the raster suite in `scripts/bench`.
//
//   chartreel-rasterbench export SCENE OUT.txt [--root DIR]   write a scene's draw list
//   chartreel-rasterbench run LIST.txt [--threads N] [--seconds S] [--png OUT.png]
//                                   (one thread: also p10fps, frames a second of the
//                                   10th-percentile pass over the list)
//   chartreel-rasterbench verify [--root DIR]                 replay == Scene for the timeline
//
// `run` parses the draw list, then draws its frames in a loop, each thread with its own
// Canvas, until S seconds have passed (at least one pass over the frames), and prints
// "fps F frames N seconds S threads T". `scripts/bench-cairo/replay.c` does the same
// with Cairo on the same file, so both sides time only drawing, the same geometry.
import Dispatch
import Foundation
import Geometry
import Raster
import Scene
import Synchronization
import Timelines

func fail(_ message: String) -> Never {
    FileHandle.standardError.write((message + "\n").data(using: .utf8)!)
    exit(2)
}

/// CPU time of the process, for `scripts/bench --cpu-time` (time waiting for a core on a
/// loaded machine is not counted; with several threads it is their sum).
func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

var args = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    let v = args[i + 1]
    args.removeSubrange(i...(i + 1))
    return v
}
let root = option("--root") ?? FileManager.default.currentDirectoryPath

switch args.first {
case "export":
    guard args.count == 3 else { fail("usage: chartreel-rasterbench export SCENE OUT.txt") }
    do {
        let list = try Scenes.make(args[1], root: root)
        try list.text().write(toFile: args[2], atomically: true, encoding: .utf8)
    } catch { fail("\(error)") }

case "run":
    let threads = Int(option("--threads") ?? "1") ?? 1
    let seconds = Double(option("--seconds") ?? "2") ?? 2
    let png = option("--png")
    guard args.count == 2 else { fail("usage: chartreel-rasterbench run LIST.txt [--threads N] [--seconds S] [--png OUT.png]") }
    let list: DrawList
    do { list = try DrawList(text: String(contentsOfFile: args[1], encoding: .utf8)) } catch { fail("\(error)") }
    let count = list.frames.count
    let next = Atomic<Int>(0)
    let start = now(), cpu0 = cpuNow()
    // One thread also times each pass over the list: on a shared guest whose speed
    // changes from one second to the next, the fast passes (the 10th percentile of their
    // times) are the ones the host did not slow down.
    var passes: [Double] = []
    // Each thread takes the next frame index until the time is up and a pass is complete.
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
        let canvas = Canvas(width: list.width, height: list.height)
        if let t = ProcessInfo.processInfo.environment["RASTERBENCH_TOLERANCE"] { canvas.tolerance = Double(t)! }
        var passStart = now()
        while true {
            let k = next.add(1, ordering: .relaxed).oldValue
            if k >= count && now() - start >= seconds { break }
            list.draw(frame: k % count, on: canvas)
            if threads == 1 && k % count == count - 1 {
                let t = now()
                passes.append(t - passStart)
                passStart = t
            }
        }
    }
    let elapsed = now() - start
    // Every thread overshoots by the one index it took and did not draw.
    let drawn = next.load(ordering: .relaxed) - threads
    var line = String(format: "fps %.2f frames %d seconds %.3f threads %d cpu %.3f", Double(drawn) / elapsed, drawn,
                      elapsed, threads, cpuNow() - cpu0)
    if !passes.isEmpty {
        let p10 = passes.sorted()[passes.count / 10]
        line += String(format: " p10fps %.2f", Double(count) / p10)
    }
    print(line)
    if let png {
        let c = Canvas(width: list.width, height: list.height)
        list.draw(frame: count - 1, on: c)
        do { try c.pixmap.writePNG(toFile: png) } catch { fail("\(error)") }
    }

case "ops":
    // Where a frame's time goes: each operation of a frame (the first unless FRAME is
    // given) drawn 50 times on its own (after those before it, so it composites onto the
    // same pixels), slowest first.
    guard args.count == 2 || args.count == 3 else { fail("usage: chartreel-rasterbench ops LIST.txt [FRAME]") }
    let list: DrawList
    do { list = try DrawList(text: String(contentsOfFile: args[1], encoding: .utf8)) } catch { fail("\(error)") }
    let canvas = Canvas(width: list.width, height: list.height)
    if let t = ProcessInfo.processInfo.environment["RASTERBENCH_TOLERANCE"] { canvas.tolerance = Double(t)! }
    var times: [(Double, Int, String)] = []
    var t = Transform.identity
    let frame = args.count == 3 ? Int(args[2]) ?? -1 : 0
    guard list.frames.indices.contains(frame) else { fail("FRAME must be 0 ..< \(list.frames.count)") }
    for (i, op) in list.frames[frame].enumerated() {
        if case .transform(let m) = op { t = m; continue }
        let start = now()
        for _ in 0..<50 {
            canvas.transform = t
            switch op {
            case .fill(let p, let paint, let rule, let o): canvas.fill(p, paint: paint, rule: rule, opacity: o)
            case .stroke(let p, let paint, let st, let o): canvas.stroke(p, style: st, paint: paint, opacity: o)
            default: break
            }
        }
        let kind: String
        switch op {
        case .fill(let p, let paint, _, _): kind = "fill \(p.elements.count) elements, \(paint)".prefix(90).description
        case .stroke(let p, _, let st, _): kind = "stroke \(p.elements.count) elements, width \(st.width)"
        default: kind = "other"
        }
        times.append(((now() - start) / 50 * 1e6, i, kind))
    }
    let total = times.reduce(0) { $0 + $1.0 }
    print(String(format: "%.0f µs in %d operations", total, times.count))
    for (us, i, kind) in times.sorted(by: { $0.0 > $1.0 }).prefix(25) { print(String(format: "%8.1f µs  #%-4d %@", us, i, kind)) }

case "verify":
    // The exported timeline replayed through the text format must give the very pixels
    // Scene renders, or the two sides of the benchmark would not draw the same thing.
    do {
        let list = try DrawList(text: Scenes.make("curved-line", root: root).text())
        let scene = try TimelineDecoder.load(path: root + "/timelines/curved-line-reveal.json")
        var worst = 0
        for i in stride(from: 0, to: list.frames.count, by: 5) {
            let c = Canvas(width: list.width, height: list.height)
            list.draw(frame: i, on: c)
            let ref = scene.frame(at: Scene.time(ofFrame: i, fps: scene.fps))
            for (a, b) in zip(c.pixmap.data, ref.data) { worst = max(worst, abs(Int(a) - Int(b))) }
        }
        print("largest difference between the replayed draw list and Scene: \(worst) levels")
        if worst > 1 { exit(1) }
    } catch { fail("\(error)") }

default:
    fail("usage: chartreel-rasterbench export SCENE OUT.txt | run LIST.txt [--threads N] [--seconds S] | verify")
}
