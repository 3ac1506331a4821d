import Foundation
import Timelines
import Export

/// `chartreel batch DOC --table runs.csv -o 'out/{region}.mp4' [render options]`: one
/// render per row of the table, the row's columns as the document's parameters.
///
/// Rows run one after another, each on every core (a render already uses them all, and
/// two at once would only share them and double the memory). A row that fails is
/// reported with its row number and the others go on; the exit status is 1 at the end
/// if any failed.
func runBatch(_ args: [String]) throws {
    let a = try Arguments(args, flags: renderFlags, valued: renderValued.union(["--table"]))
    if a.flag("-h", "--help") { print(batchHelp); return }
    guard a.positional.count == 1 else {
        throw UsageError("batch needs one document: chartreel batch DOC --table ROWS.csv -o 'out/{column}.mp4'")
    }
    let document = a.positional[0]
    guard let tablePath = a.value("--table") else { throw UsageError("batch needs a table of runs: --table ROWS.csv") }
    guard let template = a.value("-o", "--output") else { throw UsageError("batch needs an output name: -o 'out/{column}.mp4'") }
    if template == "-" { throw UsageError("batch writes files; -o - (stdout) cannot hold several videos") }
    let table = try readRunTable(tablePath)

    // What the output name uses must be columns; every other column must be a parameter.
    let used = placeholders(in: template)
    for name in used where !table.header.contains(name) {
        throw UsageError("-o \(template) uses {\(name)}, but \(tablePath) has no column \"\(name)\"; its columns: "
                         + table.header.joined(separator: ", "))
    }
    if used.isEmpty && table.rows.count > 1 {
        throw UsageError("-o \(template) names no column, so every row would write the same file; use a column, e.g. -o 'out/{\(table.header[0])}.mp4'")
    }
    // The names the document declares (read plainly: a parameter without a default cannot
    // be decoded until a row gives it).
    let declared = declaredParameters(document)
    for column in table.header where !used.contains(column) && !declared.contains(column) {
        throw UsageError("\(tablePath): column \"\(column)\" is not a parameter of \(document) and not used in -o"
                         + (declared.isEmpty ? " (the document declares no \"params\")" : " (it declares \(declared.joined(separator: ", ")))"))
    }
    // Every row its own file, named before anything is rendered.
    var outputs: [String] = []
    for (i, row) in table.rows.enumerated() {
        let name = fill(template, row: row, header: table.header)
        if let j = outputs.firstIndex(of: name) {
            throw UsageError("rows \(j + 1) and \(i + 1) of \(tablePath) both write \(name); make -o name a column that differs")
        }
        outputs.append(name)
    }

    let json = a.flag("--json")
    // One trap for the whole batch, its token given to every render: Ctrl-C stops the
    // render under way (its temporary file removed) or the batch between two renders, and
    // a signal between two renders is not taken for the next one's.
    let trap = SignalTrap()
    defer { trap.release() }
    var results: [(row: Int, output: String, summary: RenderSummary?, error: String?)] = []
    for (i, row) in table.rows.enumerated() {
        if let stop = trap.token.error { throw stop }
        let output = outputs[i]
        let values = zip(table.header, row).compactMap { column, cell -> DocumentInputs.ParameterValue? in
            guard let cell, declared.contains(column) else { return nil }
            return DocumentInputs.ParameterValue(flag: "\(tablePath) row \(i + 1), column \(column)", name: column, text: cell)
        }
        let directory = (output as NSString).deletingLastPathComponent
        do {
            if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
            let summary = try render(document: document, output: output, a, extra: values, quietSummary: true,
                                     showProgress: isatty(STDERR_FILENO) == 1 && !a.flag("-q", "--quiet"),
                                     cancellation: trap.token)
            results.append((i + 1, output, summary, nil))
            if !a.flag("-q", "--quiet"), let summary {
                report("[\(i + 1)/\(table.rows.count)] row \(i + 1): \(output)  \(summary.frames) frames in "
                       + String(format: "%.2f s", summary.renderSeconds) + (summary.bytes.map { ", " + describeBytes($0) } ?? ""))
            }
        } catch let e as InterruptedExport {
            throw e
        } catch let e as ExportError {
            if case .interrupted = e { throw e }
            let message = outcome(of: e).message
            results.append((i + 1, output, nil, message))
            report("[\(i + 1)/\(table.rows.count)] row \(i + 1) failed: \(output)\n\(message)")
        } catch {
            let message = outcome(of: error).message
            results.append((i + 1, output, nil, message))
            report("[\(i + 1)/\(table.rows.count)] row \(i + 1) failed: \(output)\n\(message)")
        }
    }

    let failed = results.filter { $0.error != nil }
    if json {
        printJSON(["document": document, "table": tablePath, "videos": results.map { r -> [String: Any] in
            var o = r.summary?.json ?? ["output": r.output]
            o["row"] = r.row
            o["ok"] = r.error == nil
            if let e = r.error { o["error"] = e }
            return o
        }, "failed": failed.count] as [String: Any])
    } else if !a.flag("-q", "--quiet") {
        var rows = [["row", "output", "result", "frames", "time", "size"]]
        for r in results {
            if let s = r.summary {
                rows.append(["\(r.row)", r.output, "ok", "\(s.frames)", String(format: "%.2f s", s.renderSeconds),
                             s.bytes.map(describeBytes) ?? ""])
            } else {
                rows.append(["\(r.row)", r.output, r.error == nil ? "planned" : "FAILED", "", "", ""])
            }
        }
        report("")
        for line in tableLines(rows, rightAligned: [0, 3, 4, 5]) { report(line) }
    }
    if !failed.isEmpty {
        throw ExitStatus(message: "error: \(failed.count) of \(results.count) videos failed (row\(failed.count == 1 ? "" : "s") "
                                  + failed.map { "\($0.row)" }.joined(separator: ", ") + ")", code: 1)
    }
}

/// The names of the document's `"params"`, sorted; none when it cannot be read (each row
/// then reports the document's errors).
func declaredParameters(_ document: String) -> [String] {
    var info = stat()
    guard stat(document, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let data = FileManager.default.contents(atPath: document),
          let root = try? JSONParser.parse([UInt8](data)), case .object(let members) = root.value,
          let params = members.first(where: { $0.key == "params" }), case .object(let declared) = params.value.value
    else { return [] }
    return Set(declared.map(\.key)).sorted()
}

/// The table of runs: a header of column names, then one row per video.
func readRunTable(_ path: String) throws -> CSVText {
    var info = stat()
    guard stat(path, &info) == 0 else { throw UsageError("--table \(path): no such file") }
    guard info.st_mode & S_IFMT == S_IFREG else { throw UsageError("--table \(path): not a regular file; expected a CSV file") }
    guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("--table \(path): cannot be read") }
    do {
        return try CSVReader.read([UInt8](data), file: path)
    } catch {
        throw UsageError("--table \(error)")
    }
}

/// The column names `{name}` in an output template, in order, without repeats.
func placeholders(in template: String) -> [String] {
    var names: [String] = []
    for case .column(let name) in templateParts(template) where !names.contains(name) { names.append(name) }
    return names
}

/// A piece of an output template: text as it is, or a `{column}`.
enum TemplatePart: Equatable {
    case text(String), column(String)
}

/// `template` split at its `{column}` placeholders, by Unicode scalars (a brace followed
/// by a combining mark is still a brace).
func templateParts(_ template: String) -> [TemplatePart] {
    let s = template.unicodeScalars
    var parts: [TemplatePart] = []
    var from = s.startIndex
    while let open = s[from...].firstIndex(of: "{"), let close = s[open...].firstIndex(of: "}") {
        parts.append(.text(String(Substring(s[from..<open]))))
        parts.append(.column(String(Substring(s[s.index(after: open)..<close]))))
        from = s.index(after: close)
    }
    parts.append(.text(String(Substring(s[from...]))))
    return parts
}

/// `template` with each `{column}` replaced by the row's cell, in one pass (a cell that
/// reads "{other}" stays that text). A `/` in a cell becomes `_`, and a cell that is "."
/// or ".." becomes "_" or "__", so a value cannot move the output into another folder.
func fill(_ template: String, row: [String?], header: [String]) -> String {
    let cells = Dictionary(zip(header, row), uniquingKeysWith: { first, _ in first })
    return templateParts(template).map { part -> String in
        switch part {
        case .text(let text): return text
        case .column(let name):
            guard let cell = cells[name] else { return "{\(name)}" }
            let value = (cell ?? "").replacingScalars { $0 == "/" ? "_" : nil }
            return value == "." || value == ".." ? String(repeating: "_", count: value.count) : value
        }
    }.joined()
}

/// `312 KB`.
func describeBytes(_ n: Int) -> String { OutputSizeEstimate.describe(Double(n)) }

/// `table` as lines in columns two spaces apart; the columns in `rightAligned` align right.
func tableLines(_ table: [[String]], rightAligned: Set<Int>) -> [String] {
    let widths = (0..<table[0].count).map { c in table.map { $0[c].count }.max()! }
    return table.map { row in
        row.enumerated().map { c, cell in
            rightAligned.contains(c) ? String(repeating: " ", count: widths[c] - cell.count) + cell
                                     : cell + String(repeating: " ", count: widths[c] - cell.count)
        }.joined(separator: "  ")
    }.map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) }
}
