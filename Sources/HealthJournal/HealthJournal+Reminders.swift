import HealthSpoolCore

extension HealthJournal {
    /// Adds a reminder (R15), starting on `start` (today when nil). A monthly rule without a
    /// day takes the start date's. A medication reminder names the medication it logs.
    public func addReminder(name: String, kind: ReminderKind?, times: [TimeOfDay], rule: RecurrenceRule,
                            start: CivilDate?, medication: String?, now: Timestamp) throws -> Reminder {
        let title = name.trimmingSpaces
        guard !title.isEmpty else { throw JournalError.invalid(field: "name", value: name, expected: "a name (\"Take ibuprofen\")") }
        guard !times.isEmpty else { throw JournalError.invalid(field: "times", value: "", expected: "at least one time of day") }
        let med = try medication.map { try self.medication($0) }
        var rule = rule
        let first = start ?? WallClock.localDay(of: now, zone: zone)
        if rule.frequency == .monthly, rule.monthDay == nil { rule.monthDay = first.day }
        return try journal.addReminder(Reminder(id: 0, name: title, kind: kind ?? (med == nil ? .other : .medication), times: times,
                                                rule: rule, start: first, medicationID: med?.id, created: local(now)))
    }

    /// Every reminder, by id.
    public func reminders() throws -> [Reminder] { try journal.reminders().map(\.reminder) }

    /// The reminder with this id.
    public func reminder(_ id: Int64) throws -> Reminder {
        guard let r = try reminders().first(where: { $0.id == id }) else { throw JournalError.notFound(kind: "reminder", key: String(id)) }
        return r
    }

    /// Removes a reminder.
    public func removeReminder(_ id: Int64) throws -> Reminder {
        let r = try reminder(id)
        _ = try journal.removeReminder(id: r.id)
        return r
    }

    /// The next `count` occurrences of a reminder after `after`, in the journal's zone.
    public func nextOccurrences(of id: Int64, after: Timestamp, count: Int) throws -> [Timestamp] {
        ReminderSchedule.occurrences(of: try reminder(id), after: after, count: count, zone: zone)
    }

    /// The reminders as an iCalendar file.
    public func calendar(now: Timestamp) throws -> String {
        CalendarExport(zone: zone, stamp: now).calendar(try reminders())
    }

    /// The stored reminders and when each last fired: the journal scheduler's planning input
    /// (`JournalPlan` decides what is due; `recordFired` marks what fired).
    public func reminderFirings() throws -> (reminders: [Reminder], lastFired: [Int64: Timestamp]) {
        let stored = try journal.reminders()
        var last: [Int64: Timestamp] = [:]
        for (r, fired) in stored { if let fired { last[r.id] = fired } }
        return (stored.map(\.reminder), last)
    }

    /// Marks reminders fired at `at` (they fire again only for occurrences after it).
    public func recordFired(_ ids: [Int64], at: Timestamp) throws {
        guard !ids.isEmpty else { return }
        try journal.recordFired(ids, at: at)
    }

    /// How a due reminder is shown: its name, the time due in this zone, and for a medication
    /// reminder the medication and its dose.
    public func notice(for due: DueReminder) throws -> ReminderNotice {
        let time = String(local(due.occurrence).iso8601Local.dropFirst(11).prefix(5))  // HH:MM
        let med = try due.reminder.medicationID.flatMap { id in try journal.medications().first { $0.id == id } }
        let missed = due.missed > 0 ? " (\(due.missed) missed before it)" : ""
        return ReminderNotice(name: due.reminder.name + missed, time: time,
                              medication: med.map { .init(name: $0.name, dose: $0.dose.isEmpty ? nil : $0.dose) },
                              reminderID: due.reminder.id)
    }
}
