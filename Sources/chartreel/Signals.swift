import Dispatch
import Foundation
import Export

/// Turns SIGINT and SIGTERM into a cancelled `CancellationToken` while a command writes
/// output, so the export stops cleanly: ffmpeg is stopped, temporary files are removed and
/// the command exits 1 saying so. A second signal exits at once with the default action.
///
/// ffmpeg runs in its own process group (Foundation's Process puts it there), so Ctrl-C
/// at a terminal reaches only chartreel, and chartreel decides how ffmpeg ends.
final class SignalTrap {
    /// Cancelled by the first SIGINT or SIGTERM.
    let token = CancellationToken()
    private var sources: [DispatchSourceSignal] = []

    init() {
        for sig in [SIGINT, SIGTERM] {
            // Dispatch sources see signals only when the default action is off.
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            let token = self.token
            source.setEventHandler {
                if token.error != nil {
                    signal(sig, SIG_DFL)
                    kill(getpid(), sig)
                }
                token.cancel(ExportError.interrupted(signal: sig))
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Restores the default actions.
    func release() {
        for s in sources { s.cancel() }
        sources.removeAll()
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    deinit { release() }
}
