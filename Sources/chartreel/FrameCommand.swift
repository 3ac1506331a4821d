import Foundation
import Raster
import Scene
import Export

/// `chartreel frame DOC (--at S | --frame N) -o FILE.png` (`-o -`: the PNG on stdout).
func runFrame(_ args: [String]) throws {
    let a = try Arguments(args, flags: ["-y", "--overwrite", "-h", "--help", "--strict", "--json"],
                          valued: Set(["-o", "--output", "--at", "--frame", "--scale", "--fps", "--allow-path"]).union(documentOptions))
    if a.flag("-h", "--help") { print(frameHelp); return }
    guard a.positional.count == 1 else { throw UsageError("frame needs one document: chartreel frame DOC --at SECONDS -o FILE.png") }
    guard let output = a.value("-o", "--output") else { throw UsageError("frame needs an output: -o FILE.png") }
    let at = try a.double("--at", min: 0, max: 1e6)
    let index = try a.int("--frame", min: 0, max: Int(Int32.max))
    guard (at == nil) != (index == nil) else { throw UsageError("frame needs exactly one of --at SECONDS or --frame N") }
    let scale = try a.double("--scale", min: 0.01, max: 16) ?? 1
    let fps = try a.double("--fps", min: 1, max: 1000)
    let overwrite = a.flag("-y", "--overwrite")
    if output == "-" { try requireStandardOutput() }
    if a.flag("--json") && output == "-" { throw UsageError("--json prints to stdout, which -o - already uses for the PNG") }
    _ = try OutputTarget.prepare(output, format: nil, overwrite: overwrite, inputs: inputFiles(ofDocument: a.positional[0], a))
    var warnings: [String] = []
    let loaded = try loadDocument(a.positional[0], a) { warnings.append($0); report("warning: \($0)") }
    let document = loaded.scene
    try checkScaledCanvas(document, scale: scale)
    let scene = document.scaled(by: scale)
    let t = at ?? Scene.time(ofFrame: index!, fps: fps ?? scene.fps)
    // The same encoder as `render -o DIR/`, so a frame written here is byte-identical
    // to the same frame in a rendered directory.
    removeStalePartials(of: output)
    try FramePNG.write(scene.frame(at: t), toFile: output)
    if a.flag("--json") {
        printJSON(["document": a.positional[0], "output": output, "format": "png", "frames": 1, "time": t,
                   "width": scene.width, "height": scene.height, "bytes": fileSize(output) ?? NSNull(), "warnings": warnings] as [String: Any])
    }
}
