import HealthSpoolCore
import HealthSpoolStore

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

/// A removed medication with what its removal took along (`removeMedicationKeeping`): its
/// logged doses and the reminders it unlinked, so `restoreMedication` puts all of it back.
public struct RemovedMedication: Sendable, Equatable {
    public var medication: Medication
    public var createdMillis: Int64
    public var doses: [Dose]
    /// The reminders that were linked to it (left, unlinked, by the removal).
    public var reminderIDs: [Int64]
}

/// A removed goal with the days it was checked off (`removeGoalKeeping`), for `restoreGoal`.
public struct RemovedGoal: Sendable, Equatable {
    /// One day the goal was checked off.
    public struct Check: Sendable, Equatable {
        public var day: String
        public var atMillis: Int64
        public var how: GoalCheck
    }

    public var goal: Goal
    public var createdMillis: Int64
    public var checks: [Check]
}

extension JournalStore {
    /// Removes a medication as `removeMedication` does (its doses too; its reminders unlinked)
    /// and returns all of it, for `restoreMedication`; nil when there is none.
    public func removeMedicationKeeping(id: Int64) throws(StoreError) -> RemovedMedication? {
        try write { () throws(StoreError) -> RemovedMedication? in
            let found = try conn.rows("SELECT \(Self.medicationColumns), created_ms FROM medications WHERE id = ?") { $0.bind(1, id) } _: { s in
                (readMedication(s), s.int(7))
            }
            guard let m = found.first else { return nil }
            let doses = try conn.rows("SELECT id, medication_id, taken_ms, taken_off, reminder_id FROM doses WHERE medication_id = ? ORDER BY id") {
                $0.bind(1, id)
            } _: { s in
                Dose(id: s.int(0), medicationID: s.int(1), takenAt: Timestamp(millis: s.int(2), utcOffsetSeconds: Int32(s.int(3))),
                     reminderID: s.isNull(4) ? nil : s.int(4))
            }
            let reminders = try conn.rows("SELECT id FROM reminders WHERE medication_id = ? ORDER BY id") { $0.bind(1, id) } _: { s in s.int(0) }
            try run("DELETE FROM doses WHERE medication_id = ?") { $0.bind(1, id) }
            try run("UPDATE reminders SET medication_id = NULL WHERE medication_id = ?") { $0.bind(1, id) }
            try run("DELETE FROM medications WHERE id = ?") { $0.bind(1, id) }
            return RemovedMedication(medication: m.0, createdMillis: m.1, doses: doses, reminderIDs: reminders)
        }
    }

    /// Puts a removed medication back with its id, its doses (their ids) and its links to the
    /// reminders still there and still unlinked; false when a medication has its id or name.
    public func restoreMedication(_ r: RemovedMedication) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            let m = r.medication
            guard try run("""
                INSERT OR IGNORE INTO medications(id, name, other_names, dose, prescriber, directions, times, created_ms)
                VALUES (?,?,?,?,?,?,?,?)
                """, { s in
                    s.bind(1, m.id); s.bind(2, m.name); s.bind(3, m.otherNames.joined(separator: ",")); s.bind(4, m.dose)
                    s.bind(5, m.prescriber); s.bind(6, m.directions); s.bind(7, Self.text(m.times)); s.bind(8, r.createdMillis)
                }) == 1 else { return false }
            for d in r.doses {
                try run("INSERT OR IGNORE INTO doses(id, medication_id, taken_ms, taken_off, reminder_id) VALUES (?,?,?,?,?)") { s in
                    s.bind(1, d.id); s.bind(2, d.medicationID); s.bind(3, d.takenAt.millis); s.bind(4, Int64(d.takenAt.utcOffsetSeconds))
                    s.bind(5, d.reminderID)
                }
            }
            for id in r.reminderIDs {
                try run("UPDATE reminders SET medication_id = ? WHERE id = ? AND medication_id IS NULL") { $0.bind(1, m.id); $0.bind(2, id) }
            }
            return true
        }
    }

    /// Removes a goal as `removeGoal` does and returns it with its checks, for `restoreGoal`;
    /// nil when there is none.
    public func removeGoalKeeping(id: Int64) throws(StoreError) -> RemovedGoal? {
        try write { () throws(StoreError) -> RemovedGoal? in
            guard let goal = try goals().first(where: { $0.id == id }) else { return nil }
            let created = try conn.rows("SELECT created_ms FROM goals WHERE id = ?") { $0.bind(1, id) } _: { s in s.int(0) }.first ?? 0
            let checks = try conn.rows("SELECT day, at_ms, how FROM goal_checks WHERE goal_id = ? ORDER BY day") { $0.bind(1, id) } _: { s in
                RemovedGoal.Check(day: s.string(0) ?? "", atMillis: s.int(1), how: GoalCheck(rawValue: s.string(2) ?? "") ?? .hand)
            }
            try run("DELETE FROM goal_checks WHERE goal_id = ?") { $0.bind(1, id) }
            try run("DELETE FROM goals WHERE id = ?") { $0.bind(1, id) }
            return RemovedGoal(goal: goal, createdMillis: created, checks: checks)
        }
    }

    /// Puts a removed goal back with its id and the days it was checked off; false when a
    /// goal has its id already.
    public func restoreGoal(_ r: RemovedGoal) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            let g = r.goal
            guard try run("INSERT OR IGNORE INTO goals(id, name, rrule, start_date, type, target, created_ms) VALUES (?,?,?,?,?,?,?)", { s in
                s.bind(1, g.id); s.bind(2, g.name); s.bind(3, g.rule?.description); s.bind(4, g.start.description); s.bind(5, g.type)
                if let t = g.target { s.bind(6, t) }
                s.bind(7, r.createdMillis)
            }) == 1 else { return false }
            for c in r.checks {
                try run("INSERT OR IGNORE INTO goal_checks(goal_id, day, at_ms, how) VALUES (?,?,?,?)") { s in
                    s.bind(1, g.id); s.bind(2, c.day); s.bind(3, c.atMillis); s.bind(4, c.how.rawValue)
                }
            }
            return true
        }
    }

    /// Takes back a check made by hand on `day` (the undo of "Mark done"); false when there was none.
    public func uncheckGoal(id: Int64, day: CivilDate) throws(StoreError) -> Bool {
        try write { () throws(StoreError) -> Bool in
            try run("DELETE FROM goal_checks WHERE goal_id = ? AND day = ? AND how = 'hand'") { $0.bind(1, id); $0.bind(2, day.description) } == 1
        }
    }
}
