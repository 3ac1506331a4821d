import XCTest
import Raster
@testable import Export

/// The command lines ffmpeg gets, option by option.
final class FFmpegArgumentsTests: XCTestCase {
    private func args(_ f: OutputFormat, _ o: VideoOptions = VideoOptions(), width: Int = 64, height: Int = 48,
                      fps: Double = 30, frames: Int = 31) -> [String] {
        FFmpeg.arguments(format: f, width: width, height: height, fps: fps, frameCount: frames, options: o, output: "out")
    }

    /// The value following `flag`, or nil.
    private func value(_ a: [String], _ flag: String) -> String? {
        guard let i = a.firstIndex(of: flag), i + 1 < a.count else { return nil }
        return a[i + 1]
    }

    func testEveryFormatReadsRawFramesFromStdinAndWritesTheTemporaryName() {
        for f in OutputFormat.videoFormats {
            let a = args(f)
            XCTAssertEqual(Array(a.prefix(13)), ["-hide_banner", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
                                                 f.pipePixelFormat(alpha: false).ffmpegName,
                                                 "-s", "64x48", "-framerate", "30", "-i", "-"], f.rawValue)
            XCTAssertEqual(Array(a.suffix(2)), ["-y", "out"], f.rawValue)
            XCTAssertEqual(a[a.lastIndex(of: "-f")! + 1], f.rawValue, "the muxer")
        }
    }

    func testMP4IsH264Yuv420pFaststartWithCRFFromQuality() {
        let a = args(.mp4)
        XCTAssertEqual(value(a, "-c:v"), "libx264")
        XCTAssertEqual(a.lastIndex(of: "-pix_fmt").map { a[$0 + 1] }, "yuv420p")
        XCTAssertEqual(value(a, "-movflags"), "+faststart")
        XCTAssertEqual(value(a, "-crf"), "18")
        XCTAssertEqual(value(args(.mp4, VideoOptions(quality: .medium)), "-crf"), "23")
        XCTAssertEqual(value(args(.mp4, VideoOptions(quality: .low)), "-crf"), "28")
        XCTAssertEqual(value(args(.mp4, VideoOptions(quality: .crf(0))), "-crf"), "0")
        XCTAssertEqual(value(args(.mp4, VideoOptions(quality: .crf(63))), "-crf"), "51", "clamped to x264's range")
    }

    func testOddSizedMP4FallsBackToPaddingWithThePadColour() {
        let a = args(.mp4, VideoOptions(padColor: Color(r8: 0x33, g8: 0x66, b8: 0x99)), width: 63, height: 47)
        XCTAssertEqual(value(a, "-vf"), "pad=ceil(iw/2)*2:ceil(ih/2)*2:color=0x336699FF")
        XCTAssertNil(value(args(.mp4), "-vf"))
        XCTAssertNil(value(args(.webm, width: 63, height: 47), "-vf"), "VP9 takes odd sizes")
    }

    func testWebMAndMOVKeepAlphaOnlyWhenAsked() {
        let pixfmt = { (a: [String]) in a.lastIndex(of: "-pix_fmt").map { a[$0 + 1] } }
        XCTAssertEqual(pixfmt(args(.webm, VideoOptions(alpha: true))), "yuva420p")
        XCTAssertEqual(pixfmt(args(.webm)), "yuv420p")
        XCTAssertEqual(value(args(.webm), "-c:v"), "libvpx-vp9")
        XCTAssertEqual(value(args(.webm), "-crf"), "24")
        XCTAssertEqual(pixfmt(args(.mov, VideoOptions(alpha: true))), "yuva444p10le")
        XCTAssertEqual(pixfmt(args(.mov)), "yuv444p10le")
        XCTAssertEqual(value(args(.mov), "-c:v"), "prores_ks")
        XCTAssertEqual(value(args(.mov), "-profile:v"), "4444")
        XCTAssertEqual(pixfmt(args(.apng, VideoOptions(alpha: true))), "rgba")
        XCTAssertEqual(pixfmt(args(.apng)), "rgb24")
    }

    func testGIFFiltersFollowTheOptions() {
        let def = value(args(.gif), "-filter_complex")!
        XCTAssertEqual(def, "[0:v]split[a][b];[a]tpad=stop=1:stop_mode=add:color=0x01020301,palettegen=stats_mode=diff:max_colors=256[p];"
                          + "[b][p]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle")
        let custom = value(args(.gif, VideoOptions(gif: GIFOptions(colors: 64, dither: .floydSteinberg))), "-filter_complex")!
        XCTAssertTrue(custom.contains("max_colors=64"), custom)
        XCTAssertTrue(custom.contains("dither=floyd_steinberg:diff_mode"), custom)
        XCTAssertFalse(custom.contains("bayer_scale"), custom)
        XCTAssertTrue(value(args(.gif, VideoOptions(gif: GIFOptions(bayerScale: 1))), "-filter_complex")!.contains("bayer_scale=1"))
    }

    func testLoopCountsMapToEachMuxer() {
        XCTAssertEqual(value(args(.gif), "-loop"), "0")
        XCTAssertEqual(value(args(.gif, VideoOptions(loop: .times(1))), "-loop"), "-1", "once: no NETSCAPE block")
        XCTAssertEqual(value(args(.gif, VideoOptions(loop: .times(3))), "-loop"), "2", "GIF counts repeats")
        XCTAssertEqual(value(args(.apng), "-plays"), "0")
        XCTAssertEqual(value(args(.apng, VideoOptions(loop: .times(3))), "-plays"), "3", "APNG counts plays")
        XCTAssertEqual(LoopCount("once"), .times(1))
        XCTAssertEqual(LoopCount("forever"), .forever)
        XCTAssertEqual(LoopCount("4"), .times(4))
        XCTAssertNil(LoopCount("-2"))
        XCTAssertNil(LoopCount("sometimes"))
    }

    func testFinalDelayEndsTheGIFOnTimeAndAddsThePause() {
        // 31 frames at 30 fps: the last frame starts at round(3000/30) = 100 and the GIF
        // ends at round(3100/30) = 103.
        XCTAssertEqual(value(args(.gif), "-final_delay"), "3")
        XCTAssertEqual(value(args(.gif, VideoOptions(pause: 1.5)), "-final_delay"), "153")
        XCTAssertEqual(value(args(.apng, VideoOptions(pause: 1)), "-final_delay"), "1.033")
        XCTAssertNil(value(args(.apng), "-final_delay"))
    }

    func testQualityParsing() {
        XCTAssertEqual(VideoQuality("HIGH"), .high)
        XCTAssertEqual(VideoQuality("20"), .crf(20))
        XCTAssertNil(VideoQuality("64"))
        XCTAssertNil(VideoQuality("best"))
        XCTAssertNil(VideoQuality.crf(20).crf(for: .gif))
    }

    func testConcatCopiesStreams() {
        let a = FFmpeg.concatArguments(listFile: "list", format: .mp4, output: "out")
        XCTAssertEqual(value(a, "-f"), "concat")
        XCTAssertEqual(value(a, "-c"), "copy")
        XCTAssertEqual(value(a, "-movflags"), "+faststart")
        XCTAssertEqual(Array(a.suffix(4)), ["-f", "mp4", "-y", "out"])
    }

    func testPipeLayouts() {
        // MP4 and opaque WebM get yuv420p from the rendering threads, GIF BGRA, the rest RGBA.
        let layouts = { (alpha: Bool) in OutputFormat.videoFormats.map { $0.pipePixelFormat(alpha: alpha) } }
        XCTAssertEqual(layouts(false), [.yuv420p, .bgra, .yuv420p, .rgba, .rgba])
        XCTAssertEqual(layouts(true), [.yuv420p, .bgra, .rgba, .rgba, .rgba])
        XCTAssertEqual(value(args(.webm, VideoOptions(alpha: true)), "-pix_fmt"), "rgba")
        XCTAssertEqual(PipePixelFormat.yuv420p.frameBytes(width: 64, height: 48), 64 * 48 * 3 / 2)
        XCTAssertEqual(PipePixelFormat.yuv420p.frameBytes(width: 63, height: 47), 63 * 47 + 2 * 32 * 24)
        XCTAssertEqual(PipePixelFormat.bgra.frameBytes(width: 63, height: 47), 63 * 47 * 4)
    }

    func testYUVStreamsAreTaggedBT709LimitedRange() {
        // Every YUV output carries the tags; where ffmpeg still converts RGBA (WebM with
        // alpha, MOV) it converts with the BT.709 matrix it tags, not its BT.601 default.
        for (f, o) in [(OutputFormat.mp4, VideoOptions()), (.webm, VideoOptions()), (.webm, VideoOptions(alpha: true)),
                       (.mov, VideoOptions()), (.mov, VideoOptions(alpha: true))] {
            let a = args(f, o)
            for (flag, v) in [("-colorspace", "bt709"), ("-color_primaries", "bt709"), ("-color_trc", "bt709"),
                              ("-color_range", "tv")] {
                XCTAssertEqual(value(a, flag), v, "\(f) \(flag)")
            }
            let converts = f.pipePixelFormat(alpha: o.alpha) != .yuv420p
            XCTAssertEqual(value(a, "-vf")?.hasPrefix("scale=out_color_matrix=bt709:out_range=tv,setparams="), converts ? true : nil,
                           "\(f) alpha \(o.alpha)")
        }
        XCTAssertNil(value(args(.gif), "-colorspace"))
        XCTAssertNil(value(args(.apng), "-colorspace"))
    }

    func testFormatProperties() {
        XCTAssertEqual(OutputFormat.videoFormats.filter(\.needsEvenSize), [.mp4])
        XCTAssertEqual(OutputFormat.videoFormats.filter { !$0.supportsAlpha }, [.mp4])
        XCTAssertEqual(OutputFormat.videoFormats.filter(\.canConcatenate), [.mp4, .webm, .mov])
        XCTAssertEqual(OutputFormat(fileExtension: "MOV"), .mov)
        XCTAssertEqual(FFmpeg.hex(Color(r: 1, g: 0, b: 0, a: 0.5)), "0xFF000080")
    }

    func testYUV4MPEGFormDescribesTheInputByItsHeaderAndChangesNothingElse() throws {
        var o = VideoOptions()
        o.quality = .crf(23)
        let raw = args(.mp4, o)
        let y = try XCTUnwrap(FFmpeg.yuv4mpegArguments(raw))
        XCTAssertEqual(Array(y.prefix(7)), ["-hide_banner", "-loglevel", "error", "-f", "yuv4mpegpipe", "-i", "-"])
        XCTAssertEqual(Array(y.dropFirst(7)), Array(raw.dropFirst(13)), "the output part is untouched")
        // The same for any size and rate: what the header says is no longer in the command.
        XCTAssertEqual(FFmpeg.yuv4mpegArguments(args(.mp4, o, width: 1920, height: 1080, fps: 60)), y)
        // Only a yuv420p input has the form; RGBA, BGRA and an audio track's inputs differ.
        XCTAssertNil(FFmpeg.yuv4mpegArguments(args(.gif)))
        XCTAssertNil(FFmpeg.yuv4mpegArguments(args(.mov)))
        XCTAssertNil(FFmpeg.yuv4mpegArguments(Array(raw.prefix(12))), "a truncated command")
    }

    func testYUV4MPEGHeaderCarriesSizeWholeRateSitingAndRange() {
        XCTAssertEqual(FFmpeg.yuv4mpegHeader(width: 960, height: 420, fps: 30).map { String(decoding: $0, as: UTF8.self) },
                       "YUV4MPEG2 W960 H420 F30:1 Ip A0:0 C420mpeg2 XCOLORRANGE=LIMITED\n")
        XCTAssertEqual(FFmpeg.yuv4mpegHeader(width: 33, height: 17, fps: 1).map { String(decoding: $0, as: UTF8.self) },
                       "YUV4MPEG2 W33 H17 F1:1 Ip A0:0 C420mpeg2 XCOLORRANGE=LIMITED\n")
        XCTAssertNil(FFmpeg.yuv4mpegHeader(width: 64, height: 48, fps: 29.97), "a decimal rate stays with -framerate")
        XCTAssertNil(FFmpeg.yuv4mpegHeader(width: 0, height: 48, fps: 30))
        XCTAssertEqual(FFmpeg.yuv4mpegFrameMarker, Array("FRAME\n".utf8))
    }
}
