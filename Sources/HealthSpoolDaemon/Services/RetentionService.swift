import HealthJournal
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging
import ServiceLifecycle

/// Retention: its work is a pass 5 s after start-up and then hourly, on the service clock,
/// each handed to the intake's import queue (SQLite stays off the coordination queue, and
/// nothing is pruned while a file imports): the store, then the spool's archive/ and failed/
/// folders, then the note recordings no note names any more (`NoteRecordings`). Each pass reads
/// the configuration in effect (a reload's limits apply at the next one). It ends at a stop;
/// no pass starts once the daemon's stop began (the intake takes nothing more).
struct RetentionService: Service {
    static let firstDelayMillis: Int64 = 5000
    static let everyMillis: Int64 = 3_600_000
    let intake: SpoolIntake
    let clock: any ServiceClock
    let logger: Logger
    /// Ends once the daemon has started (the first pass counts from there).
    let started: AsyncStream<Void>
    let beginStop: @Sendable () -> Void

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await _ in started {}
            await withTaskExecutorPreference(intake.executor) { await passes(on: intake) }
        }
        beginStop()
    }

    /// The passes until the stop, isolated to the intake and preferring its executor, the
    /// coordination queue: each sleep ends there at its deadline however busy the cooperative
    /// pool is (issue 27: timers that keep time).
    private func passes(on intake: isolated SpoolIntake) async {
        var next = clock.now().millis + Self.firstDelayMillis
        while await clock.sleep(until: next) {
            next = clock.now().millis + Self.everyMillis
            let (logger, now) = (logger, clock.now())
            intake.runOnImportQueue { importer, configuration in
                Self.prune(store: importer.store, settings: configuration.settings, spool: configuration.spool,
                           notes: NoteRecordings.directory(stateDir: configuration.stateDir), logger: logger, now: now)
            }
        }
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
