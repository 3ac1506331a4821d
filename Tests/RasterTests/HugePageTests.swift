import Foundation
import XCTest
@testable import Raster

/// Frame-sized storage is advised into transparent huge pages before its first write
/// (`Pixmap.hugePageBytes`, `crk_advise_huge`): Linux marks such a mapping `hg` in the
/// VmFlags of /proc/self/smaps.
final class HugePageTests: XCTestCase {
    /// The VmFlags of the mapping holding `address`, from /proc/self/smaps; nil when none
    /// holds it or the file cannot be read.
    func vmFlags(at address: UInt) -> [Substring]? {
        // Read to the end: /proc files report a size of 0.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile(),
              let smaps = String(data: data, encoding: .utf8) else { return nil }
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let ends = range.split(separator: "-")
                if ends.count == 2, let lo = UInt(ends[0], radix: 16), let hi = UInt(ends[1], radix: 16) {
                    inside = lo <= address && address < hi
                    continue
                }
            }
            if inside && line.hasPrefix("VmFlags:") { return Array(fields.dropFirst()) }
        }
        return nil
    }

    func testFrameSizedPixmapsAndLayersAreAdvised() throws {
        // Only where the kernel has transparent huge pages (madvise is refused otherwise).
        guard FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled") else { return }
        let huge: UInt = 2 << 20
        func alignedInside(_ p: UnsafeRawPointer, _ count: Int) -> UInt {
            let base = UInt(bitPattern: p), a = (base + huge - 1) & ~(huge - 1)
            XCTAssertLessThanOrEqual(a + huge, base + UInt(count), "a 1080p frame holds a whole aligned 2 MB page")
            return a
        }
        for fill in [PremultipliedRGBA8.transparent, Color.white.premultiplied, Color(r: 0.2, g: 0.4, b: 0.6).premultiplied] {
            let p = Pixmap(width: 1920, height: 1080, fill: fill)
            let flags = try XCTUnwrap(vmFlags(at: alignedInside(p.storageAddress, p.data.count)))
            XCTAssertTrue(flags.contains("hg"), "fill \(fill): VmFlags \(flags)")
            XCTAssertEqual(p.pixel(1919, 1079), fill)
        }
        // A layer of a 1080p canvas: drawn into while it is open.
        let c = Canvas(width: 1920, height: 1080)
        c.beginLayer(opacity: 0.5)
        let layer = c.pixmap
        let flags = try XCTUnwrap(vmFlags(at: alignedInside(layer.storageAddress, layer.data.count)))
        XCTAssertTrue(flags.contains("hg"), "layer: VmFlags \(flags)")
        c.endLayer()
    }
}
