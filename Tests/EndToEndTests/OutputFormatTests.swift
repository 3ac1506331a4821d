import XCTest
import Foundation

/// Formats, transparency, odd sizes, GIF timing and the options that shape a render.
final class OutputFormatTests: ChartreelTestCase {
    func testEveryVideoFormatHasItsCodecAndAllFrames() throws {
        let expected = ["mp4": "h264", "gif": "gif", "webm": "vp9", "apng": "apng", "mov": "prores"]
        for (ext, codec) in expected {
            let out = tmp.appendingPathComponent("v.\(ext)").path
            let r = try chartreel("render", Self.document, "-o", out, "--fps", "5", "--scale", "0.5", "-q")
            XCTAssertEqual(r.status, 0, "\(ext): \(r.stderr)")
            XCTAssertEqual(try ffprobe(out, ["-select_streams", "v:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0"]),
                           codec, ext)
            let info = try streamInfo(out)
            XCTAssertEqual([info.width, info.height, info.frames], [400, 300, 11], ext)   // 2.1 s at 5 fps
        }
        // --format names a format whatever the extension.
        let apng = tmp.appendingPathComponent("anim.png").path
        XCTAssertEqual(try chartreel("render", Self.document, "-o", apng, "--format", "apng", "--fps", "5", "-q").status, 0)
        XCTAssertEqual(try ffprobe(apng, ["-show_entries", "stream=codec_name", "-of", "csv=p=0"]), "apng")
    }

    func testTransparentBackgroundKeepsAlphaInPNGWebMAndMOV() throws {
        let doc = try document(background: "#FFFFFF00")
        // PNG frames: decode the last frame with ffmpeg as well, not only our own decoder.
        let dir = tmp.appendingPathComponent("frames").path
        XCTAssertEqual(try chartreel("render", doc, "-o", dir, "--fps", "5", "-q").status, 0)
        for (file, decoder) in [(dir + "/frame-00010.png", [String]()),
                                (tmp.appendingPathComponent("t.webm").path, ["-c:v", "libvpx-vp9"]),
                                (tmp.appendingPathComponent("t.mov").path, [])] {
            if !file.hasSuffix(".png") {
                let r = try chartreel("render", doc, "-o", file, "--fps", "5", "-q")
                XCTAssertEqual(r.status, 0, r.stderr)
                XCTAssertFalse(r.stderr.contains("composited"), r.stderr)
            }
            let f = try decodedFrame(file, index: file.hasSuffix(".png") ? 0 : 10, decoder: decoder)
            XCTAssertEqual(f.count, 800 * 600 * 4, file)
            guard f.count == 800 * 600 * 4 else { continue }
            XCTAssertEqual(pixel(f, width: 800, 2, 2)[3], 0, "\(file): outside every mark")
            XCTAssertEqual(pixel(f, width: 800, 795, 595)[3], 0, "\(file): outside every mark")
            // The area fill at the bottom of the last frame is there and opaque enough to see.
            XCTAssertGreaterThan(pixel(f, width: 800, 300, 500)[3], 200, "\(file): inside the area")
        }
        let pixfmt = try ffprobe(tmp.appendingPathComponent("t.mov").path,
                                 ["-select_streams", "v:0", "-show_entries", "stream=pix_fmt", "-of", "csv=p=0"])
        XCTAssertTrue(pixfmt.hasPrefix("yuva444p"), pixfmt)   // ProRes 4444 with its alpha plane
    }

    func testTransparentGIFAndAPNGHaveTransparentPixels() throws {
        let doc = try document(background: "#FFFFFF00")
        for ext in ["gif", "apng"] {
            let out = tmp.appendingPathComponent("t.\(ext)").path
            XCTAssertEqual(try chartreel("render", doc, "-o", out, "--fps", "5", "-q").status, 0)
            let f = try decodedFrame(out, index: 10)
            XCTAssertEqual(pixel(f, width: 800, 2, 2)[3], 0, ext)
            // GIF transparency is all or nothing; APNG keeps the gradient's own alpha.
            XCTAssertGreaterThan(pixel(f, width: 800, 300, 500)[3], ext == "gif" ? 254 : 200, "\(ext): the fill shows")
        }
    }

    func testMP4OfATransparentDocumentIsMattedAndSaysSo() throws {
        let doc = try document(background: "#FFFFFF00")
        let white = tmp.appendingPathComponent("white.mp4").path
        let r = try chartreel("render", doc, "-o", white, "--fps", "5", "-q")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("composited onto #FFFFFF"), r.stderr)
        XCTAssertGreaterThan(pixel(try decodedFrame(white, index: 10), width: 800, 2, 2)[0], 250)
        let black = tmp.appendingPathComponent("black.mp4").path
        XCTAssertEqual(try chartreel("render", doc, "-o", black, "--fps", "5", "--matte", "#000000", "-q").status, 0)
        let p = pixel(try decodedFrame(black, index: 10), width: 800, 2, 2)
        XCTAssertLessThan(p[0], 5); XCTAssertLessThan(p[1], 5); XCTAssertLessThan(p[2], 5)
    }

    func testOddCanvasIsPaddedWithTheBackgroundColour() throws {
        let doc = try document(background: "#336699", width: 801, height: 601)
        let out = tmp.appendingPathComponent("odd.mp4").path
        let r = try chartreel("render", doc, "-o", out, "--fps", "5", "-q")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("801x601 is odd"), r.stderr)
        XCTAssertTrue(r.stderr.contains("padded to 802x602"), r.stderr)
        let info = try streamInfo(out)
        XCTAssertEqual([info.width, info.height], [802, 602])
        let f = try decodedFrame(out, index: 0)
        for (x, y) in [(801, 300), (400, 601), (801, 601)] {
            let p = pixel(f, width: 802, x, y)
            // #336699 through yuv420p: within a few levels, and nowhere near black.
            XCTAssertEqual(Double(p[0]), 0x33, accuracy: 4, "(\(x), \(y)) \(p)")
            XCTAssertEqual(Double(p[1]), 0x66, accuracy: 4, "(\(x), \(y)) \(p)")
            XCTAssertEqual(Double(p[2]), 0x99, accuracy: 4, "(\(x), \(y)) \(p)")
        }
        // WebM (VP9) takes odd sizes as they are.
        let webm = tmp.appendingPathComponent("odd.webm").path
        let w = try chartreel("render", doc, "-o", webm, "--fps", "5", "-q")
        XCTAssertFalse(w.stderr.contains("padded"), w.stderr)
        XCTAssertEqual([try streamInfo(webm).width, try streamInfo(webm).height], [801, 601])
    }

    /// (pts, duration) of every packet of a GIF, in hundredths of a second.
    private func gifPackets(_ file: String) throws -> [(Int, Int)] {
        try ffprobe(file, ["-select_streams", "v:0", "-show_entries", "packet=pts,duration", "-of", "csv=p=0"])
            .split(separator: "\n").map { line in
                let f = line.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                return (f[0], f[1])
            }
    }

    func testGIFAt30FPSHasDelaysThatTrackTrueTime() throws {
        let out = tmp.appendingPathComponent("thirty.gif").path
        XCTAssertEqual(try chartreel("render", Self.document, "-o", out, "--fps", "30", "-q").status, 0)
        let p = try gifPackets(out)
        XCTAssertEqual(p.count, 63)   // 2.1 s at 30 fps
        for (i, (pts, duration)) in p.enumerated() {
            XCTAssertEqual(pts, Int((Double(i) * 100 / 30).rounded()), "frame \(i) starts at its true time, rounded")
            XCTAssertTrue(duration == 3 || duration == 4, "frame \(i): \(duration)")
        }
        XCTAssertEqual(p.map(\.1).reduce(0, +), 210)
        XCTAssertEqual(Array(p.map(\.1).prefix(6)), [3, 4, 3, 3, 4, 3])
    }

    func testGIFOptionsPauseAndLoop() throws {
        let out = tmp.appendingPathComponent("opts.gif").path
        let r = try chartreel("render", Self.document, "-o", out, "--fps", "10", "--colors", "16", "--dither", "none",
                              "--pause", "1.5", "--loop", "once", "-q")
        XCTAssertEqual(r.status, 0, r.stderr)
        let durations = try gifPackets(out).map(\.1)
        XCTAssertEqual(durations.count, 21)
        XCTAssertEqual(durations.last, 160)   // 10/100 s + 1.5 s
        XCTAssertEqual(durations.reduce(0, +), 360)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        XCTAssertNil(bytes.firstRange(of: Array("NETSCAPE2.0".utf8)), "plays once")
        // 16 colours at most in any frame.
        let last = try decodedFrame(out, index: 20)
        var colours = Set<UInt32>()
        for i in stride(from: 0, to: last.count, by: 4) {
            colours.insert(UInt32(last[i]) << 16 | UInt32(last[i + 1]) << 8 | UInt32(last[i + 2]))
        }
        XCTAssertLessThanOrEqual(colours.count, 16)
        XCTAssertGreaterThan(colours.count, 4)
        let bad = try chartreel("render", Self.document, "-o", tmp.appendingPathComponent("x.mp4").path, "--colors", "16")
        XCTAssertEqual(bad.status, 2, "GIF options on an MP4 are a usage error")
        XCTAssertEqual(try chartreel("render", Self.document, "-o", out, "--dither", "noise", "-y").status, 2)
    }

    func testScaleAndTimeRange() throws {
        let dir = tmp.appendingPathComponent("part").path
        let r = try chartreel("render", Self.document, "-o", dir, "--fps", "10", "--scale", "0.5",
                              "--from", "0.5s", "--to", "10", "-q")
        XCTAssertEqual(r.status, 0, r.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(names, (5..<10).map { String(format: "frame-%05d.png", $0) })
        XCTAssertEqual(try ffprobe(dir + "/frame-00005.png", ["-show_entries", "stream=width,height", "-of", "csv=p=0"]), "400,300")
        // Frame 7 of the chunk is the same picture as `frame --frame 7` at that scale and rate.
        let single = tmp.appendingPathComponent("f7.png").path
        XCTAssertEqual(try chartreel("frame", Self.document, "--frame", "7", "--fps", "10", "--scale", "0.5", "-o", single).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: single)),
                       try Data(contentsOf: URL(fileURLWithPath: dir + "/frame-00007.png")))
        XCTAssertEqual(try chartreel("render", Self.document, "-o", dir + "2", "--from", "3s").status, 2, "past the end")
        XCTAssertEqual(try chartreel("render", Self.document, "-o", dir + "3", "--frames", "5..<2").status, 2)
    }

    func testProgressLinesAndSummaryWhenNotATerminal() throws {
        let out = tmp.appendingPathComponent("p").path
        let r = try chartreel("render", Self.document, "-o", out, "--fps", "10")
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains(" %)") }.count, 10, r.stderr)
        XCTAssertTrue(lines.first!.hasPrefix("frame 3/21 (10 %)"), r.stderr)
        let summary = String(lines.last!)
        XCTAssertTrue(summary.hasPrefix("chartreel: 21 frames in "), summary)
        XCTAssertTrue(summary.contains("-> \(out), "), summary)
        XCTAssertTrue(summary.contains(" KB") || summary.contains(" MB"), summary)
        let quiet = try chartreel("render", Self.document, "-o", out, "--fps", "10", "-y", "-q")
        XCTAssertEqual(quiet.stderr, "")
    }

    func testDryRunShowsTheFFmpegCommand() throws {
        let r = try chartreel("render", Self.document, "-o", "x.gif", "--dry-run", "--colors", "64", "--loop", "3")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.text.hasPrefix("105 frames of 800x600 at 50 fps"), r.text)
        XCTAssertTrue(r.text.contains("max_colors=64"), r.text)
        XCTAssertTrue(r.text.contains("dither=bayer:bayer_scale=5:diff_mode=rectangle"), "the library's defaults: \(r.text)")
        XCTAssertTrue(r.text.contains("-pix_fmt bgra"), r.text)
        XCTAssertTrue(r.text.contains("-loop 2"), r.text)
        XCTAssertTrue(r.stderr.contains("sampled at 50 fps"), r.stderr)
        let q = try chartreel("render", Self.document, "-o", "x.mp4", "--dry-run", "--quality", "medium")
        XCTAssertTrue(q.text.contains("-crf 23"), q.text)
    }
}
