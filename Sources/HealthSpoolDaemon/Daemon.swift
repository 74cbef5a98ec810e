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
    var intake = SpoolIntake()
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
    // Delivery state, on `q` (Daemon+Sync.swift).
    var policy: DeliveryPolicy
    var attempt = AttemptRecord()
    var lastOutcome: String?
    var reloadError: String?
    var secretWatcher: SpoolWatcher?
    var watchedSecrets: Set<String> = []
    /// Services run beside the daemon until it stops (the web interface). // web hook
    public var companions: [@Sendable () async -> Void] = []
    var companionTasks: [Task<Void, Never>] = []
    // location hook: the keep-alive log's sampler and its task, when location.enabled.
    var locationSampler: LocationSampler?
    var locationTask: Task<Void, Never>?
    var journalTask: Task<Void, Never>? // journal hook: reminders and midnight scores (JournalScheduler)

    public init(context: DaemonContext, logger: Logger) {
        self.context = context
        self.logger = logger
        let settings = context.settings
        scheduler = SyncScheduler(frequency: settings.syncFrequency, throttleMillis: Int64(settings.throttleSeconds) * 1000,
                                  deliveryFrequency: { settings.frequency(of: $0) })
        policy = Self.policy(for: settings)
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
        companionTasks = companions.map { run in Task { await run() } } // web hook
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
        // location hook: the keep-alive log, only when location.enabled = true.
        if context.settings.locationEnabled {
            let sampler = LocationSampler(context: context, logger: logger)
            locationSampler = sampler
            locationTask = Task.detached { await sampler.run() }
        }
        journalTask = Task.detached { [context, logger] in await JournalScheduler(context: context, logger: logger, clock: ThreadSleepClock()).run() } // journal hook
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
            reload(reason: "configuration file changed")
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
        if !locked { rescan() }
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
    var canSync: Bool { stoppedReason == nil && configError == nil && context.settings.gatewayURL != nil }

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

    func reload(reason: String) {
        do {
            let fresh = keepingDirectories(try DaemonContext(environment: context.environment))
            context = fresh
            reloadError = nil
            let settings = fresh.settings
            scheduler.frequency = settings.syncFrequency
            scheduler.throttle.windowMillis = Int64(settings.throttleSeconds) * 1000
            scheduler.deliveryFrequency = { settings.frequency(of: $0) }
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
        companionTasks.forEach { $0.cancel() } // web hook
        timer?.cancel()
        retentionTimer?.cancel()
        locationSampler?.stop()   // location hook
        journalTask?.cancel()     // journal hook
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
