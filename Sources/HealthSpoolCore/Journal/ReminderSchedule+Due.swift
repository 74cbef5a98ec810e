/// A reminder to fire now.
public struct DueReminder: Hashable, Sendable {
    public var reminder: Reminder
    /// The occurrence fired: the latest one that came due.
    public var occurrence: Timestamp
    /// Occurrences that came due before it since the reminder last fired and are folded into
    /// this one (the machine was asleep or off): fired once, not one notification each.
    public var missed: Int
}

/// What the reminder scheduler does now and when it looks again.
public struct ReminderCheck: Hashable, Sendable {
    /// The reminders to fire, one entry per reminder at most, in the order they came due.
    public var due: [DueReminder]
    /// The next instant any reminder comes due (the scheduler sleeps until then, or until the
    /// reminders, the clock or the zone change); nil when none ever will.
    public var nextCheck: Timestamp?
}

extension ReminderSchedule {
    /// The due-reminder policy: the one call a daemon scheduler needs.
    ///
    /// For each reminder, the occurrences after it last fired (`lastFired[id]`, or its creation
    /// when it never fired) up to `now` in `zone`. Any → it fires once, for the latest
    /// occurrence, counting the rest as missed; a suspend of a week gives one notification per
    /// reminder, not a storm. The caller records `now` as the reminder's last firing. Pure: time
    /// and zone are inputs, so a changed zone, a DST change or a jump of the clock is just a
    /// different input.
    public static func dueReminders(_ reminders: [Reminder], lastFired: [Int64: Timestamp], now: Timestamp,
                                    zone: ZoneRules) -> ReminderCheck {
        var due: [DueReminder] = []
        var next: Timestamp?
        for r in reminders {
            let from = max(lastFired[r.id] ?? r.created, r.created)
            if from < now {
                let came = occurrences(of: r, after: from, through: now, zone: zone)
                if let last = came.last { due.append(DueReminder(reminder: r, occurrence: last, missed: came.count - 1)) }
            }
            if let n = occurrences(of: r, after: max(now, from), count: 1, zone: zone).first, next.map({ n < $0 }) ?? true {
                next = n
            }
        }
        due.sort { ($0.occurrence, $0.reminder.id) < ($1.occurrence, $1.reminder.id) }
        return ReminderCheck(due: due, nextCheck: next)
    }
}
