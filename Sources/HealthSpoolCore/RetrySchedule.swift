/// Exponential backoff: 1, 2, 4, 8, 16 s … capped, with proportional jitter.
public struct RetrySchedule: Sendable, Equatable {
    /// The first delay, in milliseconds.
    public var baseMillis: Int64
    /// No delay exceeds this, in milliseconds, jitter included (only a longer `Retry-After`).
    public var capMillis: Int64
    /// Fraction of the delay that jitter may add or remove (0.2 = ±20 %).
    public var jitter: Double

    public init(baseMillis: Int64 = 1000, capMillis: Int64 = 300_000, jitter: Double = 0.2) {
        self.baseMillis = baseMillis
        self.capMillis = capMillis
        self.jitter = jitter
    }

    /// The delay before retry number `attempt` (1 = first retry). `unitRandom` is a number in
    /// [0, 1) supplied by the caller, so tests choose it. Jitter never takes a delay past the
    /// cap. A `Retry-After` the server sent wins when it is longer.
    public func delayMillis(attempt: Int, unitRandom: Double, retryAfterMillis: Int64? = nil) -> Int64 {
        let exponent = max(0, min(attempt - 1, 30))
        let raw = min(capMillis, baseMillis << Int64(exponent))
        let factor = 1 + jitter * (2 * unitRandom - 1)
        let jittered = min(capMillis, max(0, Int64((Double(raw) * factor).rounded())))
        if let after = retryAfterMillis, after > jittered { return after }
        return jittered
    }
}
