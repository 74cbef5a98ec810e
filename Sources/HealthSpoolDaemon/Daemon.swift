import Dispatch
import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolLinux
import HealthSpoolLock
import HealthSpoolStore
import Logging
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// The daemon: watcher → importer → scheduler (throttle, frequencies, lock) → sync worker,
/// reporting through sd_notify, the journal and a status file. All coordination happens on one
/// serial queue; imports and sends run on their own queues. systemd's watchdog is fed from a
/// thread of its own (`SystemdWatchdog`) that the coordination queue proves its liveness to.
///
/// `@unchecked Sendable`: every mutable property is read and written on the serial queue `q`
/// only (event handlers, timers and signal sources are all scheduled on it; other threads hop
/// onto it with `q.async`); the importer runs on `importQueue` and touches only its own state.
public final class Daemon: @unchecked Sendable {
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
    var pidLock: ProcessLock?
    var control: ControlServer?
    /// The time a stop may take, shared by the services (see `Services/`).
    let stopBudget = StopBudget(seconds: Daemon.stopGraceSeconds)
    /// Why start-up failed, when it did.
    var startError: Error?
    /// Whether start-up finished (on `q`).
    var started = false
    /// Starting, watching, locked, syncing or stopping (the policy lives in the core).
    var lifecycle = DaemonStateMachine()
    var shuttingDown: Bool { lifecycle.state == .stopping }

    // Live state, on `q`.
    var pendingImports: [String] = []
    var importing: String?
    var intake = SpoolIntake()
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
    // Delivery state, on `q` (Daemon+Sync.swift).
    var policy: DeliveryPolicy
    var attempt = AttemptRecord()
    var lastOutcome: String?
    var reloadError: String?
    var secretWatcher: SpoolWatcher?
    var watchedSecrets: Set<String> = []
    /// Services of other modules that run after the daemon's own (the web interface), listed
    /// last in the group: they stop first.
    public var extraServices: [any Service] = []
    /// The counters for Prometheus (`/metrics`, `metrics.textfile`).
    public let metrics: DaemonMetrics

    public init(context: DaemonContext, logger: Logger) {
        self.context = context
        self.logger = logger
        let settings = context.settings
        scheduler = SyncScheduler(frequency: settings.syncFrequency, throttleMillis: Int64(settings.throttleSeconds) * 1000,
                                  deliveryFrequency: { settings.frequency(of: $0) })
        policy = Self.policy(for: settings)
        metrics = DaemonMetrics(storePath: context.storePath, started: Self.now())
    }

    static func now() -> Timestamp { DaemonContext.now() }

    /// Runs the services until SIGTERM/SIGINT; returns the exit code. The calling thread only
    /// waits (it is not one of the cooperative pool's).
    public func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        umask(0o077)
        // The lock first, at once: `healthspool status` sees a running daemon from here on.
        do { try acquireLock() } catch {
            logger.critical("cannot start: \(error)", metadata: ["event": "error"])
            notifier.status("failed to start: \(error)")
            return 1
        }
        let group = serviceGroup()
        let finished = DispatchSemaphore(value: 0)
        let failure = Lock<Error?>(nil)
        Task(priority: .medium) {   // default QoS: a higher one asks Dispatch for a negative nice, which the unit refuses (EACCES in the journal)
            do { try await group.run() } catch { failure.withLock { $0 = error } }
            finished.signal()
        }
        finished.wait()
        if let error = startError ?? failure.withLock({ $0 }) {
            logger.critical("cannot start: \(error)", metadata: ["event": "error"])
            notifier.status("failed to start: \(error)")
            return 1
        }
        return 0
    }

    /// Takes the per-user daemon lock (the pid file), or throws naming the daemon that holds it.
    func acquireLock() throws {
        try FileSystem.makeDirectory(context.runtimeDir, mode: 0o700)
        guard let lock = ProcessLock(path: context.pidFile, writePID: true) else {
            let pid = ProcessLock.holder(of: context.pidFile).map { " (pid \($0))" } ?? ""
            throw DaemonError.alreadyRunning("another healthspool daemon is already running for this user\(pid)")
        }
        pidLock = lock
    }

    /// Opens the store, the importer, the sync worker, the watcher and the control socket, then
    /// tells systemd it is ready and reads the spool. Runs off the cooperative pool (SQLite).
    func start() throws {
        if pidLock == nil { try acquireLock() }
        store = try context.openStore()
        importer = ExportImporter(store: try SampleStore(path: context.storePath), logger: logger, clock: Self.now)
        try context.spool.create()
        try FileSystem.makeDirectory(context.paths.configDir, mode: 0o700)
        worker = SyncWorker(senders: context.settings.senders, storePath: context.storePath, logger: logger, clock: Self.now,
                            onProgress: { [weak self] type, sent in self?.progressed(type, sent) }, onRequest: metrics.requestFinished,
                            onResult: { [weak self] r in self?.finished(r) })
        configureWorker()
        watcher = try SpoolWatcher(directories: [context.spool.path, context.stateDir, context.paths.configDir], queue: q) { [weak self] e in
            self?.handle(e)
        }
        control = try ControlServer(path: context.controlSocket, daemon: self)
        q.sync {
            let locked = FileSystem.exists(context.lockFlagPath)
            _ = scheduler.setLocked(locked, queuedTypes: [], now: Self.now().millis)
            logger.info("watching \(context.spool.path)\(locked ? " (locked)" : "")",
                        metadata: ["event": "start", "file": "\(context.spool.path)"])
            notifier.ready(status: statusLine())
            for action in lifecycle.started(locked: locked) where action == .readSpool { rescan(); catchUp(.startup) }
            startWatchdog()
            startRetention()
            started = true
            publish()
        }
    }

    // MARK: Events

    func handle(_ event: WatchEvent) {
        switch event {
        case let .fileReady(dir, name) where dir == context.spool.path:
            admit(named: name)
        case let .undecodableName(dir) where dir == context.spool.path:
            rescan()
        case let .fileReady(dir, name) where dir == context.stateDir && name == "locked":
            setLocked(true)
        case let .fileGone(dir, name) where dir == context.stateDir && name == "locked":
            setLocked(false)
        case let .fileReady(dir, name) where dir == context.paths.configDir && name == "healthspool.conf":
            reload(reason: "configuration file changed", restartingSync: false)
        case let .fileReady(dir, name) where watchedSecrets.contains(dir + "/" + name):
            reload(reason: "\(dir)/\(name) changed")
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
        for action in lifecycle.lockChanged(locked) where action == .readSpool { rescan() }
        perform(actions)
        publish()
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
    var canSync: Bool { !shuttingDown && stoppedReason == nil && configError == nil && context.settings.gatewayURL != nil }

    func perform(_ actions: [SchedulerAction]) {
        for case let .sync(types, trigger) in actions {
            guard canSync else { continue }
            var enabled = types.filter { context.settings.isSent($0) }
            // During an outage new samples wait for the outage's next retry (one attempt for all).
            if let incident = policy.incident, incident.retryAt > Self.now().millis, ![.manual, .reload, .retry].contains(trigger) {
                for t in enabled { scheduler.scheduleRetry(t, at: incident.retryAt) }
                enabled = []
            }
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
        attempt.add(r)
        metrics.jobFinished(r)
        recordDelivery(r)
        finishWaiters(result: r)
        // The attempt's row is written once every job that ran with it has reported.
        if worker.pendingJobs == 0 { q.async { self.flushAttempt() } }
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

    /// Reads the configuration again and restarts only the parts whose settings changed: the
    /// schedule and retention take new values in place; the sync part (gateway, retries, the
    /// types sent) is restarted — its incident and retries forgotten, every queued type tried at
    /// once — when its settings changed, when a secret file changed or on SIGHUP (the user asked
    /// for it), and when sync had stopped on the old configuration.
    func reload(reason: String, restartingSync force: Bool = true) {
        do {
            let fresh = keepingDirectories(try DaemonContext(environment: context.environment))
            let change = SettingsChange.between(context.settings, fresh.settings)
            let wasUnusable = reloadError != nil || configError != nil || stoppedReason != nil
            context = fresh
            reloadError = nil
            let settings = fresh.settings
            scheduler.frequency = settings.syncFrequency
            scheduler.throttle.windowMillis = Int64(settings.throttleSeconds) * 1000
            scheduler.deliveryFrequency = { settings.frequency(of: $0) }
            guard force || wasUnusable || change.contains(.sync) else {
                logger.notice("configuration reloaded (\(reason)); the sync part is unchanged", metadata: ["event": "reload"])
                armTimer()
                publish()
                return
            }
            policy = Self.policy(for: settings)
            scheduler.clearRetries()
            stoppedReason = nil
            // The old configuration's answers say nothing about the new one; it is tried at once.
            lastError = nil
            lastAnswer = nil
            configureWorker()
            logger.notice("configuration reloaded (\(reason))", metadata: ["event": "reload"])
            // A configuration change takes effect at once: every queued type, throttle or not.
            if !scheduler.locked, canSync { perform(scheduler.syncNow((try? store.typesWithQueuedSamples()) ?? [], trigger: .reload)) }
        } catch {
            reloadError = "\(error)"
            logger.error("configuration not reloaded, still running on the previous one: \(error)", metadata: ["event": "error"])
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
        watchSecrets()
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
        metrics.watch(watchdog)
        self.watchdog = watchdog
    }

    /// How long a stop waits for the import to reach a batch boundary and for the batches in
    /// flight to be answered and marked, well inside the unit's `TimeoutStopSec=30`. A batch the
    /// gateway has not answered by then stays queued and is sent again at the next start.
    static let stopGraceSeconds = 10

    /// The first service told to stop starts the stop: the clock of the stop budget, the import
    /// asked to end at its next batch boundary (what it committed is kept, the file stays in the
    /// spool and is imported again, idempotently, at the next start), the sync worker taking no
    /// new job, and the one "stopping" line. The services then stop in reverse order of
    /// dependency, each within the budget; whatever is not done by then is left for next time.
    /// Safe from any thread; later calls do nothing.
    func beginStop() {
        stopBudget.begin()
        q.async {
            guard self.started, !self.lifecycle.stopRequested().isEmpty else { return }
            self.logger.notice("stopping: interrupting the import, finishing the batch in flight", metadata: ["event": "stop"])
            self.notifier.stopping(status: "stopping: interrupting the import, finishing the batch in flight")
            self.importer.interrupt()
            self.worker.stopTakingJobs()
        }
    }

    /// The end of a stop, once every other service has stopped: the final status, the watchdog
    /// thread stopped, and how long the stop took.
    func finishStop() async {
        await onQueue {
            guard self.started else { return }
            let (unfinished, millis) = self.stopBudget.outcome
            self.publish(stopped: true)
            self.watchdog?.stop()
            if unfinished.isEmpty {
                self.logger.notice("stopped in \(Self.seconds(millis))", metadata: ["event": "stop", "duration_ms": "\(millis)"])
            } else {
                self.logger.warning("stopped after \(Self.stopGraceSeconds) s with work unfinished: an unanswered batch stays queued and is sent again, an unfinished import is resumed, at the next start",
                                    metadata: ["event": "stop", "duration_ms": "\(millis)"])
            }
        }
    }

    /// Runs `body` on the coordination queue and waits for it without blocking a thread.
    @discardableResult
    func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            q.async { continuation.resume(returning: body()) }
        }
    }

    /// Runs `start()` on a thread of its own (it opens SQLite and sockets: never on the
    /// cooperative pool); keeps the error for `run()` to report.
    func startOffPool() async throws {
        let outcome: Result<Void, Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Result { try self.start() }) }
        }
        if case let .failure(error) = outcome {
            await onQueue { self.startError = error }
            throw error
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
