import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Correcting the journal in the browser: change and delete lifestyle entries, notes and
/// measurements, and Undo after every save and delete (a symptom's and a dose's are
/// `SymptomEdits`' and `DoseEdits`' own).
struct EditRoutes {
    let web: WebRoutes

    var collection: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        let web = self.web
        routes.post("/undo") { r, c in try await web.undo(r, c) }

        routes.get("/lifestyle/:id/edit") { r, c in
            let id = c.parameters.get("id") ?? ""
            return try await web.page(r, c) { _, store, q, keys in try LifestyleEdits.page(store: store, id: id, query: q, keys: keys) }
        }
        routes.post("/lifestyle/edit") { r, c in try await web.undoable(r, c, LifestyleEdits.save) }
        routes.post("/lifestyle/delete") { r, c in try await web.undoable(r, c, LifestyleEdits.delete) }

        routes.get("/notes/:id/edit") { r, c in
            let id = c.parameters.get("id") ?? ""
            return try await web.page(r, c) { _, store, q, keys in try NoteEdits.page(store: store, id: id, query: q, keys: keys) }
        }
        routes.post("/notes/edit") { r, c in try await web.undoable(r, c, NoteEdits.save) }
        routes.post("/notes/delete") { r, c in try await web.undoable(r, c, NoteEdits.delete) }

        routes.get("/measure/:key/edit") { r, c in
            let key = c.parameters.get("key") ?? ""
            return try await web.page(r, c) { ctx, store, q, keys in try MeasureEdits.page(ctx, store: store, key: key, query: q, keys: keys) }
        }
        routes.post("/measure/edit") { r, c in try await web.undoable(r, c, MeasureEdits.save) }
        routes.post("/measure/delete") { r, c in try await web.undoable(r, c, MeasureEdits.delete) }
        return routes
    }
}
