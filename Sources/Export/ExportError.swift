import Foundation

/// An error from exporting frames: every failure a sink or the sequencer's plumbing can
/// report, each with a message that says what to do about it.
public enum ExportError: Error, Equatable, CustomStringConvertible {
    /// `ffmpeg` is not on PATH (or not executable at the path given). Video output needs it.
    case ffmpegMissing
    /// ffmpeg exited unsuccessfully. `status` is its exit status, or minus the signal
    /// number when a signal ended it; `stderrTail` is the last lines it printed.
    case ffmpegFailed(status: Int32, stderrTail: String)
    /// The output path already exists and overwriting was not asked for.
    case outputExists(String)
    /// A file or pipe operation failed; the payload names the path or pipe and the reason.
    case io(String)
    /// A sink was used against its contract: a frame of the wrong size, a non-positive
    /// frame rate, `write` before `begin`. The payload says which.
    case invalidArgument(String)
    /// The export was stopped by a signal (SIGINT from Ctrl-C, or SIGTERM) before it
    /// finished; the payload is the signal number. Temporary output has been removed.
    case interrupted(signal: Int32)
    /// The request cannot be carried out as asked (e.g. joining GIF chunks); the payload says why.
    case unsupported(String)
    /// An output chartreel will not write, decided before anything is rendered: a
    /// directory that holds more than frames, an input document, a device that cannot
    /// take the format as a stream. The payload names the path and the reason.
    case refused(String)
    /// ffmpeg reported success but the file it wrote is incomplete or unreadable (a full
    /// disk: ffmpeg 5.1 exits 0 after failing to write an MP4's index). The payload says
    /// what the check found; the file was removed and an earlier output kept.
    case verificationFailed(String)
    /// ffmpeg read no frame (or did not finish after the last one) for `seconds`: it was
    /// stopped. `stderrTail` is the last lines it printed.
    case stalled(seconds: Double, stderrTail: String)

    /// A message for people, suitable for printing after "error: ".
    public var description: String {
        switch self {
        case .ffmpegMissing:
            return "ffmpeg was not found on PATH; video output needs it. "
                + "Install it with `apt-get install ffmpeg` on Debian/Ubuntu "
                + "(`brew install ffmpeg` on macOS), or write PNG frames instead."
        case .ffmpegFailed(let status, let tail):
            if status == -25 {
                return "ffmpeg was stopped by the file size limit (SIGXFSZ): the disk is full or a size limit (ulimit -f) is set"
            }
            let how = status < 0 ? "was killed by signal \(-status)"
                : status == 0 ? "stopped reading frames before the last one" : "exited with status \(status)"
            let trimmed = tail.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? "ffmpeg \(how) and printed nothing"
                                   : "ffmpeg \(how):\n\(trimmed)"
        case .outputExists(let path):
            return "\(path) already exists; remove it or ask to overwrite it"
        case .io(let what):
            return what
        case .invalidArgument(let what):
            return "invalid export request: \(what)"
        case .interrupted(let signal):
            return "interrupted by \(Self.signalName(signal)); nothing was written"
        case .unsupported(let what):
            return what
        case .refused(let what):
            return what
        case .verificationFailed(let what):
            return "the output ffmpeg wrote is broken, so it was removed (an earlier file of that name is kept): \(what)"
        case .stalled(let seconds, let tail):
            let trimmed = tail.trimmingCharacters(in: .whitespacesAndNewlines)
            let base = "ffmpeg took no frame for \(seconds) s and was stopped (the limit is set with --stall-timeout)"
            return trimmed.isEmpty ? base : base + "; its last output:\n" + trimmed
        }
    }

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, or `signal N`.
    public static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case SIGQUIT: return "SIGQUIT"
        default: return "signal \(signal)"
        }
    }
}
