import Dispatch
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolLock
import Logging
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// The daemon: the wiring of its services. The parts are actors that own their state — the
/// sync coordinator (scheduler, retry policy, worker), the spool intake (imports), the status
/// board (state machine, status file, watchdog) — and share one serial coordination queue, `q`,
/// as their executor (`executor`); imports, sends and pruning run on queues of their own. What
/// is left here carries out what the services' watchers saw (the lock flag's hold, a reload),
/// and starts and stops the parts. Those steps run on the status board, through an `isolated`
/// parameter (`on status:`): the compiler checks the board's state; the intake and the
/// coordinator, which share the board's executor, are entered in the same step with
/// `assumeIsolated` (each use says why), as are the blocking start-up thread and Dispatch
/// blocks, which cannot await.
/// The watchers themselves (the spool, the lock flag, the config and secret files) are their
/// services' own (`SpoolWatcherService`, `LockFlagService`, `ReloadService`).
///
/// What changes while it runs (the configuration at a reload, the control
/// socket, the lock, whether start-up finished) is kept behind a lock (`Mutable`), each access
/// through a property below: it is read and written on `q` (watcher events and signals are
/// scheduled there; other threads hop onto it with `q.async`), and by `start()`, off `q`, before
/// the first service reads it; the lock makes that checked by the compiler, not by comment.
public final class Daemon: Sendable {
    let q = DispatchQueue(label: "healthspool.daemon")
    /// `q` as the executor of the actors that share it (`StatusBoard`, `SpoolIntake`, `SyncCoordinator`).
    let executor: QueueExecutor
    let logger: Logger
    let notifier = SystemdNotifier()
    let clock: any ServiceClock
    let sync: SyncCoordinator
    /// The store pool of this process (`App.stores`): the journal's writes made in it
    /// (`journalWrites`) are for the sync coordinator.
    let stores: StorePool
    let intake: SpoolIntake
    let status: StatusBoard
    /// Start-up's meeting with the services that own a watcher (the spool, the lock flag, the
    /// config files): `start()` reads the flag and the spool once all three watch.
    let watcherStart = WatcherStart(watchers: 3)
    /// The gateway's secret and TLS files to watch, at start and after each reload
    /// (`ReloadService` watches them).
    let secretFiles: AsyncStream<Set<String>>
    let secretFilesReporter: AsyncStream<Set<String>>.Continuation
    /// The control socket's requests, in order: `ControlService.run()` hands each to the sync
    /// coordinator.
    let controlRequests: AsyncStream<ControlRequest>
    let controlReporter: AsyncStream<ControlRequest>.Continuation
    /// Ends once start-up has finished (`start()`): the retention service waits for it.
    let startedUp: AsyncStream<Void>
    let startUpReporter: AsyncStream<Void>.Continuation
    /// Signalled once the session lock's first state is known (`SessionLockService`); start-up
    /// waits for it before reading the spool.
    let sessionLockKnown = DispatchSemaphore(value: 0)
    /// The time a stop may take, shared by the services (see `Services/`).
    let stopBudget: StopBudget
    private let mutable: Lock<Mutable>

    /// The daemon's changing state (see the type's comment).
    struct Mutable {
        var configuration: Configuration
        var flagAloneLogged = false
        var pidLock: ProcessLock?
        var control: ControlServer?
        var startError: Error?
        var started = false
        var extraServices: [any Service] = []
    }

    /// The configuration in effect (the one read at start, then each reload's).
    var configuration: Configuration {
        get { mutable.withLock { $0.configuration } }
        set { mutable.withLock { $0.configuration = newValue } }
    }
    /// Whether "the lock flag alone" was logged since the session was last followed.
    var flagAloneLogged: Bool {
        get { mutable.withLock { $0.flagAloneLogged } }
        set { mutable.withLock { $0.flagAloneLogged = newValue } }
    }
    /// The per-user daemon lock (the pid file), once taken.
    var pidLock: ProcessLock? {
        get { mutable.withLock { $0.pidLock } }
        set { mutable.withLock { $0.pidLock = newValue } }
    }
    var control: ControlServer? {
        get { mutable.withLock { $0.control } }
        set { mutable.withLock { $0.control = newValue } }
    }
    /// Why start-up failed, when it did.
    var startError: Error? {
        get { mutable.withLock { $0.startError } }
        set { mutable.withLock { $0.startError = newValue } }
    }
    /// Whether start-up finished (on `q`).
    var started: Bool {
        get { mutable.withLock { $0.started } }
        set { mutable.withLock { $0.started = newValue } }
    }
    /// Services of other modules that run after the daemon's own (the web interface), listed
    /// last in the group: they stop first.
    public var extraServices: [any Service] {
        get { mutable.withLock { $0.extraServices } }
        set { mutable.withLock { $0.extraServices = newValue } }
    }
    /// The counters for Prometheus (`/metrics`, `metrics.textfile`): the app's.
    let metrics: DaemonMetrics
    /// The configuration in effect, as the web interface reads it: each reload sets it.
    let current: CurrentConfiguration
    /// "Sync now" for the web interface in this process: a call into the sync coordinator.
    public var manualSync: ManualSync { ManualSync(coordinator: sync) }

    /// The daemon of `app`: its parts take the app's configuration, clock, transport and
    /// counters.
    public init(app: App) {
        executor = QueueExecutor(queue: q)
        (secretFiles, secretFilesReporter) = AsyncStream.makeStream(of: Set<String>.self)
        (controlRequests, controlReporter) = AsyncStream.makeStream(of: ControlRequest.self)
        (startedUp, startUpReporter) = AsyncStream.makeStream(of: Void.self)
        let (configuration, logger, clock, metrics) = (app.configuration, app.logger, app.clock, app.metrics)
        mutable = Lock(Mutable(configuration: configuration))
        current = app.current
        self.logger = logger
        self.clock = clock
        self.metrics = metrics
        stopBudget = StopBudget(seconds: Self.stopGraceSeconds, clock: clock)
        stores = app.stores
        sync = SyncCoordinator(configuration: configuration, logger: logger, executor: executor, clock: clock, metrics: metrics, transport: app.transport)
        intake = SpoolIntake(configuration: configuration, logger: logger, executor: executor, clock: clock, metrics: metrics)
        status = StatusBoard(configuration: configuration, logger: logger, notifier: notifier, executor: executor, clock: clock, sync: sync, intake: intake,
                             metrics: metrics, live: app.stores.liveStatus)
        let (sync, status) = (self.sync, self.status)
        // `init` is synchronous: it cannot await. The closures are called synchronously by the
        // coordinator and the intake on `q`, the executor they share with the board: entered
        // at once, in the same step.
        q.sync {
            sync.assumeIsolated { $0.connect(changed: { [weak status] in status?.assumeIsolated { $0.publish() } }) }   // init; same executor, same step
            intake.assumeIsolated {   // init cannot await
                $0.connect(gained: { [weak sync] types in sync?.assumeIsolated { $0.observe(types) } },   // same executor, same step
                           changed: { [weak status] in status?.assumeIsolated { $0.publish() } })   // same executor, same step
            }
        }
    }

    /// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread, and so in every thread made after
    /// it: the first call of the daemon's process, before any thread exists. A signal sent before
    /// the service group listens (the configuration read, the store opened: up to a second on a
    /// busy machine) would otherwise end the daemon by its default action (exit 143) or, for
    /// SIGHUP, kill it; blocked, it stays pending until the group's signal sources (a signalfd
    /// on Linux) collect it, so a stop sent at once is still a clean stop.
    public static func holdStopSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for s in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Runs the services until SIGTERM/SIGINT; returns the exit code. The calling thread only
    /// waits (it is not one of the cooperative pool's).
    public func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        leaveDispatchGlobalQueues()
        // The spool's check for a file still being written holds a read lease for an instant
        // (`FileSystem.isOpenForWriting`); a writer opening the file in that instant makes the
        // kernel send the lease holder SIGIO, whose default action would end the daemon.
        signal(SIGIO, SIG_IGN)
        umask(0o077)
        // Room for connections before descriptors run short for the store, the spool and imports.
        let files = OpenFileLimit.raise()
        if files.after > files.before {
            logger.debug("open file limit raised from \(files.before) to \(files.after)", metadata: ["event": "start"])
        }
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

    /// Moves Swift concurrency's jobs off Dispatch's global queues onto threads made now
    /// (issue 39: libdispatch's monitor of those queues opens a file every second while work
    /// waits in them, and traps when it cannot, so a daemon out of descriptors died). Before the
    /// first task; when the threads cannot be made, the tasks stay on Dispatch's queues.
    func leaveDispatchGlobalQueues() {
        do {
            let pool = try TaskThreadPool(threads: TaskThreadPool.defaultThreads)
            if pool.installAsGlobalExecutor() {
                logger.debug("Swift concurrency runs on \(pool.threads) threads of the daemon's own", metadata: ["event": "start"])
            } else {
                logger.warning("Swift concurrency stays on Dispatch's global queues (the runtime has no global executor hook): the daemon may end when the system runs out of file descriptors",
                               metadata: ["event": "start"])
            }
        } catch {
            logger.warning("Swift concurrency stays on Dispatch's global queues: \(error); the daemon may end when the system runs out of file descriptors",
                           metadata: ["event": "start"])
        }
    }

    /// Takes the per-user daemon lock (the pid file), or throws naming the daemon that holds it.
    func acquireLock() throws {
        try FileSystem.makeDirectory(configuration.runtimeDir, mode: 0o700)
        guard let lock = ProcessLock(path: configuration.pidFile, writePID: true) else {
            let pid = ProcessLock.holder(of: configuration.pidFile).map { " (pid \($0))" } ?? ""
            throw DaemonError.alreadyRunning("another healthspool daemon is already running for this user\(pid)")
        }
        pidLock = lock
    }

    /// Opens the store connections and the control socket, meets the services' watchers
    /// (`WatcherStart`), then tells systemd it is ready and reads the spool. Runs off the
    /// cooperative pool (SQLite, sockets).
    func start() throws {
        if pidLock == nil { try acquireLock() }
        try sync.open()
        try intake.open()
        try FileSystem.makeDirectory(configuration.paths.configDir, mode: 0o700)
        // Nothing is admitted from the spool until the holds below (the flag, the session, the
        // keyring) are known: a file that lands meanwhile is found by the rescan at the end, or
        // waits for the unlock. (A file dropped while the keyring was being asked was imported.)
        q.sync { intake.assumeIsolated { $0.locked = true } }   // start-up's own thread, which blocks: it cannot await
        watchSecrets()
        try watcherStart.open()
        control = try ControlServer(path: configuration.controlSocket) { [controlReporter] request in
            // Read as the socket closed at a stop, after the last request was handled: not answered.
            if case .terminated = controlReporter.yield(request) { close(request.client) }
        }
        waitForSessionLock()
        startKeyringWatch()
        q.sync { status.assumeIsolated { finishStart(on: $0) } }   // start-up's own thread, which blocks: it cannot await
    }

    /// The end of start-up, on the board: the lock worked out (the flag read now that its
    /// watcher watches), systemd told, the spool read unless locked, the watchdog started.
    /// The intake and the coordinator share the board's executor and are entered in the same
    /// step, before any event that waits on the queue.
    private func finishStart(on status: isolated StatusBoard) {
        status.lockHolds.set(.flag, LockFlag.isSet(path: configuration.lockFlagPath), now: clock.now())
        let locked = status.lockHolds.isLocked
        sync.assumeIsolated { [hint = status.lockHolds.unlockHint] sync in   // same executor, same step
            sync.unlockHint = hint ?? sync.unlockHint
            sync.setLocked(locked)
        }
        intake.assumeIsolated { $0.locked = locked }   // same executor, same step
        logger.info("watching \(configuration.spool.path)\(status.lockHolds.holdersText.map { " (locked by \($0))" } ?? "")",
                    metadata: ["event": "start", "file": "\(configuration.spool.path)"])
        notifier.ready(status: status.statusLine())
        for action in status.lifecycle.started(locked: locked) where action == .readSpool {
            intake.assumeIsolated { $0.rescan() }   // same executor, same step
            sync.assumeIsolated { $0.catchUp(.startup) }   // same executor, same step
        }
        status.startWatchdog()
        started = true
        startUpReporter.finish()
        status.publish()
    }

    // MARK: Stop

    /// How long a stop waits for the import to reach a batch boundary and for the batches in
    /// flight to be answered and marked, well inside the unit's `TimeoutStopSec=30`. A batch the
    /// gateway has not answered by then stays queued and is sent again at the next start.
    static let stopGraceSeconds = 10

    /// The first service told to stop starts the stop: the clock of the stop budget, the import
    /// asked to end at its next batch boundary (what it committed is kept, the file stays in the
    /// spool and is imported again, idempotently, at the next start), the sync worker taking no
    /// new job, and the one "stopping" line. The services then stop in reverse order of
    /// dependency, each within the budget; whatever is not done by then is left for next time.
    /// Safe from any thread; later calls do nothing. Synchronous (the services call it from
    /// synchronous code, the graceful-shutdown handler among them): a block on `q`, queued
    /// before whatever the caller awaits next there.
    func beginStop() {
        stopBudget.begin()
        q.async {
            guard self.started else { return }
            let actions = self.status.assumeIsolated { $0.lifecycle.stopRequested() }   // a Dispatch block on `q`: cannot await (see above)
            guard !actions.isEmpty else { return }
            self.logger.notice("stopping: interrupting the import, finishing the batch in flight", metadata: ["event": "stop"])
            self.notifier.stopping(status: "stopping: interrupting the import, finishing the batch in flight")
            for action in actions {
                switch action {
                case .stopIntake: self.intake.assumeIsolated { $0.stopTakingFiles() }   // Dispatch block on `q`; no import or retention pass starts
                case .interruptImport: self.intake.assumeIsolated { $0.interruptImport() }   // Dispatch block on `q`
                case .finishBatchInFlight: self.sync.assumeIsolated { $0.beginStop() }   // Dispatch block on `q`
                case .readSpool: self.intake.assumeIsolated { $0.rescan() }   // Dispatch block on `q`
                }
            }
        }
    }

    /// The end of a stop, once every other service has stopped: the final status, the watchdog
    /// thread stopped, and how long the stop took.
    func finishStop() async {
        guard started else { return }
        let (unfinished, millis) = stopBudget.outcome
        await status.publishStopped()
        if unfinished.isEmpty {
            logger.notice("stopped in \(Self.seconds(millis))", metadata: ["event": "stop", "duration_ms": "\(millis)"])
        } else {
            logger.warning("stopped after \(Self.stopGraceSeconds) s with work unfinished: an unanswered batch stays queued and is sent again, an unfinished import is resumed, at the next start",
                           metadata: ["event": "stop", "duration_ms": "\(millis)"])
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
            // A queue of its own, not a global one (issue 39: see `TaskThreadPool`).
            DispatchQueue(label: "healthspool.start").async { continuation.resume(returning: Result { try self.start() }) }
        }
        if case let .failure(error) = outcome {
            watcherStart.abandon()   // when start-up failed before the watchers' meeting
            secretFilesReporter.finish()
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
