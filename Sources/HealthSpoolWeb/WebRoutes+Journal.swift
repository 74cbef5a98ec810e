import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

extension WebRoutes {
    /// The health journal's screens: logging a symptom, goals checked off, notes with audio.
    func addJournalPages(_ router: Router<WebContext>) {
        router.get("/symptoms/log") { r, c in try await page(r, c) { _, store, q, csrf in try SymptomPages.logPage(store: store, query: q, csrf: csrf) } }
        router.post("/symptoms/log") { r, c in try await undoable(r, c, SymptomPages.log) }
        router.post("/goals/done") { r, c in try await undoable(r, c, JournalToday.goalDone) }
        router.get("/notes") { r, c in try await page(r, c) { _, store, q, csrf in try NotePages.render(store: store, query: q, csrf: csrf) } }
        router.post("/notes/add") { r, c in try await undoable(r, c, NotePages.add) }
        router.post("/notes/audio") { request, context in
            let query = Form(request.uri.query ?? "")
            let type = request.headers[.contentType] ?? ""
            let body = try await request.body.collect(upTo: NotePages.maxAudioBytes)
            let bytes = Array(buffer: body)
            let current = configuration
            let session = context.session?.id ?? ""
            let (undos, notices) = (self.undos, self.notices)
            return try await store.run(.write) { lease in
                let ctx = current.value
                return try NotePages.addWithAudio(ctx, store: try lease.uses(ctx), query: query, contentType: type, audio: bytes, offer: { undo in
                    session.isEmpty ? nil : undos.offer(undo, session: session, back: "/notes", now: DaemonClock.now().millis)
                }, address: { notices.address($0, session: session, now: DaemonClock.now().millis) })
            }
        }
        router.get("/notes/:id/audio") { _, c in
            let id = c.parameters.get("id") ?? ""
            let current = configuration
            return try await store.run(.read) { lease in try NotePages.audio(store: try lease.uses(current.value), id: id) }
        }
    }
}
