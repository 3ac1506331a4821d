import Foundation
import XCTest

/// An MP4 shows the colours of the PNG frames (issue 20): the four reference timelines are
/// encoded, decoded by ffmpeg honouring the stream's colour tags, and compared with the
/// raw frames on flat regions (5×5 neighbourhoods of one colour) in CIEDE2000.
final class ColourFidelityTests: ChartreelTestCase {
    static let references = ["flight-delays", "baby-names", "coffee-book", "curved-line-reveal"]

    func testMP4DecodedByFFmpegShowsThePNGColoursOnFlatRegions() throws {
        for name in Self.references {
            let doc = Self.root.appendingPathComponent("timelines/\(name).json").path
            let mp4 = tmp.appendingPathComponent("\(name).mp4").path
            let r = try chartreel("render", doc, "-o", mp4, "--fps", "4", "-q")
            XCTAssertEqual(r.status, 0, r.stderr)
            let tags = try ffprobe(mp4, ["-select_streams", "v:0", "-show_entries",
                                         "stream=color_space,color_primaries,color_transfer,color_range", "-of", "csv=p=0"])
            XCTAssertEqual(tags, "tv,bt709,bt709,bt709", name)
            let raw = [UInt8](try chartreel("render", doc, "-o", "-", "--format", "rgba", "--fps", "4", "-q").stdout)
            // ffmpeg's accurate YUV-to-RGB rounding: its fast default is 1-2 levels off in dark
            // greys whatever the file holds (scripts/colour-check shows both).
            let decoded = [UInt8](try run("/usr/bin/env", ["ffmpeg", "-v", "error", "-i", mp4, "-sws_flags",
                                                            "accurate_rnd+full_chroma_int+bitexact", "-f", "rawvideo",
                                                            "-pix_fmt", "rgba", "-"]).stdout)
            let (w, h, n) = try streamInfo(mp4)
            XCTAssertEqual(raw.count, w * h * 4 * n, "\(name): same frames, same size")
            XCTAssertEqual(decoded.count, raw.count, name)
            guard n > 0, decoded.count == raw.count else { continue }
            for f in Set([0, n / 2, n - 1]).sorted() {
                let range = (f * w * h * 4)..<((f + 1) * w * h * 4)
                let s = ColourDifference.flatStats(source: Array(raw[range]), decoded: Array(decoded[range]), width: w, height: h)
                XCTAssertGreaterThan(s.count, w * h / 4, "\(name) frame \(f): mostly flat")
                XCTAssertLessThanOrEqual(s.mean, 1.0, "\(name) frame \(f): mean ΔE2000")
                XCTAssertLessThanOrEqual(s.p99, 3.0, "\(name) frame \(f): 99th percentile ΔE2000")
            }
        }
    }

    func testDeltaE2000MatchesPublishedPairs() {
        // Sharma, Wu and Dalal (2005), table 1: pairs 1, 7, 17 and 25.
        let pairs: [((Double, Double, Double), (Double, Double, Double), Double)] = [
            ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
            ((50, 0, 0), (50, -1, 2), 2.3669),
            ((50, 2.5, 0), (73, 25, -18), 27.1492),
            ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ]
        for (p, q, e) in pairs {
            XCTAssertEqual(ColourDifference.deltaE2000((p.0, p.1, p.2), (q.0, q.1, q.2)), e, accuracy: 1e-4)
        }
        let white = ColourDifference.lab(255, 255, 255)
        XCTAssertEqual(white.l, 100, accuracy: 1e-3)
        XCTAssertEqual(white.a, 0, accuracy: 1e-3)
        XCTAssertEqual(white.b, 0, accuracy: 1e-3)
    }
}
