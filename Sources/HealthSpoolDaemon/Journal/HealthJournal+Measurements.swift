import HealthSpoolCore
import HealthSpoolStore

extension HealthJournal {
    /// Stores a manual measurement (R21–R28) as samples of its HealthKit type, queued for sync
    /// like imported ones; out-of-range values are refused before anything is stored. Returns
    /// the samples and how the store took them (a repeat of the same entry is a duplicate).
    /// The types that gained samples go to `onQueued`.
    public func measure(_ m: ManualMeasurement, at: Timestamp, now: Timestamp) throws -> ([Sample], InsertResult) {
        let samples = try m.samples(at: local(at))
        let result = try store.insert(samples, now: now)
        if !result.gained.isEmpty { onQueued(result.gained.keys.sorted()) }
        return (samples, result)
    }
}
