import HealthSpoolCore
import HealthSpoolStore

extension SampleStore {
    /// Records what became of `batch` (queued samples of one type in send order, as `queued`
    /// returned them) through the production path, `recordDelivery(type:rowIDs:…)`: all of it
    /// done (delivered, or parked when in `rejected`) except `retry`, which stays queued.
    func recordDelivery(_ batch: [StoredSample], rejected: [(StoredSample, String)] = [], retry: [StoredSample] = [],
                        at now: Timestamp) throws {
        guard let type = batch.last?.sample.type else { return }
        try recordDelivery(type: type, rowIDs: batch.map(\.rowID), rejected: rejected.map { ($0.0.rowID, $0.1) },
                           retry: retry.map(\.rowID), at: now)
    }
}
