/// What the journal scheduler does at one wake-up, and when it wakes next: the reminders to
/// fire, the ended days to score, and the next planned instant (a reminder or local midnight).
///
/// Pure: now, the zone, the reminders with their last firings and the last day scored are
/// inputs, so a DST change, a new zone, a suspend or a daemon that was not running are only
/// different inputs.
public struct JournalPlan: Hashable, Sendable {
    /// The reminders due now (each once, with its missed occurrences counted).
    public var reminders: ReminderCheck
    /// The days that ended and are not scored yet, oldest first (usually none or yesterday).
    public var scoreDays: [CivilDate]
    /// The next instant to act at: the next reminder or the next local midnight, whichever is first.
    public var wake: Int64

    /// The most days scored at once after a long absence (older days are scored when viewed).
    public static let catchUpDays = 7

    /// Plans one wake-up at `now` in `zone`. `scoredThrough` is the last day whose scores were
    /// computed (nil on the very first run: yesterday is scored). Days are compared by their
    /// local dates, not by elapsed time: a day already scored is never scored again, even when
    /// a change of zone moves the local date back.
    ///
    /// `scoreDelayMillis` moves scoring (and its send) that long past local midnight: a fleet
    /// whose journals all end the day at 00:00 spreads its scores over a window, each daemon
    /// drawing its delay at random (full jitter).
    public static func plan(now: Int64, zone: ZoneRules, reminders: [Reminder], lastFired: [Int64: Timestamp],
                            scoredThrough: CivilDate?, scoreDelayMillis: Int64 = 0) -> JournalPlan {
        let delay = max(0, scoreDelayMillis)
        let check = ReminderSchedule.dueReminders(reminders, lastFired: lastFired,
                                                  now: LocalDay.timestamp(now, in: zone), zone: zone)
        let ended: Int64 = LocalDay.lastCompleteDay(at: now - delay, in: zone).daysSinceEpoch
        let afterScored: Int64 = (scoredThrough?.daysSinceEpoch ?? ended - 1) + 1
        let first: Int64 = max(afterScored, ended - Int64(catchUpDays) + 1)
        let days = first <= ended ? (first...ended).map { CivilDate(daysSinceEpoch: $0) } : []
        let midnight = LocalDay.nextMidnight(after: now - delay, in: zone) + delay
        return JournalPlan(reminders: check, scoreDays: days, wake: min(check.nextCheck?.millis ?? midnight, midnight))
    }
}
