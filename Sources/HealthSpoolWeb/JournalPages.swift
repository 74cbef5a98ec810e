import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// The health journal's actions over the same use cases as the CLI (`HealthJournal`): adding a
/// medication, removing a reminder (the medications page: `MedicationsPage`; the reminders page
/// and its forms: `ReminderForms`; measurements: `MeasurePage`).
enum JournalPages {
    /// The medications page's add form.
    struct MedicationFields: Decodable, Sendable {
        var name: String?
        var dose: String?
    }

    /// Adds a medication; Undo removes it.
    static func addMedication(_ ctx: Configuration, _ store: LentStore, _ form: MedicationFields) throws -> (Response, JournalUndo?) {
        do {
            let m = try store.records().addMedication(Medication(name: form.name ?? "", dose: form.dose ?? ""), now: DaemonClock.now())
            return (Page.redirect("/meds", ok: "Added \(m.name)."), .removeMedication(m.id))
        } catch { return (Page.redirect("/meds", error: WebJournal.message(error)), nil) }
    }

    /// Removes a reminder; Undo puts it back with its id and when it last rang.
    static func removeReminder(_ ctx: Configuration, _ store: LentStore, _ form: EntryFields) throws -> (Response, JournalUndo?) {
        do {
            let journal = try store.records()
            let id = Int64(form.id ?? "") ?? -1
            let lastFired = try journal.lastFired(reminder: id)
            let r = try journal.removeReminder(id)
            return (Page.redirect("/reminders", ok: "Removed: \(r.name)."), .restoreReminder(r, lastFired: lastFired))
        } catch { return (Page.redirect("/reminders", error: WebJournal.message(error)), nil) }
    }
}
