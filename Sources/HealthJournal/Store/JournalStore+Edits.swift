import HealthSpoolCore
import HealthSpoolStore

extension JournalStore {
    /// Replaces a reminder's name, kind, times, rule, start and medication (same id). When it
    /// last fired is kept: an edit never rings again for a time that already rang. False when
    /// there is no such reminder.
    public func updateReminder(_ r: Reminder) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            try run("""
                UPDATE reminders SET name = ?, kind = ?, times = ?, rrule = ?, start_date = ?, medication_id = ? WHERE id = ?
                """) { s in
                s.bind(1, r.name); s.bind(2, r.kind.rawValue); s.bind(3, Self.text(r.times)); s.bind(4, r.rule.description)
                s.bind(5, r.start.description); s.bind(6, r.medicationID); s.bind(7, r.id)
            } == 1
        }
    }

    /// Replaces a medication's name, other names, dose, prescriber, directions and times (same
    /// id: its doses and reminders stay linked). False when there is no such medication.
    public func updateMedication(_ m: Medication) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            try run("""
                UPDATE medications SET name = ?, other_names = ?, dose = ?, prescriber = ?, directions = ?, times = ? WHERE id = ?
                """) { s in
                s.bind(1, m.name); s.bind(2, m.otherNames.joined(separator: ",")); s.bind(3, m.dose)
                s.bind(4, m.prescriber); s.bind(5, m.directions); s.bind(6, Self.text(m.times)); s.bind(7, m.id)
            } == 1
        }
    }
}
