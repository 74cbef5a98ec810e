import ArgumentParser
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Logging
#if canImport(Glibc)
import Glibc
#endif

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import files directly (through the same code as the spool), with progress and a summary.",
        discussion: """
            The files are read where they are and not moved. A running daemon is told which types gained samples, so it syncs them.

            Every argument is tried, in order: one that is missing or not a regular file is reported and the others are still imported. A file identical to one imported before is reported as unchanged (not an error). A symbolic link given as an argument is followed.

            Exit status: 0 when every argument was imported (or was unchanged); 1 when any argument could not be imported: missing, a directory or another non-regular file, unreadable, or a file that failed or was imported only in part.
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "Files to import (each is tried; see the exit status below).", completion: .file()) var files: [String]
    @Flag(help: "Print the summary as JSON.") var json = false
    @Flag(name: .customLong("no-progress"), help: "No progress bar, even on a terminal.") var noProgress = false

    func run() throws {
        let configuration = try common.configuration()
        let logger = makeLogger("healthspool", level: "warning")
        let importer = DirectImport(store: try .connect(to: configuration), settings: configuration.settings,
                                    controlSocket: configuration.controlSocket, logger: logger)
        let showProgress = !noProgress && !json && isatty(2) == 1
        var failures = 0
        var summaries: [JSONValue] = []
        for argument in files {
            let path: String
            switch Self.resolve(argument) {
            case let .failure(problem):
                failures += 1
                let shown = EscapedText.escape(argument)
                if json {
                    summaries.append(.object([("file", .string(argument)), ("outcome", .string(problem.outcome)), ("reason", .string(problem.description))]))
                } else {
                    StandardError.write("\(shown): \(problem)\n")
                }
                continue
            case let .success(resolved):
                path = resolved
            }
            let size = FileSystem.regularFile(path)?.size ?? 0
            let bar = ProgressBar(total: size, label: FileSystem.baseName(argument), enabled: showProgress)
            let s = importer.importFile(path: path, name: FileSystem.baseName(argument)) { bytes, records in
                bar.update(bytes: bytes, records: records)
            }
            bar.finish()
            if s.outcome.isFailure { failures += 1 }
            if json { summaries.append(s.json) } else { print(s.text) }
        }
        if json {
            var w = JSONWriter()
            w.value(.array(summaries))
            print(w.text)
        }
        importer.tellDaemon()
        if failures > 0 { throw ExitCode(1) }
    }

    /// The path to read for an argument (symbolic links followed: the user named the file), or
    /// why it cannot be imported.
    static func resolve(_ argument: String) -> Result<String, CLIProblem> {
        var st = stat()
        guard stat(argument, &st) == 0 else {
            let e = errno
            return .failure(e == ENOENT ? CLIProblem("missing", "no such file") : CLIProblem("refused", String(cString: strerror(e))))
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(CLIProblem("refused", "is a directory; name the files in it"))
        default: return .failure(CLIProblem("refused", "not a regular file (a FIFO, socket or device)"))
        }
        guard let real = realpath(argument, nil) else { return .success(argument) }
        defer { free(real) }
        return .success(String(cString: real))
    }
}

/// Why one argument of `healthspool import` was not imported.
struct CLIProblem: Error, CustomStringConvertible {
    /// "missing" (no such file) or "refused" (not a regular file, unreadable).
    let outcome: String
    let description: String
    init(_ outcome: String, _ description: String) {
        self.outcome = outcome
        self.description = description
    }
}

/// A one-line progress bar on stderr: bytes, records/s, ETA.
final class ProgressBar {
    let total: Int64
    let label: String
    let enabled: Bool
    let started = RealTimeClock.now().millis
    var lastDraw: Int64 = 0

    init(total: Int64, label: String, enabled: Bool) {
        self.total = total
        self.label = label
        self.enabled = enabled
    }

    func update(bytes: Int64, records: Int) {
        guard enabled else { return }
        let now = RealTimeClock.now().millis
        guard now - lastDraw >= 200 else { return }
        lastDraw = now
        let elapsed = max(1, now - started)
        let fraction = total > 0 ? min(1, Double(bytes) / Double(total)) : 0
        let width = 30
        let filled = Int(fraction * Double(width))
        let rate = Int(Double(records) * 1000 / Double(elapsed))
        let eta = fraction > 0.01 ? Int(Double(elapsed) * (1 - fraction) / fraction / 1000) : -1
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = "\r\(label.prefix(24)) [\(bar)] \(Int(fraction * 100))% \(bytes >> 20)/\(total >> 20) MiB \(rate) rec/s ETA \(eta < 0 ? "?" : "\(eta) s")   "
        StandardError.write(line)
    }

    func finish() {
        guard enabled, lastDraw > 0 else { return }
        StandardError.write("\r" + String(repeating: " ", count: 100) + "\r")
    }
}
