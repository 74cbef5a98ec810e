/// Where the ingest endpoint counts what Prometheus shows of it (`/metrics`, the textfile): the
/// daemon's `DaemonMetrics`. A protocol so that the endpoint needs this module only, not the daemon.
public protocol IngestCounters: Sendable {
    /// The ingest endpoint turned `count` connections away for `reason` (0: the label is shown
    /// from the start). Called from the endpoint's threads.
    func ingestRefused(_ reason: String, count: Int)
    /// The ingest endpoint listens (or stopped listening, or cannot).
    func ingestServing(_ up: Bool)
}

extension IngestCounters {
    /// One connection turned away for `reason`.
    public func ingestRefused(_ reason: String) { ingestRefused(reason, count: 1) }
}
