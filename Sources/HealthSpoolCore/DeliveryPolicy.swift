/// How a finished sync job went, as the retry policy sees it.
public struct JobReport: Sendable, Equatable {
    /// Why the job did not deliver everything.
    public enum Failure: Sendable, Equatable {
        /// Weather: unreachable, reset, timeout, 5xx, 429. Retried with backoff.
        case transient(message: String, retryAfterMillis: Int64?)
        /// The gateway refused the credentials (401/403). Retried on the slow auth schedule.
        case unauthorized(message: String)
        /// The configuration cannot work (wrong pin, untrusted certificate, unknown topic):
        /// nothing is retried until it changes.
        case configuration(message: String)
    }

    public var type: String
    /// Samples the gateway accepted in this job (progress).
    public var accepted: Int
    /// Whether the gateway answered at least one request.
    public var answered: Bool
    /// The gateway asked the daemon to slow down (HTTP 429 or 503): the answer concerns the
    /// whole daemon, not the type that happened to hear it.
    public var throttled: Bool
    public var failure: Failure?

    public init(type: String, accepted: Int, answered: Bool, throttled: Bool = false, failure: Failure? = nil) {
        self.type = type
        self.accepted = accepted
        self.answered = answered
        self.throttled = throttled
        self.failure = failure
    }
}

/// An outage seen by the whole daemon: the gateway unreachable, asking to slow down (429, 503),
/// or refusing the credentials. It is reported once when it starts and once when it ends,
/// whatever the number of types.
public struct Incident: Sendable, Equatable {
    public enum Kind: String, Sendable { case unreachable, throttled, unauthorized }
    public var kind: Kind
    /// The latest error, for status.
    public var message: String
    public var since: Int64
    /// Retry rounds so far (1 after the first failure).
    public var attempts: Int
    /// When every waiting type is tried again (one attempt for all of them).
    public var retryAt: Int64
}

/// What the daemon should do after a job.
public struct DeliveryDecision: Sendable, Equatable {
    /// What to tell the user (log, journal).
    public enum Event: Sendable, Equatable {
        /// Nothing worth a log line above debug.
        case none
        /// An outage began (log it once).
        case incidentStarted(Incident)
        /// The outage is over: the gateway accepted a request again after `afterMillis`.
        case incidentEnded(Incident, afterMillis: Int64)
        /// A configuration problem: stop this gateway until the configuration changes.
        case stopped(String)
    }

    /// When to try this type again; nil when no timed retry is due (success, or stopped).
    public var retryAt: Int64?
    public var event: Event
}

/// The retry policy: per-type backoff that a delivered batch resets, one incident for an outage
/// that every type sees, and a slow schedule for refused credentials. A pure state machine: job
/// reports in, decisions out; time (Unix millis) and the random number for jitter are passed in.
public struct DeliveryPolicy: Sendable, Equatable {
    /// Backoff for transient failures (1, 2, 4 … s, capped).
    public var schedule: RetrySchedule
    /// Delays after refused credentials; the last one repeats (default 1, 5, 15 minutes, then
    /// every 15).
    public var authDelaysMillis: [Int64]
    /// A failure within this long after the gateway last accepted a batch is a hiccup of one
    /// connection, not an outage.
    public var graceMillis: Int64
    /// Consecutive failures without progress, per type.
    public private(set) var failures: [String: Int] = [:]
    public private(set) var incident: Incident?
    /// When the gateway last accepted a batch.
    public private(set) var lastAcceptedAt: Int64?

    /// The default auth schedule: 1, 5, 15 minutes, then every 15.
    public static let defaultAuthDelaysMillis: [Int64] = [60_000, 300_000, 900_000]

    public init(schedule: RetrySchedule = RetrySchedule(), authDelaysMillis: [Int64] = Self.defaultAuthDelaysMillis,
                graceMillis: Int64 = 5_000) {
        self.schedule = schedule
        self.authDelaysMillis = authDelaysMillis.isEmpty ? Self.defaultAuthDelaysMillis : authDelaysMillis
        self.graceMillis = graceMillis
    }

    /// The delay before auth retry round `attempt` (1 = first).
    public func authDelayMillis(attempt: Int) -> Int64 {
        authDelaysMillis[min(max(attempt, 1), authDelaysMillis.count) - 1]
    }

    /// A job finished at `now`.
    public mutating func finished(_ r: JobReport, now: Int64, unitRandom: Double) -> DeliveryDecision {
        if r.accepted > 0 {
            failures[r.type] = nil
            lastAcceptedAt = now
        }
        guard let failure = r.failure else {
            failures[r.type] = nil
            if r.answered, let open = incident {
                incident = nil
                return DeliveryDecision(retryAt: nil, event: .incidentEnded(open, afterMillis: now - open.since))
            }
            return DeliveryDecision(retryAt: nil, event: .none)
        }
        switch failure {
        case let .configuration(message):
            failures[r.type] = nil
            return DeliveryDecision(retryAt: nil, event: .stopped(message))
        case let .unauthorized(message):
            return joinIncident(.unauthorized, message: message, retryAfterMillis: nil, now: now, unitRandom: unitRandom)
        case let .transient(message, retryAfter) where r.throttled:
            // 429 or 503: the gateway is overloaded, and every type of this daemon would hear the
            // same. The whole daemon waits (Retry-After when given, else the backoff), whatever
            // this job delivered before and however recently another type got through.
            failures[r.type] = nil
            return joinIncident(.throttled, message: message, retryAfterMillis: retryAfter, now: now, unitRandom: unitRandom)
        case let .transient(message, retryAfter):
            var ended: Incident?
            if r.accepted > 0 {
                // The job delivered batches before it failed: the gateway works and one
                // connection broke. Its backoff starts over: retry at once (or when the gateway
                // asked to be left alone).
                if let open = incident, open.kind == .unreachable { ended = open; incident = nil }
                let at = now + max(0, retryAfter ?? 0)
                if let ended { return DeliveryDecision(retryAt: at, event: .incidentEnded(ended, afterMillis: now - ended.since)) }
                return DeliveryDecision(retryAt: at, event: .none)
            }
            if incident == nil, let last = lastAcceptedAt, now - last < graceMillis {
                // Nothing from this job, but the gateway accepted others' batches a moment ago.
                let n = (failures[r.type] ?? 0) + 1
                failures[r.type] = n
                return DeliveryDecision(retryAt: now + schedule.delayMillis(attempt: n, unitRandom: unitRandom, retryAfterMillis: retryAfter),
                                        event: .none)
            }
            return joinIncident(.unreachable, message: message, retryAfterMillis: retryAfter, now: now, unitRandom: unitRandom)
        }
    }

    /// A failure that belongs to an outage: it opens one, joins the current retry round (jobs of
    /// one attempt that fail together share it), or opens the next round.
    private mutating func joinIncident(_ kind: Incident.Kind, message: String, retryAfterMillis: Int64?, now: Int64,
                                       unitRandom: Double) -> DeliveryDecision {
        func delay(_ attempt: Int) -> Int64 {
            kind == .unauthorized ? authDelayMillis(attempt: attempt)
                : schedule.delayMillis(attempt: attempt, unitRandom: unitRandom, retryAfterMillis: retryAfterMillis)
        }
        guard var open = incident, open.kind == kind else {
            let started = Incident(kind: kind, message: message, since: now, attempts: 1, retryAt: now + delay(1))
            incident = started
            return DeliveryDecision(retryAt: started.retryAt, event: .incidentStarted(started))
        }
        open.message = message
        if now >= open.retryAt {
            open.attempts += 1
            open.retryAt = now + delay(open.attempts)
        } else if let after = retryAfterMillis {
            open.retryAt = max(open.retryAt, now + after)
        }
        incident = open
        return DeliveryDecision(retryAt: open.retryAt, event: .none)
    }

    /// The configuration changed: forget failures and outages, everything is tried at once.
    public mutating func reset() {
        failures.removeAll()
        incident = nil
    }
}
