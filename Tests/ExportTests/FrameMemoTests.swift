import XCTest
import Raster
@testable import Export

final class FrameMemoTests: XCTestCase {
    func testAFrameSharingStorageIsEncodedOnce() {
        let memo = FrameMemo<Int>()
        var calls = 0
        var held = Pixmap(width: 8, height: 8, fill: Color.white.premultiplied)
        held.mayRepeat = true
        for _ in 0..<5 { XCTAssertEqual(memo.encoded(held) { _ in calls += 1; return 7 }, 7) }
        XCTAssertEqual(calls, 1)
    }

    /// A frame the renderer draws once (not `mayRepeat`) is encoded and not remembered,
    /// so nothing keeps its pixels from being recycled.
    func testAFrameDrawnOnceIsNotRemembered() {
        let memo = FrameMemo<Int>()
        var calls = 0
        let once = Pixmap(width: 8, height: 8, fill: Color.white.premultiplied)
        for _ in 0..<3 { _ = memo.encoded(once) { _ in calls += 1; return 1 } }
        XCTAssertEqual(calls, 3)
        var copy = once
        XCTAssertEqual(copy.storageAddress, once.storageAddress)
        copy.fill(Color.black.premultiplied)
        XCTAssertNotEqual(copy.storageAddress, once.storageAddress, "the memo held no reference, but `once` still does")
    }

    /// Equal pixels drawn separately are not matched (the key is the storage), and a
    /// frame changed after encoding (copied on write) is encoded again.
    func testSeparateStorageIsEncodedAgain() {
        let memo = FrameMemo<[UInt8]>(capacity: 3)
        var calls = 0
        func enc(_ p: Pixmap) -> [UInt8] { calls += 1; return Array(p.data.prefix(4)) }
        var a = Pixmap(width: 4, height: 4, fill: Color.white.premultiplied)
        var b = Pixmap(width: 4, height: 4, fill: Color.white.premultiplied)
        a.mayRepeat = true; b.mayRepeat = true
        _ = memo.encoded(a, enc)
        _ = memo.encoded(b, enc)
        XCTAssertEqual(calls, 2)
        var c = a
        c.setPixel(0, 0, PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
        XCTAssertFalse(c.mayRepeat, "a write clears the mark")
        XCTAssertEqual(memo.encoded(c, enc), [0, 0, 0, 255])
        XCTAssertEqual(memo.encoded(a, enc), [255, 255, 255, 255])
        XCTAssertEqual(calls, 3, "a is still remembered, c was new")
    }

    func testOnlyTheLastTwoAndOnlySmallFramesAreHeld() {
        let memo = FrameMemo<Int>(capacity: 2, maxFrameBytes: 16 * 16 * 4)
        var calls = 0
        let frames = (0..<3).map { _ in var p = Pixmap(width: 16, height: 16); p.mayRepeat = true; return p }
        for f in frames { _ = memo.encoded(f) { _ in calls += 1; return 0 } }
        _ = memo.encoded(frames[0]) { _ in calls += 1; return 0 }  // evicted
        _ = memo.encoded(frames[2]) { _ in calls += 1; return 0 }  // held
        XCTAssertEqual(calls, 4)
        var big = Pixmap(width: 17, height: 16)
        big.mayRepeat = true
        _ = memo.encoded(big) { _ in calls += 1; return 0 }
        _ = memo.encoded(big) { _ in calls += 1; return 0 }
        XCTAssertEqual(calls, 6, "frames above maxFrameBytes are not held")
    }
}
