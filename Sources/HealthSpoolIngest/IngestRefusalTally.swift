/// The connections turned away since the last summary, so the log says it once a minute
/// instead of once a connection (a flood wrote 2,125 lines). A policy without clocks: the
/// server passes `now` (monotonic seconds) and logs what `summary` returns.
public struct IngestRefusalTally: Sendable, Equatable {
    /// Seconds between two summaries.
    public let intervalSeconds: Double
    /// Counted since the last summary.
    public private(set) var pending: [IngestRefusal: Int] = [:]
    /// When the last summary was given (none yet: the first refusal is said at once).
    public private(set) var lastSummary = -Double.infinity

    public init(intervalSeconds: Double = 60) { self.intervalSeconds = intervalSeconds }

    /// Counts one connection turned away.
    public mutating func record(_ reason: IngestRefusal) { pending[reason, default: 0] += 1 }

    /// The counts to log at `now`, by reason in a fixed order: nil while none was counted or
    /// the last summary is younger than the interval.
    public mutating func summary(now: Double) -> [(IngestRefusal, Int)]? {
        guard !pending.isEmpty, now - lastSummary >= intervalSeconds else { return nil }
        lastSummary = now
        return flush()
    }

    /// Whatever is counted, regardless of the interval (at a stop); nil when nothing is.
    public mutating func flush() -> [(IngestRefusal, Int)]? {
        guard !pending.isEmpty else { return nil }
        defer { pending = [:] }
        return IngestRefusal.allCases.compactMap { r in pending[r].map { (r, $0) } }
    }

    /// A summary as one log line's text.
    public static func text(_ counts: [(IngestRefusal, Int)], seconds: Double) -> String {
        let total = counts.reduce(0) { $0 + $1.1 }
        let parts = counts.map { "\($0.1) \($0.0.words)" }.joined(separator: ", ")
        let span = seconds.isFinite ? "in the last \(Int(seconds.rounded())) s" : "since the start"
        return "ingest: \(span), \(total) connection(s) without the token turned away: \(parts) (healthspool_ingest_connections_refused_total)"
    }
}
