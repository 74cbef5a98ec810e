import Dispatch
import HealthSpoolCore
import HealthSpoolStore
import Logging

extension Daemon {
    /// Prunes at start and then hourly, on the import queue (SQLite work stays off the
    /// coordination queue): synced samples older than `store.retention_days`, then, while the
    /// store is over `store.max_mb`, the oldest synced samples. Unsynced samples are never
    /// dropped; if they alone exceed the limit, that is logged.
    func startRetention() {
        let t = DispatchSource.makeTimerSource(queue: q)
        t.schedule(deadline: .now() + .seconds(5), repeating: .seconds(3600))
        t.setEventHandler { [weak self] in
            guard let self, !self.shuttingDown else { return }
            let settings = self.context.settings
            self.importQueue.async { self.prune(settings: settings) }
        }
        t.resume()
        retentionTimer = t
    }

    func prune(settings: Settings) {
        let store = importer.store
        do {
            let cutoff = Self.now().millis - Int64(settings.retentionDays) * 86_400_000
            var removed = try store.pruneSynced(olderThanMillis: cutoff)
            let limit = Int64(settings.storeMaxMB) << 20
            var size = try store.sizeBytes()
            while size > limit {
                let synced = try store.syncedCounts().values.reduce(0, +)
                guard synced > 0 else {
                    logger.warning("the store is over its \(settings.storeMaxMB) MB limit with unsynced samples only; they are kept",
                                   metadata: ["event": "prune"])
                    break
                }
                let n = try store.pruneOldestSynced(keeping: synced - max(1, synced / 10))
                removed += n
                try store.vacuum()
                let after = try store.sizeBytes()
                if n == 0 || after >= size { break }
                size = after
            }
            if removed > 0 {
                logger.info("pruned \(removed) synced sample(s)", metadata: ["event": "prune", "count": "\(removed)"])
            }
        } catch {
            logger.error("pruning failed: \(error)", metadata: ["event": "error"])
        }
    }
}
