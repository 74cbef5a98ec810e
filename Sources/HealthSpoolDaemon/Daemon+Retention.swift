import Dispatch
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging

extension Daemon {
    /// Runs `Retention` at start (after 5 s) and then hourly, on the import queue (SQLite work
    /// stays off the coordination queue, and no file is pruned while one is imported): the
    /// store, then the spool's archive/ and failed/ folders.
    func startRetention() {
        let t = DispatchSource.makeTimerSource(queue: q)
        t.schedule(deadline: .now() + .seconds(5), repeating: .seconds(3600))
        t.setEventHandler { [weak self] in
            guard let self, !self.shuttingDown else { return }
            let settings = self.context.settings, spool = self.context.spool
            self.importQueue.async { self.prune(settings: settings, spool: spool) }
        }
        t.resume()
        retentionTimer = t
    }

    func prune(settings: Settings, spool: SpoolDirectory) {
        let retention = Retention(settings: settings)
        do {
            let report = try retention.pruneStore(importer.store, now: Self.now())
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
            let removed = try retention.pruneSpool(spool, now: Self.now())
            if !removed.archived.isEmpty || !removed.failed.isEmpty {
                logger.info("removed \(removed.archived.count) archived and \(removed.failed.count) failed file(s) (\(removed.bytes) bytes)",
                            metadata: ["event": "prune", "count": "\(removed.archived.count + removed.failed.count)",
                                       "file": "\((removed.archived + removed.failed).joined(separator: ","))"])
            }
        } catch {
            logger.error("pruning the spool's archive/ and failed/ failed: \(error)", metadata: ["event": "error"])
        }
    }
}
