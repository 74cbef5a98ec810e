/// When reminders come due: the recurrence engine, pure (the zone and the instants are inputs).
///
/// A reminder's occurrences are, for each of its times of day, the dates `rule` gives from
/// `start` at that local time in `zone`. Local times are resolved as RFC 5545 says: a time the
/// clocks skip (spring forward) gives no occurrence that day (§3.3.10: such instances "MUST be
/// ignored"), a time that happens twice (fall back) is the first of the two (§3.3.5).
public enum ReminderSchedule {
    /// Days looked at, at most, for one answer (400 years: every rule repeats within that).
    static let dayLimit: Int64 = 146_097

    /// The first `count` occurrences strictly after `after`, each with the zone's offset at
    /// that instant.
    public static func occurrences(of reminder: Reminder, after: Timestamp, count: Int, zone: ZoneRules) -> [Timestamp] {
        var out: [Timestamp] = []
        walk(reminder, after: after, zone: zone) { t in
            out.append(t)
            return out.count < count
        }
        return out
    }

    /// The occurrences in (`after`, `through`], oldest first, at most `limit`.
    public static func occurrences(of reminder: Reminder, after: Timestamp, through: Timestamp, zone: ZoneRules,
                                   limit: Int = 10_000) -> [Timestamp] {
        var out: [Timestamp] = []
        walk(reminder, after: after, zone: zone) { t in
            guard t <= through else { return false }
            out.append(t)
            return out.count < limit
        }
        return out
    }

    /// Calls `body` with each occurrence after `after` in order until it returns false.
    static func walk(_ r: Reminder, after: Timestamp, zone: ZoneRules, _ body: (Timestamp) -> Bool) {
        guard !r.times.isEmpty, let start = r.rule.firstDate(onOrAfter: r.start) else { return }
        let afterSeconds = Timestamp.floorDivide(after.millis, 1000).0
        // The local date of `after` in the zone, less a day for offsets on either side.
        let localAfter = afterSeconds + Int64(zone.offset(atUTCSeconds: afterSeconds))
        var day = max(start.daysSinceEpoch, Timestamp.floorDivide(localAfter, 86_400).0 - 1)
        let end = day + dayLimit
        while day < end {
            let date = CivilDate(daysSinceEpoch: day)
            if r.rule.matches(date, start: start) {
                for time in r.times {
                    let local = day * 86_400 + time.seconds
                    let utc: Int64
                    switch zone.resolve(local: local) {
                    case .nonexistent: continue
                    case .unique(let u), .ambiguous(let u, _): utc = u
                    }
                    guard utc * 1000 > after.millis else { continue }
                    if !body(zone.timestamp(atUTCSeconds: utc)) { return }
                }
            }
            day += 1
        }
    }

    /// The first occurrence of each time of day's series, for `DTSTART` in an export: the
    /// series' first date at that time (resolved as above; a skipped time gives the shifted
    /// instant RFC 5545 §3.3.5 reads it as).
    public static func seriesStart(of r: Reminder) -> CivilDate {
        r.rule.firstDate(onOrAfter: r.start) ?? r.start
    }
}
