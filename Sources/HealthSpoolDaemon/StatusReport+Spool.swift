#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolCore
import HealthSpoolLinux

extension StatusBoard {
    /// The spool's part of the status file: the file waiting for a retry after a temporary
    /// failure, and changed settings that need a restart.
    func writeSpoolStatus(_ w: inout JSONWriter) {
        w.raw(",\"importWaiting\":")
        let backoff = intake.assumeIsolated { $0.backoff }   // same executor as the board: read in the same step as the rest of the status
        if let s = backoff.soonest {
            w.raw("{\"file\":"); w.string(s.file)
            w.raw(",\"cause\":"); w.string(s.cause)
            w.raw(",\"failures\":"); w.number(Int64(s.failures))
            w.raw(",\"files\":"); w.number(Int64(backoff.waiting.count))
            w.raw(",\"retryAt\":"); w.string(Timestamp(millis: s.retryAt).iso8601UTC)
            w.raw(",\"retryAtMillis\":"); w.number(s.retryAt)
            w.raw("}")
        } else {
            w.raw("null")
        }
        w.raw(",\"restartNeeded\":[")
        for (n, note) in restartNeeded.enumerated() {
            if n > 0 { w.raw(",") }
            w.string(note)
        }
        w.raw("]")
    }
}

extension StatusReport {
    /// The `spool` member: files waiting, refused (not regular files: left in the spool or
    /// moved to failed/), in failed/, the retry a temporary failure waits for, and settings
    /// that need a restart; and the directories of health data that others can open
    /// (`openDirectories`: the spool, its archive/ and failed/, the state directory).
    static func spoolMember(_ spool: SpoolDirectory, stateDir: String, live: JSONValue, now: Int64) -> JSONValue {
        let pending = (try? spool.pendingFiles()) ?? []
        // Not a `.reason`, nor a hidden file: a write's temporary name that a crash left
        // (`.NAME.reason.HEX.tmp`, SafeWrite) is no file that failed.
        let failed = ((try? FileSystem.list(spool.failed)) ?? []).filter {
            !$0.hasSuffix(".reason") && !$0.hasPrefix(".") && FileSystem.regularFile(spool.failed + "/" + $0) != nil
        }
        let refused = spool.refusedEntries()
        var waiting: JSONValue = .null
        if let w = live["importWaiting"], let cause = w["cause"]?.stringValue, let at = w["retryAtMillis"]?.doubleValue {
            let secs = max(0, (Int64(at) - now + 999) / 1000)
            let more = (w["files"]?.intValue ?? 1) - 1
            waiting = .object([("file", w["file"] ?? .null), ("cause", .string(cause)), ("retryAt", StatusReport.local(w["retryAt"])),
                               ("text", .string("waiting: \(cause), retrying in \(secs) s (\(w["file"]?.stringValue ?? "")\(more > 0 ? " and \(more) more" : ""))"))])
        }
        return .object([
            ("path", .string(spool.path)), ("pendingFiles", .number(Double(pending.count))),
            ("failedFiles", .number(Double(failed.count))), ("refused", .number(Double(refused.count))),
            ("refusedEntries", .array(refused.map { .string($0.refusal ?? $0.display) })),
            ("waiting", waiting),
            ("restartNeeded", live["restartNeeded"] ?? .array([])),
            ("openDirectories", .array(openDirectories([spool.path, spool.archive, spool.failed, stateDir]))),
        ])
    }

    /// Each directory of `paths` that group or others can read, write or enter (the daemon made
    /// them 0700; a person may have loosened one since): path, mode and what to do.
    static func openDirectories(_ paths: [String]) -> [JSONValue] {
        paths.compactMap { path in
            var st = stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_mode & 0o077 != 0 else { return nil }
            let mode = String(st.st_mode & 0o7777, radix: 8)
            return .object([("path", .string(path)), ("mode", .string(mode)),
                            ("text", .string("\(path) is open to other users (mode \(mode)): they can see or take your health files; run: chmod 700 \(path)"))])
        }
    }

    /// The spool's lines of the text report.
    static func spoolLines(_ spool: JSONValue) -> [String] {
        var line = "spool:       \(spool["path"]?.stringValue ?? "") (\(spool["pendingFiles"]?.intValue ?? 0) waiting, \(spool["failedFiles"]?.intValue ?? 0) in failed/"
        if let r = spool["refused"]?.intValue, r > 0 { line += ", refused: \(r)" }
        var lines = [line + ")"]
        if let w = spool["waiting"]?["text"]?.stringValue { lines.append("             \(w)") }
        for r in spool["refusedEntries"]?.arrayValue ?? [] { if let t = r.stringValue { lines.append("             \(t)") } }
        for n in spool["restartNeeded"]?.arrayValue ?? [] { if let t = n.stringValue { lines.append("restart:     \(t)") } }
        for d in spool["openDirectories"]?.arrayValue ?? [] { if let t = d["text"]?.stringValue { lines.append("warning:     \(t)") } }
        return lines
    }
}
