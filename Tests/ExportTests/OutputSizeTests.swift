import XCTest
import Foundation
@testable import Export

/// The output size estimate compared with the free space before rendering (issue 22).
final class OutputSizeTests: XCTestCase {
    func testSizesReadAsPeopleWriteThem() {
        XCTAssertEqual(OutputSizeEstimate.describe(512), "512 bytes")
        XCTAssertEqual(OutputSizeEstimate.describe(241_920), "242 KB")
        XCTAssertEqual(OutputSizeEstimate.describe(3_600_000), "3.6 MB")
        XCTAssertEqual(OutputSizeEstimate.describe(7.73e13), "77 TB")
    }

    func testAnOutputFitsWhenItsEstimateIsAtMostTheFreeSpace() {
        XCTAssertFalse(OutputSizeEstimate(bytes: 10, freeBytes: 10).exceedsFreeSpace)
        XCTAssertTrue(OutputSizeEstimate(bytes: 11, freeBytes: 10).exceedsFreeSpace)
        XCTAssertFalse(OutputSizeEstimate(bytes: 1e18, freeBytes: nil).exceedsFreeSpace, "a stream has no free space to compare")
    }

    func testTheFreeSpaceOfADirectoryNotMadeYetIsItsParents() throws {
        let tmp = FileManager.default.temporaryDirectory.path
        let own = try XCTUnwrap(OutputSizeEstimate.freeSpace(inDirectoryOf: tmp, isDirectory: true))
        XCTAssertGreaterThan(own, 0)
        let unborn = try XCTUnwrap(OutputSizeEstimate.freeSpace(inDirectoryOf: tmp + "/no-such-\(UUID())/deeper/out.mp4",
                                                                isDirectory: false))
        // The same filesystem, read a moment later: within a few MB of each other.
        XCTAssertEqual(unborn, own, accuracy: 64e6)
    }

    func testAFilesystemWithoutASizeIsNotJudgedByItsFreeSpace() {
        // /proc reports 0 blocks in all and 0 free: no estimate can fit, so none is made.
        XCTAssertNil(OutputSizeEstimate.freeSpace(inDirectoryOf: "/proc/out.mp4", isDirectory: false))
    }
}
