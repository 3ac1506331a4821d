import Foundation
import XCTest
import Raster
@testable import Export

/// A distinct opaque colour per frame index.
func frameColor(_ i: Int) -> PremultipliedRGBA8 {
    PremultipliedRGBA8(r: UInt8(truncatingIfNeeded: i &* 37 &+ 11), g: UInt8(truncatingIfNeeded: i &* 91 &+ 200),
                       b: UInt8(truncatingIfNeeded: i &* 53), a: 255)
}

/// A solid frame for index `i`: a pure function of the index, as a real render is.
func solidFrame(_ i: Int, width: Int = 8, height: Int = 6) -> Pixmap {
    Pixmap(width: width, height: height, fill: frameColor(i))
}

/// An error thrown on purpose by a test render or sink.
struct TestError: Error, Equatable { let index: Int }

/// A lock-protected counter of frames alive (render started, sink write not yet returned).
final class AliveCounter: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var alive = 0
    private(set) var maxAlive = 0
    private(set) var rendersStarted = 0
    private(set) var rendersRunning = 0

    func renderStarted() {
        lock.lock(); defer { lock.unlock() }
        alive += 1; maxAlive = max(maxAlive, alive)
        rendersStarted += 1; rendersRunning += 1
    }
    func renderEnded() { lock.lock(); rendersRunning -= 1; lock.unlock() }
    func delivered() { lock.lock(); alive -= 1; lock.unlock() }
    var snapshot: (started: Int, running: Int) {
        lock.lock(); defer { lock.unlock() }
        return (rendersStarted, rendersRunning)
    }
}

/// A sink that records what it is given and can fail on purpose.
final class RecordingSink: FrameSink {
    var indices: [Int] = []
    var frames: [Pixmap] = []
    var began = 0, finished = 0, aborted = 0
    var failAt: Int?
    var onWrite: ((Int) -> Void)?
    var writeThread: Thread?
    var sameThread = true

    func begin(width: Int, height: Int, fps: Double, frameCount: Int) throws { began += 1 }
    func write(_ frame: Pixmap, index: Int) throws {
        if let t = writeThread, t != Thread.current { sameThread = false }
        writeThread = Thread.current
        if index == failAt { throw TestError(index: index) }
        indices.append(index)
        frames.append(frame)
        onWrite?(index)
    }
    func finish() throws { finished += 1 }
    func abort() { aborted += 1 }
}

/// A fresh empty directory under the system temp directory, removed at the end of the test.
func makeTempDirectory(_ test: XCTestCase) throws -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("chartreel-export-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}

func listing(_ dir: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
}

/// Runs a program and returns its exit status and standard output.
func runTool(_ path: String, _ args: [String]) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}
