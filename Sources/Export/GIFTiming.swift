// GIF frame delays: what ffmpeg's GIF muxer writes, and the highest rate browsers play.

/// GIF frame delays, as ffmpeg writes them.
///
/// A GIF delay is a whole number of hundredths of a second. ffmpeg's GIF muxer works in a
/// 1/100 s time base and rounds each frame's timestamp i / fps to the nearest hundredth;
/// a frame's delay is the difference to the next one. So at 30 fps the delays run
/// 3, 4, 3, 3, 4, 3 … and their running sum stays within half a hundredth of the true
/// time; no delay is below 2/100 s as long as fps ≤ 50.
public enum GIFTiming {
    /// The highest frame rate a GIF plays correctly: browsers turn delays under 2/100 s
    /// into 1/10 s, so faster GIFs would play several times too slowly.
    public static let maxFPS = 50.0

    /// The filter that appends one frame of an improbable colour (straight RGBA 1, 2, 3
    /// at alpha 1) to the palette branch, so palettegen's diff statistics count the last
    /// real frame (see `FFmpeg.arguments`).
    static let flushFrame = "tpad=stop=1:stop_mode=add:color=0x01020301"

    /// Frame `i`'s start in hundredths of a second: i × 100 / fps rounded to nearest.
    public static func timestamp(ofFrame i: Int, fps: Double) -> Int {
        Int((Double(i) * 100 / fps).rounded())
    }

    /// The delays of `frameCount` frames at `fps`, in hundredths; the last one lasts until
    /// the video's rounded end, plus `pause` seconds.
    public static func delays(frameCount: Int, fps: Double, pause: Double = 0) -> [Int] {
        guard frameCount > 0 else { return [] }
        var out = (0..<frameCount).map { timestamp(ofFrame: $0 + 1, fps: fps) - timestamp(ofFrame: $0, fps: fps) }
        out[frameCount - 1] += Int((pause * 100).rounded())
        return out
    }
}
