/// What a reminder is for (R15): shown in listings and notifications.
public enum ReminderKind: String, CaseIterable, Hashable, Sendable {
    case medication, lifestyle, appointment, device, other
}

/// A reminder: a name, one or more local times of day and a repeat rule.
///
/// The times are wall-clock times in whatever zone the machine is in when they come due
/// (the zone is an input of every computation, never stored), so a reminder set for 08:00 rings
/// at 08:00 after a DST change or a flight.
public struct Reminder: Hashable, Sendable {
    /// Stable id (the store's row id).
    public var id: Int64
    public var name: String
    public var kind: ReminderKind
    /// Sorted, without repeats, at least one.
    public var times: [TimeOfDay]
    public var rule: RecurrenceRule
    /// The series' first date (`DTSTART`'s date): an occurrence of `rule`.
    public var start: CivilDate
    /// The medication a dose is logged for when the reminder's "taken" action is used.
    public var medicationID: Int64?
    /// When it was made: a new reminder fires nothing that came due before it existed.
    public var created: Timestamp

    public init(id: Int64, name: String, kind: ReminderKind, times: [TimeOfDay], rule: RecurrenceRule, start: CivilDate,
                medicationID: Int64? = nil, created: Timestamp) {
        self.id = id
        self.name = name
        self.kind = kind
        self.times = times
        self.rule = rule
        self.start = start
        self.medicationID = medicationID
        self.created = created
    }

    /// The instant its due times are counted after, for `after`: a reminder starting the day it
    /// was made is due only from when it was made, so one made at 18:07 does not make that
    /// morning's 08:00 due, taken or late (issue 40). A start set earlier than that day (a
    /// medication taken since Monday) counts from the start, as asked.
    public func dueAfter(_ after: Timestamp) -> Timestamp {
        guard after.millis < created.millis, let made = CivilDate(parsing: String(created.iso8601Local.prefix(10))), start >= made else { return after }
        return created
    }
}
