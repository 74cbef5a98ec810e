import Dispatch
import HealthSpoolCore
import HealthSpoolLinux
import Logging

/// The daemon's intake state: what the spool holds that is not simply a file to import.
struct SpoolIntake {
    /// Files kept in the spool after a temporary failure, with their retry times.
    var backoff = ImportBackoff()
    /// Fires when the earliest of those retries is due.
    var retryTimer: DispatchSourceTimer?
    /// Entries already reported as refused and left in the spool (directories), by name bytes.
    var reported: Set<[UInt8]> = []
    /// Changes to settings that only a restart applies (spool.dir, state.dir), as sentences.
    var restartNeeded: [String] = []
}

/// The import path: which spool entries are imported, refused or retried, and the crash-loop
/// safety net around each import.
extension Daemon {
    /// Looks at every entry of the spool (start, unlock, overflow, a name that is not UTF-8).
    func rescan() {
        do {
            for entry in try context.spool.entries() { admit(entry) }
        } catch {
            logger.error("cannot list the spool: \(error)", metadata: ["event": "error", "file": "\(context.spool.path)"])
        }
    }

    /// Looks at one name that appeared in the spool.
    func admit(named name: String) {
        guard SpoolDirectory.isEligible(name), let entry = context.spool.entry(named: name) else { return }
        admit(entry)
    }

    /// A regular file is queued for import (renamed first when its name is not UTF-8); a
    /// symbolic link, FIFO, socket or device is moved to failed/ with the reason; a directory is
    /// left where it is and reported once.
    func admit(_ entry: SpoolEntry) {
        if scheduler.locked { return }
        switch entry.kind {
        case .regularFile:
            guard let name = utf8Name(entry) else { return }
            enqueueImport(name)
        case .directory:
            guard !intake.reported.contains(entry.bytes) else { return }
            intake.reported.insert(entry.bytes)
            logger.warning("\(entry.refusal ?? "")", metadata: ["event": "import", "file": "\(entry.display)", "outcome": "refused"])
        case .symbolicLink, .special:
            guard let name = utf8Name(entry), let reason = entry.refusal else { return }
            do {
                let moved = try context.spool.quarantine(name, reason: reason, now: Self.now())
                logger.error("\(reason); moved to failed/", metadata: ["event": "import", "file": "\(entry.display)", "outcome": "refused",
                                                                       "moved_to": "\(moved)"])
            } catch {
                logger.error("\(reason); could not move it to failed/: \(error)", metadata: ["event": "error", "file": "\(entry.display)"])
            }
            publish()
        }
    }

    /// The entry's name, after renaming it to a UTF-8 name when it is not one (the rest of
    /// healthspool, the store and the logs handle text names).
    func utf8Name(_ entry: SpoolEntry) -> String? {
        if let name = entry.name { return name }
        do {
            let name = try context.spool.renameToUTF8(entry)
            logger.notice("renamed \(entry.display) to \(name): its name is not valid UTF-8", metadata: ["event": "import", "file": "\(name)"])
            return name
        } catch {
            logger.error("cannot rename \(entry.display), whose name is not valid UTF-8: \(error)", metadata: ["event": "error", "file": "\(entry.display)"])
            return nil
        }
    }

    func enqueueImport(_ name: String) {
        if importing != name && !pendingImports.contains(name) { pendingImports.append(name) }
        importNext()
    }

    /// Starts the next import that is not waiting for a retry, on the import queue.
    func importNext() {
        guard importing == nil, !scheduler.locked, !shuttingDown else { publish(); return }
        let now = Self.now().millis
        guard let index = pendingImports.firstIndex(where: { !intake.backoff.isWaiting($0, now: now) }) else {
            armImportRetry()
            publish()
            return
        }
        let name = pendingImports.remove(at: index)
        let path = context.spool.path + "/" + name
        guard FileSystem.regularFile(path) != nil else {
            intake.backoff.forget(name)
            importNext()
            return
        }
        importing = name
        publish()
        let settings = context.settings, spool = context.spool, importer = self.importer!
        let attempts = ImportAttemptLog(stateDir: context.stateDir)
        importQueue.async {
            let (summary, moved, moveError) = Self.importGuarded(name, path: path, importer: importer, settings: settings,
                                                                 spool: spool, attempts: attempts)
            self.q.async { self.imported(summary, movedTo: moved, moveError: moveError) }
        }
    }

    /// Imports one spool file inside the crash-loop safety net: the attempt is recorded durably
    /// before the import starts and cleared once the file has left the spool (or stays for a
    /// known reason); a file already started `attempts.limit` times is set aside instead.
    static func importGuarded(_ name: String, path: String, importer: ExportImporter, settings: Settings,
                              spool: SpoolDirectory, attempts: ImportAttemptLog) -> (ImportSummary, String?, String?) {
        let previous = attempts.previousAttempts(file: name, filePath: path)
        let summary: ImportSummary
        if previous >= attempts.limit {
            var s = ImportSummary(file: name, outcome: .failed)
            s.reason = ImportAttemptLog.reason(attempts: previous)
            importer.record(s, fingerprint: nil, started: now())
            summary = s
        } else {
            // A record that cannot be written (a full state directory) does not stop the import.
            try? attempts.begin(file: name, filePath: path, attempt: previous + 1)
            summary = importer.importFile(path: path, name: name, settings: settings)
        }
        let (moved, moveError) = moveOut(name, summary: summary, spool: spool, policy: settings.afterImport)
        attempts.clear()
        return (summary, moved, moveError)
    }

    /// Moves a file out of the spool once its samples are committed: archive/ (or deleted) when
    /// imported, failed/ with a reason otherwise. A file that failed for a temporary reason stays.
    static func moveOut(_ name: String, summary: ImportSummary, spool: SpoolDirectory, policy: AfterImport) -> (String?, String?) {
        if summary.temporary != nil { return (nil, nil) }
        do {
            switch summary.outcome {
            case .imported, .unchanged: return (try spool.retire(name, policy: policy, now: now()), nil)
            case .interrupted: return (nil, nil)   // stays in the spool: imported again at the next start
            case .partial, .failed: return (try spool.quarantine(name, reason: summary.reasonDetail, now: now()), nil)
            }
        } catch {
            return (nil, "\(error)")
        }
    }

    func imported(_ s: ImportSummary, movedTo: String?, moveError: String?) {
        importing = nil
        metrics.imported(s)
        var meta: Logger.Metadata = ["event": "import", "file": "\(s.file)", "count": "\(s.result.new + s.result.revised)",
                                     "outcome": "\(s.outcome.rawValue)", "duplicates": "\(s.result.duplicates)"]
        if let f = s.format { meta["format"] = "\(f)" }
        if let movedTo { meta["moved_to"] = "\(movedTo)" }
        let notRead = s.notRead.isEmpty ? "" : "; not read: " + ImportSummary.list(s.notRead)
        if !s.notRead.isEmpty { meta["not_read"] = "\(ImportSummary.list(s.notRead))" }
        if let cause = s.temporary {
            intake.backoff.schedule = RetrySchedule(baseMillis: Int64(context.settings.spoolRetryBaseSeconds) * 1000,
                                                    capMillis: Int64(context.settings.spoolRetryMaxSeconds) * 1000, jitter: 0)
            let at = intake.backoff.failed(s.file, cause: cause.short, now: Self.now().millis)
            let delay = Self.seconds(max(0, at - Self.now().millis))
            meta["outcome"] = "waiting"
            meta["reason"] = "\(s.reason ?? "")"
            meta["retry.in_ms"] = "\(max(0, at - Self.now().millis))"
            logger.warning("could not import \(s.file) for now (\(cause.short)): \(s.reason ?? ""); \(cause.advice). The file stays in the spool; retrying in \(delay)", metadata: meta)
            if !pendingImports.contains(s.file) { pendingImports.append(s.file) }
        } else {
            intake.backoff.forget(s.file)
            switch s.outcome {
            case .interrupted:
                logger.notice("import of \(s.file) interrupted by the stop after \(s.result.new) new samples (kept); it stays in the spool and is imported again at the next start",
                              metadata: meta)
            case .imported, .unchanged:
                logger.info("imported \(s.file): \(s.result.new) new, \(s.result.duplicates) duplicate, \(s.result.revised) revised\(s.outcome == .unchanged ? " (unchanged since an earlier import)" : "")\(notRead)", metadata: meta)
            case .partial, .failed:
                meta["reason"] = "\(s.reason ?? "")"
                logger.error("could not import \(s.file) (kept \(s.result.new) new samples); moved to failed/: \(s.reason ?? "")\(notRead)", metadata: meta)
            }
        }
        if let moveError {
            logger.error("could not move \(s.file) out of the spool: \(moveError)", metadata: ["event": "error", "file": "\(s.file)"])
        }
        // The observer: every type that gained samples is observed once.
        let gained = s.result.gained.keys.sorted()
        if !gained.isEmpty, canSync { perform(scheduler.observe(gained, trigger: .observer, now: Self.now().millis)) }
        importNext()
    }

    /// Wakes the import queue when the earliest retry is due.
    func armImportRetry() {
        intake.retryTimer?.cancel()
        intake.retryTimer = nil
        guard let deadline = intake.backoff.nextDeadline, !shuttingDown else { return }
        let delay = max(0, deadline - Self.now().millis)
        let t = DispatchSource.makeTimerSource(queue: q)
        t.schedule(deadline: .now() + .milliseconds(Int(min(delay, 86_400_000))), leeway: .milliseconds(100))
        t.setEventHandler { [weak self] in
            guard let self else { return }
            self.intake.retryTimer = nil
            self.importNext()
        }
        t.resume()
        intake.retryTimer = t
    }

    /// "waiting: disk full, retrying in 40 s" while a spool file waits for its retry.
    func importWaitingText(now: Int64 = Daemon.now().millis) -> String? {
        guard let w = intake.backoff.soonest else { return nil }
        let secs = max(0, (w.retryAt - now + 999) / 1000)
        let others = intake.backoff.waiting.count - 1
        return "waiting: \(w.cause), retrying in \(secs) s (\(w.file)\(others > 0 ? " and \(others) more" : ""))"
    }

    /// The context to use after a reload: the new settings, except the spool and state
    /// directories, which only a restart moves (the watcher, the store and the lock flag live
    /// there). A change to them is logged and shown in status until the daemon restarts.
    func keepingDirectories(_ fresh: DaemonContext) -> DaemonContext {
        var notes: [String] = []
        var settings = fresh.settings
        if fresh.spool.path != context.spool.path {
            notes.append("spool.dir changed to \(fresh.spool.path): restart the daemon to use it (still watching \(context.spool.path))")
            settings.spoolDir = context.settings.spoolDir
        }
        if fresh.stateDir != context.stateDir {
            notes.append("state.dir changed to \(fresh.stateDir): restart the daemon to use it (still using \(context.stateDir))")
            settings.stateDir = context.settings.stateDir
        }
        for note in notes where !intake.restartNeeded.contains(note) {
            logger.warning("\(note)", metadata: ["event": "reload"])
        }
        intake.restartNeeded = notes
        return DaemonContext(paths: fresh.paths, settings: settings, environment: fresh.environment)
    }
}

extension DaemonContext {
    /// A context from its parts (the daemon keeps some settings across a reload).
    init(paths: Paths, settings: Settings, environment: [String: String]) {
        self.paths = paths
        self.settings = settings
        self.environment = environment
    }
}
