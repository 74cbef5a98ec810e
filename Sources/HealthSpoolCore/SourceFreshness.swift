/// How recently one source (a watch, a phone, an app) delivered one type, and whether it went
/// quiet (issue 43). Kept by the store as imports happen, one row per source and type, never
/// by scanning the samples.
///
/// An arrival is an import (or a push) that brought new samples of the type from the source.
/// The usual gap is learned from the source's own arrivals (a moving average of the time
/// between them); the source is quiet once it has delivered nothing for longer than that gap,
/// and never sooner than `floorMillis` (2 days). A source seen once has no usual gap yet and is
/// never called quiet: a first export's old devices are history, not silence.
public struct SourceFreshness: Sendable, Equatable {
    public var source: String
    public var type: String
    /// The start of the newest sample delivered.
    public var newestMillis: Int64
    /// When samples last arrived.
    public var arrivedMillis: Int64
    /// The usual time between arrivals; 0 until two arrivals were seen.
    public var usualGapMillis: Int64
    /// How many arrivals were seen.
    public var arrivals: Int
    /// When the person was told the source went quiet (once per quiet spell); nil otherwise.
    public var notifiedMillis: Int64?

    public init(source: String, type: String, newestMillis: Int64, arrivedMillis: Int64,
                usualGapMillis: Int64 = 0, arrivals: Int = 1, notifiedMillis: Int64? = nil) {
        self.source = source
        self.type = type
        self.newestMillis = newestMillis
        self.arrivedMillis = arrivedMillis
        self.usualGapMillis = usualGapMillis
        self.arrivals = arrivals
        self.notifiedMillis = notifiedMillis
    }

    /// The shortest silence called quiet.
    public static let floorMillis: Int64 = 2 * 86_400_000

    /// Arrivals closer together than this count as one (a file split in parts, a retried push).
    public static let sameArrivalMillis: Int64 = 3_600_000

    /// This source after samples up to `newest` arrived at `now`: the usual gap takes the gap
    /// since the last arrival with a weight of a quarter; a quiet spell ends.
    public func arrived(newest: Int64, at now: Int64) -> SourceFreshness {
        var next = self
        next.newestMillis = max(newestMillis, newest)
        next.notifiedMillis = nil
        let gap = now - arrivedMillis
        guard gap >= Self.sameArrivalMillis else { return next }
        next.usualGapMillis = usualGapMillis == 0 ? gap : (3 * usualGapMillis + gap) / 4
        next.arrivals += 1
        next.arrivedMillis = now
        return next
    }

    /// How long a silence must last to count as quiet.
    public var quietAfterMillis: Int64 { max(Self.floorMillis, usualGapMillis) }

    /// Whether the source has delivered nothing for longer than its usual gap at `now`.
    public func isQuiet(now: Int64) -> Bool {
        usualGapMillis > 0 && now - arrivedMillis > quietAfterMillis
    }
}
