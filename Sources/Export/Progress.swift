import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reports export progress on standard error.
///
/// On a terminal it keeps one line up to date with `\r`: `frame 42/126  210 fps  0.4 s left`
/// (redrawn at most every 0.1 s, plus the last frame). Elsewhere (a log, CI) it prints a
/// line each time another 10 % of the frames is done. Pass `update` as the sequencer's
/// `progress` callback and call `finish` afterwards. The rate is wall-clock time since the
/// reporter was created; it only reports, and nothing rendered depends on it.
public final class ProgressReporter {
    /// Whether nothing is printed at all.
    public let quiet: Bool
    /// Whether the output is a terminal (one updating line) rather than a log (a line per 10 %).
    public let interactive: Bool

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
        self.output = output ?? { text in
            var bytes = Array(text.utf8)
            _ = bytes.withUnsafeMutableBytes { writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
        }
    }

    /// Records that `done` of `total` frames are finished.
    public func update(_ done: Int, _ total: Int) {
        guard !quiet, total > 0 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        if interactive {
            guard done >= total || now - lastDraw >= 100_000_000 else { return }
            lastDraw = now
            output("\r" + line(done, total, now) + "\u{1B}[K")
            drewLine = true
        } else {
            let decile = done * 10 / total
            guard decile > lastDecile else { return }
            lastDecile = decile
            output(line(done, total, now) + "  (\(decile * 10) %)\n")
        }
    }

    /// Ends the updating line on a terminal so later output starts on a fresh line.
    public func finish() {
        if !quiet && interactive && drewLine { output("\n") }
        drewLine = false
    }

    /// `frame 42/126  210 fps  0.4 s left`.
    private func line(_ done: Int, _ total: Int, _ now: UInt64) -> String {
        let seconds = Double(now - start) / 1e9
        var text = "frame \(done)/\(total)"
        guard seconds > 0, done > 0 else { return text }
        let fps = Double(done) / seconds
        text += "  " + String(format: fps < 10 ? "%.1f" : "%.0f", fps) + " fps"
        if done < total { text += "  " + String(format: "%.1f", Double(total - done) / fps) + " s left" }
        return text
    }
}
