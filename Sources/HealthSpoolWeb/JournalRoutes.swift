import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// The health journal's screens: logging a symptom, goals checked off, notes with audio.
struct JournalRoutes {
    let web: WebRoutes

    var collection: RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        let web = self.web
        routes.get("/symptoms/log") { r, c in try await web.page(r, c) { _, store, q, csrf in try SymptomPages.logPage(store: store, query: q, csrf: csrf) } }
        routes.post("/symptoms/log") { r, c in try await web.undoable(r, c, SymptomPages.log) }
        routes.post("/goals/done") { r, c in try await web.undoable(r, c, JournalToday.goalDone) }
        routes.get("/notes") { r, c in try await web.page(r, c) { _, store, q, csrf in try NotePages.render(store: store, query: q, csrf: csrf) } }
        routes.post("/notes/add") { r, c in try await web.undoable(r, c, NotePages.add) }
        routes.post("/notes/audio") { request, context in
            let query = Form(request.uri.query ?? "")
            let type = request.headers[.contentType] ?? ""
            let body = try await request.body.collect(upTo: NotePages.maxAudioBytes)
            let bytes = Array(buffer: body)
            let current = web.configuration
            let session = context.session?.id ?? ""
            let memory = web.memory
            return try await web.store.run(.write) { lease in
                let ctx = current.value
                return try NotePages.addWithAudio(ctx, store: try lease.uses(ctx), query: query, contentType: type, audio: bytes, offer: { undo in
                    session.isEmpty ? nil : memory.offer(undo, session: session, back: "/notes", now: DaemonClock.now().millis)
                }, address: { memory.address($0, session: session, now: DaemonClock.now().millis) })
            }
        }
        routes.get("/notes/:id/audio") { _, c in
            let id = c.parameters.get("id") ?? ""
            let current = web.configuration
            return try await web.store.run(.read) { lease in try NotePages.audio(store: try lease.uses(current.value), id: id) }
        }
        return routes
    }
}
