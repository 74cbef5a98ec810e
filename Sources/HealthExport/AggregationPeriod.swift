import HealthSpoolCore

/// The period a Health Auto Export point summarizes. HAE writes only the period's start
/// (`date`), so the period is inferred from how the starts are aligned in local time.
enum AggregationPeriod: String, Sendable, Comparable {
    case minute, hour, day

    /// Length in milliseconds (a day is taken as 24 hours).
    var millis: Int64 {
        switch self {
        case .minute: 60_000
        case .hour: 3_600_000
        case .day: 86_400_000
        }
    }

    static func < (a: AggregationPeriod, b: AggregationPeriod) -> Bool { a.millis < b.millis }

    /// The coarsest period `t` starts on in its own offset (`day` for local midnight), or nil
    /// when it carries seconds (a reading, not a period start).
    static func alignment(of t: Timestamp) -> AggregationPeriod? {
        let local = t.millis + Int64(t.utcOffsetSeconds) * 1000
        var r = local % 86_400_000
        if r < 0 { r += 86_400_000 }
        if r == 0 { return .day }
        if r % 3_600_000 == 0 { return .hour }
        if r % 60_000 == 0 { return .minute }
        return nil
    }

    /// The period shared by a set of period starts: the finest of their alignments. Nil when
    /// the set is empty or any time carries seconds.
    static func common<S: Sequence>(_ times: S) -> AggregationPeriod? where S.Element == Timestamp {
        var result: AggregationPeriod?
        for t in times {
            guard let a = alignment(of: t) else { return nil }
            result = result.map { min($0, a) } ?? a
        }
        return result
    }
}
