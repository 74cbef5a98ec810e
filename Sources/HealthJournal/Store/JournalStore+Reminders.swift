import HealthSpoolCore
import HealthSpoolStore

extension JournalStore {
    /// Adds a reminder; returns it with its id.
    public func addReminder(_ r: Reminder) throws(StoreError) -> Reminder {
        try write { () throws(StoreError) -> Reminder in
            try run("""
                INSERT INTO reminders(name, kind, times, rrule, start_date, medication_id, created_ms, created_off)
                VALUES (?,?,?,?,?,?,?,?)
                """) { s in
                s.bind(1, r.name); s.bind(2, r.kind.rawValue); s.bind(3, Self.text(r.times)); s.bind(4, r.rule.description)
                s.bind(5, r.start.description); s.bind(6, r.medicationID); s.bind(7, r.created.millis)
                s.bind(8, Int64(r.created.utcOffsetSeconds))
            }
            var added = r
            added.id = lastRowID
            return added
        }
    }

    /// Every reminder, by id, with the instant each last fired. A row that no longer parses
    /// (edited by hand) is left out rather than stopping every other reminder.
    public func reminders() throws(StoreError) -> [(reminder: Reminder, lastFired: Timestamp?)] {
        try conn.rows("""
            SELECT id, name, kind, times, rrule, start_date, medication_id, created_ms, created_off, last_fired_ms
            FROM reminders ORDER BY id
            """) { s -> (reminder: Reminder, lastFired: Timestamp?)? in
            guard let rule = try? RecurrenceRule(parsing: s.string(4) ?? ""), let start = CivilDate(parsing: s.string(5) ?? "")
            else { return nil }
            let r = Reminder(id: s.int(0), name: s.string(1) ?? "", kind: ReminderKind(rawValue: s.string(2) ?? "") ?? .other,
                             times: Self.times(s.string(3)), rule: rule, start: start, medicationID: s.isNull(6) ? nil : s.int(6),
                             created: Timestamp(millis: s.int(7), utcOffsetSeconds: Int32(s.int(8))))
            return (r, s.isNull(9) ? nil : Timestamp(millis: s.int(9)))
        }.compactMap { $0 }
    }

    /// Records that reminders fired at `at` (the due-reminder policy's next input).
    public func recordFired(_ ids: [Int64], at: Timestamp) throws(StoreError) {
        try write { () throws(StoreError) in
            for id in ids { try run("UPDATE reminders SET last_fired_ms = ? WHERE id = ?") { $0.bind(1, at.millis); $0.bind(2, id) } }
        }
    }

    /// Removes a reminder; false when there is none.
    public func removeReminder(id: Int64) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in try run("DELETE FROM reminders WHERE id = ?") { $0.bind(1, id) } == 1 }
    }
}
