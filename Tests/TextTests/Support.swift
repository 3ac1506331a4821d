import Foundation
import Geometry
import Text
import XCTest

/// The default font, loaded once for the tests that only read it.
let dejaVu: Font = {
    do { return try Font(path: FontLocator.locate()) } catch { fatalError("default font: \(error)") }
}()

/// Counts the subpaths of a path.
func subpathCount(_ p: Path) -> Int {
    p.elements.reduce(0) { n, e in if case .move = e { return n + 1 } else { return n } }
}

/// A minimal lock-protected box for collecting results across threads in tests.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock(); defer { lock.unlock() }
        return body(&value)
    }
}
