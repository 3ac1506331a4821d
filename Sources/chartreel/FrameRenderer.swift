import Foundation
import Raster
import Scene

/// Renders frames of one scene at one frame rate; safe to call from many threads.
struct FrameRenderer: Sendable {
    let scene: Scene
    let fps: Double

    /// Frame `i`, showing time i / fps computed from the integers.
    func frame(_ i: Int) -> Pixmap {
        scene.frame(at: Scene.time(ofFrame: i, fps: fps))
    }
}
