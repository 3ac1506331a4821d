import Foundation
import Timelines
import Export

/// Entry point: dispatches to a command and maps errors to exit codes
/// (0 success, 1 rendering or encoding failure, 2 bad usage or bad document).
func main() -> Int32 {
    var args = Array(CommandLine.arguments.dropFirst())
    guard let command = args.first else {
        FileHandle.standardError.write((mainHelp + "\n").data(using: .utf8)!)
        return 2
    }
    args.removeFirst()
    do {
        switch command {
        case "render": try runRender(args)
        case "frame": try runFrame(args)
        case "--version", "version": print("chartreel \(version)")
        case "--help", "-h", "help": print(mainHelp)
        default: throw UsageError("unknown command \"\(command)\"; commands: render, frame")
        }
        return 0
    } catch let e as UsageError {
        report("error: \(e.message)\nrun `chartreel \(command == "render" || command == "frame" ? command + " " : "")--help` for usage")
        return 2
    } catch let e as DocumentErrors {
        report(e.description)
        return 2
    } catch {
        report("error: \(error)")
        return 1
    }
}

func report(_ s: String) {
    FileHandle.standardError.write((s + "\n").data(using: .utf8)!)
}

exit(main())
