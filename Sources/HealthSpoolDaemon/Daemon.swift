import Dispatch
import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolLinux
import HealthSpoolStore
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The daemon: watcher → importer → scheduler (throttle, frequencies, lock) → sync worker,
/// reporting through sd_notify, the journal and a status file. All coordination happens on one
/// serial queue; imports and sends run on their own queues. systemd's watchdog is fed from a
/// thread of its own (`SystemdWatchdog`) that the coordination queue proves its liveness to.
public final class Daemon {
    let q = DispatchQueue(label: "healthspool.daemon")
    let importQueue = DispatchQueue(label: "healthspool.import")
    var context: DaemonContext
    let logger: Logger
    let notifier = SystemdNotifier()
    var store: SampleStore!
    var importer: ExportImporter!
    var worker: SyncWorker!
    var watcher: SpoolWatcher?
    var scheduler: SyncScheduler
    var timer: DispatchSourceTimer?
    var watchdogTimer: DispatchSourceTimer?
    var watchdog: SystemdWatchdog?
    var retentionTimer: DispatchSourceTimer?
    var signalSources: [DispatchSourceSignal] = []
    var pidLock: ProcessLock?
    var control: ControlServer?
    let done = DispatchSemaphore(value: 0)
    var exitCode: Int32 = 0
    var shuttingDown = false

    // Live state, on `q`.
    var pendingImports: [String] = []
    var importing: String?
    var attempts: [String: Int] = [:]
    var stoppedReason: String?
    var configError: String?
    var lastAnswer: String?
    var lastSyncText: String?
    var lastError: String?
    var progress: [String: Int] = [:]
    var waiters: [SyncWaiter] = []
    var rng = SystemRandomNumberGenerator()
    var lastPublished: Int64 = 0
    var publishPending = false

    public init(context: DaemonContext, logger: Logger) {
        self.context = context
        self.logger = logger
        let settings = context.settings
        scheduler = SyncScheduler(frequency: settings.syncFrequency, throttleMillis: Int64(settings.throttleSeconds) * 1000,
                                  deliveryFrequency: { settings.frequency(of: $0) })
    }

    static func now() -> Timestamp { DaemonContext.now() }

    /// Runs until SIGTERM/SIGINT; returns the exit code.
    public func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        umask(0o077)
        do { try start() } catch {
            logger.critical("cannot start: \(error)", metadata: ["event": "error"])
            notifier.status("failed to start: \(error)")
            return 1
        }
        done.wait()
        return exitCode
    }

    func start() throws {
        try FileSystem.makeDirectory(context.runtimeDir, mode: 0o700)
        guard let lock = ProcessLock(path: context.pidFile, writePID: true) else {
            let pid = ProcessLock.holder(of: context.pidFile).map { " (pid \($0))" } ?? ""
            throw DaemonError.alreadyRunning("another healthspool daemon is already running for this user\(pid)")
        }
        pidLock = lock
        store = try context.openStore()
        importer = ExportImporter(store: try SampleStore(path: context.storePath), logger: logger, clock: Self.now)
        try context.spool.create()
        try FileSystem.makeDirectory(context.paths.configDir, mode: 0o700)
        worker = SyncWorker(senders: context.settings.senders, storePath: context.storePath, logger: logger, clock: Self.now,
                            onProgress: { [weak self] type, sent in self?.progressed(type, sent) },
                            onResult: { [weak self] r in self?.finished(r) })
        configureWorker()
        watcher = try SpoolWatcher(directories: [context.spool.path, context.stateDir, context.paths.configDir], queue: q) { [weak self] e in
            self?.handle(e)
        }
        control = try ControlServer(path: context.controlSocket, daemon: self)
        installSignals()
        q.sync {
            let locked = FileSystem.exists(context.lockFlagPath)
            _ = scheduler.setLocked(locked, queuedTypes: [], now: Self.now().millis)
            logger.info("watching \(context.spool.path)\(locked ? " (locked)" : "")",
                        metadata: ["event": "start", "file": "\(context.spool.path)"])
            notifier.ready(status: statusLine())
            if !locked { rescan(); catchUp(.startup) }
            startWatchdog()
            startRetention()
            publish()
        }
    }

    // MARK: Events

    func handle(_ event: WatchEvent) {
        switch event {
        case let .fileReady(dir, name) where dir == context.spool.path:
            guard SpoolDirectory.isEligible(name) else { return }
            enqueueImport(name)
        case let .fileReady(dir, name) where dir == context.stateDir && name == "locked":
            setLocked(true)
        case let .fileGone(dir, name) where dir == context.stateDir && name == "locked":
            setLocked(false)
        case let .fileReady(dir, name) where dir == context.paths.configDir && name == "healthspool.conf":
            reload(reason: "configuration file changed")
        case .overflow:
            logger.warning("inotify queue overflowed; rescanning the spool", metadata: ["event": "import"])
            rescan()
        default:
            break
        }
    }

    func setLocked(_ locked: Bool) {
        guard locked != scheduler.locked else { return }
        let queued = (try? store.typesWithQueuedSamples()) ?? []
        let actions = scheduler.setLocked(locked, queuedTypes: queued, now: Self.now().millis)
        logger.notice(locked ? "locked: the spool is not read and nothing is sent until unlock" : "unlocked: draining what waited",
                      metadata: ["event": "lock", "locked": "\(locked)"])
        if !locked { rescan() }
        perform(actions)
        publish()
    }

    func rescan() {
        do {
            for name in try context.spool.pendingFiles() { enqueueImport(name) }
        } catch {
            logger.error("cannot list the spool: \(error)", metadata: ["event": "error"])
        }
    }

    func enqueueImport(_ name: String) {
        if importing != name && !pendingImports.contains(name) { pendingImports.append(name) }
        importNext()
    }

    func importNext() {
        guard importing == nil, !scheduler.locked, !shuttingDown, !pendingImports.isEmpty else { publish(); return }
        let name = pendingImports.removeFirst()
        let path = context.spool.path + "/" + name
        guard FileSystem.regularFile(path) != nil else { importNext(); return }
        importing = name
        publish()
        let settings = context.settings, spool = context.spool
        importQueue.async {
            let summary = self.importer.importFile(path: path, name: name, settings: settings)
            let (moved, moveError) = Self.moveOut(name, summary: summary, spool: spool, policy: settings.afterImport)
            self.q.async { self.imported(summary, movedTo: moved, moveError: moveError) }
        }
    }

    /// Moves a file out of the spool once its samples are committed: archive/ (or deleted) when
    /// imported, failed/ with a reason otherwise.
    static func moveOut(_ name: String, summary: ImportSummary, spool: SpoolDirectory, policy: AfterImport) -> (String?, String?) {
        do {
            switch summary.outcome {
            case "imported", "unchanged": return (try spool.retire(name, policy: policy, now: now()), nil)
            case "interrupted": return (nil, nil)   // stays in the spool: imported again at the next start
            default: return (try spool.quarantine(name, reason: summary.reason ?? "unknown error", now: now()), nil)
            }
        } catch {
            return (nil, "\(error)")
        }
    }

    func imported(_ s: ImportSummary, movedTo: String?, moveError: String?) {
        importing = nil
        var meta: Logger.Metadata = ["event": "import", "file": "\(s.file)", "count": "\(s.result.new + s.result.revised)",
                                     "outcome": "\(s.outcome)", "duplicates": "\(s.result.duplicates)"]
        if let f = s.format { meta["format"] = "\(f)" }
        if let movedTo { meta["moved_to"] = "\(movedTo)" }
        switch s.outcome {
        case "interrupted":
            logger.notice("import of \(s.file) interrupted by the stop after \(s.result.new) new samples (kept); it stays in the spool and is imported again at the next start",
                          metadata: meta)
        case "imported", "unchanged":
            logger.info("imported \(s.file): \(s.result.new) new, \(s.result.duplicates) duplicate, \(s.result.revised) revised\(s.outcome == "unchanged" ? " (unchanged since an earlier import)" : "")", metadata: meta)
        default:
            meta["reason"] = "\(s.reason ?? "")"
            logger.error("could not import \(s.file) (kept \(s.result.new) new samples); moved to failed/: \(s.reason ?? "")", metadata: meta)
        }
        if let moveError {
            logger.error("could not move \(s.file) out of the spool: \(moveError)", metadata: ["event": "error", "file": "\(s.file)"])
        }
        // The observer: every type that gained samples is observed once.
        let gained = s.result.gained.keys.sorted()
        if !gained.isEmpty, canSync { perform(scheduler.observe(gained, trigger: .observer, now: Self.now().millis)) }
        importNext()
    }

    /// Syncs every type that has queued samples (start-up catch-up, unlock, reload, network back).
    func catchUp(_ trigger: SyncTrigger) {
        guard canSync else { return }
        let types = (try? store.typesWithQueuedSamples()) ?? []
        guard !types.isEmpty else { return }
        perform(scheduler.observe(types, trigger: trigger, now: Self.now().millis))
    }

    /// Whether samples can be sent at all. While they cannot, observations are not fed to the
    /// scheduler (they would open throttle windows for nothing); a reload catches up.
    var canSync: Bool { stoppedReason == nil && configError == nil && context.settings.gatewayURL != nil }

    func perform(_ actions: [SchedulerAction]) {
        for case let .sync(types, trigger) in actions {
            guard canSync else { continue }
            let enabled = types.filter { context.settings.isEnabled($0) }
            for t in enabled {
                logger.debug("sync \(t) (\(trigger.rawValue))", metadata: ["event": "throttle", "type": "\(t)", "trigger": "\(trigger.rawValue)"])
            }
            worker.enqueue(enabled, trigger: trigger)
        }
        armTimer()
        publish()
    }

    func progressed(_ type: String, _ sent: Int) {
        q.async { self.progress[type] = sent; self.publish() }
    }

    func finished(_ r: SyncJobResult) {
        q.async { self.handle(r) }
    }

    func handle(_ r: SyncJobResult) {
        progress[r.type] = nil
        let attempt = SyncAttempt(started: r.started, durationMillis: r.durationMillis, trigger: r.trigger.rawValue, types: [r.type],
                                  outcome: r.outcome, count: r.sent, httpStatus: r.httpStatus, error: r.historyNote)
        if r.requests > 0 || r.error != nil { try? store.recordSync(attempt) }
        var meta: Logger.Metadata = ["event": "sync", "type": "\(r.type)", "count": "\(r.sent)", "outcome": "\(r.outcome)",
                                     "trigger": "\(r.trigger.rawValue)"]
        if let s = r.httpStatus { meta["http.status"] = "\(s)" }
        if let status = r.httpStatus { lastAnswer = "HTTP \(status)" }
        let wasFailing = !attempts.isEmpty
        if let e = r.error {
            lastError = e.description
            if r.stopped {
                stoppedReason = e.description
                logger.error("sync of \(r.type) stopped: \(e)", metadata: meta)
            } else {
                let n = (attempts[r.type] ?? 0) + 1
                attempts[r.type] = n
                let schedule = RetrySchedule(baseMillis: Int64(context.settings.retryBaseSeconds) * 1000,
                                             capMillis: Int64(context.settings.retryMaxSeconds) * 1000)
                let delay = schedule.delayMillis(attempt: n, unitRandom: Double.random(in: 0..<1, using: &rng),
                                                 retryAfterMillis: r.retryAfterMillis)
                scheduler.scheduleRetry(r.type, at: Self.now().millis + delay)
                meta["retry.in_ms"] = "\(delay)"
                lastAnswer = r.httpStatus.map { "HTTP \($0)" } ?? "unreachable"
                logger.warning("sync of \(r.type) failed (attempt \(n)), retrying in \(Self.seconds(delay)): \(e)", metadata: meta)
            }
        } else {
            attempts[r.type] = nil
            scheduler.succeeded(r.type)
            lastError = nil
            if r.sent > 0 || r.parked > 0 {
                lastSyncText = "last sync \(Self.clockTime(Self.now())) ok"
                logger.info("synced \(r.sent) \(r.type) sample(s)\(r.parked > 0 ? ", parked \(r.parked)" : "")", metadata: meta)
            }
            if wasFailing && attempts.isEmpty { catchUp(.network) }
        }
        finishWaiters(result: r)
        armTimer()
        publish()
    }

    // MARK: Timer, reload, shutdown

    func armTimer() {
        timer?.cancel()
        timer = nil
        guard let deadline = scheduler.nextDeadline else { return }
        let delay = max(0, deadline - Self.now().millis)
        let t = DispatchSource.makeTimerSource(queue: q)
        t.schedule(deadline: .now() + .milliseconds(Int(min(delay, 86_400_000))), leeway: .milliseconds(50))
        t.setEventHandler { [weak self] in
            guard let self else { return }
            self.perform(self.scheduler.tick(now: Self.now().millis))
        }
        t.resume()
        timer = t
    }

    func reload(reason: String) {
        do {
            let fresh = try DaemonContext(environment: context.environment)
            context = fresh
            let settings = fresh.settings
            scheduler.frequency = settings.syncFrequency
            scheduler.throttle.windowMillis = Int64(settings.throttleSeconds) * 1000
            scheduler.deliveryFrequency = { settings.frequency(of: $0) }
            stoppedReason = nil
            attempts.removeAll()
            configureWorker()
            logger.notice("configuration reloaded (\(reason))", metadata: ["event": "reload"])
            if !scheduler.locked { catchUp(.reload) }
        } catch {
            logger.error("configuration not reloaded: \(error)", metadata: ["event": "error"])
        }
        publish()
    }

    func configureWorker() {
        do {
            configError = nil
            if let endpoint = try context.endpoint() {
                worker.configure(SyncConfig(endpoint: endpoint, envelope: context.envelope, batchSize: context.settings.batchSize))
            } else {
                worker.configure(nil)
            }
        } catch {
            configError = "\(error)"
            worker.configure(nil)
            logger.error("gateway not usable: \(error)", metadata: ["event": "error"])
        }
    }

    func installSignals() {
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: q)
            s.setEventHandler { [weak self] in
                if sig == SIGHUP { self?.reload(reason: "SIGHUP") } else { self?.shutdown(signal: sig) }
            }
            s.resume()
            signalSources.append(s)
        }
    }

    /// Starts the keep-alive thread (when systemd asked for a watchdog) and the heartbeat this
    /// queue posts to it. SQLite and curl calls on `q` delay the heartbeat, never the pings; a
    /// coordinator silent for a whole `WatchdogSec` stops them and systemd restarts the daemon.
    func startWatchdog() {
        guard let watchdog = SystemdWatchdog(notifier: notifier, logger: logger) else { return }
        let every = DispatchTimeInterval.microseconds(Int(watchdog.policy.pingIntervalMicros))
        let t = DispatchSource.makeTimerSource(queue: q)
        t.schedule(deadline: .now() + every, repeating: every, leeway: .milliseconds(10))
        t.setEventHandler { watchdog.beat() }
        t.resume()
        watchdogTimer = t
        watchdog.start()
        self.watchdog = watchdog
    }

    /// How long a stop waits for the import to reach a batch boundary and for the batches in
    /// flight to be answered and marked, well inside the unit's `TimeoutStopSec=30`. A batch the
    /// gateway has not answered by then stays queued and is sent again at the next start.
    static let stopGraceSeconds = 10

    /// Stops in bounded time: intake stops, the import in progress ends at its next batch
    /// boundary (what it committed is kept, the file stays in the spool and is imported again,
    /// idempotently, at the next start), the sync worker takes no new jobs and its senders finish
    /// the batch in flight; whatever is not done within `stopGraceSeconds` is left for next time.
    func shutdown(signal sig: Int32) {
        guard !shuttingDown else { return }
        shuttingDown = true
        logger.notice("stopping (signal \(sig)): interrupting the import, finishing the batch in flight",
                      metadata: ["event": "stop"])
        notifier.stopping(status: "stopping: interrupting the import, finishing the batch in flight")
        watcher?.stop()
        control?.stop()
        timer?.cancel()
        retentionTimer?.cancel()
        importer.interrupt()
        let worker = self.worker!, importQueue = self.importQueue
        let started = DispatchTime.now()
        let settled = DispatchGroup()
        settled.enter()
        DispatchQueue.global().async {
            worker.shutdown(timeoutSeconds: Self.stopGraceSeconds)
            settled.leave()
        }
        settled.enter()
        importQueue.async { settled.leave() }
        DispatchQueue.global().async {
            let inTime = settled.wait(timeout: started + .seconds(Self.stopGraceSeconds)) == .success
            let millis = Int64((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000)
            self.q.async {
                self.publish(stopped: true)
                self.watchdog?.stop()
                if inTime {
                    self.logger.notice("stopped in \(Self.seconds(millis))", metadata: ["event": "stop", "duration_ms": "\(millis)"])
                } else {
                    self.logger.warning("stopped after \(Self.stopGraceSeconds) s with work unfinished: an unanswered batch stays queued and is sent again, an unfinished import is resumed, at the next start",
                                        metadata: ["event": "stop", "duration_ms": "\(millis)"])
                }
                self.done.signal()
            }
        }
    }

    static func seconds(_ ms: Int64) -> String { ms >= 10_000 ? "\(ms / 1000) s" : "\(Double(ms / 100) / 10) s" }

    static func clockTime(_ t: Timestamp) -> String {
        let local = t.iso8601Local
        let time = local.split(separator: "T").last.map { String($0.prefix(5)) } ?? local
        return time
    }
}

/// Errors that stop the daemon from starting.
public enum DaemonError: Error, CustomStringConvertible {
    case alreadyRunning(String)
    public var description: String {
        switch self { case let .alreadyRunning(s): s }
    }
}
