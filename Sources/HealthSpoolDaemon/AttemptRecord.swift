import HealthSpoolCore
import HealthSpoolStore

/// The jobs of one sync attempt (the types that were sent together), folded into one history
/// row: an outage of 24 types is one row with one error, not 24.
struct AttemptRecord {
    private(set) var results: [SyncJobResult] = []

    var isEmpty: Bool { results.isEmpty }

    /// Adds a job's result; jobs that neither sent a request nor failed are not history.
    mutating func add(_ r: SyncJobResult) {
        if r.requests > 0 || r.error != nil { results.append(r) }
    }

    /// The row, or nil when no job of the attempt is worth one.
    var row: SyncAttempt? {
        guard let first = results.min(by: { $0.started.millis < $1.started.millis }) else { return nil }
        let end = results.map { $0.started.millis + $0.durationMillis }.max() ?? first.started.millis
        let sent = results.reduce(0) { $0 + $1.sent }
        var notes: [String] = []
        for note in results.compactMap(\.historyNote) where !notes.contains(note) { notes.append(note) }
        return SyncAttempt(started: first.started, durationMillis: end - first.started.millis, trigger: first.trigger.rawValue,
                           types: Array(Set(results.map(\.type))).sorted(), outcome: results.outcome.rawValue, count: sent,
                           httpStatus: results.compactMap(\.httpStatus).last, error: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }
}

extension SyncJobResult {
    /// The job as the retry policy sees it.
    var report: JobReport {
        var failure: JobReport.Failure?
        if let e = error {
            if case .unauthorized = e {
                failure = .unauthorized(message: e.description)
            } else if stopped {
                failure = .configuration(message: e.description)
            } else {
                failure = .transient(message: e.description, retryAfterMillis: retryAfterMillis)
            }
        }
        return JobReport(type: type, accepted: sent, answered: httpStatus != nil,
                         throttled: failure != nil && (httpStatus == 429 || httpStatus == 503), failure: failure)
    }
}
