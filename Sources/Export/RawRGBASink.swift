import Foundation
import Raster

/// Writes frames as straight (unpremultiplied) RGBA8 bytes to a file descriptor, one
/// frame after another with no header: `width * height * 4` bytes per frame, rows top
/// first. Pipe it into any tool that reads raw video, e.g.
/// `ffmpeg -f rawvideo -pix_fmt rgba -s WxH -framerate FPS -i -`.
///
/// There is nothing to remove on `abort`: bytes already sent down a pipe cannot be taken back.
public final class RawRGBASink: FrameSink {
    /// The descriptor frames are written to.
    public let fileDescriptor: Int32
    /// Whether `finish` and `abort` close the descriptor.
    public let closesDescriptor: Bool

    private var width = 0, height = 0
    private var begun = false
    private var closed = false

    /// Creates a sink writing to `fileDescriptor` (standard output by default). With
    /// `closesDescriptor`, the descriptor is closed when the sink finishes or aborts.
    public init(fileDescriptor: Int32 = STDOUT_FILENO, closesDescriptor: Bool = false) {
        self.fileDescriptor = fileDescriptor
        self.closesDescriptor = closesDescriptor
    }

    /// Records the frame size; the stream itself carries no header.
    public func begin(width: Int, height: Int, fps: Double, frameCount: Int) throws {
        guard width > 0, height > 0 else { throw ExportError.invalidArgument("frame size \(width)x\(height)") }
        _ = ignoreSIGPIPE
        self.width = width
        self.height = height
        begun = true
    }

    /// On the rendering threads: checks the size and converts to straight RGBA bytes.
    public func encoder() -> @Sendable (Pixmap, Int) throws -> [UInt8] {
        let (w, h) = (width, height)
        return { frame, index in
            guard frame.width == w, frame.height == h else {
                throw ExportError.invalidArgument("frame \(index) is \(frame.width)x\(frame.height), expected \(w)x\(h)")
            }
            return frame.isOpaque ? frame.data : frame.straightRGBA()
        }
    }

    /// The written bytes (the frame's own storage, or its straight copy) to draw over.
    public func reclaim(_ encoded: consuming [UInt8]) -> Pixmap? {
        Pixmap(width: width, height: height, premultipliedData: consume encoded)
    }

    /// Written by copy (`write(2)`): once `write` returns, nothing here reads the bytes.
    public var reclaimsUnshared: Bool { true }

    /// Writes the frame's straight RGBA bytes; a closed reader gives `ExportError.io`.
    public func write(_ frame: [UInt8], index: Int) throws {
        guard begun else { throw ExportError.invalidArgument("write before begin") }
        let err = frame.withUnsafeBytes { writeAll(fileDescriptor, $0) }
        if err == EPIPE { throw ExportError.io("writing frame \(index): the reader closed the pipe") }
        if err != 0 { throw ExportError.io("writing frame \(index): \(errnoText(err))") }
    }

    /// Ends the stream (closing the descriptor if asked to).
    public func finish() throws {
        begun = false
        if closesDescriptor && !closed {
            closed = true
            if close(fileDescriptor) != 0 { throw ExportError.io("closing the output: \(errnoText(errno))") }
        }
    }

    /// Stops writing (closing the descriptor if asked to).
    public func abort() {
        if closesDescriptor && !closed { close(fileDescriptor) }
        closed = closed || closesDescriptor
        begun = false
    }
}
