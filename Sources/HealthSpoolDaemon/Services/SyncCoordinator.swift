import Dispatch
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolLinux
import HealthSpoolLock
import HealthSpoolStore
import Logging

/// The sync part of the daemon, owned by `SyncService`: the scheduler (throttle, frequencies,
/// lock), the retry policy, the sync worker and its timer, the clients waiting for a manual
/// sync, and what status shows about delivery. Types go in (`observe`, `catchUp`, `manual`),
/// jobs go out to the worker, its reports come back as an `AsyncSequence` (`reports`, consumed
/// by `SyncService.run()` through `receiveReports()`) and the policy decides what happens next.
///
/// An actor on the coordination queue (`QueueExecutor`): its timer fires on that queue and
/// enters it with `assumeIsolated` (a Dispatch handler cannot await); SQLite is reached only through `store`,
/// whose calls are short index reads and one history row per attempt.
actor SyncCoordinator {
    private nonisolated let executor: QueueExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    let clock: any ServiceClock
    let logger: Logger
    private(set) var configuration: Configuration
    var scheduler: SyncScheduler
    var policy: DeliveryPolicy
    let worker: SyncWorker
    /// The coordination connection, opened by `open()`.
    var store: SampleStore?
    private var timer: (any ServiceTimer)?
    var attempt = AttemptRecord()
    var rng = SystemRandomNumberGenerator()
    var waiters: [SyncWaiter] = []
    /// Samples sent so far by the jobs in flight, by type.
    var progress: [String: Int] = [:]
    var lastAnswer: String?
    var lastError: String?
    var lastOutcome: String?
    var lastSyncText: String?
    /// Why sync stopped until the configuration changes (credentials or settings refused).
    var stoppedReason: String?
    /// Why the gateway settings are unusable.
    var configError: String?
    private var stopping = false
    /// Called on the coordination queue whenever something status shows changed.
    private var changed: @Sendable () -> Void = {}
    /// What the worker reports, in order: a sender's progress and each finished job.
    let reports: AsyncStream<SyncWorker.Report>
    private let reporter: AsyncStream<SyncWorker.Report>.Continuation
    /// Jobs the worker has reported as finished whose report `receive` has not handled yet:
    /// with the worker's own count, what keeps `pendingJobs` above zero until the last result
    /// is handled, and the attempt's history row unwritten until then.
    private let unhandled = Lock(0)
    /// The Prometheus counters: jobs, attempts and request durations.
    let metrics: DaemonMetrics

    /// A coordinator for `configuration`'s settings; `transport` makes each sender's connection
    /// (libcurl in production).
    init(configuration: Configuration, logger: Logger, executor: QueueExecutor, clock: any ServiceClock,
         metrics: DaemonMetrics, transport: @escaping SyncWorker.TransportFactory = SyncWorker.httpsTransport) {
        self.executor = executor
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
        let settings = configuration.settings
        scheduler = SyncScheduler(frequency: settings.syncFrequency, throttleMillis: Int64(settings.throttleSeconds) * 1000,
                                  deliveryFrequency: { settings.frequency(of: $0) })
        scheduler.boundaryOffsetMillis = Self.spreadOffset(configuration)
        policy = Self.policy(for: settings)
        let (reports, reporter) = AsyncStream.makeStream(of: SyncWorker.Report.self)
        (self.reports, self.reporter) = (reports, reporter)
        let unhandled = self.unhandled
        worker = SyncWorker(senders: settings.senders, storePath: configuration.storePath, logger: logger, clock: { clock.now() },
                            transport: transport,
                            onProgress: { type, sent in reporter.yield(.progressed(type: type, sent: sent)) },
                            onRequest: metrics.requestFinished,
                            onResult: { r in
                                unhandled.withLock { $0 += 1 }
                                reporter.yield(.finished(r))
                            })
    }

    /// Whom the coordinator tells that something status shows changed (the status board). Set
    /// once, before the daemon starts.
    func connect(changed: @escaping @Sendable () -> Void) { self.changed = changed }

    /// Opens the coordination connection (SQLite: call off the cooperative pool, on a thread
    /// that is not the coordination queue) and hands the worker its gateway settings.
    nonisolated func open() throws {
        let configuration = executor.queue.sync { assumeIsolated { $0.configuration } }   // start-up's own thread, which blocks: cannot await
        let store = Connection(store: try SampleStore.connect(to: configuration))
        executor.queue.sync { assumeIsolated { $0.opened(store.store) } }   // start-up's own thread, which blocks: cannot await
    }

    private func opened(_ store: SampleStore) {
        self.store = store
        configureWorker()
        // A fleet started in the same second (after a power cut) spreads its catch-up over
        // sync.spread_seconds, each daemon at the place its device id gives it.
        let delay = Self.spreadOffset(configuration)
        if delay > 0 {
            scheduler.hold(until: clock.now().millis + delay)
            logger.debug("start-up sync in \(Daemon.seconds(delay)) (sync.spread_seconds)", metadata: ["event": "start"])
        }
    }

    /// Handles the worker's reports as they come, until the worker has stopped (after
    /// `beginStop`, once the batches in flight are answered) or the calling task is cancelled.
    /// `SyncService.run()` calls it, once.
    func receiveReports() async {
        for await report in reports { receive(report) }
    }

    /// One report of the worker.
    func receive(_ report: SyncWorker.Report) {
        switch report {
        case let .progressed(type, sent): progressed(type, sent)
        case let .finished(r):
            unhandled.withLock { $0 -= 1 }
            handle(r)
        }
    }

    /// This daemon's place in the spread window, from its device and user id.
    static func spreadOffset(_ configuration: Configuration) -> Int64 {
        FleetSpread(key: configuration.envelope.deviceId + "/" + configuration.envelope.userId)
            .offsetMillis(window: Int64(configuration.settings.spreadSeconds) * 1000)
    }

    /// The retry policy the settings describe.
    static func policy(for settings: Settings) -> DeliveryPolicy {
        DeliveryPolicy(schedule: RetrySchedule(baseMillis: Int64(settings.retryBaseSeconds) * 1000,
                                               capMillis: Int64(settings.retryMaxSeconds) * 1000),
                       authDelaysMillis: settings.retryAuthSeconds.map { Int64($0) * 1000 })
    }

    var locked: Bool { scheduler.locked }
    /// What lifts the lock, for a refused manual sync (set by the daemon with the lock).
    var unlockHint = "'healthspool unlock'"

    /// Whether samples can be sent at all. While they cannot, observations are not fed to the
    /// scheduler (they would open throttle windows for nothing); a reload catches up.
    var canSync: Bool { !stopping && stoppedReason == nil && configError == nil && configuration.settings.gatewayURL != nil }

    /// The types with queued samples (none when the store cannot be read).
    func queuedTypes() -> [String] { (try? store?.typesWithQueuedSamples()) ?? [] }

    /// The number of queued samples, all types together.

    /// The queued total as the status line shows it, each type counted up to
    /// `statusCountLimit` ("more than 100,000" past it): published up to once a second, it must
    /// not read a queue index of millions each time (about a second of CPU with 20 million).
    func queuedCountText(limit: Int = statusCountLimit) -> String {
        let counts = (try? store?.queuedCounts(upTo: limit)) ?? [:]
        let total = counts.values.reduce(0) { $0 + min($1, limit) }
        return (counts.values.contains { $0 > limit } ? "more than " : "") + StatusBoard.grouped(total)
    }

    /// What status shows of the sync part, read in one go.
    struct Shown: Sendable {
        var locked: Bool
        var stoppedReason, configError, lastError, lastAnswer, lastOutcome, lastSyncText: String?
        var incident: Incident?
        var retryAt: [String: Int64]
        var nextDeadline: Int64?
        var progress: [String: Int]
        var pendingJobs: Int
    }

    var shown: Shown {
        Shown(locked: locked, stoppedReason: stoppedReason, configError: configError, lastError: lastError, lastAnswer: lastAnswer,
              lastOutcome: lastOutcome, lastSyncText: lastSyncText, incident: policy.incident, retryAt: scheduler.retryAt,
              nextDeadline: scheduler.nextDeadline, progress: progress, pendingJobs: pendingJobs)
    }

    /// How far the status line counts each type's queue.
    static let statusCountLimit = 100_000

    /// Jobs queued or in flight, for the daemon's state.
    var pendingJobs: Int {
        let working = worker.pendingJobs   // first: a job leaves it only once counted in `unhandled`
        return progress.count + working + unhandled.withLock { $0 }
    }

    /// Whether every job handed to the worker has finished and its report been handled.
    var allReported: Bool {
        worker.pendingJobs == 0 && unhandled.withLock { $0 } == 0
    }

    // MARK: Events

    /// Types that gained samples (an import, `healthspool import` through the control socket).
    func observe(_ types: [String]) {
        guard !types.isEmpty, canSync else { return }
        perform(scheduler.observe(types, trigger: .observer, now: clock.now().millis))
    }

    /// Syncs every type that has queued samples (start-up catch-up, unlock, reload, network back).
    func catchUp(_ trigger: SyncTrigger) {
        guard canSync else { return }
        let types = queuedTypes()
        guard !types.isEmpty else { return }
        perform(scheduler.observe(types, trigger: trigger, now: clock.now().millis))
    }

    /// The lock flag appeared or went away: while locked nothing is sent; at unlock what
    /// waited drains, each type still throttled.
    func setLocked(_ locked: Bool) {
        guard locked != scheduler.locked else { return }
        let queued = locked ? [] : queuedTypes()
        perform(scheduler.setLocked(locked, queuedTypes: queued, now: clock.now().millis))
    }

    /// Hands the scheduler's actions to the worker (enabled types only; during an outage new
    /// samples wait for the outage's next retry) and arms the timer for its next deadline.
    func perform(_ actions: [SchedulerAction]) {
        for case let .sync(types, trigger) in actions {
            guard canSync else { continue }
            var enabled = types.filter { configuration.settings.isSent($0) }
            // During an outage new samples wait for the outage's next retry (one attempt for all).
            if let incident = policy.incident, incident.retryAt > clock.now().millis, ![.manual, .reload, .retry].contains(trigger) {
                for t in enabled { scheduler.scheduleRetry(t, at: incident.retryAt) }
                enabled = []
            }
            for t in enabled {
                logger.debug("sync \(t) (\(trigger.rawValue))", metadata: ["event": "throttle", "type": "\(t)", "trigger": "\(trigger.rawValue)"])
            }
            worker.enqueue(enabled, trigger: trigger)
        }
        armTimer()
        changed()
    }

    /// Arms the one timer at the scheduler's next deadline (throttle window, schedule, retry).
    func armTimer() {
        timer?.cancel()
        timer = nil
        guard !stopping, let deadline = scheduler.nextDeadline else { return }
        timer = clock.schedule(at: deadline, on: executor.queue) { [weak self] in
            self?.assumeIsolated { sync in   // the timer's Dispatch handler, on `q`: not async
                sync.timer = nil
                sync.perform(sync.scheduler.tick(now: sync.clock.now().millis))
            }
        }
    }

    private func progressed(_ type: String, _ sent: Int) {
        progress[type] = sent
        tellWaitersInFlight()
        changed()
    }

    /// A job finished: the policy decides retries, waiting clients hear of it, and the
    /// attempt's history row is written once every job that ran with it has reported.
    private func handle(_ r: SyncJobResult) {
        progress[r.type] = nil
        attempt.add(r)
        metrics.jobFinished(r)
        recordDelivery(r)
        tellWaitersInFlight()
        finishWaiters(result: r)
        if allReported { flushAttempt() }
        armTimer()
        changed()
    }

    // MARK: Configuration and stop

    /// Takes new settings. The schedule takes them in place; the sync part (gateway, retries,
    /// the types sent) is restarted — its incident and retries forgotten, every queued type tried
    /// at once — when `restart` is set. Returns whether it was restarted.
    func reload(_ fresh: Configuration, restart: Bool) {
        configuration = fresh
        let settings = fresh.settings
        scheduler.frequency = settings.syncFrequency
        scheduler.throttle.windowMillis = Int64(settings.throttleSeconds) * 1000
        scheduler.deliveryFrequency = { settings.frequency(of: $0) }
        scheduler.boundaryOffsetMillis = Self.spreadOffset(fresh)
        guard restart else { armTimer(); changed(); return }
        policy = Self.policy(for: settings)
        scheduler.clearRetries()
        stoppedReason = nil
        // The old configuration's answers say nothing about the new one; it is tried at once.
        lastError = nil
        lastAnswer = nil
        configureWorker()
    }

    /// After a restart: every queued type at once, throttle or not.
    func syncEverythingQueued(_ trigger: SyncTrigger) {
        guard !scheduler.locked, canSync else { changed(); return }
        perform(scheduler.syncNow(queuedTypes(), trigger: trigger))
    }

    /// Whether sync cannot run on the current configuration (a reload restarts it).
    var isUnusable: Bool { configError != nil || stoppedReason != nil }

    private func configureWorker() {
        do {
            configError = nil
            if let endpoint = try configuration.endpoint() {
                worker.configure(SyncConfig(endpoint: endpoint, envelope: configuration.envelope, sizing: configuration.settings.batchSizing))
            } else {
                worker.configure(nil)
            }
        } catch KeyringError.locked(let name) {
            // The daemon waits for the keyring (Daemon+Keyring), and said so: no error here.
            configError = "\(KeyringError.locked(name))"
            worker.configure(nil)
        } catch {
            configError = "\(error)"
            worker.configure(nil)
            logger.error("gateway not usable: \(error)", metadata: ["event": "error"])
        }
    }

    /// The stop began: no new job, no timer; the batches in flight finish (see `SyncService`),
    /// and once they have reported, `reports` ends.
    func beginStop() {
        guard !stopping else { return }
        stopping = true
        timer?.cancel()
        timer = nil
        worker.stopTakingJobs()
        let reporter = self.reporter
        worker.whenIdle { reporter.finish() }
    }

    /// The coordination connection, handed from the thread that opened it to the actor.
    ///
    /// `@unchecked Sendable`: opened off the queue and used only by the actor after the hand-over.
    private struct Connection: @unchecked Sendable {
        let store: SampleStore
    }
}
