import XCTest
import Foundation

/// `--audio FILE` and `--audio-fade SECONDS` (docs/cli.md, "Sound"): the track is muxed into
/// MP4, WebM and MOV, trimmed to the video; an unreadable file is refused with exit 2.
final class AudioTests: ChartreelTestCase {
    /// A 5-second 440 Hz tone from ffmpeg's lavfi sine source, longer than any video here.
    func tone() throws -> String {
        let path = tmp.appendingPathComponent("tone.wav").path
        let r = try run("/usr/bin/env", ["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=5", path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return path
    }

    /// Each stream's type and duration as ffprobe reads them.
    func streams(_ file: String) throws -> [(type: String, duration: Double?)] {
        try ffprobe(file, ["-show_entries", "stream=codec_type,duration", "-of", "csv=p=0"])
            .split(separator: "\n").map { line in
                let f = line.split(separator: ",")
                return (String(f[0]), f.count > 1 ? Double(f[1]) : nil)
            }
    }

    func testAudioHasTheVideosLength() throws {
        let doc = try document(width: 200, height: 150)
        let audio = try tone()
        for ext in ["mp4", "mov"] {
            let out = tmp.appendingPathComponent("a.\(ext)").path
            let r = try chartreel("render", doc, "-o", out, "--fps", "10", "--audio", audio, "-q")
            XCTAssertEqual(r.status, 0, r.stderr)
            let s = try streams(out)
            XCTAssertEqual(s.map(\.type), ["video", "audio"], ext)
            let video = try XCTUnwrap(s[0].duration), sound = try XCTUnwrap(s[1].duration)
            XCTAssertEqual(video, 2.1, accuracy: 0.001, ext)
            XCTAssertEqual(sound, video, accuracy: 0.025, "\(ext): the 5 s tone is cut to the video")
            XCTAssertEqual(try streamInfo(out).frames, 21, ext)
        }
        // WebM: the container's length is the video's, and the render's own check (video
        // frames only) passed with the audio blocks among them.
        let webm = tmp.appendingPathComponent("a.webm").path
        let r = try chartreel("render", doc, "-o", webm, "--fps", "10", "--to", "1s", "--audio", audio, "-q")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try streams(webm).map(\.type), ["video", "audio"])
        let length = try XCTUnwrap(Double(try ffprobe(webm, ["-show_entries", "format=duration", "-of", "csv=p=0"])))
        XCTAssertEqual(length, 1.0, accuracy: 0.03)
        XCTAssertEqual(try streamInfo(webm).frames, 10)
    }

    func testFadeEndsInSilence() throws {
        let doc = try document(width: 200, height: 150)
        let audio = try tone()
        let out = tmp.appendingPathComponent("fade.mov").path
        let r = try chartreel("render", doc, "-o", out, "--fps", "10", "--audio", audio, "--audio-fade", "0.5", "-q")
        XCTAssertEqual(r.status, 0, r.stderr)
        // The samples, as 16-bit mono at 44.1 kHz.
        let pcm = try run("/usr/bin/env", ["ffmpeg", "-v", "error", "-i", out, "-map", "0:a", "-f", "s16le", "-ac", "1", "-ar", "44100", "-"])
        XCTAssertEqual(pcm.status, 0, pcm.stderr)
        let samples = pcm.stdout.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        XCTAssertEqual(Double(samples.count) / 44100, 2.1, accuracy: 0.025)
        func rms(_ from: Double, _ to: Double) -> Double {
            let s = samples[Int(from * 44100)..<min(samples.count, Int(to * 44100))]
            return (s.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(s.count)).squareRoot()
        }
        let full = rms(0.5, 1.5), fading = rms(1.7, 1.9), last = rms(2.05, 2.1)
        XCTAssertGreaterThan(full, 2000, "the tone plays before the fade (lavfi sine: amplitude 1/8, RMS ~2900)")
        XCTAssertLessThan(fading, full * 0.75, "quieter during the fade")
        XCTAssertLessThan(last, full * 0.1, "nearly silent at the end")
    }

    func testUnreadableAudioIsRefused() throws {
        let doc = try document(width: 200, height: 150)
        let out = tmp.appendingPathComponent("x.mp4").path
        let notAudio = tmp.appendingPathComponent("notes.txt").path
        try "not a sound".write(toFile: notAudio, atomically: true, encoding: .utf8)
        for (file, message) in [(notAudio, "error: --audio \(notAudio): ffmpeg cannot read it as audio"),
                                (tmp.appendingPathComponent("none.wav").path, "error: --audio \(tmp.path)/none.wav: no such file")] {
            let r = try chartreel("render", doc, "-o", out, "--audio", file)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains(message), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        }
        let gif = try chartreel("render", doc, "-o", tmp.appendingPathComponent("x.gif").path, "--audio", try tone())
        XCTAssertEqual(gif.status, 2)
        XCTAssertTrue(gif.stderr.contains("--audio needs MP4, WebM or MOV output; GIF has no sound track"), gif.stderr)
    }
}
