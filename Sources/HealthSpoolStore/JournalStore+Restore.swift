import HealthSpoolCore

/// Putting back what was removed (the web's Undo): each row comes back under the id it had
/// (`AUTOINCREMENT` never hands a removed id to another row, so it is still free).
extension JournalStore {
    /// Puts a removed dose back with its id; false when a dose has that id already.
    public func restoreDose(_ d: Dose) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            try run("INSERT OR IGNORE INTO doses(id, medication_id, taken_ms, taken_off, reminder_id) VALUES (?,?,?,?,?)") { s in
                s.bind(1, d.id); s.bind(2, d.medicationID); s.bind(3, d.takenAt.millis); s.bind(4, Int64(d.takenAt.utcOffsetSeconds))
                s.bind(5, d.reminderID)
            } == 1
        }
    }

    /// The dose with this id.
    public func dose(id: Int64) throws(StoreError) -> Dose? {
        try conn.rows("SELECT id, medication_id, taken_ms, taken_off, reminder_id FROM doses WHERE id = ?") { $0.bind(1, id) } _: { s in
            Dose(id: s.int(0), medicationID: s.int(1), takenAt: Timestamp(millis: s.int(2), utcOffsetSeconds: Int32(s.int(3))),
                 reminderID: s.isNull(4) ? nil : s.int(4))
        }.first
    }

    /// Puts a removed reminder back with its id and the instant it last fired (so occurrences
    /// it already rang for do not ring again); false when a reminder has that id already.
    public func restoreReminder(_ r: Reminder, lastFired: Timestamp?) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            try run("""
                INSERT OR IGNORE INTO reminders(id, name, kind, times, rrule, start_date, medication_id, created_ms, created_off, last_fired_ms)
                VALUES (?,?,?,?,?,?,?,?,?,?)
                """) { s in
                s.bind(1, r.id); s.bind(2, r.name); s.bind(3, r.kind.rawValue); s.bind(4, Self.text(r.times)); s.bind(5, r.rule.description)
                s.bind(6, r.start.description); s.bind(7, r.medicationID); s.bind(8, r.created.millis)
                s.bind(9, Int64(r.created.utcOffsetSeconds)); s.bind(10, lastFired?.millis)
            } == 1
        }
    }

    /// Changes a note's text and category; false when there is no such note.
    public func editNote(id: Int64, text: String, category: String) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            try run("UPDATE notes SET text = ?, category = ? WHERE id = ?") { $0.bind(1, text); $0.bind(2, category); $0.bind(3, id) } == 1
        }
    }

    /// Puts a removed note back with its id (its audio file name too); false when a note has that id already.
    public func restoreNote(_ n: Note) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            try run("INSERT OR IGNORE INTO notes(id, category, text, created_ms, created_off, audio) VALUES (?,?,?,?,?,?)") { s in
                s.bind(1, n.id); s.bind(2, n.category); s.bind(3, n.text); s.bind(4, n.created.millis)
                s.bind(5, Int64(n.created.utcOffsetSeconds)); s.bind(6, n.audioFile)
            } == 1
        }
    }
}
