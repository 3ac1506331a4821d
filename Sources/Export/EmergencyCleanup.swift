// What is left to clean up when chartreel must exit at once.
import Foundation

/// What a chartreel that must exit at once (a second signal, or a first one not obeyed
/// within the grace) cleans up: the children still running and the temporary outputs
/// not yet renamed into place. Sinks register what they create and unregister it when
/// it is renamed or removed.
public enum EmergencyCleanup {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var children: Set<pid_t> = []
    nonisolated(unsafe) private static var partials: [String: Int] = [:]
    nonisolated(unsafe) private static var displaced: [String: String] = [:]

    static func addChild(_ pid: pid_t) { lock.lock(); children.insert(pid); lock.unlock() }
    static func removeChild(_ pid: pid_t) { lock.lock(); children.remove(pid); lock.unlock() }

    /// Records a temporary file or directory that must not outlive the process.
    public static func addPartial(_ path: String) { lock.lock(); partials[path, default: 0] += 1; lock.unlock() }
    /// Forgets a temporary path (renamed into place or removed).
    public static func removePartial(_ path: String) {
        lock.lock()
        if let n = partials[path] { partials[path] = n > 1 ? n - 1 : nil }
        lock.unlock()
    }

    /// Records an earlier output moved aside to `aside` while its replacement is renamed to
    /// `original`: at an emergency exit it is put back when `original` is free, never deleted.
    static func addDisplaced(_ aside: String, original: String) { lock.lock(); displaced[aside] = original; lock.unlock() }
    /// Forgets a displaced output (deleted after its replacement took its place, or put back).
    static func removeDisplaced(_ aside: String) { lock.lock(); displaced[aside] = nil; lock.unlock() }

    /// SIGKILLs every child and removes every registered temporary path. For the last
    /// moments of a process: call it, then `_exit`.
    public static func run() {
        lock.lock()
        let pids = children, paths = Array(partials.keys), moved = displaced
        lock.unlock()
        for p in pids { kill(-p, SIGKILL); kill(p, SIGKILL) }
        for p in paths { try? FileManager.default.removeItem(atPath: p) }
        for (aside, original) in moved {
            var st = stat()
            if lstat(original, &st) != 0 { rename(aside, original) }
        }
    }
}
