/// Exponential backoff: 1, 2, 4, 8, 16 s … capped, with jitter (full jitter by default).
public struct RetrySchedule: Sendable, Equatable {
    /// How a delay is spread.
    public enum Jitter: Sendable, Equatable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
        /// Anywhere in [0, the step]: clients that failed together (a fleet after one outage)
        /// come back spread over the whole step instead of in the same second.
        case full
        /// The step ± this fraction of it (0.2 = ±20 %; 0 = none).
        case proportional(Double)

        public init(floatLiteral value: Double) { self = .proportional(value) }
        public init(integerLiteral value: Int) { self = .proportional(Double(value)) }
    }

    /// The first delay, in milliseconds.
    public var baseMillis: Int64
    /// No delay exceeds this, in milliseconds, jitter included (only a longer `Retry-After`).
    public var capMillis: Int64
    public var jitter: Jitter

    public init(baseMillis: Int64 = 1000, capMillis: Int64 = 300_000, jitter: Jitter = .full) {
        self.baseMillis = baseMillis
        self.capMillis = capMillis
        self.jitter = jitter
    }

    /// The delay before retry number `attempt` (1 = first retry). `unitRandom` is a number in
    /// [0, 1) supplied by the caller, so tests choose it. Jitter never takes a delay past the
    /// cap.
    ///
    /// A `Retry-After` the server sent is honoured: the delay is never shorter. With full jitter
    /// the return is spread after it, over half of it (or the backoff step when that is longer),
    /// because every client the gateway told the same thing would otherwise come back in the
    /// same second; with proportional jitter it is the delay when it is the longer one.
    public func delayMillis(attempt: Int, unitRandom: Double, retryAfterMillis: Int64? = nil) -> Int64 {
        let exponent = max(0, min(attempt - 1, 30))
        let raw = min(capMillis, baseMillis << Int64(exponent))
        let u = min(max(unitRandom, 0), 1)
        switch jitter {
        case .full:
            let jittered = Int64((Double(raw) * u).rounded(.down))
            guard let after = retryAfterMillis, after > 0 else { return jittered }
            return after + Int64((Double(max(raw, after / 2)) * u).rounded(.down))
        case let .proportional(fraction):
            let factor = 1 + fraction * (2 * u - 1)
            let jittered = min(capMillis, max(0, Int64((Double(raw) * factor).rounded())))
            if let after = retryAfterMillis, after > jittered { return after }
            return jittered
        }
    }
}
