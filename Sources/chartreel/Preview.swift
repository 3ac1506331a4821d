import Foundation
import Scene
import Timelines
import Export

/// `chartreel preview DOC -o preview.html`: one self-contained HTML page to look at an
/// animation frame by frame: every frame inlined as a base64 PNG (no network, no other
/// file), play/pause, a scrubber with the frame number and exact time, the arrow keys
/// stepping one frame, and `validate`'s timing table beside it as bars on a timeline.
func runPreview(_ args: [String]) throws {
    let a = try Arguments(args, flags: ["-y", "--overwrite", "-h", "--help", "--strict", "-q", "--quiet"],
                          valued: Set(["-o", "--output", "--fps", "--scale", "--from", "--to", "--threads"]).union(documentOptions))
    if a.flag("-h", "--help") { print(previewHelp); return }
    guard a.positional.count == 1 else { throw UsageError("preview needs one document: chartreel preview DOC -o preview.html") }
    guard let output = a.value("-o", "--output") else { throw UsageError("preview needs an output: -o preview.html") }
    let document = a.positional[0]
    let fps = try a.double("--fps", min: 1, max: 1000)
    let scale = try a.double("--scale", min: 0.01, max: 16) ?? 1
    let from = try a.parsed("--from", expected: "seconds like 0.5s or a frame index like 30", FramePosition.init)
    let to = try a.parsed("--to", expected: "seconds like 1.5s or a frame index like 90", FramePosition.init)
    let threads = try a.int("--threads", min: 1, max: 256) ?? ProcessInfo.processInfo.activeProcessorCount
    if output == "-" { try requireStandardOutput() }
    _ = try OutputTarget.prepare(output, format: nil, overwrite: a.flag("-y", "--overwrite"), inputs: inputFiles(ofDocument: document, a))
    let start = DispatchTime.now().uptimeNanoseconds
    let page = try previewPage(document: document, a, fps: fps, scale: scale, from: from, to: to, threads: threads)
    removeStalePartials(of: output)
    try FramePNG.writeImage(Array(page.html.utf8), to: output)
    if !a.flag("-q", "--quiet") {
        report("chartreel: wrote \(output): \(page.frames) frames of \(page.width)x\(page.height), "
               + "\(describeBytes(page.html.utf8.count)) in " + String(format: "%.2f s", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
    }
}

/// The page for `document` and how many frames of what size it holds.
func previewPage(document: String, _ a: Arguments, fps: Double?, scale: Double, from: FramePosition?, to: FramePosition?,
                 threads: Int) throws -> (html: String, frames: Int, width: Int, height: Int) {
    let loaded = try loadDocument(document, a)
    try checkScaledCanvas(loaded.scene, scale: scale)
    let plan: OutputPlan
    do {
        // PNG frames: the same pictures as `render -o DIR/` and `frame`.
        plan = try OutputPlan(scene: loaded.scene, format: .png, fps: fps, scale: scale, from: from, to: to)
    } catch let ExportError.invalidArgument(what) {
        throw UsageError(what)
    }
    let count = plan.range.count
    // A browser has to hold the whole page: refuse one that would not load, before drawing.
    // 0.08 bytes a pixel is the PNG frames' typical size (docs/cli.md, "The output must
    // fit"); base64 adds a third.
    let estimate = Double(count) * Double(plan.scene.width * plan.scene.height) * 0.08 * 4 / 3
    if estimate > previewPageLimit {
        throw UsageError("a preview page of \(count) frames of \(plan.scene.width)x\(plan.scene.height) would take about "
                         + "\(describeBytes(Int(estimate))), more than a browser loads comfortably (the limit is "
                         + "\(describeBytes(Int(previewPageLimit)))); take fewer or smaller frames with --fps, --from/--to or --scale")
    }
    var encoded = [String](repeating: "", count: count)
    var failure: Error? = nil
    let lock = NSLock()
    let next = ManagedAtomicCounter()
    DispatchQueue.concurrentPerform(iterations: max(1, min(threads, count))) { _ in
        while true {
            let i = next.increment()
            if i >= count { return }
            do {
                let png = try FramePNG.encode(plan.frame(i))
                let text = Data(png).base64EncodedString()
                lock.lock(); encoded[i] = text; lock.unlock()
            } catch {
                lock.lock(); failure = error; lock.unlock()
                return
            }
        }
    }
    if let failure { throw failure }

    let scene = plan.scene
    let rows = animationRows(loaded.scene).map { r -> [String: Any] in
        ["node": r.node, "property": r.property, "from": r.from, "to": r.to, "curve": r.curve,
         "start": r.start, "end": r.end.isFinite ? r.end : -1]
    }
    let info: [String: Any] = [
        "document": document, "width": scene.width, "height": scene.height, "fps": plan.fps,
        "firstFrame": plan.range.lowerBound, "totalFrames": plan.totalFrames,
        "duration": scene.effectiveDuration, "rows": rows,
        "params": loaded.parameters.map { ["name": $0.name, "value": DocumentParameter.text($0.value)] },
    ]
    let html = fillPlaceholders(previewTemplate, ["TITLE": htmlEscape((document as NSString).lastPathComponent),
                                                  "INFO": scriptJSON(info), "FRAMES": scriptJSON(encoded)])
    return (html, count, scene.width, scene.height)
}

/// The largest preview page made, estimated before drawing: 500 MB.
let previewPageLimit = 500e6

/// A counter shared by the encoding threads.
final class ManagedAtomicCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = -1
    /// The next value, from 0.
    func increment() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}

/// `value` as JSON safe inside a `<script>` element: every `<` is written `\u003c` (a
/// JSON escape), so no `</script` or `<!--` can appear in it, nor U+2028 or U+2029.
func scriptJSON(_ value: Any) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("null".utf8)
    return String(decoding: data, as: UTF8.self).replacingScalars {
        switch $0 {
        case "<": return "\\u003c"
        case "\u{2028}": return "\\u2028"
        case "\u{2029}": return "\\u2029"
        default: return nil
        }
    }
}

/// `s` with HTML's special characters escaped.
func htmlEscape(_ s: String) -> String {
    s.replacingScalars {
        switch $0 {
        case "&": return "&amp;"
        case "<": return "&lt;"
        case ">": return "&gt;"
        case "\"": return "&quot;"
        case "'": return "&#39;"
        default: return nil
        }
    }
}

/// `template` with each `@@NAME@@` that `values` names replaced, in one pass: a value is
/// not searched again, so a title that reads "@@FRAMES@@" stays a title.
func fillPlaceholders(_ template: String, _ values: [String: String]) -> String {
    var out = "", rest = template[...]
    while let open = rest.range(of: "@@"), let close = rest[open.upperBound...].range(of: "@@") {
        out += rest[..<open.lowerBound]
        if let value = values[String(rest[open.upperBound..<close.lowerBound])] {
            out += value
            rest = rest[close.upperBound...]
        } else {
            // Not a placeholder: the "@@" stays, and the search goes on after it.
            out += rest[open]
            rest = rest[open.upperBound...]
        }
    }
    return out + rest
}

/// The page. Frames are drawn on a canvas from images decoded once, at 1:1 (CSS pixels
/// are the PNG's), so what is shown is the PNG's pixels. The frame number and time are
/// in `#frame-number` and `#time`; `window.previewReady` is true once every frame is decoded.
let previewTemplate = """
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>@@TITLE@@ — chartreel preview</title>
<style>
  body { margin: 0; font: 13px/1.4 system-ui, sans-serif; background: #f4f4f6; color: #222; }
  main { display: flex; flex-wrap: wrap; gap: 16px; padding: 16px; align-items: flex-start; }
  #stage { width: max-content; background: repeating-conic-gradient(#ddd 0% 25%, #fff 0% 50%) 0 0 / 16px 16px; line-height: 0; }
  #frame { display: block; image-rendering: pixelated; }
  .controls { display: flex; gap: 8px; align-items: center; margin-top: 8px; }
  #scrubber { flex: 1; }
  #frame-number, #time { font-variant-numeric: tabular-nums; white-space: nowrap; }
  button { font: inherit; padding: 2px 10px; }
  #timing { min-width: 420px; flex: 1; }
  #timing table { border-collapse: collapse; width: 100%; }
  #timing td { padding: 1px 6px 1px 0; white-space: nowrap; font-variant-numeric: tabular-nums; }
  #timing td.bar { width: 100%; position: relative; }
  .track { position: relative; height: 12px; background: #e6e6ea; border-radius: 2px; }
  .span { position: absolute; top: 0; bottom: 0; background: #6a5acd; border-radius: 2px; min-width: 2px; }
  .cursor { position: absolute; top: 0; bottom: 0; width: 1px; background: #d22; }
  h1 { font-size: 15px; margin: 0 0 4px; }
  .meta { color: #666; margin-bottom: 8px; }
</style>
</head>
<body>
<main>
  <section>
    <h1 id="title"></h1>
    <div class="meta" id="meta"></div>
    <div id="stage"><canvas id="frame"></canvas></div>
    <div class="controls">
      <button id="play" title="Play or pause (space)">Play</button>
      <input id="scrubber" type="range" min="0" value="0" step="1" aria-label="frame">
    </div>
    <div class="controls"><span id="frame-number"></span><span id="time"></span></div>
    <div class="meta">← → one frame, space plays and pauses, Home and End jump to the ends.</div>
  </section>
  <section id="timing"><h1>Animations</h1><div class="meta">when each runs; the red line is the frame shown</div><table id="rows"></table></section>
</main>
<script id="info" type="application/json">@@INFO@@</script>
<script id="frames" type="application/json">@@FRAMES@@</script>
<script>
"use strict";
const info = JSON.parse(document.getElementById("info").textContent);
const data = JSON.parse(document.getElementById("frames").textContent);
const canvas = document.getElementById("frame"), ctx = canvas.getContext("2d");
const scrubber = document.getElementById("scrubber"), playButton = document.getElementById("play");
const number = document.getElementById("frame-number"), timeLabel = document.getElementById("time");
canvas.width = info.width; canvas.height = info.height;
canvas.style.width = info.width + "px"; canvas.style.height = info.height + "px";
scrubber.max = data.length - 1;
document.getElementById("title").textContent = info.document;
document.getElementById("meta").textContent = info.width + "×" + info.height + ", " + info.fps + " fps, " +
  info.totalFrames + " frames (" + info.duration.toFixed(3) + " s)" +
  (info.params.length ? "; params: " + info.params.map(p => p.name + " = " + p.value).join(", ") : "");
const images = [];
let current = 0, playing = false, playStart = 0, playFrom = 0;
window.previewReady = false;

// The frame's index in the whole video and its time, i / fps, written exactly.
function show(i) {
  current = Math.max(0, Math.min(data.length - 1, i));
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (images[current]) ctx.drawImage(images[current], 0, 0);
  const index = info.firstFrame + current;
  scrubber.value = current;
  number.textContent = "frame " + index + " of " + info.totalFrames;
  timeLabel.textContent = "t = " + index + "/" + info.fps + " s = " + (index / info.fps).toFixed(4) + " s";
  for (const c of document.querySelectorAll(".cursor")) c.style.left = (100 * (index / info.fps) / timeline) + "%";
}
function play(on) {
  playing = on;
  playButton.textContent = on ? "Pause" : "Play";
  if (on) { playStart = performance.now(); playFrom = current === data.length - 1 ? 0 : current; requestAnimationFrame(tick); }
}
function tick(now) {
  if (!playing) return;
  const i = playFrom + Math.floor((now - playStart) / 1000 * info.fps);
  show(i % data.length);
  requestAnimationFrame(tick);
}
playButton.addEventListener("click", () => play(!playing));
scrubber.addEventListener("input", () => { play(false); show(Number(scrubber.value)); });
document.addEventListener("keydown", e => {
  const steps = { ArrowRight: 1, ArrowLeft: -1 };
  if (e.key in steps) { play(false); show(current + steps[e.key]); e.preventDefault(); }
  else if (e.key === " ") { play(!playing); e.preventDefault(); }
  else if (e.key === "Home") { play(false); show(0); e.preventDefault(); }
  else if (e.key === "End") { play(false); show(data.length - 1); e.preventDefault(); }
});

// The timing table: a bar per animation from its start to its end, on the video's length.
const timeline = Math.max(info.duration, ...info.rows.map(r => r.end < 0 ? 0 : r.end)) || 1;
const table = document.getElementById("rows");
for (const r of info.rows) {
  const tr = table.insertRow();
  for (const text of [r.node, r.property, r.curve, r.start.toFixed(3) + "–" + (r.end < 0 ? "never" : r.end.toFixed(3) + " s")]) {
    tr.insertCell().textContent = text;
  }
  const cell = tr.insertCell(); cell.className = "bar";
  const track = document.createElement("div"); track.className = "track";
  const span = document.createElement("div"); span.className = "span";
  const end = r.end < 0 ? timeline : r.end;
  span.style.left = (100 * r.start / timeline) + "%";
  span.style.width = (100 * (end - r.start) / timeline) + "%";
  span.title = r.node + " " + r.property + ": " + r.from + " → " + r.to;
  const cursor = document.createElement("div"); cursor.className = "cursor";
  track.append(span, cursor); cell.append(track);
}
if (!info.rows.length) table.insertRow().insertCell().textContent = "no animations";

Promise.all(data.map((b64, i) => {
  const img = new Image();
  img.src = "data:image/png;base64," + b64;
  images[i] = img;
  return img.decode();
})).then(() => { show(0); window.previewReady = true; });
</script>
</body>
</html>
"""
