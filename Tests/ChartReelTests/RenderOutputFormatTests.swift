import XCTest
import Foundation
import ChartReel

/// Issue #14, item 4: `render(to:)` chooses and writes outputs through the same
/// `OutputFormat`, `OutputPlan` and `OutputWriter` as `chartreel render`, so a transparent
/// scene keeps its alpha in WebM and MOV, MP4 gets the matte, and GIFs are sampled at the
/// command line's rate.
final class RenderOutputFormatTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("chartreel-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// 64×48, transparent, a thick opaque red bar across the middle for 0.5 s.
    func transparentScene(fps: Double = 10) throws -> ChartScene {
        struct P { var x: Double; var y: Double }
        return try ChartScene(width: 64, height: 48, fps: fps, background: .clear, duration: 0.5) {
            Chart([P(x: 0, y: 1), P(x: 1, y: 1)]) {
                LineMark(x: .value("x", \.x), y: .value("y", \.y)).foregroundStyle(Color(r: 1, g: 0, b: 0)).lineStyle(StrokeStyle(width: 12))
            }
            .plotInset(4)
            .chartYScale(domain: 0...2)
        }
    }

    /// Runs a tool, returning stdout (and failing the test on a non-zero status).
    func tool(_ args: [String]) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, args.joined(separator: " "))
        return data
    }

    func pixelFormat(_ file: URL) throws -> String {
        String(decoding: try tool(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                   "stream=pix_fmt", "-of", "csv=p=0", file.path]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The straight RGBA of pixel (x, y) of the last frame, decoded by ffmpeg.
    func lastFramePixel(_ file: URL, _ x: Int, _ y: Int, decoder: [String] = []) throws -> [UInt8] {
        let raw = try tool(["ffmpeg", "-v", "error"] + decoder + ["-i", file.path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        let frame = 64 * 48 * 4
        XCTAssertEqual(raw.count % frame, 0)
        XCTAssertGreaterThan(raw.count, 0)
        guard raw.count >= frame else { return [] }
        let i = raw.count - frame + (y * 64 + x) * 4
        return Array(raw[i..<i + 4])
    }

    func testWebMAndMOVKeepTheAlpha() throws {
        let s = try transparentScene()
        let bar = s.frame(index: 4).pixel(32, 24)
        XCTAssertEqual(bar.a, 255, "the bar crosses the middle")
        XCTAssertEqual(s.frame(index: 4).pixel(2, 2).a, 0, "the corner is background")
        for (ext, decoder) in [("webm", ["-c:v", "libvpx-vp9"]), ("mov", [])] {
            let out = dir.appendingPathComponent("clip.\(ext)")
            try s.render(to: out)
            if ext == "mov" {
                XCTAssertTrue(try pixelFormat(out).hasPrefix("yuva444p"), "ProRes 4444 with its alpha plane")
            } else {
                // ffprobe's own VP9 decoder reports yuv420p and drops alpha; the muxer's
                // ALPHA_MODE tag is what says the stream has the alpha plane libvpx decodes.
                let alphaMode = String(decoding: try tool(["ffprobe", "-v", "error", "-select_streams", "v:0",
                                                           "-show_entries", "stream_tags=alpha_mode", "-of", "csv=p=0",
                                                           out.path]), as: UTF8.self)
                XCTAssertEqual(alphaMode.trimmingCharacters(in: .whitespacesAndNewlines), "1")
            }
            XCTAssertEqual(try lastFramePixel(out, 2, 2, decoder: decoder)[3], 0, "\(ext): the corner is transparent")
            let p = try lastFramePixel(out, 32, 24, decoder: decoder)
            XCTAssertGreaterThan(p[3], 245, "\(ext): the bar is opaque")
            XCTAssertGreaterThan(p[0], 200, "\(ext): and red")
        }
    }

    func testMP4GetsTheMatte() throws {
        let s = try transparentScene()
        let white = dir.appendingPathComponent("white.mp4")
        try s.render(to: white)
        XCTAssertEqual(try pixelFormat(white), "yuv420p")
        XCTAssertGreaterThan(try lastFramePixel(white, 2, 2)[0], 245, "white by default")
        let black = dir.appendingPathComponent("black.mp4")
        try s.render(to: black, matte: .black)
        let p = try lastFramePixel(black, 2, 2)
        XCTAssertLessThan(p[0], 10); XCTAssertLessThan(p[1], 10); XCTAssertLessThan(p[2], 10)
    }

    func testGIFsAreSampledAtTheCommandLinesRate() throws {
        // A 60 fps scene: the CLI's OutputPlan samples GIFs at GIFTiming.maxFPS; so does the API.
        let s = try transparentScene(fps: 60)
        let plan = try OutputPlan(scene: s.scene, format: .gif)
        var total = 0
        let out = dir.appendingPathComponent("clip.gif")
        try s.render(to: out) { _, t in total = t }
        XCTAssertEqual(plan.fps, GIFTiming.maxFPS)
        XCTAssertEqual(total, plan.range.count)
        XCTAssertEqual(total, 25)
        let frames = String(decoding: try tool(["ffprobe", "-v", "error", "-count_packets", "-show_entries",
                                                "stream=nb_read_packets", "-of", "csv=p=0", out.path]), as: UTF8.self)
        XCTAssertEqual(frames.trimmingCharacters(in: .whitespacesAndNewlines), "25")
        XCTAssertEqual(try lastFramePixel(out, 2, 2)[3], 0, "GIF keeps transparency too")
    }
}
