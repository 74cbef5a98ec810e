import HealthSpoolCore

/// A reminder as the lists show it: its rule in words and when it next rings.
public struct ReminderRow: Sendable {
    public var reminder: Reminder
    /// "Every other day at 08:00" (`RecurrenceWords`).
    public var words: String
    /// The next ring, nil when it never rings again.
    public var next: Timestamp?
    /// "tomorrow 08:00", "never".
    public var nextWords: String
    /// The medication a "Taken" logs, by name.
    public var medication: String?
}

extension HealthJournal {
    /// Every reminder with its rule in words and its next ring after `now`: what the web's list
    /// and `healthspool remind list` say.
    public func reminderRows(now: Timestamp) throws -> [ReminderRow] {
        let meds = Dictionary(uniqueKeysWithValues: try journal.medications().map { ($0.id, $0.name) })
        return try reminders().map { r in
            let next = ReminderSchedule.occurrences(of: r, after: now, count: 1, zone: zone).first
            return ReminderRow(reminder: r, words: RecurrenceWords.rule(r.rule, times: r.times, start: ReminderSchedule.seriesStart(of: r)),
                               next: next.map(local), nextWords: RecurrenceWords.next(next, now: now, zone: zone),
                               medication: r.medicationID.flatMap { meds[$0] })
        }
    }

    /// Changes a reminder (same id): its name, times, rule, first day and medication, checked
    /// as `addReminder` checks them. A monthly rule without a day takes the start date's. When
    /// it last fired is kept, so an edit rings nothing that already rang.
    @discardableResult
    public func editReminder(_ id: Int64, name: String, times: [TimeOfDay], rule: RecurrenceRule, start: CivilDate?,
                             medication: String?, now: Timestamp) throws -> Reminder {
        var r = try reminder(id)
        let title = name.trimmingSpaces
        guard !title.isEmpty else { throw JournalError.invalid(field: "name", value: name, expected: "a name (\"Take ibuprofen\")") }
        guard !times.isEmpty else { throw JournalError.invalid(field: "times", value: "", expected: "at least one time of day") }
        let med = try medication.map { try self.medication($0) }
        var rule = rule
        let first = start ?? r.start
        if rule.frequency == .monthly, rule.monthDay == nil { rule.monthDay = first.day }
        if med != nil { r.kind = .medication } else if r.kind == .medication { r.kind = .other }
        r.name = title
        r.times = times
        r.rule = rule
        r.start = first
        r.medicationID = med?.id
        guard try journal.updateReminder(r) else { throw JournalError.notFound(kind: "reminder", key: String(id)) }
        return r
    }

    /// Changes a medication (same id: its doses and reminders stay linked to it). The name and
    /// other names are checked as `addMedication` checks them, and may not be another
    /// medication's.
    @discardableResult
    public func editMedication(_ id: Int64, _ changed: Medication) throws -> Medication {
        guard var m = try journal.medications().first(where: { $0.id == id }) else {
            throw JournalError.notFound(kind: "medication", key: String(id))
        }
        m.name = try Medication.validName(changed.name)
        m.otherNames = try changed.otherNames.filter { !$0.trimmingSpaces.isEmpty }.map(Medication.validName)
        m.dose = changed.dose.trimmingSpaces
        m.prescriber = changed.prescriber.trimmingSpaces
        m.directions = changed.directions.trimmingSpaces
        m.times = changed.times
        for other in try journal.medications() where other.id != id {
            for n in [m.name] + m.otherNames where other.isNamed(n) { throw JournalError.duplicate(kind: "medication", key: n) }
        }
        guard try journal.updateMedication(m) else { throw JournalError.notFound(kind: "medication", key: String(id)) }
        return m
    }
}
