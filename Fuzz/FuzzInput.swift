/// The fuzzer's bytes read as a stream of choices, for targets that interpret their
/// input as a program rather than as a file.
///
/// Every read succeeds: past the end it yields zeros, so any prefix of an input is a
/// valid (shorter) program and libFuzzer's minimisation keeps working. Numbers are
/// drawn mostly from a table of values that break geometry code — NaN, ±∞, ±1e308,
/// denormals, values just past the canvas — and otherwise from raw bit patterns or
/// small integers, so both the edge cases and ordinary drawings are reached quickly.
struct FuzzInput {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = UnsafeBufferPointer(start: data, count: size)
    }

    var isAtEnd: Bool { position >= bytes.count }

    mutating func u8() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u64() -> UInt64 {
        var v: UInt64 = 0
        for _ in 0..<8 { v = v << 8 | UInt64(u8()) }
        return v
    }

    mutating func bool() -> Bool { u8() & 1 == 1 }

    /// A number in 0..<n (n ≥ 1).
    mutating func int(below n: Int) -> Int { Int(u8()) % n }

    static let special: [Double] = [
        0, -0.0, 1, -1, 0.5, 2, 1e-9, -1e-9, .nan, .infinity, -.infinity,
        1e308, -1e308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        .leastNonzeroMagnitude, .leastNormalMagnitude, 1e9, -1e9, 3e9, 1e18, 1e-300,
        Double(Int32.max), Double(Int32.min), Double(Int32.max) + 1, 9.007199254740993e15,
        0.1, 0.49999999999999994, 255.5, .pi, 2 * .pi, 1e5, -1e5,
    ]

    /// A double: special values, raw bits, or a small integer or half-integer.
    mutating func double() -> Double {
        let k = u8()
        switch k {
        case 0..<64: return Self.special[Int(k) % Self.special.count]
        case 64..<80: return Double(bitPattern: u64())
        case 80..<96: return Double(Int8(bitPattern: u8())) * 1000
        default: return Double(Int8(bitPattern: u8())) / 2
        }
    }

    /// A coordinate: mostly in and around a small canvas, sometimes anything `double()` gives.
    mutating func coordinate() -> Double {
        let k = u8()
        if k < 200 { return Double(k) / 2 - 20 + Double(u8()) / 256 }
        return double()
    }

    /// A string of at most `max` bytes taken from the input (lossy UTF-8).
    mutating func string(max: Int) -> String {
        let n = min(int(below: max + 1), bytes.count - min(position, bytes.count))
        let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + n]), as: UTF8.self)
        position += n
        return s
    }
}
