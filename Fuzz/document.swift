// Fuzz target: the timeline document decoder, and the scene it builds.
//
// The input is a document's bytes. `TimelineDecoder.decode` must either throw
// `DocumentErrors` (whose messages are then formatted, as the CLI prints them) or give
// a scene; a scene's frame count is computed and its middle frame rendered, with the
// canvas capped at 256×256 pixels so one input cannot take the run's memory (the
// nodes keep the layout of the declared size; what falls outside is clipped). Data
// files and fonts named by the document resolve next to `timelines/fuzz.json`, so the
// seeds can use `timelines/data/`; scripts/fuzz runs the target from the package root.
import Timelines
import Scene

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var scene: Scene
    do {
        scene = try TimelineDecoder.decode(bytes, file: "timelines/fuzz.json")
    } catch {
        let message = "\(error)"
        if message.isEmpty { fatalError("an error without a message: \(type(of: error))") }
        return 0
    }
    let frames = scene.frameCount
    if frames < 1 { fatalError("frame count \(frames)") }
    scene.width = min(scene.width, 256)
    scene.height = min(scene.height, 256)
    let frame = scene.frame(at: Scene.time(ofFrame: frames / 2, fps: scene.fps))
    if frame.width != scene.width || frame.height != scene.height { fatalError("frame of the wrong size") }
    return 0
}
