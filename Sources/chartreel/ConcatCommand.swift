import Foundation
import Export

/// `chartreel concat PART… -o OUT`: joins chunks rendered with `--frames A..<B`.
func runConcat(_ args: [String]) throws {
    let a = try Arguments(args, flags: ["-y", "--overwrite", "-q", "--quiet", "-h", "--help"],
                          valued: ["-o", "--output", "--format"])
    if a.flag("-h", "--help") { print(concatHelp); return }
    guard !a.positional.isEmpty else { throw UsageError("concat needs the parts: chartreel concat PART... -o OUT") }
    guard let output = a.value("-o", "--output") else { throw UsageError("concat needs an output: -o OUT") }
    let format = try resolveFormat(explicit: a.value("--format"), output: output)
    let overwrite = a.flag("-y", "--overwrite")
    let start = DispatchTime.now().uptimeNanoseconds
    if format != .rgba { removeStalePartials(of: output) }
    switch format {
    case .png:
        let n = try Concatenation.joinFrameDirectories(a.positional, output: output, overwrite: overwrite)
        if !a.flag("-q", "--quiet") { report("chartreel: joined \(a.positional.count) parts, \(n) frames -> \(output)") }
    case .rgba:
        throw UsageError("raw RGBA streams join with cat: cat PART... > OUT")
    default:
        guard format.canConcatenate else {
            throw UsageError("\(format.rawValue.uppercased()) chunks cannot be joined without re-encoding; "
                             + "join MP4, WebM or MOV chunks, or PNG frame directories")
        }
        let trap = SignalTrap()
        defer { trap.release() }
        let joined = try Concatenation.joinVideos(a.positional, format: format, output: output, overwrite: overwrite,
                                                  cancellation: trap.token)
        if !a.flag("-q", "--quiet") {
            let secs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            report("chartreel: joined \(a.positional.count) parts, \(joined.frames) frames, in "
                   + String(format: "%.2f", secs) + " s -> \(output)"
                   + (fileSize(output).map { ", " + ProgressReporter.byteCount($0) } ?? ""))
        }
    }
}
