// How much memory a render may take, estimated from its inputs before they are read.
//
// A document is untrusted input, and its data can be far larger than the machine: a
// 118 MB CSV of 10,000,000 rows took 5.2 GB, and a process the kernel kills for it
// leaves no message. So each input is charged an estimate before it is read, and an
// input that would take the running total above the limit (`--max-memory`) stops the
// document with exit 2, naming the input and the estimate.
//
// The factors are measured peaks of whole renders divided by the input's size, rounded
// up (scripts/bench --load; 2026-12-02): a 15 MB CSV of 1,000,000 rows peaked at
// 515 MB (34 bytes per byte); documents of inline rows, parsed onto the tape
// (JSONTape.swift) and read into columns, at 7.2-7.7 bytes per byte (42 MB of one or of
// twelve series at 303 and 312 MB, 200 MB at 1,312 MB; the tree of values before the
// tape took 81).

#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The memory estimate of a render's inputs, and the limit it is held to.
public enum MemoryBudget {
    /// Bytes of memory per byte of a timeline document (its text, its tape and its inline rows).
    public static let perDocumentByte = 10
    /// Bytes of memory per byte of a CSV file (its typed rows and what is built of them).
    public static let perCSVByte = 40
    /// What a render takes before any input: the program, fonts, caches.
    public static let base = 32 << 20

    /// The estimate for a document of `documentBytes` whose CSV files hold `csvBytes`.
    public static func inputs(documentBytes: Int, csvBytes: Int) -> Int {
        base + documentBytes.multipliedReportingOverflow(by: perDocumentByte).partialValue
            + csvBytes.multipliedReportingOverflow(by: perCSVByte).partialValue
    }

    /// The memory this process may use, and what limits it: the smallest of physical
    /// memory, the control group's `memory.max` (a container's limit) and the address
    /// space and data limits (`ulimit -v`, `ulimit -d`).
    public static func available() -> (bytes: Int, limitedBy: String) {
        var best = (bytes: Int.max, limitedBy: "nothing")
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
        if pages > 0 && size > 0 { best = (pages * size, "physical memory") }
        if let text = try? String(contentsOfFile: "/sys/fs/cgroup/memory.max", encoding: .utf8),
           let v = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), v > 0, v < best.bytes {
            best = (v, "the control group's memory.max")
        }
        for (resource, name) in [(RLIMIT_AS.rawValue, "the address-space limit (ulimit -v)"),
                                 (RLIMIT_DATA.rawValue, "the data limit (ulimit -d)")] {
            var r = rlimit()
            if getrlimit(__rlimit_resource_t(resource), &r) == 0, r.rlim_cur != rlim_t.max,
               r.rlim_cur < UInt64(best.bytes) {
                best = (Int(r.rlim_cur), name)
            }
        }
        return best
    }

    /// The default limit: three quarters of what this process may use (`available`).
    public static func defaultLimit() -> Int {
        let a = available().bytes
        return a == Int.max ? Int.max : a / 4 * 3
    }

    /// Where the default limit comes from, for messages: "three quarters of 24 GB of physical memory".
    public static func defaultLimitSource() -> String {
        let a = available()
        return a.bytes == Int.max ? "no limit found" : "three quarters of \(describe(a.bytes)) of \(a.limitedBy)"
    }

    /// A size as people write it: `2G`, `512M`, `1.5GB`, `800MB`, `64k`, or bytes; nil when
    /// it is not one. Decimal units (1G = 10⁹ bytes), as `describe` prints them.
    public static func parse(_ text: String) -> Int? {
        var s = text.trimmingCharacters(in: .whitespaces).uppercased()
        if s.hasSuffix("B") { s.removeLast() }
        let scale: Double
        switch s.last {
        case "K": scale = 1e3
        case "M": scale = 1e6
        case "G": scale = 1e9
        case "T": scale = 1e12
        default: scale = 1
        }
        if scale != 1 { s.removeLast() }
        guard let v = Double(s), v.isFinite, v > 0, v * scale < 9e18 else { return nil }
        return Int(v * scale)
    }

    /// `1.3 GB`, `515 MB`: decimal units, two or three significant digits.
    public static func describe(_ bytes: Int) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB", "PB", "EB"]
        var v = Double(bytes), i = 0
        while v >= 1000 && i < units.count - 1 { v /= 1000; i += 1 }
        if i == 0 { return "\(Int(v)) bytes" }
        return String(format: v < 10 ? "%.1f" : "%.0f", v) + " " + units[i]
    }

    /// The message for an input that does not fit.
    static func overMessage(input: String, inputBytes: Int, total: Int, limit: Int, kind: String) -> String {
        "reading \(input) (\(describe(inputBytes))) would take the render to about \(describe(total)) of memory "
            + "(estimated from its inputs' sizes: \(kind)), over the limit of \(describe(limit)) (--max-memory"
            + (limit == defaultLimit() ? "; by default \(defaultLimitSource())" : "")
            + "); use a smaller input, or raise --max-memory"
    }
}
