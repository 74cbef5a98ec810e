import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Doses in the browser: "Taken" (once per tap: the form's one-time token), a dose's time
/// changed, a dose deleted; each with Undo. The same use cases as `healthspool med take` and
/// `med dose edit|remove`.
enum DoseEdits {
    /// A dose form's fields: `id` the medication ("Taken") or the dose, `back` where it lands, and a
    /// changed dose's `date` and `time`. All optional: a missing one is refused as before, in words.
    struct Fields: Decodable, Sendable {
        var id: String?
        var back: String?
        var date: String?
        var time: String?
    }

    /// The doses' routes: "Taken", a dose's time changed, a dose deleted.
    static func routes(_ web: WebRoutes) -> RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        routes.post("/meds/take") { r, c in try await web.undoable(r, c, take) }
        routes.post("/doses/edit") { r, c in try await web.undoable(r, c, retime) }
        routes.post("/doses/delete") { r, c in try await web.undoable(r, c, delete) }
        return routes
    }

    /// Logs a dose taken now; Undo removes it.
    static func take(_ ctx: Configuration, _ store: LentStore, _ form: Fields) throws -> (Response, JournalUndo?) {
        let back = Page.back(form.back, among: ["/", "/journal"], else: "/meds")
        do {
            let (d, m) = try store.records().takeDose(form.id ?? "", at: DaemonClock.now())
            return (Page.redirect(back, ok: "Logged: \(m.name) taken at \(d.takenAt.iso8601Local.dropFirst(11).prefix(5))."), .removeDose(d.id))
        } catch { return (Page.redirect(back, error: WebJournal.message(error)), nil) }
    }

    /// Changes when a dose was taken (a time today, or on the dose's own day); Undo puts the old time back.
    static func retime(_ ctx: Configuration, _ store: LentStore, _ form: Fields) throws -> (Response, JournalUndo?) {
        let back = Page.back(form.back, else: "/meds")
        do {
            let journal = try store.records()
            let old = try journal.dose(id: Int64(form.id ?? "") ?? -1)
            guard let at = try journal.time(date: form.date, time: form.time, was: journal.local(old.takenAt)) else {
                return (Page.redirect(back, ok: "Nothing was changed."), nil)
            }
            try journal.editDose(id: old.id, takenAt: at, now: DaemonClock.now())
            let name = (try? journal.medications().first { $0.id == old.medicationID }?.name) ?? "The dose"
            return (Page.redirect(back, ok: "Changed: \(name) taken at \(String(journal.local(at).iso8601Local.dropFirst(11).prefix(5)))."),
                    .retimeDose(id: old.id, takenAt: old.takenAt))
        } catch { return (Page.redirect(back, error: "Not changed: \(WebJournal.message(error))"), nil) }
    }

    /// Deletes a dose; Undo puts it back with its id.
    static func delete(_ ctx: Configuration, _ store: LentStore, _ form: Fields) throws -> (Response, JournalUndo?) {
        let back = Page.back(form.back, else: "/meds")
        do {
            let journal = try store.records()
            let old = try journal.dose(id: Int64(form.id ?? "") ?? -1)
            try journal.removeDose(id: old.id)
            let name = (try? journal.medications().first { $0.id == old.medicationID }?.name) ?? "The dose"
            return (Page.redirect(back, ok: "Deleted: \(name) at \(String(journal.local(old.takenAt).iso8601Local.dropFirst(11).prefix(5)))."),
                    .restoreDose(old))
        } catch { return (Page.redirect(back, error: "Not deleted: \(WebJournal.message(error))"), nil) }
    }
}
