import HealthSpoolCore
import HealthSpoolStore

extension JournalStore {
    static let medicationColumns = "id, name, other_names, dose, prescriber, directions, times"

    func readMedication(_ s: Statement) -> Medication {
        Medication(id: s.int(0), name: s.string(1) ?? "",
                   otherNames: (s.string(2) ?? "").split(separator: ",").map(String.init),
                   dose: s.string(3) ?? "", prescriber: s.string(4) ?? "", directions: s.string(5) ?? "",
                   times: Self.times(s.string(6)))
    }

    /// Adds a medication; returns it with its id. Nil when the name is taken.
    public func addMedication(_ m: Medication, now: Timestamp) throws(StoreError) -> Medication? {
        try write { () throws(StoreError) -> Medication? in
            let n = try run("""
                INSERT OR IGNORE INTO medications(name, other_names, dose, prescriber, directions, times, created_ms)
                VALUES (?,?,?,?,?,?,?)
                """) { s in
                s.bind(1, m.name); s.bind(2, m.otherNames.joined(separator: ",")); s.bind(3, m.dose)
                s.bind(4, m.prescriber); s.bind(5, m.directions); s.bind(6, Self.text(m.times)); s.bind(7, now.millis)
            }
            guard n == 1 else { return nil }
            var added = m
            added.id = lastRowID
            return added
        }
    }

    /// Every medication, by name.
    public func medications() throws(StoreError) -> [Medication] {
        try conn.rows("SELECT \(Self.medicationColumns) FROM medications ORDER BY name COLLATE NOCASE") { s in readMedication(s) }
    }

    /// The medication with this id, or whose name or other name is `key` (any case).
    public func medication(_ key: String) throws(StoreError) -> Medication? {
        let all = try medications()
        if let id = Int64(key), let m = all.first(where: { $0.id == id }) { return m }
        return all.first { $0.isNamed(key) }
    }

    /// Removes a medication and its logged doses; reminders for it stay, unlinked. False when
    /// there was none.
    public func removeMedication(id: Int64) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            try run("DELETE FROM doses WHERE medication_id = ?") { $0.bind(1, id) }
            try run("UPDATE reminders SET medication_id = NULL WHERE medication_id = ?") { $0.bind(1, id) }
            return try run("DELETE FROM medications WHERE id = ?") { $0.bind(1, id) } == 1
        }
    }

    /// Logs a dose; returns it with its id.
    public func addDose(_ d: Dose) throws(StoreError) -> Dose {
        try write { () throws(StoreError) -> Dose in
            try run("INSERT INTO doses(medication_id, taken_ms, taken_off, reminder_id) VALUES (?,?,?,?)") { s in
                s.bind(1, d.medicationID); s.bind(2, d.takenAt.millis); s.bind(3, Int64(d.takenAt.utcOffsetSeconds))
                s.bind(4, d.reminderID)
            }
            var added = d
            added.id = lastRowID
            return added
        }
    }

    /// Doses taken in [from, to) (milliseconds), oldest first; all when both are nil.
    public func doses(fromMillis: Int64 = .min, toMillis: Int64 = .max) throws(StoreError) -> [Dose] {
        try conn.rows("SELECT id, medication_id, taken_ms, taken_off, reminder_id FROM doses WHERE taken_ms >= ? AND taken_ms < ? ORDER BY taken_ms, id") { s in
            s.bind(1, fromMillis); s.bind(2, toMillis)
        } _: { s in
            Dose(id: s.int(0), medicationID: s.int(1), takenAt: Timestamp(millis: s.int(2), utcOffsetSeconds: Int32(s.int(3))),
                 reminderID: s.isNull(4) ? nil : s.int(4))
        }
    }

    /// Changes a dose's time stamp; false when there is no such dose.
    public func editDose(id: Int64, takenAt: Timestamp, now: Timestamp) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            try run("UPDATE doses SET taken_ms = ?, taken_off = ?, edited_ms = ? WHERE id = ?") { s in
                s.bind(1, takenAt.millis); s.bind(2, Int64(takenAt.utcOffsetSeconds)); s.bind(3, now.millis); s.bind(4, id)
            } == 1
        }
    }

    /// Removes a logged dose; false when there is none.
    public func removeDose(id: Int64) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in try run("DELETE FROM doses WHERE id = ?") { $0.bind(1, id) } == 1 }
    }
}
