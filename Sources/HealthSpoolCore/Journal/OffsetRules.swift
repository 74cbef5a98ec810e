/// A time zone as the journal needs it: the UTC offset in effect at an instant. Passed in, so
/// the day rules are tested with any zone (DST days of 23 and 25 hours) and no system clock.
public protocol OffsetRules: Sendable {
    /// The offset from UTC, in seconds, in effect at `millis` (UTC).
    func offset(atUTC millis: Int64) -> Int32
}

/// A zone with one offset all year.
public struct FixedOffset: OffsetRules {
    public let seconds: Int32
    public init(seconds: Int32) { self.seconds = seconds }
    public func offset(atUTC millis: Int64) -> Int32 { seconds }
}

/// A zone given by its transitions: `initial` before the first, then each transition's offset
/// from its instant on (transitions sorted by instant).
public struct ZoneTransitions: OffsetRules {
    public let initial: Int32
    public let transitions: [(atUTC: Int64, offset: Int32)]

    public init(initial: Int32, transitions: [(atUTC: Int64, offset: Int32)]) {
        self.initial = initial
        self.transitions = transitions.sorted { $0.atUTC < $1.atUTC }
    }

    public func offset(atUTC millis: Int64) -> Int32 {
        transitions.last { $0.atUTC <= millis }?.offset ?? initial
    }
}
