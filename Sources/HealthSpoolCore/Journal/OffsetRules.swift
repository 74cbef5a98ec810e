/// A time zone as the local-day rules (`LocalDay`) need it: the UTC offset in effect at an
/// instant given in milliseconds. `ZoneRules` (the tz database zone) is the one in core; the
/// machine's zone as the C library reports it (`SystemTimeZone`) is the other. Passed in, so the
/// day rules are tested with any zone (DST days of 23 and 25 hours) and no system clock.
///
/// The unit is in the name: `offset(atUTCMillis:)` here, `ZoneRules.offset(atUTCSeconds:)` for
/// the recurrence rules, which count in seconds.
public protocol OffsetRules: Sendable {
    /// The offset from UTC, in seconds (east positive), in effect at `millis` (UTC).
    func offset(atUTCMillis millis: Int64) -> Int32
}
