import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reports export progress on standard error.
///
/// On a terminal it keeps one line up to date with `\r`:
/// `[#########···········]  42/126 frames  210 fps  0.4 s left` (redrawn at most every
/// 0.1 s, plus the last frame). Elsewhere (a log, CI) it prints a plain line each time
/// another 10 % of the frames is done. Pass `update` as the sequencer's `progress`
/// callback and call `finish` afterwards. The rate is wall-clock time since the reporter
/// was created; it only reports, and nothing rendered depends on it.
public final class ProgressReporter {
    /// Whether nothing is printed at all.
    public let quiet: Bool
    /// Whether the output is a terminal (one updating line) rather than a log (a line per 10 %).
    public let interactive: Bool
    /// The width of the bar in characters.
    static let barWidth = 24

    private let output: (String) -> Void
    private let start = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0
    private var lastDecile = 0
    private var drewLine = false

    /// Creates a reporter. `interactive` defaults to whether standard error is a terminal;
    /// `output` receives the text to print and defaults to writing it to standard error.
    public init(quiet: Bool = false, interactive: Bool? = nil, output: ((String) -> Void)? = nil) {
        self.quiet = quiet
        self.interactive = interactive ?? (isatty(STDERR_FILENO) == 1)
        self.output = output ?? { text in writeToStandardError(text) }
    }

    /// Records that `done` of `total` frames are finished.
    public func update(_ done: Int, _ total: Int) {
        guard !quiet, total > 0 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        if interactive {
            guard done >= total || now - lastDraw >= 100_000_000 else { return }
            lastDraw = now
            output("\r" + Self.bar(done, total) + "  " + rateText(done, total, now, frameWord: "frames") + "\u{1B}[K")
            drewLine = true
        } else {
            let decile = done * 10 / total
            guard decile > lastDecile else { return }
            lastDecile = decile
            output(rateText(done, total, now, frameWord: "frame", percent: decile * 10) + "\n")
        }
    }

    /// Ends the updating line on a terminal so later output starts on a fresh line.
    public func finish() {
        if !quiet && interactive && drewLine { output("\n") }
        drewLine = false
    }

    /// `[#########···········]`: the share of `done` in `total` as a bar.
    static func bar(_ done: Int, _ total: Int) -> String {
        let filled = total > 0 ? min(barWidth, done * barWidth / total) : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: "·", count: barWidth - filled) + "]"
    }

    /// `42/126 frames  210 fps  0.4 s left`, or in log form `frame 13/126 (10 %)  210 fps  1.2 s left`.
    private func rateText(_ done: Int, _ total: Int, _ now: UInt64, frameWord: String, percent: Int? = nil) -> String {
        let seconds = Double(now - start) / 1e9
        var text = percent == nil ? "\(done)/\(total) \(frameWord)" : "\(frameWord) \(done)/\(total) (\(percent!) %)"
        guard seconds > 0, done > 0 else { return text }
        let fps = Double(done) / seconds
        text += "  " + String(format: fps < 10 ? "%.1f" : "%.0f", fps) + " fps"
        if done < total { text += "  " + String(format: "%.1f", Double(total - done) / fps) + " s left" }
        return text
    }

    /// The closing line of an export: `126 frames in 1.02 s (124 fps) -> out.mp4, 312 KB`.
    public static func summary(frames: Int, seconds: Double, destination: String, bytes: Int?) -> String {
        var text = "\(frames) frame\(frames == 1 ? "" : "s") in " + String(format: "%.2f", seconds) + " s"
        if seconds > 0 { text += " (" + String(format: "%.0f", Double(frames) / seconds) + " fps)" }
        text += " -> \(destination)"
        if let b = bytes { text += ", " + byteCount(b) }
        return text
    }

    /// `312 KB`, `4.2 MB`: a size for people (powers of 1000, as file managers show).
    public static func byteCount(_ n: Int) -> String {
        if n < 1000 { return "\(n) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var v = Double(n) / 1000
        var u = 0
        while v >= 1000 && u < units.count - 1 { v /= 1000; u += 1 }
        return String(format: v < 10 ? "%.1f" : "%.0f", v) + " " + units[u]
    }
}

/// Writes text to standard error unbuffered, retrying partial writes.
public func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
}
