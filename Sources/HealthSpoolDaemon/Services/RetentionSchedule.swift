import Dispatch
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging

/// When retention runs, owned by `RetentionService`: 5 s after start, then hourly, on the
/// intake's import queue (SQLite stays off the coordination queue, and no file is pruned while
/// one is imported): the store, then the spool's archive/ and failed/ folders, then the note
/// recordings no note names any more (`NoteRecordings`).
///
/// An actor on the coordination queue (`QueueExecutor`): its timer and stop flag are its own;
/// the daemon, already on that queue, calls it through `assumeIsolated`.
actor RetentionSchedule {
    static let firstDelayMillis: Int64 = 5000
    static let everyMillis: Int64 = 3_600_000
    let intake: SpoolIntake
    let logger: Logger
    let clock: any ServiceClock
    private var timer: (any ServiceTimer)?
    private var stopped = false

    private nonisolated let executor: QueueExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(intake: SpoolIntake, logger: Logger, clock: any ServiceClock, executor: QueueExecutor) {
        self.executor = executor
        self.intake = intake
        self.logger = logger
        self.clock = clock
    }

    /// Arms the first pass (on the coordination queue).
    func start() { arm(after: Self.firstDelayMillis) }

    /// No further pass (on the coordination queue).
    func stop() {
        stopped = true
        timer?.cancel()
        timer = nil
    }

    private func arm(after millis: Int64) {
        guard !stopped else { return }
        timer = clock.schedule(at: clock.now().millis + millis, on: executor.queue) { [weak self] in
            self?.assumeIsolated { $0.fire() }
        }
    }

    /// A pass is due: hands it to the import queue and arms the next.
    private func fire() {
        guard !stopped else { return }
        let (configuration, importer) = intake.assumeIsolated { ($0.configuration, $0.importer) }
        let settings = configuration.settings, spool = configuration.spool
        let notes = NoteRecordings.directory(stateDir: configuration.stateDir)
        if let importer {
            let (logger, now) = (self.logger, clock.now())
            intake.importQueue.async {
                Self.prune(store: importer.store, settings: settings, spool: spool, notes: notes, logger: logger, now: now)
            }
        }
        arm(after: Self.everyMillis)
    }

    /// One pass: the store, then the spool's archive/ and failed/, then the note recordings in
    /// `notes` (on the import queue, which alone uses the importer's connection).
    static func prune(store: SampleStore, settings: Settings, spool: SpoolDirectory, notes: String, logger: Logger, now: Timestamp) {
        let retention = Retention(settings: settings)
        do {
            let report = try retention.pruneStore(store, now: now)
            if report.overLimitUnsynced {
                logger.warning("the store is over its \(settings.storeMaxMB) MB limit with unsynced samples only; they are kept",
                               metadata: ["event": "prune"])
            }
            if report.samples > 0 {
                logger.info("pruned \(report.samples) synced sample(s); their ids are kept so they are not sent again",
                            metadata: ["event": "prune", "count": "\(report.samples)"])
            }
        } catch {
            logger.error("pruning the store failed: \(error)", metadata: ["event": "error"])
        }
        do {
            let removed = try retention.pruneSpool(spool, now: now)
            if !removed.archived.isEmpty || !removed.failed.isEmpty {
                logger.info("removed \(removed.archived.count) archived and \(removed.failed.count) failed file(s) (\(removed.bytes) bytes)",
                            metadata: ["event": "prune", "count": "\(removed.archived.count + removed.failed.count)",
                                       "file": "\((removed.archived + removed.failed).joined(separator: ","))"])
            }
        } catch {
            logger.error("pruning the spool's archive/ and failed/ failed: \(error)", metadata: ["event": "error"])
        }
        do {
            let removed = try NoteRecordings.sweep(directory: notes, store: store, now: now)
            if !removed.isEmpty {
                logger.info("removed \(removed.count) note recording(s) no note names any more",
                            metadata: ["event": "prune", "count": "\(removed.count)", "file": "\(removed.joined(separator: ","))"])
            }
        } catch {
            logger.error("removing the note recordings no note names failed: \(error)", metadata: ["event": "error"])
        }
    }
}
