/// A time zone's UTC offsets over time: the transitions of a TZif file, then its POSIX rule.
///
/// Pure data, read from `/usr/share/zoneinfo` by `HealthSpoolLinux` (`ZoneInfo`) and passed in:
/// the recurrence engine never asks the machine for its zone.
public struct ZoneRules: Hashable, Sendable, OffsetRules {
    /// The zone's name as a calendar knows it (`Europe/Berlin`), or `UTC`.
    public var name: String
    /// Transition instants (seconds since the epoch, ascending) and the offset from each on.
    public var transitions: [Int64]
    public var offsets: [Int32]
    /// The offset before the first transition.
    public var initialOffset: Int32
    /// The rule after the last transition (the TZif footer), if any.
    public var rule: PosixZoneRule?

    public init(name: String, transitions: [Int64] = [], offsets: [Int32] = [], initialOffset: Int32 = 0,
                rule: PosixZoneRule? = nil) {
        precondition(transitions.count == offsets.count)
        self.name = name
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// Coordinated Universal Time.
    public static let utc = ZoneRules(name: "UTC")

    /// A zone with one fixed offset (tests, `TZ=UTC+3`-style settings without rules).
    public static func fixed(name: String, offset: Int32) -> ZoneRules {
        ZoneRules(name: name, initialOffset: offset)
    }

    /// The offset from UTC (seconds, east positive) in effect at `utc` seconds since the epoch.
    public func offset(atUTCSeconds utc: Int64) -> Int32 {
        if let last = transitions.last, utc >= last, let rule { return rule.offset(atUTCSeconds: utc) }
        // The last transition at or before `utc` (binary search).
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid] <= utc { lo = mid + 1 } else { hi = mid }
        }
        if lo == 0 { return transitions.isEmpty ? (rule?.offset(atUTCSeconds: utc) ?? initialOffset) : initialOffset }
        return offsets[lo - 1]
    }

    /// The offset from UTC (seconds, east positive) in effect at `millis` since the epoch.
    public func offset(atUTCMillis millis: Int64) -> Int32 {
        offset(atUTCSeconds: Timestamp.floorDivide(millis, 1000).0)
    }

    /// A timestamp for `utc` carrying the zone's offset at that instant.
    public func timestamp(atUTCSeconds utc: Int64) -> Timestamp {
        Timestamp(seconds: utc, utcOffsetSeconds: offset(atUTCSeconds: utc))
    }

    /// What a local wall-clock time (`local` seconds since the epoch in the local frame) is.
    public func resolve(local: Int64) -> LocalTime {
        // Offsets change at most once within a day on either side in every real zone.
        let before = offset(atUTCSeconds: local - 86_400), after = offset(atUTCSeconds: local + 86_400)
        let candidates = Set([before, after]).map { local - Int64($0) }.filter { u in
            Int64(offset(atUTCSeconds: u)) == local - u
        }.sorted()
        switch candidates.count {
        case 0: return .nonexistent(shifted: local - Int64(before))
        case 1: return .unique(candidates[0])
        default: return .ambiguous(first: candidates[0], second: candidates[1])
        }
    }
}

/// A local wall-clock time mapped to UTC (seconds since the epoch).
public enum LocalTime: Hashable, Sendable {
    /// The usual case: one instant.
    case unique(Int64)
    /// Clocks fell back: the time happened twice; RFC 5545 §3.3.5 means the first.
    case ambiguous(first: Int64, second: Int64)
    /// Clocks sprang forward over it. RFC 5545 §3.3.5 reads such a time with the offset before
    /// the gap (`shifted`); §3.3.10 says a recurrence instance there is ignored.
    case nonexistent(shifted: Int64)

    /// The instant RFC 5545 §3.3.5 gives a DATE-TIME with this local time.
    public var instant: Int64 {
        switch self {
        case .unique(let u), .ambiguous(let u, _), .nonexistent(let u): u
        }
    }
}
