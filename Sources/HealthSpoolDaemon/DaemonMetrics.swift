import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolLock
import HealthSpoolStore

/// The daemon's counters for Prometheus: imports and sync attempts by outcome, samples sent and
/// parked, whether the gateway answers, the gateway's request durations and the watchdog's
/// keep-alives. Incremented where the daemon already knows the outcome; they count from the
/// daemon's start (a restart resets them, which Prometheus' `rate()` and `increase()` allow
/// for). The figures that must survive a restart (stored, queued, synced, dead letters, the
/// last successful sync) are read from the store at each scrape (`DaemonMetrics+Exposition`).
///
/// Safe from any thread: the counters live in one `Lock`.
public final class DaemonMetrics: IngestCounters, Sendable {
    struct Counters {
        var imports: [String: Double] = Dictionary(uniqueKeysWithValues: DaemonMetrics.importOutcomes.map { ($0, 0) })
        var syncAttempts: [String: Double] = Dictionary(uniqueKeysWithValues: SyncOutcome.allCases.map { ($0.rawValue, 0) })
        var sent: Double = 0
        var parked: Double = 0
        /// Whether the last sync job got its answer from the gateway; nil before the first one.
        var gatewayUp: Bool?
        var requests = Histogram(bounds: Histogram.requestSeconds)
        var watchdog: SystemdWatchdog?
        /// Connections the ingest endpoint turned away before they showed the token, by reason
        /// (empty: no endpoint).
        var ingestRefused: [String: Double] = [:]
        /// Whether the ingest endpoint listens; nil: no endpoint.
        var ingestUp: Bool?
    }

    /// The import outcomes counted: `ImportOutcome`'s, and `waiting` for a file kept in the spool
    /// after a temporary failure (disk full, file busy), tried again later.
    static let importOutcomes = ImportOutcome.allCases.map(\.rawValue) + ["waiting"]

    let counters = Lock(Counters())
    let storePath: String
    let started: Timestamp
    /// The store connection scrapes read with, opened at the first one (`+Exposition`).
    let reader = Lock<SampleStore?>(nil)

    /// The time a scrape is taken at (whether a source is quiet depends on it).
    let now: @Sendable () -> Timestamp

    /// Counters for the daemon whose store is at `storePath`, started at `started`; `now` is
    /// the clock scrapes read.
    public init(storePath: String, started: Timestamp, now: @escaping @Sendable () -> Timestamp = { RealTimeClock.now() }) {
        self.storePath = storePath
        self.started = started
        self.now = now
    }

    /// An import finished (the summary the daemon logs).
    func imported(_ summary: ImportSummary) {
        let outcome = summary.temporary == nil ? summary.outcome.rawValue : "waiting"
        counters.withLock { $0.imports[outcome, default: 0] += 1 }
    }

    /// A sync job (one type) finished: samples sent and parked, and whether the gateway answered.
    /// A job that sent nothing and failed nothing (nothing queued) says nothing about the gateway.
    func jobFinished(_ r: SyncJobResult) {
        counters.withLock {
            $0.sent += Double(r.sent)
            $0.parked += Double(r.parked)
            if r.error != nil {
                $0.gatewayUp = false
            } else if r.requests > 0 {
                $0.gatewayUp = true
            }
        }
    }

    /// A sync attempt (the jobs sent together, one history row) finished with `outcome`.
    func attemptFinished(_ outcome: String) {
        counters.withLock { $0.syncAttempts[outcome, default: 0] += 1 }
    }

    /// A request to the gateway took `seconds` (answered or failed). Called from sender threads.
    func requestFinished(seconds: Double) {
        counters.withLock { $0.requests.observe(seconds) }
    }

    /// The ingest endpoint turned `count` connections away for `reason` (0: the label is shown
    /// from the start). Called from the endpoint's threads.
    public func ingestRefused(_ reason: String, count: Int = 1) {
        counters.withLock { $0.ingestRefused[reason, default: 0] += Double(count) }
    }

    /// The ingest endpoint listens (or stopped listening, or cannot).
    public func ingestServing(_ up: Bool) {
        counters.withLock { $0.ingestUp = up }
    }

    /// The watchdog whose keep-alives are counted (when systemd asked for one).
    func watch(_ watchdog: SystemdWatchdog) {
        counters.withLock { $0.watchdog = watchdog }
    }
}
