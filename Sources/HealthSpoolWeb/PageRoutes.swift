import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// The main pages and their forms: today, the journal, medications, reminders, records,
/// deletions, measurements (a dose's forms are `DoseEdits`').
struct PageRoutes {
    let web: WebRoutes

    var collection: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        let web = self.web
        routes.get("/") { r, c in try await web.page(r, c) { ctx, store, q, csrf in try HomePage.render(ctx, store: store, query: q, csrf: csrf) } }
        routes.get("/journal") { r, c in try await web.page(r, c) { _, store, q, csrf in try JournalToday.render(store: store, query: q, csrf: csrf) } }
        routes.get("/meds") { r, c in try await web.page(r, c) { _, store, q, csrf in try MedicationsPage.render(store: store, query: q, csrf: csrf) } }
        routes.get("/reminders") { r, c in try await web.page(r, c) { _, store, q, csrf in try ReminderForms.page(store: store, query: q, csrf: csrf) } }
        routes.get("/records") { r, c in try await web.page(r, c) { _, store, q, csrf in try RecordsPage.render(store: store, query: q, csrf: csrf) } }
        routes.get("/deletions") { r, c in try await web.page(r, c) { _, store, q, csrf in try DeletionsPage.render(store: store, query: q, csrf: csrf) } }
        routes.get("/measure") { r, c in try await web.page(r, c) { ctx, store, q, csrf in try MeasurePage.render(ctx, store: store, query: q, csrf: csrf) } }

        routes.post("/deletions/restore") { r, c in try await web.action(r, c, borrowing: DeletionsPage.restore) }
        routes.post("/meds/add") { r, c in try await web.undoable(r, c, JournalPages.addMedication) }
        routes.post("/reminders/add") { r, c in try await web.undoable(r, c, ReminderForms.add) }
        routes.post("/reminders/remove") { r, c in try await web.undoable(r, c, JournalPages.removeReminder) }
        routes.post("/measure") { r, c in try await web.undoable(r, c, MeasurePage.add) }
        return routes
    }
}
