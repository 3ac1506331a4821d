import XCTest
import Foundation

/// Rendering in chunks and joining them, and byte-for-byte determinism.
final class ChunkTests: ChartreelTestCase {
    func testPNGFramesAreIdenticalForAnyThreadCountAndRun() throws {
        var renders: [[(String, Data)]] = []
        for (k, threads) in ["1", "2", "8", "2"].enumerated() {
            let dir = tmp.appendingPathComponent("t\(k)").path
            let r = try chartreel("render", Self.document, "-o", dir, "--fps", "10", "--threads", threads, "-q")
            XCTAssertEqual(r.status, 0, r.stderr)
            renders.append(try contents(ofDirectory: dir))
        }
        XCTAssertEqual(renders[0].count, 21)
        for other in renders.dropFirst() {
            XCTAssertEqual(other.map(\.0), renders[0].map(\.0))
            for (x, y) in zip(other, renders[0]) { XCTAssertTrue(x.1 == y.1, "\(x.0) differs") }
        }
    }

    func testPNGChunksJoinIntoTheOneShotDirectory() throws {
        let whole = tmp.appendingPathComponent("whole").path
        XCTAssertEqual(try chartreel("render", Self.document, "-o", whole, "--fps", "10", "-q").status, 0)
        var parts: [String] = []
        for range in ["0..<7", "7..<14", "14..<100"] {   // the last chunk's end is clamped to 21
            let part = tmp.appendingPathComponent("part-\(range.prefix(2))").path
            let r = try chartreel("render", Self.document, "-o", part, "--fps", "10", "--frames", range, "-q")
            XCTAssertEqual(r.status, 0, r.stderr)
            parts.append(part)
        }
        let joined = tmp.appendingPathComponent("joined").path
        let r = try chartreel(["concat"] + parts + ["-o", joined, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let a = try contents(ofDirectory: whole), b = try contents(ofDirectory: joined)
        XCTAssertEqual(a.map(\.0), b.map(\.0))
        for (x, y) in zip(a, b) { XCTAssertTrue(x.1 == y.1, x.0) }
    }

    /// Per-frame `framemd5` lines of a decoded video: stream, dts, pts, duration, size, hash.
    private func frameHashes(_ file: String) throws -> [String] {
        let r = try run("/usr/bin/env", ["ffmpeg", "-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    /// Renders the document at 10 fps as MP4, whole and in three chunks joined by `concat`.
    private func wholeAndJoined(_ quality: [String]) throws -> (String, String) {
        let whole = tmp.appendingPathComponent("whole.mp4").path
        XCTAssertEqual(try chartreel(["render", Self.document, "-o", whole, "--fps", "10", "-q", "-y"] + quality).status, 0)
        var parts: [String] = []
        for (k, range) in ["0..<7", "7..<14", "14..<21"].enumerated() {
            let part = tmp.appendingPathComponent("part\(k).mp4").path
            let r = try chartreel(["render", Self.document, "-o", part, "--fps", "10", "--frames", range, "-q", "-y"] + quality)
            XCTAssertEqual(r.status, 0, r.stderr)
            parts.append(part)
        }
        let joined = tmp.appendingPathComponent("joined.mp4").path
        let r = try chartreel(["concat"] + parts + ["-o", joined, "-q", "-y"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return (whole, joined)
    }

    func testLosslessMP4ChunksJoinIntoTheSameDecodedFrames() throws {
        // CRF 0 is lossless in x264: each chunk decodes to exactly the yuv420p frames of the
        // one-shot render, so hashes and timestamps of every decoded frame must match.
        let (whole, joined) = try wholeAndJoined(["--quality", "0"])
        let a = try frameHashes(whole), b = try frameHashes(joined)
        XCTAssertEqual(a.count, 21)
        XCTAssertEqual(a, b)
    }

    func testDefaultQualityMP4ChunksJoinSeamlessly() throws {
        // Lossy chunks are encoded independently (each starts with a key frame), so pixels
        // differ slightly from a one-shot encode; frame count, timing and a high PSNR must hold.
        let (whole, joined) = try wholeAndJoined([])
        let a = try frameHashes(whole), b = try frameHashes(joined)
        XCTAssertEqual(a.count, 21); XCTAssertEqual(b.count, 21)
        let timing = { (lines: [String]) in lines.map { $0.split(separator: ",").prefix(4).map { $0.trimmingCharacters(in: .whitespaces) } } }
        XCTAssertEqual(timing(a), timing(b), "same pts and durations frame by frame: no gap or overlap at the joins")
        let r = try run("/usr/bin/env", ["ffmpeg", "-v", "info", "-i", joined, "-i", whole, "-lavfi", "psnr", "-f", "null", "-"])
        let line = try XCTUnwrap(r.stderr.split(separator: "\n").first { $0.contains("PSNR") && $0.contains("average:") }, r.stderr)
        let avg = line.components(separatedBy: "average:")[1].split(separator: " ")[0]
        XCTAssertGreaterThan(Double(avg) ?? (avg == "inf" ? .infinity : 0), 45, String(line))
    }

    func testGIFChunksCannotBeJoined() throws {
        let r = try chartreel("concat", "a.gif", "b.gif", "-o", tmp.appendingPathComponent("x.gif").path)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("cannot be joined"), r.stderr)
    }
}
