import Foundation

/// A flag another thread (a signal handler's queue, a UI) sets to stop an export.
///
/// `FrameSequencer.run` watches it: once cancelled, no new frame is started, the frame
/// the sink is waiting for stops being waited for, the sink is aborted (removing its
/// temporary output and stopping ffmpeg) and `run` throws the token's error.
public final class CancellationToken: @unchecked Sendable {
    private let lock = NSLock()
    private var reason: Error?
    private var handlers: [Int: @Sendable (Error) -> Void] = [:]
    private var nextHandler = 0

    /// Creates a token that is not cancelled.
    public init() {}

    /// Cancels with `error` (the error the export then throws). Only the first call counts.
    public func cancel(_ error: Error) {
        lock.lock()
        guard reason == nil else { lock.unlock(); return }
        reason = error
        let toCall = handlers.values
        handlers.removeAll()
        lock.unlock()
        for h in toCall { h(error) }
    }

    /// The error given to `cancel`, or nil while not cancelled.
    public var error: Error? {
        lock.lock(); defer { lock.unlock() }
        return reason
    }

    /// Calls `handler` once when the token is cancelled (at once if it already is) and
    /// returns a key for `removeHandler`. Handlers run on the cancelling thread.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable (Error) -> Void) -> Int {
        lock.lock()
        if let r = reason { lock.unlock(); handler(r); return -1 }
        let key = nextHandler
        nextHandler += 1
        handlers[key] = handler
        lock.unlock()
        return key
    }

    /// Forgets a handler registered with `onCancel`.
    public func removeHandler(_ key: Int) {
        lock.lock(); handlers[key] = nil; lock.unlock()
    }
}
