/// Local wall-clock dates and times in a zone: what the user types and sees.
public enum WallClock {
    /// Parses a time the user gave: `HH:MM` (today, local), `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]`
    /// or `YYYY-MM-DDTHH:MM[:SS]` (local in `zone`), or any form with an offset
    /// (`2026-03-29T08:00:00+02:00`, `…Z`). Nil when it is none of these.
    public static func parse(_ text: String, now: Timestamp, zone: ZoneRules) -> Timestamp? {
        let t = text.trimmingSpaces
        if let time = TimeOfDay(parsing: t) {
            return at(localDay(of: now, zone: zone), time.seconds, zone: zone)
        }
        guard let a = TimestampParser.parse(t, defaultOffsetSeconds: 0),
              let b = TimestampParser.parse(t, defaultOffsetSeconds: 3600) else { return nil }
        if a.millis == b.millis {   // an offset was written: that instant, shown in the zone's offset
            return LocalDay.timestamp(a.millis, in: zone)
        }
        // No offset written: a local wall-clock time in the zone.
        let (seconds, ms) = Timestamp.floorDivide(a.millis, 1000)
        let utc = zone.resolve(local: seconds).instant
        return zone.timestamp(atUTCSeconds: utc).adding(millis: ms)
    }

    /// The local date of `t` in `zone`.
    public static func localDay(of t: Timestamp, zone: ZoneRules) -> CivilDate {
        LocalDay.date(of: t.millis, in: zone)
    }

    /// `seconds` after local midnight of `day` in `zone`, as RFC 5545 §3.3.5 reads it.
    public static func at(_ day: CivilDate, _ seconds: Int64, zone: ZoneRules) -> Timestamp {
        zone.timestamp(atUTCSeconds: zone.resolve(local: day.daysSinceEpoch * 86_400 + seconds).instant)
    }

    /// The instants [start, end) of a local day, in milliseconds (23 or 25 hours on DST days).
    public static func bounds(of day: CivilDate, zone: ZoneRules) -> (Int64, Int64) {
        let next = CivilDate(daysSinceEpoch: day.daysSinceEpoch + 1)
        return (at(day, 0, zone: zone).millis, at(next, 0, zone: zone).millis)
    }
}
