import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// What only the command line could do before (issue 28): lifestyle factors, goals, changing
/// reminders and medications, a steps count.
struct JournalFormRoutes {
    let web: WebRoutes

    var collection: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        let web = self.web
        routes.get("/lifestyle") { r, c in try await web.page(r, c) { _, store, q, csrf in try LifestylePage.page(store: store, query: q, csrf: csrf) } }
        routes.post("/lifestyle/log") { r, c in try await web.undoable(r, c, LifestylePage.log) }
        routes.get("/goals") { r, c in try await web.page(r, c) { ctx, store, q, csrf in try GoalForms.page(ctx, store: store, query: q, csrf: csrf) } }
        routes.post("/goals/add") { r, c in try await web.undoable(r, c, GoalForms.add) }
        routes.post("/goals/remove") { r, c in try await web.undoable(r, c, GoalForms.remove) }
        routes.get("/reminders/edit") { r, c in try await web.page(r, c) { _, store, q, csrf in try ReminderForms.editPage(store: store, query: q, csrf: csrf) } }
        routes.post("/reminders/edit") { r, c in try await web.undoable(r, c, ReminderForms.edit) }
        routes.get("/meds/edit") { r, c in try await web.page(r, c) { _, store, q, csrf in try MedicationForms.editPage(store: store, query: q, csrf: csrf) } }
        routes.post("/meds/edit") { r, c in try await web.undoable(r, c, MedicationForms.edit) }
        routes.post("/meds/remove") { r, c in try await web.undoable(r, c, MedicationForms.remove) }
        return routes
    }
}
