import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

extension WebRoutes {
    /// What only the command line could do before (issue 28): lifestyle factors, goals, changing
    /// reminders and medications, a steps count.
    func addFormPages(_ router: Router<WebContext>) {
        typealias Post = @Sendable (Configuration, LentStore, Form, FormKeys) throws -> (Response, JournalUndo?)
        router.get("/lifestyle") { r, c in try await page(r, c) { _, store, q, csrf in try LifestylePage.page(store: store, query: q, csrf: csrf) } }
        router.post("/lifestyle/log") { r, c in try await undoable(r, c, LifestylePage.log as Post) }
        router.get("/goals") { r, c in try await page(r, c) { ctx, store, q, csrf in try GoalForms.page(ctx, store: store, query: q, csrf: csrf) } }
        router.post("/goals/add") { r, c in try await undoable(r, c, GoalForms.add as Post) }
        router.post("/goals/remove") { r, c in try await undoable(r, c, GoalForms.remove) }
        router.get("/reminders/edit") { r, c in try await page(r, c) { _, store, q, csrf in try ReminderForms.editPage(store: store, query: q, csrf: csrf) } }
        router.post("/reminders/edit") { r, c in try await undoable(r, c, ReminderForms.edit as Post) }
        router.get("/meds/edit") { r, c in try await page(r, c) { _, store, q, csrf in try MedicationForms.editPage(store: store, query: q, csrf: csrf) } }
        router.post("/meds/edit") { r, c in try await undoable(r, c, MedicationForms.edit as Post) }
        router.post("/meds/remove") { r, c in try await undoable(r, c, MedicationForms.remove) }
    }
}
