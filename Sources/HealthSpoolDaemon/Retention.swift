import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// What one retention pass did.
public struct RetentionReport: Sendable {
    /// Synced samples pruned (their ids kept as delivered).
    public var samples = 0
    /// Whether the store stayed over its size limit because what is left is unsynced (kept).
    public var overLimitUnsynced = false
    /// Files removed from the spool's archive/ and failed/.
    public var spool = SpoolPruneReport()
}

/// The retention policy: what the store and the spool keep. The store is the user's history:
/// synced samples go by age only when `store.retention_days` is set, and by size (oldest
/// synced first, by sample date) when the store is over `store.max_mb`; unsynced samples are
/// never dropped. Archived spool files go by age and total size, failed ones by age.
public struct Retention: Sendable {
    public let settings: Settings

    public init(settings: Settings) { self.settings = settings }

    /// Prunes `store` as the settings say, at `now`.
    public func pruneStore(_ store: SampleStore, now: Timestamp) throws -> RetentionReport {
        var report = RetentionReport()
        if settings.retentionDays > 0 {
            report.samples += try store.pruneSynced(olderThanMillis: now.millis - Int64(settings.retentionDays) * 86_400_000)
        }
        let limit = Int64(settings.storeMaxMB) << 20
        var size = try store.sizeBytes()
        while size > limit {
            let synced = try store.syncedCounts().values.reduce(0, +)
            guard synced > 0 else {
                report.overLimitUnsynced = true
                break
            }
            let n = try store.pruneOldestSynced(keeping: synced - max(1, synced / 10))
            report.samples += n
            try store.vacuum()
            let after = try store.sizeBytes()
            if n == 0 || after >= size { break }
            size = after
        }
        return report
    }

    /// Prunes the spool's archive/ and failed/ folders, at `now`.
    public func pruneSpool(_ spool: SpoolDirectory, now: Timestamp) throws -> SpoolPruneReport {
        try spool.prune(archiveDays: settings.archiveDays, archiveMaxBytes: Int64(settings.archiveMaxMB) << 20,
                        failedDays: settings.failedDays, now: now)
    }
}
