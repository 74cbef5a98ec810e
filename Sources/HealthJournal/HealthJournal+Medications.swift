import HealthSpoolCore

extension HealthJournal {
    /// Adds a medication (R13). Refuses a name (or other name) already in use.
    public func addMedication(_ m: Medication, now: Timestamp) throws -> Medication {
        var m = m
        m.name = try Medication.validName(m.name)
        m.otherNames = try m.otherNames.map(Medication.validName)
        for existing in try journal.medications() {
            for n in [m.name] + m.otherNames where existing.isNamed(n) {
                throw JournalError.duplicate(kind: "medication", key: n)
            }
        }
        guard let added = try journal.addMedication(m, now: now) else { throw JournalError.duplicate(kind: "medication", key: m.name) }
        return added
    }

    /// Every medication, by name.
    public func medications() throws -> [Medication] { try journal.medications() }

    /// The medication with this id, name or other name.
    public func medication(_ key: String) throws -> Medication {
        guard let m = try journal.medication(key) else { throw JournalError.notFound(kind: "medication", key: key) }
        return m
    }

    /// Removes a medication and its logged doses; its reminders stay, unlinked.
    public func removeMedication(_ key: String) throws -> Medication {
        let m = try medication(key)
        _ = try journal.removeMedication(id: m.id)
        return m
    }

    /// Logs a dose taken now or at `at` (R14).
    public func takeDose(_ key: String, at: Timestamp) throws -> (Dose, Medication) {
        let m = try medication(key)
        return (try journal.addDose(Dose(medicationID: m.id, takenAt: local(at))), m)
    }

    /// Logs the dose a medication reminder's "taken" action stands for: the reminder's
    /// medication, at `at` (when the action was used). What the desktop notification calls.
    public func takeDose(fromReminder id: Int64, at: Timestamp) throws -> (Dose, Medication) {
        guard let r = try journal.reminders().first(where: { $0.reminder.id == id })?.reminder else {
            throw JournalError.notFound(kind: "reminder", key: String(id))
        }
        guard let medID = r.medicationID, let m = try journal.medications().first(where: { $0.id == medID }) else {
            throw JournalError.invalid(field: "reminder", value: "\(id) (\(r.name))",
                                       expected: "a medication reminder (remind add … --med NAME)")
        }
        return (try journal.addDose(Dose(medicationID: m.id, takenAt: local(at), reminderID: id)), m)
    }

    /// Doses taken on a local day (all when `day` is nil), oldest first, with their medication.
    public func doses(on day: CivilDate?) throws -> [(Dose, Medication?)] {
        let meds = Dictionary(uniqueKeysWithValues: try journal.medications().map { ($0.id, $0) })
        let list: [Dose]
        if let day {
            let (from, to) = WallClock.bounds(of: day, zone: zone)
            list = try journal.doses(fromMillis: from, toMillis: to)
        } else {
            list = try journal.doses()
        }
        return list.map { ($0, meds[$0.medicationID]) }
    }

    /// Changes a logged dose's time (R14: "the user can change the time stamp").
    public func editDose(id: Int64, takenAt: Timestamp, now: Timestamp) throws {
        guard try journal.editDose(id: id, takenAt: local(takenAt), now: now) else {
            throw JournalError.notFound(kind: "dose", key: String(id))
        }
    }

    /// Removes a logged dose.
    public func removeDose(id: Int64) throws {
        guard try journal.removeDose(id: id) else { throw JournalError.notFound(kind: "dose", key: String(id)) }
    }
}
