import HealthSpoolCore
import HealthSpoolStore
import Logging

/// What one full export's import showed deleted on the phone (issue 43).
public struct InferredDeletions: Sendable, Equatable {
    /// Samples marked deleted now (tombstones queued).
    public var marked = 0
    /// Samples that wait for `healthspool deletions apply`: more than `limit` were found.
    public var waiting = 0
    /// The bound: the most one import may mark.
    public var limit = 0
    /// The types put in line (tombstones to send).
    public var types: [String] = []

    /// One plain line for the import's summary, or nil when nothing was found.
    public var line: String? {
        if waiting > 0 {
            return "\(waiting) sample(s) no longer in this export wait to be marked deleted: more than the \(limit) one import may mark (store.deletions_max_percent); check with healthspool deletions, then run healthspool deletions apply"
        }
        return marked > 0 ? "\(marked) sample(s) deleted on the phone (no longer in this export) marked deleted; healthspool deletions --restore puts them back" : nil
    }
}

extension ExportImporter {
    /// The state key holding the newest full export's ExportDate (milliseconds).
    static let newestFullExportKey = "exports.newest_full_ms"
    /// The state key holding how many samples (of enabled types) the newest full export held.
    static let newestFullExportCountKey = "exports.newest_full_count"

    /// How many ids a newer full export will likely hold, to size its `SeenSampleIDs`: as many
    /// as the newest full export before it held or, when that is not known (it was imported
    /// before the count was kept), as many samples as the store holds. A wrong guess costs
    /// memory and time (ids spill at 8 bytes each), never a wrong answer.
    static func expectedSampleCount(_ store: SampleStore) throws(StoreError) -> Int {
        if let n = try store.state(newestFullExportCountKey).flatMap({ Int($0) }) { return n }
        return try store.storedSampleCount()
    }

    /// After a clean import of a full export made at `exportDate`, holding `held` samples of
    /// enabled types: marks deleted (or holds over the bound) the samples an earlier full export
    /// held that this one, `seen`, no longer holds (`DeletionInference`), and remembers this
    /// export's date and count. Nil when nothing was inferred. `kept`: whether the import kept
    /// `seen` (it does only when it can be compared).
    func inferDeletions(exportDate: Timestamp, seen: SeenSampleIDs, kept: Bool, held: Int, settings: Settings, name: String) -> InferredDeletions? {
        do {
            let newest = try store.state(Self.newestFullExportKey).flatMap { Int64($0) }.map { Timestamp(millis: $0) }
            let eligibility = DeletionInference.eligibility(exportDate: exportDate, newestSeen: newest, clean: true)
            switch eligibility {
            case .firstExport:
                try store.setState(Self.newestFullExportKey, String(exportDate.millis))
                try store.setState(Self.newestFullExportCountKey, String(held))
                return nil
            case .notNewer(let newest):
                logger.info("\(name) is a full export no newer than one imported before (\(newest.millis) ms): no deletion is inferred from it",
                            metadata: ["event": "import", "file": "\(name)"])
                return nil
            case .notFullExport, .unclean:
                return nil
            case .infer(let since):
                // Never compare against ids that were not kept (`ImportSink.fullExport`): every
                // stored sample would look deleted.
                guard kept else { return nil }
                let started = ContinuousClock.now
                let types = try store.storedTypes().filter { TypeName.isStorable($0) && settings.isEnabled($0) }
                let (candidates, stored) = try store.deletionCandidates(types: types, since: since.millis, seen: seen)
                var report = InferredDeletions(limit: DeletionInference.limit(stored: stored, boundPercent: settings.deletionBoundPercent))
                switch DeletionInference.decide(candidates: candidates.count, stored: stored, boundPercent: settings.deletionBoundPercent) {
                case .apply:
                    report.types = try store.recordInferredDeletions(candidates, exportMillis: exportDate.millis, at: clock(), waiting: false)
                    report.marked = candidates.count
                case .hold:
                    try store.recordInferredDeletions(candidates, exportMillis: exportDate.millis, at: clock(), waiting: true)
                    report.waiting = candidates.count
                }
                try store.setState(Self.newestFullExportKey, String(exportDate.millis))
                try store.setState(Self.newestFullExportCountKey, String(held))
                let took = ContinuousClock.now - started
                let ms = took.components.seconds * 1000 + took.components.attoseconds / 1_000_000_000_000_000
                let metadata: Logger.Metadata = ["event": "import", "file": "\(name)", "deletions.marked": "\(report.marked)",
                                                 "deletions.waiting": "\(report.waiting)", "deletions.compared": "\(stored)", "deletions.ms": "\(ms)"]
                if let line = report.line {
                    logger.notice("\(name): \(line)", metadata: metadata)
                } else {
                    logger.debug("\(name): compared with the earlier full export in \(ms) ms; nothing deleted on the phone", metadata: metadata)
                }
                return report.marked + report.waiting > 0 ? report : nil
            }
        } catch {
            logger.warning("could not look for samples deleted on the phone after importing \(name): \(error)",
                           metadata: ["event": "import", "file": "\(name)"])
            return nil
        }
    }
}
