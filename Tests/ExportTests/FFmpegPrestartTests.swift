import Foundation
import XCTest
import Geometry
import Raster
import Scene
@testable import Export

/// An ffmpeg started before the frame size is known (FFmpegPrestart): adopted, it writes
/// the very file the sink's own ffmpeg writes; not adopted, it is stopped without a trace.
final class FFmpegPrestartTests: XCTestCase {
    /// An opaque frame with a pattern that moves with `i` (work for the encoder's motion search).
    private func patterned(_ i: Int, _ w: Int, _ h: Int) -> Pixmap {
        var bytes = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let p = (y * w + x) * 4
                bytes[p] = UInt8(truncatingIfNeeded: (x + 3 * i) * 5)
                bytes[p + 1] = UInt8(truncatingIfNeeded: (y * 7) ^ (x + i))
                bytes[p + 2] = UInt8(truncatingIfNeeded: (x * y + i * 11) & 0xF0)
            }
        }
        return Pixmap(width: w, height: h, premultipliedData: bytes)!
    }

    /// Writes `n` frames of `w` × `h` at `fps` to `path` through a sink, with a prestart or not.
    /// Returns whether the sink adopted the prestart.
    @discardableResult
    private func render(_ path: String, _ w: Int, _ h: Int, fps: Double = 30, n: Int = 20,
                        prestart: FFmpegPrestart?) throws -> Bool {
        let sink = FFmpegSink(outputPath: path, format: .mp4, prestarted: prestart)
        try sink.begin(width: w, height: h, fps: fps, frameCount: n)
        try FrameSequencer(threads: 2).run(frameCount: n, render: { self.patterned($0, w, h) }, sink: sink)
        return sink.adoptedPrestart
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func testAnAdoptedPrestartWritesTheSameFileByteForByte() throws {
        let dir = try makeTempDirectory(self)
        try render(dir + "/own.mp4", 96, 64, prestart: nil)
        let early = try XCTUnwrap(FFmpegPrestart.start(format: .mp4, path: dir + "/early.mp4", overwrite: false,
                                                       options: VideoOptions()))
        XCTAssertTrue(early.isWaiting)
        XCTAssertTrue(try render(dir + "/early.mp4", 96, 64, prestart: early), "adopted")
        XCTAssertFalse(early.isWaiting, "the sink took it")
        XCTAssertEqual(try bytes(dir + "/early.mp4"), try bytes(dir + "/own.mp4"))
        XCTAssertEqual(listing(dir), ["early.mp4", "own.mp4"], "no temporary file left")
    }

    func testAPrestartThatDoesNotFitIsStoppedAndTheSinkStartsItsOwn() throws {
        // An odd size (the sink's command pads it) and a decimal rate (no yuv4mpeg header)
        // do not fit a prestart made for an even size at a whole rate.
        for (w, h, fps) in [(33, 17, 30.0), (64, 48, 29.97)] {
            let dir = try makeTempDirectory(self)
            try render(dir + "/own.mp4", w, h, fps: fps, n: 8, prestart: nil)
            let early = try XCTUnwrap(FFmpegPrestart.start(format: .mp4, path: dir + "/early.mp4", overwrite: false,
                                                           options: VideoOptions()))
            XCTAssertFalse(try render(dir + "/early.mp4", w, h, fps: fps, n: 8, prestart: early), "not adopted")
            XCTAssertFalse(early.isWaiting)
            XCTAssertEqual(try bytes(dir + "/early.mp4"), try bytes(dir + "/own.mp4"), "\(w)x\(h) at \(fps)")
        }
        // Another output, or other options, than it was started for.
        let dir = try makeTempDirectory(self)
        try render(dir + "/own.mp4", 64, 48, n: 8, prestart: nil)
        var other = VideoOptions()
        other.quality = .crf(30)
        for early in [FFmpegPrestart.start(format: .mp4, path: dir + "/elsewhere.mp4", overwrite: false, options: VideoOptions()),
                      FFmpegPrestart.start(format: .mp4, path: dir + "/b.mp4", overwrite: false, options: other)] {
            let e = try XCTUnwrap(early)
            try? FileManager.default.removeItem(atPath: dir + "/b.mp4")
            XCTAssertFalse(try render(dir + "/b.mp4", 64, 48, n: 8, prestart: e), "not adopted")
            XCTAssertFalse(e.isWaiting)
            XCTAssertEqual(try bytes(dir + "/b.mp4"), try bytes(dir + "/own.mp4"))
        }
        XCTAssertEqual(listing(dir), ["b.mp4", "own.mp4"])
    }

    func testADiscardedPrestartLeavesNoFileAndNoProcess() throws {
        let dir = try makeTempDirectory(self)
        let early = try XCTUnwrap(FFmpegPrestart.start(format: .mp4, path: dir + "/never.mp4", overwrite: false,
                                                       options: VideoOptions()))
        usleep(200_000)   // long enough for ffmpeg to be waiting on its input
        XCTAssertTrue(early.isWaiting)
        let start = Date()
        early.discard()
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.4, "stopped at once, without SIGTERM's grace")
        XCTAssertFalse(early.isWaiting)
        early.discard()   // twice is fine
        XCTAssertEqual(listing(dir), [])
        // A sink aborted before begin stops the prestart it was given.
        let again = try XCTUnwrap(FFmpegPrestart.start(format: .mp4, path: dir + "/never.mp4", overwrite: false,
                                                       options: VideoOptions()))
        FFmpegSink(outputPath: dir + "/never.mp4", format: .mp4, prestarted: again).abort()
        XCTAssertFalse(again.isWaiting)
        XCTAssertEqual(listing(dir), [])
    }

    func testOnlyAnMP4FileWithoutAudioIsStartedEarly() throws {
        let dir = try makeTempDirectory(self)
        XCTAssertNil(FFmpegPrestart.start(format: .webm, path: dir + "/a.webm", overwrite: false, options: VideoOptions()))
        XCTAssertNil(FFmpegPrestart.start(format: .gif, path: dir + "/a.gif", overwrite: false, options: VideoOptions()))
        XCTAssertNil(FFmpegPrestart.start(format: .mp4, path: "-", overwrite: false, options: VideoOptions()))
        var withAudio = VideoOptions()
        withAudio.audio = AudioTrack(path: dir + "/a.wav", fade: 0)
        XCTAssertNil(FFmpegPrestart.start(format: .mp4, path: dir + "/a.mp4", overwrite: false, options: withAudio))
        // A path the render would refuse: an existing file without -y, a directory.
        FileManager.default.createFile(atPath: dir + "/exists.mp4", contents: Data([1]))
        XCTAssertNil(FFmpegPrestart.start(format: .mp4, path: dir + "/exists.mp4", overwrite: false, options: VideoOptions()))
        XCTAssertNil(FFmpegPrestart.start(format: .mp4, path: dir, overwrite: true, options: VideoOptions()))
        XCTAssertNil(FFmpegPrestart.start(format: .mp4, path: dir + "/a.mp4", overwrite: false, options: VideoOptions(),
                                          ffmpegPath: dir + "/no-such-ffmpeg"))
        let ok = FFmpegPrestart.start(format: .mp4, path: dir + "/exists.mp4", overwrite: true, options: VideoOptions())
        XCTAssertNotNil(ok)
        ok?.discard()
        XCTAssertEqual(listing(dir), ["exists.mp4"])
    }

    func testOutputWriterStopsAPrestartItDoesNotUse() throws {
        // Written to another path than the one it was started for: the writer's own ffmpeg
        // writes the file, and the prestart is gone when write returns.
        let dir = try makeTempDirectory(self)
        let early = try XCTUnwrap(FFmpegPrestart.start(format: .mp4, path: dir + "/a.mp4", overwrite: false,
                                                       options: VideoOptions()))
        var writer = OutputWriter()
        writer.prestarted = early
        let square = ShapeNode(id: "square", path: .rect(Rect(x: 10, y: 10, width: 20, height: 20)),
                               fill: (.solid(Color(r: 1, g: 0, b: 0, a: 1)), .nonZero))
        let scene = Scene(width: 64, height: 48, background: .white, fps: 30, duration: 0.5, nodes: [.shape(square)])
        try writer.write(OutputPlan(scene: scene, format: .mp4), to: dir + "/b.mp4")
        XCTAssertFalse(early.isWaiting)
        XCTAssertEqual(listing(dir), ["b.mp4"])
    }
}
