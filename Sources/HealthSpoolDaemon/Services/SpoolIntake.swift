import Dispatch
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging

/// The import part of the daemon, owned by `ImportService`: which spool entries are imported,
/// refused or retried, the queue of files to import, and the crash-loop safety net around each
/// import. Imports run one at a time on `importQueue` (SQLite, parsing on a thread of the
/// importer's); what they gained goes to `gained` (the sync coordinator observes it).
///
/// An actor on the coordination queue (`QueueExecutor`): the import itself runs on
/// `importQueue`, and its outcome comes back as an element of `outcomes`, which
/// `ImportService.run()` hands to the actor (`receiveOutcomes()`); a spool event reaches it with
/// an `await` (`SpoolWatcherService`); the daemon's steps on the status board, which shares the
/// executor, enter it in the same step with `assumeIsolated`.
actor SpoolIntake {
    /// The coordination queue, which retention's loop prefers as its task executor.
    nonisolated let executor: QueueExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    /// Imports and retention's pruning, one at a time (SQLite stays off the coordination queue).
    private let importQueue = DispatchQueue(label: "healthspool.import")
    /// What one import came to: its summary, where the file went, and why it could not be moved.
    struct Imported: Sendable {
        let summary: ImportSummary
        let movedTo: String?
        let moveError: String?
    }
    /// Each import's outcome, in order, as the import queue finishes it; ends at a stop
    /// (`finishOutcomes()`).
    private let outcomes: AsyncStream<Imported>
    private let reporter: AsyncStream<Imported>.Continuation
    let clock: any ServiceClock
    let logger: Logger
    var configuration: Configuration
    /// Opened by `open()`.
    private(set) var importer: ExportImporter?
    /// Files waiting to be imported, in order of arrival.
    private(set) var pendingImports: [String] = []
    /// The file being imported.
    private(set) var importing: String?
    /// The import under way and when it last moved on (for the watchdog).
    let progress = WorkProgress(name: "the import")
    /// Files kept in the spool after a temporary failure, with their retry times.
    private(set) var backoff = ImportBackoff()
    /// Fires when the earliest of those retries is due.
    private var retryTimer: (any ServiceTimer)?
    /// Entries already reported as refused and left in the spool (directories), by name bytes.
    private var reported: Set<[UInt8]> = []
    /// While set, nothing is read from the spool (the lock flag).
    var locked = false
    private var stopping = false
    /// Called on the coordination queue with the types an import gained samples of.
    private var gained: @Sendable ([String]) -> Void = { _ in }
    /// Called on the coordination queue whenever something status shows changed.
    private var changed: @Sendable () -> Void = {}
    /// The Prometheus counters: imports by outcome.
    let metrics: DaemonMetrics

    init(configuration: Configuration, logger: Logger, executor: QueueExecutor, clock: any ServiceClock, metrics: DaemonMetrics) {
        self.executor = executor
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
        (outcomes, reporter) = AsyncStream.makeStream(of: Imported.self)
    }

    /// Whom the intake tells: the types an import gained (the sync coordinator) and that
    /// something status shows changed (the status board). Set once, before the daemon starts.
    func connect(gained: @escaping @Sendable ([String]) -> Void, changed: @escaping @Sendable () -> Void) {
        self.gained = gained
        self.changed = changed
    }

    /// Opens the importer's connection (SQLite: call off the cooperative pool, on a thread that
    /// is not the coordination queue) and the spool.
    nonisolated func open() throws {
        let (clock, logger) = (self.clock, self.logger)
        let configuration = executor.queue.sync { assumeIsolated { $0.configuration } }   // start-up's own thread, which blocks: cannot await
        // `connect(to:)` draws the rollups as the day view reads them (the machine's zone, the
        // configured source priority); a store opened bare drew them in UTC, and every read in
        // another zone then rebuilt the rollups of the whole store.
        let importer = ExportImporter(store: try SampleStore.connect(to: configuration), logger: logger, clock: { clock.now() })
        try configuration.spool.create()
        executor.queue.sync { assumeIsolated { $0.importer = importer } }   // start-up's own thread, which blocks: cannot await
        // Days an import marked before it died (a crash, a kill) are computed before the next
        // import (readers compute them themselves meanwhile).
        importQueue.async { importer.settleLeftoverRollups() }
    }

    /// The stop began: no other import or retention pass starts, the retry timer is cancelled.
    func stopTakingFiles() {
        stopping = true
        retryTimer?.cancel()
        retryTimer = nil
    }

    /// The import in progress ends at its next batch boundary (what it committed is kept, the
    /// file stays in the spool and is imported again, idempotently, at the next start).
    func interruptImport() {
        importer?.interrupt()
    }

    /// Handles each import's outcome as it comes, until `outcomes` ends.
    func receiveOutcomes() async {
        for await outcome in outcomes {
            imported(outcome.summary, movedTo: outcome.movedTo, moveError: outcome.moveError)
        }
    }

    /// The stop: no other import starts, and `outcomes` ends once the import queue has done
    /// what it holds (the import in progress, interrupted by the daemon's stop, reports first;
    /// then a retention pass handed over before the stop).
    func finishOutcomes() {
        stopTakingFiles()
        importQueue.async { [reporter] in reporter.finish() }
    }

    /// Runs `work` on the import queue, after the import in progress, with the importer and the
    /// configuration in effect (retention's pass: nothing is pruned while a file imports).
    /// Nothing runs once the stop began or before the importer is open.
    func runOnImportQueue(_ work: @escaping @Sendable (ExportImporter, Configuration) -> Void) {
        guard !stopping, let importer else { return }
        let configuration = self.configuration
        importQueue.async { work(importer, configuration) }
    }

    private func now() -> Timestamp { clock.now() }

    /// Looks at every entry of the spool (start, unlock, overflow, a name that is not UTF-8).
    func rescan() {
        do {
            for entry in try configuration.spool.entries() { admit(entry) }
        } catch {
            logger.error("cannot list the spool: \(error)", metadata: ["event": "error", "file": "\(configuration.spool.path)"])
        }
    }

    /// Looks at one name that appeared in the spool.
    func admit(named name: String) {
        guard SpoolDirectory.isEligible(name), let entry = configuration.spool.entry(named: name) else { return }
        admit(entry)
    }

    /// A regular file is queued for import (renamed first when its name is not UTF-8); a
    /// symbolic link, FIFO, socket or device is moved to failed/ with the reason; a directory is
    /// left where it is and reported once.
    func admit(_ entry: SpoolEntry) {
        if locked { return }
        switch entry.kind {
        case .regularFile:
            guard let name = utf8Name(entry) else { return }
            enqueueImport(name)
        case .directory:
            guard !reported.contains(entry.bytes) else { return }
            reported.insert(entry.bytes)
            logger.warning("\(entry.refusal ?? "")", metadata: ["event": "import", "file": "\(entry.display)", "outcome": "refused"])
        case .symbolicLink, .special:
            guard let name = utf8Name(entry), let reason = entry.refusal else { return }
            do {
                let moved = try configuration.spool.quarantine(name, reason: reason, now: now())
                logger.error("\(reason); moved to failed/", metadata: ["event": "import", "file": "\(entry.display)", "outcome": "refused",
                                                                       "moved_to": "\(moved)"])
            } catch {
                logger.error("\(reason); could not move it to failed/: \(error)", metadata: ["event": "error", "file": "\(entry.display)"])
            }
            changed()
        }
    }

    /// A file left the spool (deleted or moved away by someone else): it is no longer waiting
    /// for a retry or queued, and status stops showing it.
    func left(named name: String) {
        guard importing != name else { return }   // the import in progress moves it out itself
        let waited = backoff.waiting[name] != nil
        backoff.forget(name)
        pendingImports.removeAll { $0 == name }
        if waited {
            logger.info("\(name) left the spool before its retry; no longer waiting for it", metadata: ["event": "import", "file": "\(name)"])
            armImportRetry()
            changed()
        }
    }

    /// The entry's name, after renaming it to a UTF-8 name when it is not one (the rest of
    /// healthspool, the store and the logs handle text names).
    func utf8Name(_ entry: SpoolEntry) -> String? {
        if let name = entry.name { return name }
        do {
            let name = try configuration.spool.renameToUTF8(entry)
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
        guard importing == nil, !locked, !stopping, let importer else { changed(); return }
        let millis = now().millis
        guard let index = pendingImports.firstIndex(where: { !backoff.isWaiting($0, now: millis) }) else {
            armImportRetry()
            changed()
            return
        }
        let name = pendingImports.remove(at: index)
        let path = configuration.spool.path + "/" + name
        guard FileSystem.regularFile(path) != nil else {
            backoff.forget(name)
            importNext()
            return
        }
        // Seen by a scan (start, unlock, overflow) while a copy into the spool is still writing
        // it: reading it now would quarantine half a file. Its close (IN_CLOSE_WRITE) brings it back.
        if FileSystem.isOpenForWriting(path) {
            logger.info("\(name) is still being written; importing it once it is closed", metadata: ["event": "import", "file": "\(name)"])
            importNext()
            return
        }
        importing = name
        changed()
        let settings = configuration.settings, spool = configuration.spool, clock = self.clock
        let attempts = ImportAttemptLog(stateDir: configuration.stateDir)
        let (progress, reporter) = (self.progress, self.reporter)
        // The import blocks (SQLite, parsing): on the import queue, never the cooperative pool;
        // its outcome comes back to the actor through `outcomes`.
        importQueue.async {
            progress.begin()
            let (summary, moved, moveError) = Self.importGuarded(name, path: path, importer: importer, settings: settings,
                                                                 spool: spool, attempts: attempts, now: clock.now, progress: progress)
            progress.end()
            reporter.yield(Imported(summary: summary, movedTo: moved, moveError: moveError))
        }
    }

    /// Imports one spool file inside the crash-loop safety net: the attempt is recorded durably
    /// before the import starts and cleared once the file has left the spool (or stays for a
    /// known reason); a file already started `attempts.limit` times is set aside instead.
    static func importGuarded(_ name: String, path: String, importer: ExportImporter, settings: Settings,
                              spool: SpoolDirectory, attempts: ImportAttemptLog,
                              now: () -> Timestamp, progress: WorkProgress? = nil) -> (ImportSummary, String?, String?) {
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
            summary = importer.importFile(path: path, name: name, settings: settings,
                                          progress: progress.map { p in { _, _ in p.advance() } })
        }
        let (moved, moveError) = moveOut(name, summary: summary, spool: spool, policy: settings.afterImport, now: now())
        attempts.clear()
        return (summary, moved, moveError)
    }

    /// Moves a file out of the spool once its samples are committed: archive/ (or deleted) when
    /// imported, failed/ with a reason otherwise. A file that failed for a temporary reason stays.
    static func moveOut(_ name: String, summary: ImportSummary, spool: SpoolDirectory, policy: AfterImport,
                        now: Timestamp) -> (String?, String?) {
        if summary.temporary != nil { return (nil, nil) }
        do {
            switch summary.outcome {
            case .imported, .unchanged: return (try spool.retire(name, policy: policy, now: now), nil)
            case .interrupted: return (nil, nil)   // stays in the spool: imported again at the next start
            case .partial, .failed: return (try spool.quarantine(name, reason: summary.reasonDetail, now: now), nil)
            }
        } catch {
            return (nil, "\(error)")
        }
    }

    /// One import finished: logged and counted, the file's retry scheduled when it failed for
    /// a temporary reason, the types it gained observed; then the next import starts.
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
            backoff.schedule = RetrySchedule(baseMillis: Int64(configuration.settings.spoolRetryBaseSeconds) * 1000,
                                                    capMillis: Int64(configuration.settings.spoolRetryMaxSeconds) * 1000, jitter: 0)
            let at = backoff.failed(s.file, cause: cause.short, now: now().millis)
            let delay = Daemon.seconds(max(0, at - now().millis))
            meta["outcome"] = "waiting"
            meta["reason"] = "\(s.reason ?? "")"
            meta["retry.in_ms"] = "\(max(0, at - now().millis))"
            logger.warning("could not import \(s.file) for now (\(cause.short)): \(s.reason ?? ""); \(cause.advice). The file stays in the spool; retrying in \(delay)", metadata: meta)
            if !pendingImports.contains(s.file) { pendingImports.append(s.file) }
        } else {
            backoff.forget(s.file)
            switch s.outcome {
            case .interrupted:
                logger.notice("import of \(s.file) interrupted by the stop after \(s.result.new) new samples (kept); it stays in the spool and is imported again at the next start",
                              metadata: meta)
            case .imported, .unchanged:
                if s.result.late > 0 { meta["late"] = "\(s.result.late)" }
                let late = s.result.late > 0 ? ", \(s.result.late) late" : ""
                logger.info("imported \(s.file): \(s.result.new) new, \(s.result.duplicates) duplicate, \(s.result.revised) revised\(late)\(s.outcome == .unchanged ? " (unchanged since an earlier import)" : "")\(notRead)", metadata: meta)
            case .partial, .failed:
                meta["reason"] = "\(s.reason ?? "")"
                logger.error("could not import \(s.file) (kept \(s.result.new) new samples); moved to failed/: \(s.reason ?? "")\(notRead)", metadata: meta)
            }
        }
        if let moveError {
            logger.error("could not move \(s.file) out of the spool: \(moveError)", metadata: ["event": "error", "file": "\(s.file)"])
        }
        // The observer: every type that gained samples is observed once.
        // Tombstones of samples deleted on the phone go out like new samples.
        let gained = Set(s.result.gained.keys).union(s.deletions?.types ?? []).sorted()
        if !gained.isEmpty { self.gained(gained) }
        importNext()
    }

    /// Wakes the import queue when the earliest retry is due.
    func armImportRetry() {
        retryTimer?.cancel()
        retryTimer = nil
        guard let deadline = backoff.nextDeadline, !stopping else { return }
        retryTimer = clock.schedule(at: deadline, on: executor.queue) { [weak self] in
            self?.assumeIsolated { intake in   // the timer's Dispatch handler, on `q`: not async
                intake.retryTimer = nil
                intake.importNext()
            }
        }
    }

    /// "waiting: disk full, retrying in 40 s" while a spool file waits for its retry.
    func importWaitingText(now: Int64) -> String? {
        guard let w = backoff.soonest else { return nil }
        let secs = max(0, (w.retryAt - now + 999) / 1000)
        let others = backoff.waiting.count - 1
        return "waiting: \(w.cause), retrying in \(secs) s (\(w.file)\(others > 0 ? " and \(others) more" : ""))"
    }
}
