// Counting the frames a finished video file holds by walking its container's own
// structure, the check made before a render's file is renamed into place.
//
// Why not ffprobe: starting it costs more than reading the file. ffprobe links every
// libav* library and their codecs; on the 2-core benchmark machine under load its start
// alone took 150-240 ms, 5-10 % of a 2-second MP4 render. The walks below read only box,
// chunk, block and element headers (mmap'd, so the frame data is never touched): well
// under a millisecond for a chart video. Every walk also checks that each structure ends
// inside the file, so a file cut short (a full disk) is caught even where a count would
// happen to match. `MediaProbe` (ffprobe) remains for `concat`, which compares codecs.
import Foundation

/// Reads the frame count of a finished MP4, MOV, GIF, APNG or WebM file from its container.
enum ContainerCheck {
    /// Why a file is not a complete video of its format.
    struct Incomplete: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    /// The number of video frames in the file at `path`, written as `format`.
    static func frameCount(of path: String, format: OutputFormat) throws -> Int {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw Incomplete("cannot read it: \(reason(error))")
        }
        return try data.withUnsafeBytes { raw -> Int in
            let b = raw.bindMemory(to: UInt8.self)
            switch format {
            case .mp4, .mov: return try isoFrames(b)
            case .gif: return try gifFrames(b)
            case .apng: return try apngFrames(b)
            case .webm: return try webmFrames(b)
            case .png, .rgba: throw Incomplete("not a video format")
            }
        }
    }

    private static func be32(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }

    private static func fourCC(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> String {
        String(decoding: b[i..<i + 4], as: UTF8.self)
    }

    // MARK: MP4 and MOV (ISO base media boxes)

    /// The boxes in `range`: (type, payload range), each checked to end inside the range.
    private static func boxes(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws -> [(String, Range<Int>)] {
        var out: [(String, Range<Int>)] = []
        var i = range.lowerBound
        while i < range.upperBound {
            guard i + 8 <= range.upperBound else { throw Incomplete("a box header is cut off at byte \(i)") }
            var size = be32(b, i), header = 8
            let type = fourCC(b, i + 4)
            if size == 1 {
                guard i + 16 <= range.upperBound else { throw Incomplete("a box header is cut off at byte \(i)") }
                size = be32(b, i + 8) << 32 | be32(b, i + 12)
                header = 16
            } else if size == 0 {
                size = range.upperBound - i
            }
            guard size >= header, size <= range.upperBound - i else {
                throw Incomplete("the \(type) box at byte \(i) runs past the end of the file")
            }
            out.append((type, (i + header)..<(i + size)))
            i += size
        }
        return out
    }

    private static func isoFrames(_ b: UnsafeBufferPointer<UInt8>) throws -> Int {
        let top = try boxes(b, 0..<b.count)
        guard top.contains(where: { $0.0 == "mdat" }) else { throw Incomplete("it has no media data (mdat)") }
        guard let moov = top.first(where: { $0.0 == "moov" }) else {
            throw Incomplete("it has no index (moov atom not found)")
        }
        for trak in try boxes(b, moov.1) where trak.0 == "trak" {
            guard let mdia = try boxes(b, trak.1).first(where: { $0.0 == "mdia" }) else { continue }
            let parts = try boxes(b, mdia.1)
            guard let hdlr = parts.first(where: { $0.0 == "hdlr" }), hdlr.1.count >= 12,
                  fourCC(b, hdlr.1.lowerBound + 8) == "vide",
                  let minf = parts.first(where: { $0.0 == "minf" }),
                  let stbl = try boxes(b, minf.1).first(where: { $0.0 == "stbl" }),
                  let stsz = try boxes(b, stbl.1).first(where: { $0.0 == "stsz" }), stsz.1.count >= 12 else { continue }
            return be32(b, stsz.1.lowerBound + 8)
        }
        throw Incomplete("it has no video track")
    }

    // MARK: GIF

    private static func gifFrames(_ b: UnsafeBufferPointer<UInt8>) throws -> Int {
        guard b.count >= 13, fourCC(b, 0) == "GIF8" else { throw Incomplete("it does not start with a GIF header") }
        var i = 13
        if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }
        var frames = 0
        func skipSubBlocks() throws {
            while true {
                guard i < b.count else { throw Incomplete("it ends inside frame \(frames)") }
                let n = Int(b[i])
                i += 1 + n
                if n == 0 { return }
            }
        }
        while true {
            guard i < b.count else { throw Incomplete("it ends after \(frames) frames, without the GIF trailer") }
            switch b[i] {
            case 0x3B:
                return frames
            case 0x21:
                i += 2
                try skipSubBlocks()
            case 0x2C:
                guard i + 10 <= b.count else { throw Incomplete("it ends inside frame \(frames)") }
                let packed = b[i + 9]
                i += 10
                if packed & 0x80 != 0 { i += 3 << (Int(packed & 7) + 1) }
                i += 1   // LZW minimum code size
                try skipSubBlocks()
                frames += 1
            default:
                throw Incomplete("an unknown GIF block (0x\(String(b[i], radix: 16))) at byte \(i)")
            }
        }
    }

    // MARK: APNG

    private static func apngFrames(_ b: UnsafeBufferPointer<UInt8>) throws -> Int {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard b.count >= 8, Array(b[0..<8]) == signature else { throw Incomplete("it does not start with a PNG signature") }
        var i = 8, frames = 0
        while true {
            guard i + 12 <= b.count else { throw Incomplete("it ends after \(frames) frames, without IEND") }
            let length = be32(b, i)
            let type = fourCC(b, i + 4)
            guard length <= b.count - i - 12 else { throw Incomplete("the \(type) chunk at byte \(i) is cut off") }
            if type == "fcTL" { frames += 1 }
            if type == "IEND" { return frames }
            i += 12 + length
        }
    }

    // MARK: WebM (Matroska EBML)

    /// An EBML variable-length integer at `i`: (value, length); `keepMarker` for element ids.
    private static func vint(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, keepMarker: Bool) throws -> (Int, Int, Bool) {
        guard i < b.count, b[i] != 0 else { throw Incomplete("a bad element header at byte \(i)") }
        let length = b[i].leadingZeroBitCount + 1
        guard length <= 8, i + length <= b.count else { throw Incomplete("an element header is cut off at byte \(i)") }
        var v = Int(keepMarker ? b[i] : b[i] & (0xFF >> length))
        var allOnes = v == (0xFF >> length)
        for k in 1..<length {
            v = v << 8 | Int(b[i + k])
            allOnes = allOnes && b[i + k] == 0xFF
        }
        return (v, length, !keepMarker && allOnes)
    }

    private static func webmFrames(_ b: UnsafeBufferPointer<UInt8>) throws -> Int {
        let segmentID = 0x18538067, clusterID = 0x1F43B675, simpleBlockID = 0xA3, blockGroupID = 0xA0, blockID = 0xA1
        var frames = 0, sawSegment = false
        /// The track number a block's payload at `i` starts with.
        func track(_ i: Int) throws -> Int { try vint(b, i, keepMarker: false).0 }
        /// Walks the elements in `range`, descending into a segment and its clusters.
        func walk(_ range: Range<Int>) throws {
            var i = range.lowerBound
            while i < range.upperBound {
                let (id, idLength, _) = try vint(b, i, keepMarker: true)
                let (size, sizeLength, unknown) = try vint(b, i + idLength, keepMarker: false)
                let start = i + idLength + sizeLength
                let end = unknown ? range.upperBound : start + size
                guard end <= range.upperBound else {
                    throw Incomplete("an element at byte \(i) runs past the end of the file (after \(frames) frames)")
                }
                switch id {
                case segmentID: sawSegment = true; try walk(start..<end)
                case clusterID: try walk(start..<end)
                // Only blocks of track 1, the video (an --audio track is track 2).
                case simpleBlockID: if try track(start) == 1 { frames += 1 }
                case blockGroupID:
                    var j = start
                    while j < end {
                        let (inner, innerLength, _) = try vint(b, j, keepMarker: true)
                        let (innerSize, innerSizeLength, _) = try vint(b, j + innerLength, keepMarker: false)
                        if inner == blockID, try track(j + innerLength + innerSizeLength) == 1 { frames += 1 }
                        j += innerLength + innerSizeLength + innerSize
                    }
                default: break
                }
                i = end
            }
        }
        try walk(0..<b.count)
        guard sawSegment else { throw Incomplete("it has no Matroska segment") }
        return frames
    }
}
