import XCTest
import Foundation
import Raster

/// Runs the built `chartreel` binary as a user would and checks its outputs with ffprobe.
final class CommandLineTests: ChartreelTestCase {
    func testMP4HasTheRightSizeFrameCountAndDuration() throws {
        let out = tmp.appendingPathComponent("reveal.mp4").path
        let r = try chartreel("render", Self.document, "-o", out, "-q")
        XCTAssertEqual(r.status, 0, r.stderr)
        let info = try streamInfo(out)
        XCTAssertEqual(info.width, 800); XCTAssertEqual(info.height, 600)
        XCTAssertEqual(info.frames, 126)   // (0.6 + 1.0 + 0.5 hold) s × 60 fps
        let duration = Double(try ffprobe(out, ["-show_entries", "format=duration", "-of", "csv=p=0"]))!
        XCTAssertEqual(duration, 2.1, accuracy: 0.02)
        let pixfmt = try ffprobe(out, ["-select_streams", "v:0", "-show_entries", "stream=pix_fmt,codec_name", "-of", "csv=p=0"])
        XCTAssertEqual(pixfmt, "h264,yuv420p")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
        XCTAssertEqual(leftovers, ["reveal.mp4"], "temporary files left behind")
    }

    func testGIFIsSampledAt50fpsWithNoDelayBelowTwoHundredths() throws {
        let out = tmp.appendingPathComponent("reveal.gif").path
        let r = try chartreel("render", Self.document, "-o", out, "-q")
        XCTAssertEqual(r.status, 0, r.stderr)
        let info = try streamInfo(out)
        XCTAssertEqual(info.width, 800); XCTAssertEqual(info.height, 600)
        XCTAssertEqual(info.frames, 105)   // 2.1 s at 50 fps
        // GIF time base is 1/100 s: every packet lasts a whole number of hundredths, ≥ 2.
        let durations = try ffprobe(out, ["-select_streams", "v:0", "-show_entries", "packet=duration", "-of", "csv=p=0"])
            .split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        XCTAssertEqual(durations.count, 105)
        XCTAssertTrue(durations.allSatisfy { $0 >= 2 }, "delays: \(Set(durations))")
        let total = durations.reduce(0, +)
        XCTAssertEqual(total, 210)
    }

    func testPNGDirectoryAndSingleFrame() throws {
        let dir = tmp.appendingPathComponent("frames").path
        let r = try chartreel("render", Self.document, "-o", dir, "--fps", "10", "-q")
        XCTAssertEqual(r.status, 0, r.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(files.count, 21)
        XCTAssertEqual(files.first, "frame-00000.png"); XCTAssertEqual(files.last, "frame-00020.png")
        let png = tmp.appendingPathComponent("f.png").path
        XCTAssertEqual(try chartreel("frame", Self.document, "--at", "0.6", "-o", png).status, 0)
        let size = try ffprobe(png, ["-show_entries", "stream=width,height", "-of", "csv=p=0"])
        XCTAssertEqual(size, "800,600")
        // The same instant from the frame directory (frame 6 at 10 fps = 0.6 s) is identical.
        let a = try Data(contentsOf: URL(fileURLWithPath: png))
        let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/frame-00006.png"))
        XCTAssertEqual(a, b)
    }

    func testRawRGBAOnStdout() throws {
        let r = try chartreel("render", Self.document, "-o", "-", "--format", "rgba", "--fps", "10", "-q")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.count, 21 * 800 * 600 * 4)
        // Straight alpha, opaque white background: the top-left pixel is white.
        XCTAssertEqual(Array(r.stdout.prefix(4)), [255, 255, 255, 255])
    }

    func testThreadCountDoesNotChangeTheBytes() throws {
        let one = try chartreel("render", Self.document, "-o", "-", "--format", "rgba", "--fps", "5", "--threads", "1", "-q")
        let four = try chartreel("render", Self.document, "-o", "-", "--format", "rgba", "--fps", "5", "--threads", "4", "-q")
        XCTAssertEqual(one.status, 0); XCTAssertEqual(four.status, 0)
        XCTAssertTrue(one.stdout == four.stdout)
    }

    func testBadDocumentNamesFileLineColumnAndPathAndWritesNothing() throws {
        let doc = tmp.appendingPathComponent("bad.json")
        try """
        {
          "canvas": { "width": 800, "height": 600 },
          "charts": [ { "data": "week", "marks": [ { "type": "line", "strok": {} } ] } ],
          "data": { "week": { "values": [ { "x": 1, "y": 2 } ] } }
        }
        """.write(to: doc, atomically: true, encoding: .utf8)
        let out = tmp.appendingPathComponent("bad.mp4").path
        let r = try chartreel("render", doc.path, "-o", out)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("bad.json:3:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("charts[0].marks[0]"), r.stderr)
        XCTAssertTrue(r.stderr.contains("did you mean \"stroke\""), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))

        let broken = tmp.appendingPathComponent("broken.json")
        try "{ \"fps\": 60,\n  \"charts\": [ }".write(to: broken, atomically: true, encoding: .utf8)
        let r2 = try chartreel("render", broken.path, "-o", out)
        XCTAssertEqual(r2.status, 2)
        XCTAssertTrue(r2.stderr.contains("broken.json:2:"), r2.stderr)
        let r3 = try chartreel("render", tmp.appendingPathComponent("missing.json").path, "-o", out)
        XCTAssertEqual(r3.status, 2)
        XCTAssertTrue(r3.stderr.contains("missing.json"), r3.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testMissingFFmpegSaysHowToInstallIt() throws {
        let out = tmp.appendingPathComponent("x.mp4").path
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = "/nonexistent"
        let r = try chartreel("render", Self.document, "-o", out, "--fps", "5", "-q", environment: env)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("ffmpeg"), r.stderr)
        XCTAssertTrue(r.stderr.contains("apt-get install ffmpeg"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [])
    }

    func testUsageErrorsExitTwo() throws {
        XCTAssertEqual(try chartreel("render").status, 2)
        XCTAssertEqual(try chartreel("render", Self.document).status, 2)
        XCTAssertEqual(try chartreel("render", Self.document, "-o", "x.webp").status, 2)
        XCTAssertEqual(try chartreel("frame", Self.document, "-o", "x.png").status, 2)
        XCTAssertEqual(try chartreel("nonsense").status, 2)
        let v = try chartreel("--version")
        XCTAssertEqual(v.status, 0)
        XCTAssertTrue(String(decoding: v.stdout, as: UTF8.self).hasPrefix("chartreel "))
        XCTAssertEqual(try chartreel("render", "--help").status, 0)
    }

    func testExistingOutputIsKeptWithoutOverwrite() throws {
        let out = tmp.appendingPathComponent("keep.mp4")
        try Data("precious".utf8).write(to: out)
        let r = try chartreel("render", Self.document, "-o", out.path, "--fps", "5", "-q")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(try Data(contentsOf: out), Data("precious".utf8))
    }
}

final class EasingsCommandTests: XCTestCase {
    func testListsEveryCurveAndDrawsEachAsAPlot() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("easings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = Process()
        list.executableURL = URL(fileURLWithPath: CommandLineTests.binary)
        list.arguments = ["easings"]
        let out = Pipe()
        list.standardOutput = out
        try list.run()
        let names = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        list.waitUntilExit()
        XCTAssertEqual(names.count, 38)
        XCTAssertTrue(names.contains("easeInOutBounce") && names.contains("bouncy"))
        let draw = Process()
        draw.executableURL = URL(fileURLWithPath: CommandLineTests.binary)
        draw.arguments = ["easings", "-o", dir.path, "--size", "100"]
        draw.standardOutput = FileHandle.nullDevice
        try draw.run(); draw.waitUntilExit()
        XCTAssertEqual(draw.terminationStatus, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).count, 38)
        // The linear plot is a diagonal: on the row halfway up the box, blue ink sits at the
        // box's horizontal middle, and on easeIn's plot it sits right of the middle.
        func blueColumns(_ name: String) throws -> [Int] {
            let p = try Pixmap(pngFile: dir.appendingPathComponent("\(name).png").path)
            let unit = (100.0 - 16 - 10) / 1.9
            let row = Int(16 + 0.45 * unit + unit / 2)
            return (0..<p.width).filter { let c = p.pixel($0, row); return c.b > 200 && c.r < 100 }
        }
        let linear = try blueColumns("linear"), easeIn = try blueColumns("easeIn")
        XCTAssertFalse(linear.isEmpty); XCTAssertFalse(easeIn.isEmpty)
        XCTAssertEqual(Double(linear.reduce(0, +)) / Double(linear.count), 50, accuracy: 3)
        XCTAssertGreaterThan(Double(easeIn.reduce(0, +)) / Double(easeIn.count), 58)
    }
}
