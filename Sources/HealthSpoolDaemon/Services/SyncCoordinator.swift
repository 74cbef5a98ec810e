import Dispatch
import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolLinux
import HealthSpoolStore
import Logging

/// The sync part of the daemon, owned by `SyncService`: the scheduler (throttle, frequencies,
/// lock), the retry policy, the sync worker and its timer, the clients waiting for a manual
/// sync, and what status shows about delivery. Types go in (`observe`, `catchUp`, `manual`),
/// jobs go out to the worker, results come back and the policy decides what happens next.
///
/// `@unchecked Sendable`: every mutable property is read and written on `queue` only (the
/// daemon's coordination queue: timers and worker callbacks hop onto it); SQLite is reached only
/// through `store`, whose calls are short index reads and one history row per attempt.
public final class SyncCoordinator: @unchecked Sendable {
    let queue: DispatchQueue
    let clock: any ServiceClock
    let logger: Logger
    private(set) var context: DaemonContext
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
    /// Called on `queue` whenever something status shows changed.
    var changed: @Sendable () -> Void = {}
    /// The Prometheus counters: jobs, attempts and request durations.
    let metrics: DaemonMetrics

    /// A coordinator for `context`'s settings; `transport` makes each sender's connection
    /// (libcurl in production).
    init(context: DaemonContext, logger: Logger, queue: DispatchQueue, clock: any ServiceClock,
         metrics: DaemonMetrics, transport: @escaping SyncWorker.TransportFactory = SyncWorker.httpsTransport) {
        self.context = context
        self.metrics = metrics
        self.logger = logger
        self.queue = queue
        self.clock = clock
        let settings = context.settings
        scheduler = SyncScheduler(frequency: settings.syncFrequency, throttleMillis: Int64(settings.throttleSeconds) * 1000,
                                  deliveryFrequency: { settings.frequency(of: $0) })
        scheduler.boundaryOffsetMillis = Self.spreadOffset(context)
        policy = Self.policy(for: settings)
        let box = WeakCoordinator()
        worker = SyncWorker(senders: settings.senders, storePath: context.storePath, logger: logger, clock: { clock.now() },
                            transport: transport,
                            onProgress: { type, sent in box.value?.queue.async { box.value?.progressed(type, sent) } },
                            onRequest: metrics.requestFinished,
                            onResult: { r in box.value?.queue.async { box.value?.handle(r) } })
        box.value = self
    }

    /// Opens the coordination connection (SQLite: call off the cooperative pool) and hands the
    /// worker its gateway settings.
    func open() throws {
        let store = try context.openStore()
        queue.sync {
            self.store = store
            configureWorker()
            // A fleet started in the same second (after a power cut) spreads its catch-up over
            // sync.spread_seconds, each daemon at the place its device id gives it.
            let delay = Self.spreadOffset(context)
            if delay > 0 {
                scheduler.hold(until: clock.now().millis + delay)
                logger.debug("start-up sync in \(Daemon.seconds(delay)) (sync.spread_seconds)", metadata: ["event": "start"])
            }
        }
    }

    /// This daemon's place in the spread window, from its device and user id.
    static func spreadOffset(_ context: DaemonContext) -> Int64 {
        FleetSpread(key: context.envelope.deviceId + "/" + context.envelope.userId)
            .offsetMillis(window: Int64(context.settings.spreadSeconds) * 1000)
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
    var canSync: Bool { !stopping && stoppedReason == nil && configError == nil && context.settings.gatewayURL != nil }

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

    /// How far the status line counts each type's queue.
    static let statusCountLimit = 100_000

    /// Jobs queued or in flight, for the daemon's state.
    var pendingJobs: Int { progress.count + worker.pendingJobs }

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
            var enabled = types.filter { context.settings.isSent($0) }
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
        timer = clock.schedule(at: deadline, on: queue) { [weak self] in
            guard let self else { return }
            self.timer = nil
            self.perform(self.scheduler.tick(now: self.clock.now().millis))
        }
    }

    private func progressed(_ type: String, _ sent: Int) {
        progress[type] = sent
        changed()
    }

    /// A job finished: the policy decides retries, waiting clients hear of it, and the
    /// attempt's history row is written once every job that ran with it has reported.
    private func handle(_ r: SyncJobResult) {
        progress[r.type] = nil
        attempt.add(r)
        metrics.jobFinished(r)
        recordDelivery(r)
        finishWaiters(result: r)
        if worker.pendingJobs == 0 { queue.async { self.flushAttempt() } }
        armTimer()
        changed()
    }

    // MARK: Configuration and stop

    /// Takes new settings. The schedule takes them in place; the sync part (gateway, retries,
    /// the types sent) is restarted — its incident and retries forgotten, every queued type tried
    /// at once — when `restart` is set. Returns whether it was restarted.
    func reload(_ fresh: DaemonContext, restart: Bool) {
        context = fresh
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
            if let endpoint = try context.endpoint() {
                worker.configure(SyncConfig(endpoint: endpoint, envelope: context.envelope, batchSize: context.settings.batchSize))
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

    /// The stop began: no new job, no timer; the batches in flight finish (see `SyncService`).
    func beginStop() {
        stopping = true
        timer?.cancel()
        timer = nil
        worker.stopTakingJobs()
    }
}

/// The coordinator, known weakly to the worker's callbacks (created before it).
private final class WeakCoordinator: @unchecked Sendable {
    /// `@unchecked Sendable`: set once in the coordinator's `init`, before the worker can call back.
    weak var value: SyncCoordinator?
}
