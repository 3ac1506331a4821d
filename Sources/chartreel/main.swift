import Foundation
import Timelines
import Export
import CMalloc

/// The commands, for dispatch and messages.
let commands = ["render", "batch", "watch", "preview", "frame", "sheet", "diff", "validate", "concat", "easings"]

/// Keeps freed frame-sized blocks in the process for the next frame. By default glibc
/// serves blocks above 128 KiB (raised adaptively, but only after frees) with fresh
/// mmaps, so every 1.9 MB frame, layer and encoded buffer of an 800×600 video arrived
/// as ~470 zero-filled page faults: a third of the curved-line video's CPU time went
/// to the kernel (19,800 faults for 126 frames). Blocks up to 4 MiB now come from the
/// heap, which is not trimmed between frames: ~7,000 faults and 20 % less CPU. Larger
/// blocks (1080p and 4K frames, the rasterizer's cells for a 100,000-point line) keep
/// their own mappings, which go back to the system when freed: served from the heap
/// too (threshold 32 MiB), they left holes that raised the 100,000-row line chart's
/// peak from ~230 to ~287 MB (scripts/bench --load).
/// Gives the heap freed after decoding back to the system. With trimming off (above),
/// the rows, marks and tables of a big document stayed resident beside the frames being
/// drawn: the 100,000-row line chart decodes through ~70 MB of them, and its render held
/// them all the way through.
func releaseDecodingMemory() { _ = malloc_trim(0) }

func tuneAllocator() {
    _ = mallopt(M_MMAP_THRESHOLD, 4 << 20)
    _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
}

/// Entry point: dispatches to a command and maps errors to exit codes
/// (0 success, 1 failure while rendering or encoding or images that differ,
/// 2 bad usage, bad document, unreadable input or an output chartreel will not write,
/// 128 + N stopped by signal N: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
func main() -> Int32 {
    // A full disk or a file-size limit (ulimit -f) must make writes fail with EFBIG, which
    // the sinks turn into an error and a clean-up, not kill the process mid-file. A handler
    // rather than SIG_IGN: an ignored signal stays ignored in ffmpeg after exec, and ffmpeg
    // then finishes "successfully" with a truncated file; a caught one is reset to the
    // default there, so ffmpeg is stopped and the failure reported.
    signal(SIGXFSZ) { _ in }
    guardStandardDescriptors()
    // Before any thread exists, so that every thread inherits the block (SignalRouter);
    // after the standard descriptors are in place, so its signalfd is not one of them.
    SignalRouter.start()
    tuneAllocator()
    var args = Array(CommandLine.arguments.dropFirst())
    guard let command = args.first else {
        report(mainHelp)
        return 2
    }
    args.removeFirst()
    do {
        switch command {
        case "render": try runRender(args)
        case "batch": try runBatch(args)
        case "watch": try runWatch(args)
        case "preview": try runPreview(args)
        case "frame": try runFrame(args)
        case "sheet": try runSheet(args)
        case "diff": try runDiff(args)
        case "validate": try runValidate(args)
        case "concat": try runConcat(args)
        case "easings": try runEasings(args)
        case "--version", "version": print("chartreel \(version)")
        case "--help", "-h", "help": print(mainHelp)
        default: throw UsageError("unknown command \"\(command)\"; commands: \(commands.joined(separator: ", "))")
        }
        return 0
    } catch let e as UsageError {
        report("error: \(e.message)\nrun `chartreel \(commands.contains(command) ? command + " " : "")--help` for usage")
        return 2
    } catch {
        let (message, code) = outcome(of: error)
        report(message)
        return code
    }
}

/// The message and exit code of a command's error (see `main`).
func outcome(of error: Error) -> (message: String, code: Int32) {
    switch error {
    case let e as UsageError: return ("error: \(e.message)", 2)
    case let e as DocumentErrors: return (e.description, 2)
    case let e as InputError: return ("error: \(e)", 2)
    case let e as UnreadableInput: return ("error: \(e)", 2)
    case let e as InterruptedExport: return ("error: \(e)", 128 + e.signal)
    case let e as ImagesDiffer: return (e.description, 1)
    case let e as ExportError:
        switch e {
        case .interrupted(let signal): return ("error: \(e)", 128 + signal)
        // Exit 1 as before; the command line names its option.
        case .outputExists(let path): return ("error: \(path) already exists; remove it, or pass -y (--overwrite) to replace it", 1)
        case .refused(let why): return ("error: \(why)", 2)
        default: return ("error: \(e)", 1)
        }
    case let e as ExitStatus: return (e.message, e.code)
    default: return ("error: \(error)", 1)
    }
}

/// A command that ends with a given status and message (a batch with failed rows).
struct ExitStatus: Error {
    var message: String
    var code: Int32
}

/// Whether standard output was closed when chartreel started (`>&-`).
nonisolated(unsafe) var standardOutputWasClosed = false

/// Puts /dev/null on any of descriptors 0-2 that is closed, so no file or pipe opened
/// later lands there (frames meant for stdout would go into it), and remembers a
/// closed stdout for `requireStandardOutput`.
func guardStandardDescriptors() {
    for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) < 0 {
        if fd == STDOUT_FILENO { standardOutputWasClosed = true }
        let null = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY)
        if null >= 0 && null != fd { dup2(null, fd); close(null) }
    }
}

/// Refuses to write to a standard output that was closed.
func requireStandardOutput() throws {
    if standardOutputWasClosed {
        throw ExportError.refused("standard output is closed; redirect it to a file or a program (> FILE, | PROGRAM)")
    }
}

/// Prints a line on standard error.
func report(_ s: String) {
    writeToStandardError(s + "\n")
}

exit(main())
