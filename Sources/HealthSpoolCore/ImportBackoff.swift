/// Spool files that failed for a temporary local reason (a full disk, a permission) and wait in
/// the spool for a retry: 10 s, 20 s, 40 s … up to 10 min by default. A policy without clocks:
/// the daemon passes `now` and carries out what it says.
public struct ImportBackoff: Sendable, Equatable {
    /// One file waiting for its retry.
    public struct Waiting: Sendable, Equatable {
        /// The file's name in the spool.
        public var file: String
        /// What went wrong, in a few words ("disk full").
        public var cause: String
        /// Failures in a row.
        public var failures: Int
        /// When to try again, in Unix milliseconds.
        public var retryAt: Int64
    }

    /// The delays: no jitter (nothing to spread, it is one machine's disk).
    public var schedule: RetrySchedule
    /// Waiting files by name.
    public private(set) var waiting: [String: Waiting] = [:]

    public init(baseMillis: Int64 = 10_000, capMillis: Int64 = 600_000) {
        schedule = RetrySchedule(baseMillis: baseMillis, capMillis: capMillis, jitter: 0)
    }

    /// Records a temporary failure of `file` and returns when to try it again.
    @discardableResult
    public mutating func failed(_ file: String, cause: String, now: Int64) -> Int64 {
        let failures = (waiting[file]?.failures ?? 0) + 1
        let at = now + schedule.delayMillis(attempt: failures, unitRandom: 0.5)
        waiting[file] = Waiting(file: file, cause: cause, failures: failures, retryAt: at)
        return at
    }

    /// Forgets `file`: it was imported, set aside, or left the spool.
    public mutating func forget(_ file: String) { waiting[file] = nil }

    /// Whether `file` must not be tried before its retry time.
    public func isWaiting(_ file: String, now: Int64) -> Bool {
        guard let w = waiting[file] else { return false }
        return w.retryAt > now
    }

    /// Files whose retry time has come, oldest deadline first.
    public func due(now: Int64) -> [String] {
        waiting.values.filter { $0.retryAt <= now }.sorted { ($0.retryAt, $0.file) < ($1.retryAt, $1.file) }.map(\.file)
    }

    /// The earliest retry time still ahead, if any.
    public var nextDeadline: Int64? { waiting.values.map(\.retryAt).min() }

    /// The file retried soonest (what status shows).
    public var soonest: Waiting? { waiting.values.min { ($0.retryAt, $0.file) < ($1.retryAt, $1.file) } }
}
