/// Local days in a zone: where they start and end (a DST day lasts 23 or 25 hours), and local
/// wall-clock times as instants.
public enum LocalDay {
    static let dayMillis: Int64 = 86_400_000

    /// The first instant of `day` in `zone`: local midnight, or the first instant after it when
    /// a transition skips midnight.
    public static func start(of day: CivilDate, in zone: some OffsetRules) -> Int64 {
        let local = day.daysSinceEpoch * dayMillis
        // The offset at local midnight is the offset at (midnight − offset): two guesses cover
        // both sides of a transition; the earliest instant whose local time is midnight or later wins.
        let first = local - Int64(zone.offset(atUTCMillis: local)) * 1000
        let second = local - Int64(zone.offset(atUTCMillis: first)) * 1000
        let candidates = [first, second].filter { $0 + Int64(zone.offset(atUTCMillis: $0)) * 1000 >= local }
        return candidates.min() ?? max(first, second)
    }

    /// The instants of `day` in `zone`, from its start to the next day's start.
    public static func bounds(of day: CivilDate, in zone: some OffsetRules) -> Range<Int64> {
        start(of: day, in: zone)..<start(of: CivilDate(daysSinceEpoch: day.daysSinceEpoch + 1), in: zone)
    }

    /// The local date of an instant in `zone`.
    public static func date(of millis: Int64, in zone: some OffsetRules) -> CivilDate {
        Timestamp(millis: millis, utcOffsetSeconds: zone.offset(atUTCMillis: millis)).localDate
    }

    /// `now` with the offset `zone` has then.
    public static func timestamp(_ millis: Int64, in zone: some OffsetRules) -> Timestamp {
        Timestamp(millis: millis, utcOffsetSeconds: zone.offset(atUTCMillis: millis))
    }

    /// The instant of a local wall-clock time on `day` in `zone`, with its offset. A time that
    /// occurs twice (the repeated hour when clocks go back) is the first one; a time skipped
    /// when clocks go forward is read with the offset before the change (02:30 → 03:30).
    public static func timestamp(_ day: CivilDate, hour: Int, minute: Int, second: Int = 0,
                                 in zone: some OffsetRules) -> Timestamp {
        let local = day.daysSinceEpoch * dayMillis + Int64(hour * 3600 + minute * 60 + second) * 1000
        // The offsets in effect around that time; each is tried, the earliest instant that
        // reads as this wall-clock time wins.
        let before = zone.offset(atUTCMillis: local - dayMillis)
        let offsets = Set([before, zone.offset(atUTCMillis: local), zone.offset(atUTCMillis: local + dayMillis)])
        let valid = offsets.map { local - Int64($0) * 1000 }.filter { local == $0 + Int64(zone.offset(atUTCMillis: $0)) * 1000 }
        let t = valid.min() ?? local - Int64(before) * 1000
        return Timestamp(millis: t, utcOffsetSeconds: zone.offset(atUTCMillis: t))
    }

    /// The first local midnight in `zone` after `now`: when the day that holds `now` ends and
    /// its scores can be computed (the journal scheduler's next wake-up).
    public static func nextMidnight(after now: Int64, in zone: some OffsetRules) -> Int64 {
        bounds(of: date(of: now, in: zone), in: zone).upperBound
    }

    /// The most recent day that has ended in `zone` at `now` (yesterday, locally).
    public static func lastCompleteDay(at now: Int64, in zone: some OffsetRules) -> CivilDate {
        CivilDate(daysSinceEpoch: date(of: now, in: zone).daysSinceEpoch - 1)
    }
}
