// What ffprobe says a finished file holds: the check that an output is complete before it
// is renamed into place, and that chunks match before they are joined.
//
// ffmpeg 5.1 exits 0 after "Error writing trailer … No space left on device": an MP4 cut
// off before its index, a GIF holding 205 of its 300 frames. So an exit status is not
// enough; the file is read back. `-count_packets` reads the container's packets without
// decoding them (a few milliseconds for a 300-frame video), and every format ChartReel
// writes has one packet per frame.
import Foundation

/// The first video stream of a media file, as ffprobe reads it.
public struct MediaProbe: Equatable, Sendable {
    /// The container (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `gif`, `apng`).
    public var container: String
    /// The codec (`h264`, `vp9`, `prores`, `gif`, `apng`).
    public var codec: String
    /// Frame width and height in pixels.
    public var width: Int, height: Int
    /// The pixel format (`yuv420p`, `yuva444p12le`, …).
    public var pixelFormat: String
    /// The frame rate as a fraction (`30/1`).
    public var frameRate: String
    /// The stream's time base (`1/15360`).
    public var timeBase: String
    /// The number of frames (packets) the container holds.
    public var frames: Int

    /// Probes `path` with the ffprobe beside `ffmpeg` (or on PATH).
    ///
    /// - Throws: `ExportError.verificationFailed` saying what ffprobe reported when the
    ///   file cannot be read as a video; `ExportError.ffmpegMissing` when there is no ffprobe.
    public static func probe(_ path: String, ffmpeg: String? = nil) throws -> MediaProbe {
        guard let ffprobe = locateFFprobe(besides: ffmpeg) else { throw ExportError.ffmpegMissing }
        let args = ["-v", "error", "-count_packets", "-select_streams", "v:0",
                    "-show_entries", "stream=codec_name,width,height,pix_fmt,r_frame_rate,time_base,nb_read_packets"
                        + ":format=format_name",
                    "-of", "default=noprint_wrappers=1", "--", path]
        let (status, out, err) = try capture(ffprobe, args)
        var fields: [String: String] = [:]
        for line in out.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        let problem = err.split(separator: "\n").last.map(String.init) ?? ""
        guard status == 0, let codec = fields["codec_name"], let w = fields["width"].flatMap({ Int($0) }),
              let h = fields["height"].flatMap({ Int($0) }), let n = fields["nb_read_packets"].flatMap({ Int($0) }) else {
            throw ExportError.verificationFailed(problem.isEmpty ? "it holds no video stream" : problem)
        }
        return MediaProbe(container: fields["format_name"] ?? "?", codec: codec, width: w, height: h,
                          pixelFormat: fields["pix_fmt"] ?? "?", frameRate: fields["r_frame_rate"] ?? "?",
                          timeBase: fields["time_base"] ?? "?", frames: n)
    }

    /// Checks that ffmpeg can read `path` as audio, before anything is rendered: a regular
    /// file (a FIFO would block ffprobe) whose first audio stream ffprobe decodes.
    ///
    /// - Returns: the audio's duration in seconds, when the container says.
    /// - Throws: `ExportError.refused` naming the file and what is wrong;
    ///   `ExportError.ffmpegMissing` when there is no ffprobe.
    public static func checkAudio(_ path: String, ffmpeg: String? = nil) throws -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { throw ExportError.refused("--audio \(path): no such file") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ExportError.refused("--audio \(path): not a regular file; expected an audio file")
        }
        guard let ffprobe = locateFFprobe(besides: ffmpeg) else { throw ExportError.ffmpegMissing }
        let args = ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_type,duration:format=duration",
                    "-of", "default=noprint_wrappers=1", "file:" + path]
        let (status, out, err) = try capture(ffprobe, args)
        let problem = (err.split(separator: "\n").last.map(String.init) ?? "").replacingOccurrences(of: "file:" + path, with: path)
        guard status == 0, out.contains("codec_type=audio") else {
            throw ExportError.refused("--audio \(path): ffmpeg cannot read it as audio"
                                      + (problem.isEmpty ? " (it holds no audio stream)" : ": \(problem)"))
        }
        for line in out.split(separator: "\n") where line.hasPrefix("duration=") {
            if let d = Double(line.dropFirst("duration=".count)) { return d }
        }
        return nil
    }

    /// ffprobe in the directory of `ffmpeg` when there is one there, else on PATH.
    static func locateFFprobe(besides ffmpeg: String?) -> String? {
        if let ffmpeg {
            let beside = (ffmpeg as NSString).deletingLastPathComponent + "/ffprobe"
            if FFmpeg.isExecutableFile(beside) { return beside }
        }
        return FFmpeg.locate("ffprobe")
    }

    /// How this stream differs from `other` in what joining without re-encoding needs to
    /// be equal, as `codec h264 against vp9`; nil when they match.
    public func mismatch(with other: MediaProbe) -> String? {
        let pairs: [(String, String, String)] = [
            ("container", container, other.container), ("codec", codec, other.codec),
            ("size", "\(width)x\(height)", "\(other.width)x\(other.height)"),
            ("pixel format", pixelFormat, other.pixelFormat), ("frame rate", frameRate, other.frameRate),
            ("time base", timeBase, other.timeBase),
        ]
        return pairs.first { $0.1 != $0.2 }.map { "\($0.0) \($0.2) against \($0.1)" }
    }
}
