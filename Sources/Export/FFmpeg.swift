// How ChartReel finds and calls ffmpeg. The command lines live here, apart from the
// process plumbing in FFmpegSink.swift, so they can be read and tested on their own.
import Foundation

/// A video container and codec that ffmpeg produces from the frames.
public enum VideoFormat: String, CaseIterable, Sendable {
    /// H.264 in MP4 (libx264, CRF 18, yuv420p, faststart); sizes are padded to even numbers.
    case mp4
    /// An animated GIF with a per-video palette (palettegen / paletteuse), looping forever.
    case gif
}

/// Locating ffmpeg and building its command lines.
public enum FFmpeg {
    /// The first executable `ffmpeg` in the directories of `searchPath` (colon-separated;
    /// the `PATH` environment variable when nil), or nil when there is none.
    public static func locateFFmpeg(searchPath: String? = nil) -> String? {
        locate("ffmpeg", searchPath: searchPath)
    }

    /// The first executable named `name` in `searchPath` (or `PATH`).
    static func locate(_ name: String, searchPath: String? = nil) -> String? {
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = dir.hasSuffix("/") ? "\(dir)\(name)" : "\(dir)/\(name)"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Whether `path` is a regular file this process may execute.
    static func isExecutableFile(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }

    /// The arguments (after the program name) that make ffmpeg read raw straight-RGBA
    /// frames of `width` × `height` at `fps` from stdin and write `format` to `output`.
    ///
    /// MP4 uses yuv420p, whose chroma planes are subsampled 2×2 and so need even sizes:
    /// an odd width or height gets `-vf pad=ceil(iw/2)*2:ceil(ih/2)*2`, which adds one
    /// row or column on the right or bottom (black, since MP4 has no alpha).
    /// `-y` is there because `output` is our own temporary name, possibly left by a
    /// crashed run; the real target is never passed to ffmpeg.
    public static func arguments(format: VideoFormat, width: Int, height: Int, fps: Double,
                                 output: String) -> [String] {
        var args = ["-hide_banner", "-loglevel", "error",
                    "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)",
                    "-framerate", rate(fps), "-i", "-"]
        switch format {
        case .mp4:
            if width % 2 != 0 || height % 2 != 0 {
                args += ["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"]
            }
            args += ["-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p",
                     "-movflags", "+faststart", "-f", "mp4"]
        case .gif:
            args += ["-filter_complex",
                     "[0:v]split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=3:diff_mode=rectangle",
                     "-f", "gif", "-loop", "0"]
        }
        return args + ["-y", output]
    }

    /// A frame rate as ffmpeg parses it: an integer when it is one, else the shortest
    /// decimal that round-trips (ffmpeg turns it into a rational itself).
    static func rate(_ fps: Double) -> String {
        if fps == fps.rounded(), abs(fps) < 1e9 { return String(Int(fps)) }
        return "\(fps)"
    }
}
